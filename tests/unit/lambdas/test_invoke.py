"""One invocation through the runtime entry (kit/lambdas/bootstrap.py): the handler gets
the event and a context ("Using the Lambda context object to retrieve Python function
information"), its prints are its log and never its answer, an exception is a failed
invocation, and the invocation is killed at the function's timeout (a failed one)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from kit.lambdas.config import FunctionConfig
from kit.lambdas.invoke import Environment, lambda_env
from kit.sandbox.confined import Confined


class Unconfined:
    """Confinement.spawn's interface, without the sandbox (the unit under test is the
    runtime entry and the kit's side of it; the sandbox is tested on its own)."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace

    def spawn(self, argv: Sequence[str], *, env: Mapping[str, str], stdout: IO[Any],
              stderr: IO[Any], stdin: IO[Any]) -> Confined:
        popen = subprocess.Popen([sys.executable if a.endswith("python3.11") else a
                                  for a in argv], env=dict(env), cwd=self.workspace,
                                 stdin=stdin, stdout=stdout, stderr=stderr)
        return Confined(popen, None, None)


FUNCTION = FunctionConfig(name="consumer", arn="arn:aws:lambda:us-east-1:1:function:consumer",
                          handler="handler.handle", runtime="python3.11", timeout=3,
                          role="arn:aws:iam::1:role/r", env={"MODE": "test"})
META = {"code": "app", "request_id": "req-1", "function_name": "consumer",
        "function_arn": FUNCTION.arn, "memory": 128, "timeout_ms": 3000,
        "log_group": "/aws/lambda/consumer"}


def _environment(tmp_path: Path, source: str) -> Environment:
    (tmp_path / "app").mkdir(exist_ok=True)
    (tmp_path / "app" / "handler.py").write_text(source)
    env = lambda_env(FUNCTION, {"PATH": "/usr/bin:/bin"}, {"AWS_ACCESS_KEY_ID": "k"})
    return Environment(Unconfined(tmp_path), env, tmp_path / "log")  # type: ignore[arg-type]


def _invoke(tmp_path: Path, source: str, timeout: float = 3) -> tuple[Any, str]:
    environment = _environment(tmp_path, source)
    outcome = environment.invoke({"Records": [{"messageId": "m1"}]}, META, timeout)
    environment.close()
    assert environment.proc is not None and environment.proc.poll() is not None  # it ended
    return outcome, (tmp_path / "log").read_text()


def test_the_handler_gets_event_context_and_environment(tmp_path: Path) -> None:
    outcome, log = _invoke(tmp_path, (
        "import os\n"
        "def handle(event, context):\n"
        "    print('a print is the log, not the answer')\n"
        "    return {'ids': [r['messageId'] for r in event['Records']],\n"
        "            'request': context.aws_request_id, 'name': context.function_name,\n"
        "            'left': 0 < context.get_remaining_time_in_millis() <= 3000,\n"
        "            'env': [os.environ[k] for k in ('MODE', '_HANDLER',\n"
        "                    'AWS_LAMBDA_FUNCTION_NAME', 'AWS_ACCESS_KEY_ID')],\n"
        "            'root': os.environ['LAMBDA_TASK_ROOT'].endswith('app')}\n"))
    assert outcome.ok, outcome.error
    assert outcome.response == {"ids": ["m1"], "request": "req-1", "name": "consumer",
                                "left": True, "root": True,
                                "env": ["test", "handler.handle", "consumer", "k"]}
    assert "a print is the log" in log


def test_an_exception_is_a_failed_invocation(tmp_path: Path) -> None:
    outcome, log = _invoke(tmp_path, "def handle(event, context):\n    raise KeyError('x')\n")
    assert (outcome.ok, outcome.error) == (False, "KeyError: 'x'")
    assert "Traceback" in log


def test_the_invocation_is_killed_at_the_timeout(tmp_path: Path) -> None:
    outcome, _ = _invoke(tmp_path, "import time\ndef handle(e, c):\n    time.sleep(30)\n",
                         timeout=0.5)
    assert not outcome.ok
    assert outcome.error == "Task timed out after 0.50 seconds"
    assert outcome.seconds < 5


def test_the_timeout_runs_from_the_end_of_init(tmp_path: Path) -> None:
    # The module's top-level code is Lambda's Init phase: the function timeout starts after.
    outcome, _ = _invoke(tmp_path, "import time\ntime.sleep(1)\ndef handle(e, c):\n"
                         "    return c.get_remaining_time_in_millis()\n", timeout=0.8)
    assert outcome.ok, outcome.error
    assert 500 < outcome.response <= 3000


def test_an_import_error_fails_the_invocation(tmp_path: Path) -> None:
    outcome, _ = _invoke(tmp_path, "import no_such_module\n")
    assert (outcome.ok, outcome.error) == (
        False, "ModuleNotFoundError: No module named 'no_such_module'")


def test_a_handler_that_exits_the_runtime_fails(tmp_path: Path) -> None:
    outcome, _ = _invoke(tmp_path, "import os\ndef handle(e, c):\n    os._exit(0)\n")
    assert (outcome.ok, outcome.error) == (False, "Runtime exited without an answer")


def test_a_response_that_is_not_json_fails(tmp_path: Path) -> None:
    outcome, _ = _invoke(tmp_path, "def handle(e, c):\n    return object()\n")
    assert not outcome.ok and "TypeError" in outcome.error


COUNTER = ("import time\nstarted = time.time()\ncalls = []\n"
           "def handle(e, c):\n    calls.append(1)\n"
           "    if e.get('sleep'):\n        time.sleep(e['sleep'])\n"
           "    return {'calls': len(calls), 'started': started}\n")


def test_an_environment_is_reused_until_it_ends(tmp_path: Path) -> None:
    # "Lambda execution environment lifecycle": Init once, then one Invoke per event; what
    # the module made at import stays between invocations of one environment.
    environment = _environment(tmp_path, COUNTER)
    first = environment.invoke({}, META, 3)
    second = environment.invoke({}, META, 3)
    assert first.ok and second.ok, (first.error, second.error)
    assert (first.response["calls"], second.response["calls"]) == (1, 2)
    assert first.response["started"] == second.response["started"]  # no second Init
    assert not environment.ended
    environment.close()
    assert environment.ended and environment.proc is not None
    assert environment.proc.poll() is not None


def test_a_timeout_ends_the_environment(tmp_path: Path) -> None:
    # A timed-out invocation's environment is not reused: the next one starts cold.
    environment = _environment(tmp_path, COUNTER)
    assert environment.invoke({}, META, 3).ok
    timed_out = environment.invoke({"sleep": 30}, META, 0.5)
    assert timed_out.error == "Task timed out after 0.50 seconds" and environment.ended
    assert environment.proc is not None and environment.proc.poll() is not None
    again = _environment(tmp_path, COUNTER).invoke({}, META, 3)
    assert again.ok and again.response["calls"] == 1
