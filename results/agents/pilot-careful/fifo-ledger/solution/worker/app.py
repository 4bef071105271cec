"""The worker process: receive, process per message group, extend, shut down.

Threads:
  receiver   long-polls the postings queue while fewer than MAX_IN_FLIGHT
             messages are held, and hands messages to the dispatcher;
  group-*    one task per message group present in what this process holds,
             processing that group's messages strictly one after the other;
  extender   keeps the visibility of every held message extended;
  book       rewrites this process's hold book every second;
  janitor    releases the messages of workers that have died;
  main       waits for SIGTERM/SIGINT, then shuts down within 5 s.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import signal
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

from botocore.exceptions import ClientError

from . import settings as S
from .holds import HoldBook, Identity, Janitor, Registry, choose_directory
from .ledger import Ledger
from .pacing import Pacer
from .postings import parse_posting
from .sqs_io import Hold, Sqs, chunks, describe, error_code, error_message, handle_gone

log = logging.getLogger("worker")

FAILED = object()


def _daemon(name: str, target: Callable[[], None]) -> threading.Thread:
    t = threading.Thread(target=target, name=name, daemon=True)
    t.start()
    return t


# --- processing one message ---------------------------------------------------------


class Processor:
    def __init__(self, settings: S.Settings, sqs: Sqs, ledger: Ledger, registry: Registry, stop: threading.Event):
        self._work_seconds = settings.work_seconds
        self._sqs = sqs
        self._ledger = ledger
        self._registry = registry
        self._stop = stop
        self._sqs_slots = threading.BoundedSemaphore(S.PROCESSOR_SQS_CONCURRENCY)
        self._sqs_pacer = Pacer(S.BACKOFF_BASE, S.BACKOFF_CAP)
        self._db_pacer = Pacer(S.BACKOFF_BASE, S.BACKOFF_CAP)
        self._critical = 0
        self._critical_lock = threading.Lock()

    # Work that has reached the ledger or the DLQ and should, if it can,
    # finish (delete its message) before the process exits.
    @contextlib.contextmanager
    def _critical_section(self):
        with self._critical_lock:
            self._critical += 1
        try:
            yield
        finally:
            with self._critical_lock:
                self._critical -= 1

    def critical_count(self) -> int:
        with self._critical_lock:
            return self._critical

    def handle(self, h: Hold) -> bool:
        """Process one held message.

        True: the message is finished (recorded or dead-lettered, and
        deleted). False: stopped or lost before that; the message is left as
        it is and the rest of its group must not be processed by this process.
        """
        posting = parse_posting(h.body)
        if posting is None:
            log.warning("poison message %s in group %r: moving it to the DLQ", h.message_id, h.group_id)
            with self._critical_section():
                if self._retry(h, "dead-letter poison", lambda: self._sqs_call(lambda: self._sqs.dead_letter(h)),
                               self._sqs_pacer) is FAILED:
                    return False
                return self._delete(h, finishing=True)

        recorded = self._retry(h, "look up posting", lambda: self._ledger.is_recorded(posting.posting_id),
                               self._db_pacer)
        if recorded is FAILED:
            return False
        if recorded:
            log.info("posting %s already recorded; deleting message %s", posting.posting_id, h.message_id)
            with self._critical_section():
                return self._delete(h, finishing=True)

        # The work itself; interrupted by SIGTERM (the message is then left
        # for another worker, nothing having been written).
        if self._work_seconds and self._stop.wait(self._work_seconds):
            return False
        if h.lost or self._stop.is_set():
            return False

        with self._critical_section():
            status = self._retry(h, "record posting", lambda: self._ledger.record(posting), self._db_pacer,
                                 finishing=True)
            if status is FAILED:
                return False
            log.info("posting %s account %s amount %d: %s", posting.posting_id, posting.account_id,
                     posting.amount_cents, status)
            return self._delete(h, finishing=True)

    def _sqs_call(self, fn: Callable[[], object]) -> object:
        with self._sqs_slots:
            return fn()

    def _retry(self, h: Hold, what: str, fn: Callable[[], object], pacer: Pacer, finishing: bool = False) -> object:
        """Call fn until it succeeds, paced. Gives up (FAILED) if the message is
        lost, or on shutdown (after one attempt if ``finishing``)."""
        attempts = 0
        while True:
            if h.lost:
                return FAILED
            if self._stop.is_set() and not (finishing and attempts == 0):
                return FAILED
            attempts += 1
            pacer.wait()
            try:
                result = fn()
            except Exception as e:
                pacer.failure()
                log.warning("%s (message %s, attempt %d) failed: %s", what, h.message_id, attempts, describe(e))
                continue
            pacer.success()
            return result

    def _delete(self, h: Hold, finishing: bool) -> bool:
        attempts = 0
        while True:
            if h.lost:
                return False
            if self._stop.is_set() and attempts > 0:
                return False
            if self._stop.is_set() and not finishing:
                return False
            attempts += 1
            self._sqs_pacer.wait()
            try:
                self._sqs_call(lambda: self._sqs.delete(h))
            except ClientError as e:
                if handle_gone(error_code(e), error_message(e)):
                    # Its visibility ran out: SQS delivers it again and the
                    # ledger recognises it. Its effect is recorded, so the
                    # group may go on.
                    self._sqs_pacer.success()
                    log.warning("message %s: receipt handle no longer valid on delete (%s)", h.message_id,
                                describe(e))
                    self._registry.lose(h)
                    return True
                self._sqs_pacer.failure()
                log.warning("delete of message %s (attempt %d) failed: %s", h.message_id, attempts, describe(e))
                continue
            except Exception as e:
                self._sqs_pacer.failure()
                log.warning("delete of message %s (attempt %d) failed: %s", h.message_id, attempts, describe(e))
                continue
            self._sqs_pacer.success()
            self._registry.finish(h)
            return True


# --- per-group ordering ---------------------------------------------------------------


class Dispatcher:
    """Runs each message group's held messages one at a time, in receive order."""

    def __init__(self, processor: Processor, registry: Registry, sqs: Sqs, stop: threading.Event):
        self._processor = processor
        self._registry = registry
        self._sqs = sqs
        self._stop = stop
        self._lock = threading.Lock()
        self._groups: dict[str, collections.deque[Hold]] = {}
        self._pool = ThreadPoolExecutor(max_workers=S.MAX_IN_FLIGHT, thread_name_prefix="group")

    def submit(self, holds: list[Hold]) -> None:
        with self._lock:
            for h in holds:
                queue = self._groups.get(h.group_id)
                if queue is not None:
                    queue.append(h)
                    continue
                self._groups[h.group_id] = collections.deque([h])
                self._pool.submit(self._run_group, h.group_id)

    def _run_group(self, group_id: str) -> None:
        while True:
            with self._lock:
                queue = self._groups[group_id]
                if not queue or self._stop.is_set():
                    del self._groups[group_id]
                    return
                h = queue[0]
            finished = self._handle(h)
            with self._lock:
                queue.popleft()
                if finished:
                    continue
                rest = list(queue)
                del self._groups[group_id]
            if h.lost and not self._stop.is_set() and rest:
                self._abandon(group_id, rest)
            return

    def _handle(self, h: Hold) -> bool:
        while True:
            try:
                return self._processor.handle(h)
            except Exception:
                log.exception("unexpected error processing message %s; retrying it", h.message_id)
                if self._stop.wait(1.0):
                    return False

    def _abandon(self, group_id: str, rest: list[Hold]) -> None:
        """An earlier message of the group is no longer ours: processing its
        successors here could overtake it. Hand them back to SQS."""
        log.error("group %r: giving back %d later message(s)", group_id, len(rest))
        for h in rest:
            self._registry.lose(h)
        for chunk in chunks(rest):
            for _ in range(3):
                try:
                    self._sqs.set_visibility(chunk, 0)
                    break
                except Exception as e:
                    log.warning("giving back messages failed: %s", describe(e))
                    time.sleep(1.0)


