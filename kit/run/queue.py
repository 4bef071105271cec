"""The queue workload: the producer sends the plan, the solution's workers (supervised,
confined) process it, the kit's observer watches the effects; recovery ends at quiescence."""

from __future__ import annotations

import threading
import time
from typing import Any

from botocore.exceptions import ClientError

from kit import aws
from kit.aws import rule_parts
from kit.checks.recovery import WITHIN_RTO
from kit.errors import KitError
from kit.faults.nemesis import Nemesis
from kit.history import Op
from kit.lambdas.service import LambdaService
from kit.recorder import Recorder
from kit.run import lambdas as lambda_wiring
from kit.run import stop
from kit.run.bind import Bound, service_refusal, worker_cwd, worker_env
from kit.run.context import RunContext
from kit.run.fault import FaultHooks
from kit.workload.observer import BucketObserver, ItemObserver, Observer
from kit.workload.producer import Producer, Target, single_send_keys
from kit.workload.supervisor import NoSession, Supervisor

QUIESCENCE_POLL = 0.2
# Longer than stop.QUIET_SECONDS: a publisher backing off after a fault has its retry to make.
PUBLISH_QUIET_SECONDS = 5.0


class QueueWorkload:
    """Producer, workers and observer of one run (kit/run/workload.py drives them)."""

    def __init__(self, ctx: RunContext, bound: Bound) -> None:
        self.ctx, self.bound = ctx, bound
        module = ctx.scenario.workload_module
        self.plan = module.plan(ctx.seed, ctx.scenario.workload_params)
        self.stopping = threading.Event()
        self.refused = self._refused()
        self.supervisor = self._supervisor()
        if bound.network is not None:  # a refused connection names its worker
            bound.network.name_of = lambda pid: next(
                (name for name, held in self.supervisor.holders().items() if held == pid),
                None)
        spec = ctx.scenario.workload.producer
        assert spec is not None
        self.interval = spec.interval_seconds
        self.admin_sqs = ctx.admin("sqs")
        creds = bound.session(spec.role, "producer")
        direct = None
        if spec.rule is not None:
            assert spec.queue is not None
            target = self._rule_target(spec.rule, spec.queue, spec.source, spec.detail_type)
            self.queue_urls = [bound.values[f"{spec.queue}.url"]]
            if spec.direct:
                direct = (aws.client("sqs", bound.gateway.url, creds),
                          Target("queue", spec.queue, self.queue_urls[0]))
            client: Any = bound.gateway.events
        elif spec.queue is not None:
            target = Target("queue", spec.queue, bound.values[f"{spec.queue}.url"])
            # The queues quiescence waits on: the producer's, or those its topic feeds.
            self.queue_urls = [target.address]
        else:
            target = Target("topic", spec.target, bound.values[f"{spec.target}.arn"],
                            spec.attributes)
            self.queue_urls = declared_first(subscribed_queues(
                ctx.admin("sns"), self.admin_sqs, target.address), bound.values)
        if spec.rule is None:
            client = aws.client({"queue": "sqs", "topic": "sns"}[target.kind],
                                bound.gateway.url, creds)
        self.producer = Producer(client, target, self.plan, module.describe,
                                 spec.interval_seconds, ctx.recorder, direct)
        self.observer = self._observer()
        self.valid = {d.key for d in map(module.describe, (s.body for s in self.plan))
                      if d.valid}

    def _rule_target(self, rule: str, queue: str, source: str, detail_type: str) -> Target:
        """The rule's Target, once the kit (as the platform team) has pointed the rule at the
        solution's queue: the event's detail is the message body (InputPath $.detail)."""
        arn = self.bound.values[f"{rule}.arn"]
        bus, name = rule_parts(arn)
        self.ctx.admin("events").put_targets(
            Rule=name, EventBusName=bus, Targets=[{
                "Id": "kit-platform", "Arn": self.bound.values[f"{queue}.arn"],
                "InputPath": "$.detail"}])
        return Target("rule", rule, arn, {"Source": source, "DetailType": detail_type})

    def _refused(self) -> bool:
        """Team mode: whether the workers' role refuses the service they run as now; then
        the refusal is recorded (the trust policy as evidence), no worker starts (again),
        the run stops."""
        workers = self.ctx.scenario.workers
        assert workers is not None
        found = service_refusal(self.bound, workers.role)
        if found is None:
            return False
        self.ctx.recorder.record("kit", "session_refused", **found)
        self.stopping.set()
        return True

    def _supervisor(self) -> Supervisor | LambdaService:
        """The solution's workers, each with its own role session (or, for a Lambda
        consumer, the kit's Lambda service polling for it: kit/lambdas/)."""
        scenario, bound = self.ctx.scenario, self.bound
        workers = scenario.workers
        assert workers is not None
        if workers.kind == "lambda":
            return lambda_wiring.service(self.ctx, bound, self._refused)
        home = self.ctx.work / "worker-home"
        home.mkdir()
        # The same for every fault: nothing the workers see announces one before it happens.
        env = worker_env(scenario, bound, str(home))

        def session_for(name: str) -> dict[str, str]:
            # Each worker is a new task of its service, which assumes the role anew.
            if self._refused():
                raise NoSession(name)
            creds = bound.session(workers.role, name)
            return {"AWS_ACCESS_KEY_ID": creds.access_key_id,
                    "AWS_SECRET_ACCESS_KEY": creds.secret_access_key,
                    "AWS_SESSION_TOKEN": creds.token or ""}

        assert self.ctx.tf is not None
        scenario.workers_dir(self.ctx.tf.dir)  # a variant may have removed it
        return Supervisor(workers.command, bound.confinement, env, workers.replicas,
                          session_for, self.ctx.run_dir, self.ctx.recorder,
                          workers.stop_grace_seconds, self.stopping, worker_cwd(scenario))

    def _observer(self) -> Observer | BucketObserver | ItemObserver:
        """The watcher of the scenario's effects: a database table, a bucket's objects or a
        DynamoDB table's items."""
        effects, key = self.ctx.scenario.workload.effects, self.ctx.scenario.messages.key
        if effects.dynamodb:
            return ItemObserver(self.ctx.admin("dynamodb"),
                                self.bound.values[f"{effects.dynamodb}.name"], key,
                                self.ctx.recorder)
        if effects.bucket:
            return BucketObserver(self.ctx.admin("s3"),
                                  self.bound.values[f"{effects.bucket}.name"], effects.prefix,
                                  key, self.ctx.recorder)
        assert effects.database is not None and effects.table is not None
        return Observer(self.bound.databases[effects.database], effects.table, key,
                        self.ctx.recorder)

    def fault_hooks(self) -> FaultHooks:
        """The supervisor (whose workers a fault may kill), the keys sent once, and a fresh
        look at the effects."""
        return FaultHooks(supervisor=self.supervisor, observe=self.observer.fresh,
                          single_send_keys=single_send_keys(
                              self.plan, self.ctx.scenario.workload_module.describe))

    def start(self) -> None:
        """Observer, workers, producer."""
        for thread in (self.observer, self.supervisor, self.producer):
            if thread is not self.supervisor or not self.refused:
                thread.start()

    def drive(self, nemesis: Nemesis) -> None:
        """Until the producer has sent the plan and the fault is over."""
        self.producer.join(timeout=len(self.plan) * (self.interval + 5))
        nemesis.done.wait(timeout=300)

    def recovers(self) -> bool:
        """Nothing can recover when no worker ever ran (a crash loop, a refused session), or
        the kit could not run them."""
        return not (self.refused or self.supervisor.refused or self.supervisor.crash_looped
                    or self.supervisor.error is not None)

    def recover(self) -> None:
        """Until quiescence (bounded by the scenario's quiescence timeout), then, when the
        workers publish events, until they have published them (bounded the same)."""
        timeout = self.ctx.scenario.quiescence_timeout_seconds
        rto = self.ctx.scenario.params.get(WITHIN_RTO, {}).get("rto_seconds", 0.0)
        await_quiescence(self.admin_sqs, self.queue_urls, self.valid, self.observer,
                         self.ctx.recorder, timeout, rto)
        events = self.ctx.scenario.workload.events
        if events is not None:
            await_published(self.ctx.recorder, self.bound.values[f"{events}.arn"],
                            self.observer.seen, timeout)

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


