"""The queue workload: the producer sends the plan, the solution's workers (supervised,
confined) process it, the kit's observer watches the effects; recovery ends at quiescence."""

from __future__ import annotations

import threading
import time
from typing import Any

from kit import aws
from kit.bind import Bound, worker_env
from kit.errors import KitError
from kit.faults import Nemesis
from kit.lambdas import wiring as lambda_wiring
from kit.lambdas.service import LambdaService
from kit.run.context import RunContext
from kit.run.fault import FaultHooks
from kit.workload.observer import BucketObserver, Observer
from kit.workload.producer import Producer, single_send_keys
from kit.workload.supervisor import Supervisor

QUIESCENCE_POLL = 0.2
QUIET_SECONDS = 3.0


class QueueWorkload:
    """Producer, workers and observer of one run (kit/run/workload.py drives them)."""

    def __init__(self, ctx: RunContext, bound: Bound) -> None:
        self.ctx, self.bound = ctx, bound
        module = ctx.scenario.workload_module
        self.plan = module.plan(ctx.seed, ctx.scenario.workload_params)
        self.stopping = threading.Event()
        self.supervisor = self._supervisor()
        if bound.network is not None:  # a refused connection names its worker
            bound.network.name_of = lambda pid: next(
                (name for name, held in self.supervisor.holders().items() if held == pid),
                None)
        spec = ctx.scenario.workload.producer
        assert spec is not None
        self.interval = spec.interval_seconds
        self.queue_url = bound.values[f"{spec.queue}.url"]
        self.producer = Producer(
            aws.client("sqs", bound.gateway.url, bound.session(spec.role, "producer")),
            spec.queue, self.queue_url, self.plan, module.describe, spec.interval_seconds,
            ctx.recorder)
        self.observer = self._observer()
        self.admin_sqs = ctx.admin("sqs")
        self.valid = {d.key for d in map(module.describe, (s.body for s in self.plan))
                      if d.valid}

    def _supervisor(self) -> Supervisor | LambdaService:
        """The solution's workers, each with its own role session (or, for a Lambda
        consumer, the kit's Lambda service polling for it: kit/lambdas/)."""
        scenario, bound = self.ctx.scenario, self.bound
        workers = scenario.workers
        assert workers is not None
        if workers.kind == "lambda":
            return lambda_wiring.service(self.ctx, bound)
        home = self.ctx.work / "worker-home"
        home.mkdir()
        # The same for every fault: nothing the workers see announces one before it happens.
        env = worker_env(scenario, bound, str(home))

        def session_for(name: str) -> dict[str, str]:
            creds = bound.session(workers.role, name)
            return {"AWS_ACCESS_KEY_ID": creds.access_key_id,
                    "AWS_SECRET_ACCESS_KEY": creds.secret_access_key,
                    "AWS_SESSION_TOKEN": creds.token or ""}

        return Supervisor(workers.command, bound.confinement, env, workers.replicas,
                          session_for, self.ctx.run_dir, self.ctx.recorder,
                          workers.stop_grace_seconds, self.stopping)

    def _observer(self) -> Observer | BucketObserver:
        """The watcher of the scenario's effects: a database table or a bucket's objects."""
        effects, key = self.ctx.scenario.workload.effects, self.ctx.scenario.messages.key
        if effects.bucket:
            return BucketObserver(self.ctx.admin("s3"),
                                  self.bound.values[f"{effects.bucket}.name"], effects.prefix,
                                  key, self.ctx.recorder)
        assert effects.database is not None and effects.table is not None
        return Observer(self.bound.databases[effects.database], effects.table, key,
                        self.ctx.recorder)

    def fault_hooks(self) -> FaultHooks:
        """The supervisor (whose workers a fault may kill) and the keys sent once."""
        return FaultHooks(supervisor=self.supervisor,
                          single_send_keys=single_send_keys(
                              self.plan, self.ctx.scenario.workload_module.describe))

    def start(self) -> None:
        """Observer, workers, producer."""
        for thread in (self.observer, self.supervisor, self.producer):
            thread.start()

    def drive(self, nemesis: Nemesis) -> None:
        """Until the producer has sent the plan and the fault is over."""
        self.producer.join(timeout=len(self.plan) * (self.interval + 5))
        nemesis.done.wait(timeout=300)

    def recovers(self) -> bool:
        """Nothing can recover when no worker ever ran, or the kit could not run them."""
        return not self.supervisor.crash_looped and self.supervisor.error is None

    def recover(self) -> None:
        """Until quiescence (bounded by the scenario's quiescence timeout)."""
        await_quiescence(self.admin_sqs, self.queue_url, self.valid, self.observer,
                         self.ctx.scenario.quiescence_timeout_seconds)

    def stop(self, nemesis: Nemesis) -> None:
        """Stop the producer, the workers, the observer, then wait for the nemesis."""
        self.stopping.set()
        self.producer.stopping.set()
        self.supervisor.stop()
        self.observer.stop()
        if nemesis.ident is not None:  # a Ctrl-C may come before it started
            nemesis.join(timeout=30)

    def raise_errors(self, nemesis: Nemesis) -> None:
        """The first thread's error, as the kit's."""
        for thread in (self.producer, nemesis, self.supervisor, self.observer):
            if thread.error is not None:
                raise thread.error if isinstance(thread.error, KitError) else KitError(
                    f"{thread.name} failed: {thread.error!r}")


def await_quiescence(sqs: Any, queue_url: str, valid: set[str],
                     observer: Observer | BucketObserver, timeout: float) -> None:
    """Wait (bounded) until every valid key is recorded and the queue is empty, or until
    the queue has held nothing, visible or in flight, for QUIET_SECONDS: then nothing more
    can happen (a message the solution dropped will not come back)."""
    deadline = time.monotonic() + timeout
    empty_since: float | None = None
    while time.monotonic() < deadline:
        attrs = sqs.get_queue_attributes(
            QueueUrl=queue_url, AttributeNames=["ApproximateNumberOfMessages",
                                                "ApproximateNumberOfMessagesNotVisible"]
        )["Attributes"]
        empty = all(int(v) == 0 for v in attrs.values())
        now = time.monotonic()
        empty_since = (empty_since or now) if empty else None
        if empty and (valid <= observer.seen or now - empty_since >= QUIET_SECONDS):
            return
        time.sleep(QUIESCENCE_POLL)