# --- receiving ----------------------------------------------------------------------------


class Receiver:
    def __init__(self, sqs: Sqs, registry: Registry, book: HoldBook | None, dispatcher: Dispatcher,
                 stop: threading.Event):
        self._sqs = sqs
        self._registry = registry
        self._book = book
        self._dispatcher = dispatcher
        self._stop = stop
        self._pacer = Pacer(S.BACKOFF_BASE, S.BACKOFF_CAP)
        # (ReceiveRequestAttemptId, MaxNumberOfMessages, first request time).
        # Kept across failed attempts: if a receive reached SQS but its answer
        # was lost, retrying with the same id returns the same messages
        # instead of leaving them invisible for a whole visibility timeout.
        self._attempt: tuple[str, int, float] | None = None

    def run_forever(self) -> None:
        while not self._stop.is_set():
            try:
                self._once()
            except Exception:
                log.exception("receive loop error")
                self._stop.wait(1.0)

    def _once(self) -> None:
        free = S.MAX_IN_FLIGHT - self._registry.count()
        if free <= 0:
            self._stop.wait(0.1)
            return
        if self._attempt is None:
            self._attempt = (uuid.uuid4().hex, min(10, free), time.monotonic())
        attempt_id, max_messages, first_requested = self._attempt
        self._pacer.wait()
        if self._stop.is_set():
            return
        try:
            messages = self._sqs.receive(max_messages, attempt_id)
        except Exception as e:
            self._pacer.failure()
            log.warning("receive failed: %s", describe(e))
            return
        self._pacer.success()
        self._attempt = None
        if not messages:
            return
        # Visibility is counted from the first attempt: conservative.
        holds = [Hold.from_message(m, first_requested) for m in messages]
        self._registry.add(holds)
        if self._book is not None:
            self._book.write(self._registry.active())
        self._dispatcher.submit(holds)


