"""The runtime inside one execution environment's sandbox: imports the handler once,
then calls it for each invocation and answers.

Run as `python -c <this source>` in the function's sandbox (it moves to the code's
root, LAMBDA_TASK_ROOT), standard library only. stdin holds one invocation per line:
{"event", "context": {code, request_id, function_name, function_arn, memory, timeout_ms,
log_group}}; it ends when the kit closes stdin. The answers, on the stdout the kit gave:
"ready" once the handler is imported (Lambda's Init phase ends, the first Invoke phase and
its timeout begin), then one JSON line per invocation, {"ok": true, "response": ...} or
{"ok": false, "error": ...}. Module state (clients made at import) lives on between
invocations, as in a reused Lambda execution environment. The handler's own stdout
goes to stderr (the function's log), as print() in Lambda goes to CloudWatch Logs, so
nothing it prints is read as the answer.
"""

import importlib
import json
import os
import sys
import time
import traceback

MAX_INPUT = 16 * 1024 * 1024


class Context:
    """The Lambda context object's documented attributes ("Using the Lambda context object
    to retrieve Python function information", Lambda developer guide)."""

    def __init__(self, meta, started):
        self.function_name = meta["function_name"]
        self.function_version = "$LATEST"
        self.invoked_function_arn = meta["function_arn"]
        self.memory_limit_in_mb = meta["memory"]
        self.aws_request_id = meta["request_id"]
        self.log_group_name = meta["log_group"]
        self.log_stream_name = meta["request_id"]
        self._deadline = started + meta["timeout_ms"] / 1000.0

    def get_remaining_time_in_millis(self):
        return max(0, int((self._deadline - time.monotonic()) * 1000))


def _handler():
    """Init: import the handler's module (its top-level code runs here, as in Lambda's
    Init phase, which the function timeout does not cover)."""
    module_name, _, function_name = os.environ["_HANDLER"].rpartition(".")
    sys.path.insert(0, os.getcwd())
    return getattr(importlib.import_module(module_name.replace("/", ".")), function_name)


def _failed(exc):
    traceback.print_exc()
    return json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"[:1000]})


def main():
    answer = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # the handler's prints: the log, never the answer
    sys.stdout = os.fdopen(1, "w", buffering=1)
    handler = None
    while True:  # one invocation per line, until the kit closes stdin
        line = sys.stdin.buffer.readline(MAX_INPUT)
        if not line:
            return
        invocation = json.loads(line)
        meta = invocation["context"]
        if handler is None:  # the environment's first invocation: Init
            os.chdir(meta["code"])  # the code's root, relative to the workspace
            os.environ["LAMBDA_TASK_ROOT"] = os.getcwd()
            try:
                handler = _handler()
            except Exception as exc:  # an init error fails the invocation, ends the runtime
                answer.write(_failed(exc) + "\n")
                return
            answer.write("ready\n")  # the Invoke phase starts: the timeout runs from here
            answer.flush()
        started = time.monotonic()
        try:
            response = handler(invocation["event"], Context(meta, started))
            text = json.dumps({"ok": True, "response": response})
        except Exception as exc:  # the function's error: reported as Lambda reports it
            text = _failed(exc)
        answer.write(text + "\n")
        answer.flush()


if __name__ == "__main__":
    main()