def subscribed_queues(sns: Any, sqs: Any, topic: str) -> list[str]:
    """The URLs of the queues a topic's SQS subscriptions deliver to (the emulator's). A
    subscription to a queue that does not exist (SNS accepts one), or a topic that does
    not, has nothing to wait on."""
    urls = []
    try:
        items = aws.topic_subscriptions(sns, topic)
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") not in ("NotFound", "NotFoundException"):
            raise
        return []  # no such topic: the producer's publishes say so (workload.producer_sends)
    for item in items:
        if item["Protocol"] != "sqs" or len(item["Endpoint"].split(":")) != 6:
            continue
        try:
            urls.append(aws.queue_url(sqs, item["Endpoint"]))
        except ClientError as exc:
            if "NonExistentQueue" not in str(exc) and "QueueDoesNotExist" not in str(exc):
                raise
    return urls


def declared_first(urls: list[str], values: dict[str, str]) -> list[str]:
    """The queues among `urls` the scenario declares, or all of `urls` when it declares
    none of them. Why: a team's topic also feeds queues of consumers the run does not play
    (another team's, or a Lambda consumer of the same repository), which nobody drains:
    waiting for them to empty would hold every run until the quiescence timeout."""
    declared = {_queue_name(url) for name, url in values.items()
                if name.startswith("queue.") and name.endswith(".url")}
    return [url for url in urls if _queue_name(url) in declared] or urls


