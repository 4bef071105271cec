"""Every statement a scenario's prompt makes about the workers' environment is true: a
probe in the golden worker reports what it finds, and each claim is checked against it.

Checked for every queue scenario: each variable of the prompt's environment table is set,
and nothing else is but the few the prompt names (PATH, HOME, ...); AWS_REGION and
AWS_DEFAULT_REGION are both the region, as AWS compute services set them, and boto3 with
no configuration but the environment reaches the AWS API as the worker role; DATABASE_URL
is a PostgreSQL database where the prompt names one, its user no superuser, allowed to
create tables in `public` and capped at the connections the prompt says; WORK_SECONDS is
the scenario's; the worker runs as `python -m worker` in its solution directory with
Python 3.11, boto3 and psycopg 3; the harness starts the promised number of workers; no
two workers share their TMPDIR or their working directory (the prompt says they share
nothing but the AWS API and the database).

Checked on the run of the quick tier's golden row under no fault (test_scenarios.py): the
golden is run with the probe (`probed`), which only reads and prints, and `check` reads its
report. One run proves both: the golden passes, and the prompt tells the truth.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from kit import aws, scenario
from kit.history import History
from kit.sandbox.postgres import WORKLOAD_CONNECTION_LIMIT

PROBE = '''import json as _json, os as _os, sys as _sys
import boto3 as _boto3, psycopg as _psycopg
_facts = {
    "env": sorted(_os.environ), "values": dict(_os.environ), "cwd": _os.getcwd(),
    "argv0": _sys.argv[0], "python": list(_sys.version_info[:2]),
    # which file systems its TMPDIR and working directory are (a worker shares neither)
    "places": [list(_os.stat(_p)[1:3]) for _p in (_os.environ["TMPDIR"], ".")],
    "psycopg": _psycopg.__version__,
    "caller": _boto3.client("sts").get_caller_identity()["Arn"],
    "database": list(_psycopg.connect(_os.environ["DATABASE_URL"]).execute(
        "select version(), rolsuper, rolconnlimit, has_schema_privilege('public', 'CREATE') "
        "from pg_roles where rolname = current_user").fetchone())
    if "DATABASE_URL" in _os.environ else None,
}
print("PROBE " + _json.dumps(_facts), file=_sys.stderr, flush=True)
'''


def probed(sc: scenario.Scenario) -> bool:
    """Whether the scenario's prompt promises its workers an environment (a queue
    scenario's, whose harness starts workers)."""
    return (sc.directory / "workload.py").exists() and "workers" in sc.model_fields_set


def with_probe(sc: scenario.Scenario, solution: Path) -> Path:
    """The golden copied to `solution`, its worker reporting what it finds at start."""
    shutil.copytree(sc.golden, solution, ignore=shutil.ignore_patterns("__pycache__"))
    (solution / "worker" / "probe.py").write_text(PROBE)
    main = solution / "worker" / "__main__.py"
    main.write_text(main.read_text().replace(
        "from __future__ import annotations\n",
        "from __future__ import annotations\n\nimport worker.probe  # noqa: F401\n", 1))
    return solution


def _promised(prompt: str) -> tuple[set[str], set[str]]:
    """The variables named in the first column of the prompt's environment table, and the
    ones its "nothing else besides ..." sentence allows too."""
    rows = [line for line in prompt.splitlines() if line.startswith("| `")]
    table = {name for row in rows for name in re.findall(r"`([A-Z_]+)`", row.split("|")[1])}
    besides = re.search(r"nothing else besides (.*?):", prompt.replace("\n", " "))
    assert besides, "the prompt must say which other variables a worker has"
    return table, set(re.findall(r"`([A-Z_]+)`", besides.group(1)))


def _facts(log: Path) -> dict:
    """What the probe found in one worker (its first report)."""
    line = next(line for line in log.read_text().splitlines() if line.startswith("PROBE "))
    return json.loads(line[6:])


def check(sc: scenario.Scenario, run_dir: Path) -> None:
    """Each claim of the prompt about the workers, against what the probe found."""
    facts = _facts(run_dir / "worker-0.log")
    prompt = (sc.directory / "prompt.md").read_text()
    assert "share nothing but" in prompt.replace("\n", " ")
    places = [tuple(map(tuple, _facts(log)["places"])) for log in
              sorted(run_dir.glob("worker-*.log"))]
    assert len(places) == sc.workers.replicas
    for kind in (0, 1):  # TMPDIR, then the working directory: (inode, device) each
        assert len({found[kind] for found in places}) == len(places), places

    promised, besides = _promised(prompt)
    assert promised <= set(facts["env"]), promised - set(facts["env"])
    assert set(facts["env"]) - promised <= besides, set(facts["env"]) - promised
    values = facts["values"]
    assert values["AWS_REGION"] == values["AWS_DEFAULT_REGION"] == aws.REGION
    role = scenario_role_name(sc)
    assert f":assumed-role/{role}/" in facts["caller"]
    if "DATABASE_URL" in promised:
        version, superuser, limit, creates = facts["database"]
        assert "PostgreSQL" in version and not superuser and creates
        assert limit == WORKLOAD_CONNECTION_LIMIT
        assert f"at most {limit} connections" in prompt
    if "WORK_SECONDS" in promised:
        assert float(values["WORK_SECONDS"]) == sc.workload_params.work_seconds
    assert facts["python"] == [3, 11] and facts["psycopg"].startswith("3.")
    assert Path(facts["cwd"]).name != "" and (Path(facts["argv0"]).parent.name == "worker")
    history = History.load(run_dir / "history.json")
    slots = {op.value.worker.split("#")[0] for op in history.of_kind("worker_start")}
    assert len(slots) == sc.workers.replicas


def scenario_role_name(sc: scenario.Scenario) -> str:
    """The worker role's name as the golden's Terraform gives it (from its iam.tf)."""
    iam = (sc.golden / "iam.tf").read_text()
    block = iam[iam.index('resource "aws_iam_role" "worker"'):]
    return re.search(r'name\s*=\s*"([^"]+)"', block).group(1)
