"""Job parsing and result rendering."""

import json


class NotAJob(ValueError):
    pass


def parse(body: str) -> dict:
    """Return the job in a message body.

    The ingest service sends the job itself; the jobs rule delivers the
    event's detail (the job). Tolerate a full EventBridge envelope or a
    JSON-encoded string too, in case the rule's target is set up that way.
    """
    try:
        job = json.loads(body)
        for _ in range(2):
            if isinstance(job, str):
                job = json.loads(job)
            if isinstance(job, dict) and "job_id" not in job and "detail" in job:
                job = job["detail"]
    except (TypeError, ValueError) as exc:
        raise NotAJob(f"body is not JSON: {exc}") from None
    if not isinstance(job, dict):
        raise NotAJob("body is not a JSON object")
    if not isinstance(job.get("job_id"), str) or not job["job_id"]:
        raise NotAJob("job_id missing or not a string")
    if "scene" not in job or "frames" not in job:
        raise NotAJob("scene or frames missing")
    return job


def result_key(job: dict) -> str:
    return f"{job['job_id']}.json"


def render(job: dict) -> bytes:
    """The stored result: the job's fields exactly as sent, plus a status.

    Deterministic, so storing it twice can never produce differing results.
    """
    result = {
        "job_id": job["job_id"],
        "scene": job["scene"],
        "frames": job["frames"],
        "status": "rendered",
    }
    return json.dumps(result, sort_keys=True, separators=(",", ":")).encode("utf-8")