def _queue_name(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


def await_published(recorder: Recorder, topic: str, recorded: set[str],
                    timeout: float) -> None:
    """Wait (bounded) until every recorded key's message was published to `topic` (a
    `delivery` op of the kit's SNS names the key), or nothing was published to it for
    PUBLISH_QUIET_SECONDS: then nothing more is coming. Why: the workers publish after
    they record, so a run that stopped them at quiescence would cut off events still on
    their way, more of them the more loaded the machine is."""
    deadline = time.monotonic() + timeout
    count, changed = -1, time.monotonic()
    while time.monotonic() < deadline:
        ops = deliveries(recorder.snapshot(), topic)
        now = time.monotonic()
        if len(ops) != count:
            count, changed = len(ops), now
        if set(recorded) <= {op.value.key for op in ops} or \
                now - changed >= PUBLISH_QUIET_SECONDS:
            return
        time.sleep(QUIESCENCE_POLL)


def deliveries(ops: list[Op], topic: str) -> list[Op]:
    """The kit's SNS deliveries (any outcome) of messages published to `topic`."""
    return [op for op in ops if op.kind == "delivery" and op.value.topic == topic]


def await_quiescence(sqs: Any, queue_urls: list[str], valid: set[str],
                     observer: Observer | BucketObserver | ItemObserver, recorder: Recorder,
                     timeout: float, rto_seconds: float) -> None:
    """Wait (bounded) until the stop rule (kit/run/stop.py) lets the run stop: nothing
    visible, in flight or delayed, and every valid key recorded or nothing left for
    QUIET_SECONDS; at most `timeout`, or to the verdicts' window when that ends later."""
    visibility = max((float(queue_attributes(sqs, url, ["VisibilityTimeout"]).get(
        "VisibilityTimeout", 0)) for url in queue_urls), default=0.0)
    settled_since: float | None = None
    end = stop.wait_until(recorder.now(), timeout, float("-inf"))
    while True:
        ops = recorder.snapshot()
        end = max(end, stop.window_end(ops, rto_seconds, visibility))
        look = look_at(sqs, queue_urls, ops, valid <= observer.seen)
        now = recorder.now()
        settled_since = (now if settled_since is None else settled_since) \
            if stop.settled(look) else None
        quiet_for = 0.0 if settled_since is None else now - settled_since
        if now >= end or stop.may_stop(look, quiet_for):
            return
        time.sleep(QUIESCENCE_POLL)


COUNTS = ("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible",
          "ApproximateNumberOfMessagesDelayed")


def queue_attributes(sqs: Any, url: str, names: list[str]) -> dict[str, str]:
    """The queue's attributes `names`, as the emulator has them."""
    return sqs.get_queue_attributes(QueueUrl=url, AttributeNames=names)["Attributes"]


def look_at(sqs: Any, queue_urls: list[str], ops: list[Op], all_recorded: bool) -> stop.Look:
    """One look at the run: the emulator's counts summed over the queues, the history's
    calls in progress."""
    counts = [0, 0, 0]
    for url in queue_urls:
        attributes = queue_attributes(sqs, url, list(COUNTS))
        counts = [n + int(attributes.get(name, 0)) for n, name in zip(counts, COUNTS,
                                                                       strict=True)]
    return stop.Look(visible=counts[0], not_visible=counts[1], delayed=counts[2],
                     open_receives=stop.open_calls(ops), all_recorded=all_recorded)
