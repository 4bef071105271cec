"""The worker-code mutation operators (Python AST): handler to raise, no retry, no backoff,
delete before commit; a mutant that does not parse or parses alike is not emitted."""

from __future__ import annotations

from pathlib import Path

from kit.mutate import generate
from kit.mutate.apply import materialize
from kit.mutate.mutant import Mutant

WORKER = '''import time


def consume(sqs, db, url):
    while True:
        try:
            reply = sqs.receive_message(QueueUrl=url)
        except OSError:
            time.sleep(1)
            continue
        for message in reply["Messages"]:
            db.record(message["Body"])
            sqs.delete_message(QueueUrl=url, ReceiptHandle=message["ReceiptHandle"])


def retrying(stop, store):
    while True:
        try:
            return store.record()
        except ValueError:
            if stop.wait(2):
                return None
'''


def _mutants(tmp_path: Path, text: str) -> dict[str, Mutant]:
    (tmp_path / "worker.py").write_text(text)
    return {m.id: m for m in generate.mutants(tmp_path)}


def _after(tmp_path: Path, mutant: Mutant) -> str:
    target = tmp_path.parent / f"m-{abs(hash(mutant.id))}"
    return (materialize(tmp_path, mutant, target) / mutant.file).read_text()


def test_each_handler_re_raises(tmp_path: Path) -> None:
    found = _mutants(tmp_path, WORKER)
    after = _after(tmp_path, found["py.handler-raise:worker.py:8"])
    assert "        except OSError:\n            raise\n        for" in after
    assert "py.handler-raise:worker.py:20" in found


def test_a_retry_re_raises_and_a_backoff_goes(tmp_path: Path) -> None:
    found = _mutants(tmp_path, WORKER)
    no_retry = _after(tmp_path, found["py.no-retry:worker.py:10"])
    assert "time.sleep(1)\n            raise\n" in no_retry
    no_sleep = _after(tmp_path, found["py.no-backoff:worker.py:9"])
    assert "time.sleep" not in no_sleep and "            pass\n            continue" in no_sleep
    in_test = _after(tmp_path, found["py.no-backoff:worker.py:21"])
    assert "            if False:\n" in in_test


def test_a_delete_after_its_commit_moves_before_it(tmp_path: Path) -> None:
    found = _mutants(tmp_path, WORKER)
    after = _after(tmp_path, found["py.delete-before-commit:worker.py:13"])
    assert after.index("sqs.delete_message") < after.index("db.record")


def test_a_delete_that_reads_the_commit_s_result_is_not_swapped(tmp_path: Path) -> None:
    text = ("def f(sqs, db, m):\n    done = db.commit(m)\n"
            "    sqs.delete_message(ReceiptHandle=done)\n")
    assert not any(i.startswith("py.delete-before-commit") for i in _mutants(tmp_path, text))


def test_code_that_does_not_parse_gives_no_mutant(tmp_path: Path) -> None:
    assert _mutants(tmp_path, WORKER.replace("while True:", "while True")) == {}
