"""`kit serve` driven over HTTP with OpenEnv's own client (EnvClient over its WebSocket):
`openenv validate` passes; reset gives the task and its files; three sessions at once
each keep their own workspace; file actions out of the workspace are refused with the
reason; a tool call (terraform validate in the deploy sandbox); submits grade through the
kit's pipeline: the variant's fix scores 1.0, the starting files less, and an adversarial
solution written through the environment (it searches the host for the golden) fails
with its evidence. One server, three runs in parallel (the sampled mode, fault `none`)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

# find_spec, not importorskip: importing OpenEnv's client pulls in gradio (3-4 CPU-s), which
# every xdist worker would pay at collection; the tests import it when they run
if importlib.util.find_spec("openenv") is None:
    pytest.skip("the rl extra: pip install 'kit[rl]'", allow_module_level=True)

from kit import scenario  # noqa: E402
from kit.sandbox.ports import free_port  # noqa: E402
from kit.tasks import catalog  # noqa: E402
from kit.tasks.modes import seed_for  # noqa: E402
from kit.variants import load, materialize  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
REPAIR = "order-pipeline.repair.2b32c12d56"  # rds-public: its fix is the golden's rds.tf


@pytest.fixture(scope="module")
def server():
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "kit.cli", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 400
    # Readiness: /health answers. Importing OpenEnv (it imports gradio) takes 5-10 s alone,
    # over a minute at a load of 60.
    while True:
        try:
            if requests.get(f"{url}/health", timeout=2).ok:
                break
        except requests.ConnectionError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"kit serve did not answer /health on {url}: {proc.stdout.read()}")
        time.sleep(0.2)  # a poll interval of the readiness check, not a wait for it
    yield url
    proc.terminate()
    proc.wait(timeout=30)


def _client(url: str):
    """A synchronous OpenEnv client of the served environment."""
    from kit.rl.client import KitEnv
    return KitEnv(base_url=url, message_timeout_s=900).sync()


def test_openenv_validate_passes(server):
    done = subprocess.run([str(Path(sys.executable).with_name("openenv")), "validate", server],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "Verdict: PASS" in done.stdout, done.stdout + done.stderr


def _adversarial_files(tmp: Path) -> dict[str, str]:
    sc = scenario.load("order-pipeline")
    attack = load(sc, ROOT / "tests/adversarial/order-pipeline/read-golden")
    return catalog.read_tree(materialize(sc, attack, tmp / "attack"))


def test_sessions_files_tools_and_submits_over_http(server, tmp_path):
    from kit.rl.models import KitAction
    sc = scenario.load("order-pipeline")
    seed = seed_for(list(sc.faults), "none")  # the variant's fault: its run is the cheapest
    fix = (sc.golden / "rds.tf").read_text()
    with _client(server) as a, _client(server) as b, _client(server) as c:
        first = [env.reset(task_id=REPAIR, seed=seed) for env in (a, b, c)]
        assert all(r.observation.task_id == REPAIR and "rds.tf" in r.observation.files
                   and "ci_report" in r.observation.output for r in first)
        assert first[0].observation.files["rds.tf"] != fix  # the defect is there
        # Each session its own workspace: a's file is not b's.
        assert a.step(KitAction(tool="write", path="rds.tf", content=fix)).observation.ok
        a.step(KitAction(tool="write", path="notes/a.txt", content="a's"))
        listing = b.step(KitAction(tool="list")).observation.output
        assert "notes/a.txt" not in listing and "rds.tf" in listing
        assert b.step(KitAction(tool="read", path="rds.tf")).observation.output != fix
        # Out of the workspace: refused, with the reason, nothing read or written.
        for action in (KitAction(tool="read", path="../../../../etc/passwd"),
                       KitAction(tool="write", path="/tmp/kit-rl-escape", content="x"),
                       KitAction(tool="read", path=str(sc.golden / "rds.tf"))):
            obs = c.step(action).observation
            assert obs.refused and not obs.ok and "refused" in obs.output
            assert "root:" not in obs.output
        assert not Path("/tmp/kit-rl-escape").exists()
        for rel, content in _adversarial_files(tmp_path).items():
            assert c.step(KitAction(tool="write", path=rel, content=content)).observation.ok
        checked = a.step(KitAction(tool="validate")).observation.output
        assert "the configuration is valid" in checked, checked
        with ThreadPoolExecutor(3) as pool:
            graded = list(pool.map(lambda env: env.step(KitAction(tool="submit")), (a, b, c)))
    fixed, start, attack = graded
    assert (fixed.reward, fixed.done) == (1.0, True), fixed.observation.output
    assert start.reward is not None and start.reward < 1.0, start.observation.output
    assert _verdict(start, "rds.hardening") == "fail"
    assert attack.reward is not None and attack.reward <= 0.5, attack.observation.output
    assert _verdict(attack, "idempotency.effects_once") == "fail"
    assert attack.observation.grade["outcome"] == "fail"


def _verdict(result, invariant: str) -> str:
    (run,) = result.observation.grade["evidence"]
    return json.loads(json.dumps(run["invariants"]))[invariant]["verdict"]


RUN_GRADED = [t for t in catalog.all_tasks() if t.kind in ("repair", "harden")]


@pytest.mark.slow
@pytest.mark.parametrize("name", scenario.known())
def test_every_fix_scores_1_in_full_mode(name, tmp_path):
    """The fix of every repair and harden task of a scenario is its golden (the variant's
    change undone): it scores 1.0 under every fault. `make validate` only."""
    from kit.tasks.grade import grade

    task = next(t for t in RUN_GRADED if t.scenario == name)
    result = grade(task, scenario.load(name).golden, 1, "full", tmp_path)
    assert result.reward == 1.0, result.to_dict()


@pytest.mark.slow
@pytest.mark.parametrize("task", RUN_GRADED, ids=lambda t: t.id)
def test_every_tasks_starting_files_score_less(task, tmp_path):
    """Each repair and harden task's starting files score below 1.0 when the seed draws
    the fault that exposes them. `make validate` only."""
    from kit.tasks import bundle
    from kit.tasks.grade import grade

    variant = catalog.variant_of(task)
    sc = scenario.load(task.scenario)
    bundle.write_files(task.files, tmp_path / "start")
    result = grade(task, tmp_path / "start", seed_for(list(sc.faults), variant.fault),
                   "sampled", tmp_path / "runs")
    assert result.reward is not None and result.reward < 1.0, result.to_dict()