# --- keeping held messages invisible -----------------------------------------------------


class Extender:
    def __init__(self, sqs: Sqs, registry: Registry):
        self._sqs = sqs
        self._registry = registry
        self._pacer = Pacer(S.BACKOFF_BASE, S.BACKOFF_CAP)

    def run_forever(self) -> None:
        while True:
            time.sleep(1.0)
            try:
                self._tick()
            except Exception:
                log.exception("extender error")

    def _tick(self) -> None:
        now = time.monotonic()
        due = [h for h in self._registry.active()
               if now - h.last_extended >= S.EXTEND_EVERY or now < h.last_extended]
        for chunk in chunks(due):
            self._pacer.wait()
            requested_at = time.monotonic()
            try:
                failed = self._sqs.set_visibility(chunk, S.VISIBILITY_TIMEOUT)
            except Exception as e:
                self._pacer.failure()
                log.warning("extending visibility of %d message(s) failed: %s", len(chunk), describe(e))
                self._check_expired(chunk)
                return
            self._pacer.success()
            for i, h in enumerate(chunk):
                if i not in failed:
                    h.visible_until = requested_at + S.VISIBILITY_TIMEOUT
                    h.last_extended = requested_at
                    continue
                if h.done:
                    continue
                code, message = failed[i]
                if handle_gone(code, message) or time.monotonic() >= h.visible_until:
                    log.error("message %s is no longer held (%s: %s)", h.message_id, code, message)
                    self._registry.lose(h)
                else:
                    log.warning("extending message %s failed (%s: %s); will retry", h.message_id, code, message)

    def _check_expired(self, chunk) -> None:
        now = time.monotonic()
        for h in chunk:
            if not h.done and now >= h.visible_until:
                log.error("message %s: visibility ran out before it could be extended", h.message_id)
                self._registry.lose(h)


# --- the process --------------------------------------------------------------------------


def _beat(book: HoldBook, registry: Registry) -> Callable[[], None]:
    def run() -> None:
        while True:
            book.write(registry.active())
            time.sleep(S.HOLD_BEAT)

    return run


def _idle_until(stop: threading.Event, why: str) -> None:
    # Exiting would only get this worker restarted into the same situation.
    while not stop.wait(30.0):
        log.error("%s; waiting", why)
    os._exit(0)


def main() -> None:
    logging.basicConfig(
        level=logging.INFO,
        stream=sys.stderr,
        format="%(asctime)s pid=%(process)d %(threadName)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("botocore").setLevel(logging.WARNING)
    logging.getLogger("urllib3").setLevel(logging.ERROR)

    stop = threading.Event()
    stopped_at: list[float] = []

    def on_signal(signum, frame):
        if not stop.is_set():
            stopped_at.append(time.monotonic())
            stop.set()
            log.info("received signal %d: stopping", signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    try:
        settings = S.Settings.from_env()
    except Exception as e:
        _idle_until(stop, f"cannot start: {e}")
        return

    while True:
        try:
            sqs = Sqs(settings)
            break
        except Exception as e:
            log.error("cannot create SQS clients: %s", e)
            if stop.wait(2.0):
                os._exit(0)

    registry = Registry()
    ledger = Ledger(settings.database_url)

    book = None
    me = Identity.current()
    directory = choose_directory(settings.queue_url) if me is not None else None
    if me is not None and directory is not None:
        book = HoldBook(directory, me)
        book.write([])
        _daemon("book", _beat(book, registry))
        _daemon("janitor", Janitor(book, sqs).run_forever)
        log.info("hold book %s", book.path)
    else:
        log.warning("no shared hold book: messages of a dead worker wait for their visibility timeout")

    processor = Processor(settings, sqs, ledger, registry, stop)
    dispatcher = Dispatcher(processor, registry, sqs, stop)
    _daemon("extender", Extender(sqs, registry).run_forever)
    _daemon("receiver", Receiver(sqs, registry, book, dispatcher, stop).run_forever)
    log.info("worker started: queue %s, work %.3fs", settings.queue_url, settings.work_seconds)

    while not stop.wait(0.5):
        pass
    _shutdown(stopped_at[0] if stopped_at else time.monotonic(), processor, registry, book, sqs)


def _shutdown(started: float, processor: Processor, registry: Registry, book: HoldBook | None, sqs: Sqs) -> None:
    """Exit within 5 s of SIGTERM, leaving every unfinished message to others.

    New work has stopped (the stop event). Processing that already reached
    the ledger gets COMMIT_GRACE to delete its message. Whatever is still
    held is then written to the hold book, and the process exits: the
    janitors of the other workers (or of this worker's replacement) make
    those messages visible again once this process is gone, so they are
    never held by two live workers. Without a hold book, the messages are
    released here, just before exiting.
    """

    def hard_exit() -> None:
        if book is not None:
            book.write(registry.active())
        os._exit(0)

    timer = threading.Timer(max(0.0, started + S.HARD_EXIT_AFTER - time.monotonic()), hard_exit)
    timer.daemon = True
    timer.start()

    while processor.critical_count() > 0 and time.monotonic() - started < S.COMMIT_GRACE:
        time.sleep(0.05)

    held = registry.active()
    if book is not None:
        if held:
            book.write(held)
        else:
            book.remove()
    else:
        for chunk in chunks(held):
            if time.monotonic() - started > S.HARD_EXIT_AFTER - 1.0:
                break
            try:
                sqs.set_visibility(chunk, 0)
            except Exception as e:
                log.warning("releasing held messages failed: %s", describe(e))
                break
    log.info("stopped; %d unfinished message(s) left to other workers", len(held))
    os._exit(0)
