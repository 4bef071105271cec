"""An HTTP proxy between workload processes and the emulator: the only way in, enforced and
recorded. Each request goes to the emulator that serves its service (the one its signature
names: kit/sandbox/emulator.py routes RDS to moto under LocalStack).

Every request passes the guard first (`guard`): its SigV4 signature must verify against
credentials the kit registered, and IAM, as the kit's evaluator decides it from the
emulator's current policies, must allow every check the call implies. moto's own
enforcement stays off because it is wrong in places (NotResource, conditions, boundaries,
queue policies, batch actions). Only an allowed call is forwarded. SQS receive, delete and
visibility calls are recorded under the process that made them (the kit's CloudTrail).
The emulators' admin APIs (moto's /moto-api, LocalStack's /_localstack and /_aws) are
refused to everyone who comes through here. Fault hooks (e.g.
lost deletes) act on requests in flight.

What a request may make the gateway hold is bounded (kit/gateway/limits.py): a body over
its service's limit, or streamed without a Content-Length, is refused from its headers
before it is read; an SQS message over AWS's 1 MiB is refused as SQS refuses it; headers
and the connections served at once are capped (kit/sandbox/http.py). Each refusal is a
`request_refused` op, and every field recorded from a request is bounded
(kit/history.py `bounded`).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import urllib3

from kit import aws
from kit.gateway import actions, events, limits, replies, sns, sqs
from kit.gateway.guard import GatewayError, Guard, Refused
from kit.gateway.policies import PolicyStore
from kit.gateway.sessions import Session
from kit.history import bounded
from kit.recorder import Recorder
from kit.sandbox.emulator import Routes
from kit.sandbox.http import Bounds, LoopbackServer
from kit.workload.notifications import unwrap

HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te",
              "trailers", "transfer-encoding", "upgrade", "host", "content-length"}
__all__ = ["Gateway", "GatewayError"]
# Connections served at once (a thread and a descriptor of the kit's each). Far above what
# the workers' relays let through (kit/sandbox/netns.py: a cap per worker), the producer's
# pool and the kit's own clients, so only a client that hoards connections reaches it.
MAX_CONNECTIONS = 512


class Gateway:
    """The proxy server, on a free loopback port, in a background thread."""

    def __init__(self, upstream: str | Routes, recorder: Recorder, *,
                 admin: aws.Credentials = aws.ADMIN, account: str = aws.ACCOUNT_ID,
                 key_of: Callable[[str], str | None] = lambda body: None) -> None:
        # A plain URL: one moto server behind it (tests); else who serves which service.
        self.routes = upstream if isinstance(upstream, Routes) else None
        self.upstream = (self.routes.primary.url if self.routes else str(upstream)).rstrip("/")
        self.admin_paths = self.routes.admin_paths if self.routes else ("/moto-api",)
        self.recorder = recorder
        self.key_of = key_of  # the scenario's message key of a body, for receive records
        self.account = account
        self.lost_deletes = 0
        self.lost_regions: set[str] = set()  # Regions whose endpoints answer 503 (a fault)
        self.receipts: dict[str, str] = {}  # receipt handle -> message id
        self._admin = admin
        self._clients: dict[tuple[str, str], Any] = {}
        self._lock = threading.Lock()
        # Each process's requests being answered now, and when its last one was answered;
        # receives aside (a long poll is waiting, not acting): worker_crash kills a worker
        # between two of its acts (kit/faults/process.py).
        self._calling: Counter[str] = Counter()
        self._answered: dict[str, float] = {}
        self.store = PolicyStore(self.admin_client, self.url_of("sqs"), account)
        self.guard = Guard(recorder, self.store, account)
        # SNS publishes are answered by the kit's fan-out, never by the emulator's.
        self.fanout = sns.Fanout(self.admin_client, self.store, recorder, self.url_of("sqs"),
                                 lambda body: self.key_of(body))
        # Events for EventBridge rules: put by the kit (the platform's ingest application),
        # delivered by the kit's bus through the targets' queue policies.
        self.events = events.EventBus(self.admin_client, self.store, recorder,
                                      self.url_of("sqs"), lambda body: self.key_of(body),
                                      account)
        self._pool = urllib3.PoolManager(maxsize=32, retries=False,
                                         timeout=urllib3.Timeout(connect=5, read=60))
        # The upstream may be down (a fault): the caller gets a 502.
        self._http = LoopbackServer(self.handle, lambda exc, path: (
            502, {"Content-Type": "text/plain"}, str(exc).encode()), "gateway",
            Bounds(limits.MAX_HEADER_BYTES, MAX_CONNECTIONS, self.check_size,
                   self._refused_unread))
        self.port, self.url = self._http.port, self._http.url

    def __enter__(self) -> Gateway:
        self._http.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.stop()
        self._pool.clear()

    def register(self, access_key_id: str, process: str, *,
                 secret_access_key: str | None = None, principal_arn: str | None = None,
                 role_arn: str | None = None, session_token: str | None = None) -> None:
        """Accept `access_key_id` for `process`: verified and authorized as `principal_arn`.

        `principal_arn` is the session ARN (`arn:aws:sts::ACCT:assumed-role/ROLE/SESSION`,
        see `sessions.assumed_role_arn`) or an IAM user ARN; `role_arn` is the role behind
        a session (found by name when omitted); `session_token`, when given, must come with
        every request. Without a secret the key is attribution only (for tests): its calls
        are recorded but neither verified nor authorized.
        """
        self.guard.register(Session(access_key_id, process, secret_access_key, principal_arn,
                                    role_arn, session_token))

    def invalidate(self) -> None:
        """Re-read policies on the next request (call after changing IAM state directly)."""
        self.store.invalidate()

    def url_of(self, service: str) -> str:
        """The endpoint of the emulator that serves `service`."""
        return self.routes.url(service).rstrip("/") if self.routes else self.upstream

    def admin_client(self, service: str, region: str = aws.REGION) -> Any:
        """A boto3 client with the kit's admin credentials, straight to the emulator, in
        `region`."""
        with self._lock:
            if (service, region) not in self._clients:
                self._clients[service, region] = aws.client(service, self.url_of(service),
                                                            self._admin, region)
            return self._clients[service, region]

    def lose_deletes(self, count: int) -> None:
        """Fault hook: acknowledge the next `count` deletes without performing them."""
        with self._lock:
            self.lost_deletes += count

    def _take_lost_delete(self) -> bool:
        with self._lock:
            if self.lost_deletes > 0:
                self.lost_deletes -= 1
                return True
            return False

    def lose_region(self, region: str) -> None:
        """Fault hook: every call signed for `region` is answered 503 ServiceUnavailable,
        whoever makes it, until `restore_region`."""
        with self._lock:
            self.lost_regions.add(region)

    def restore_region(self, region: str) -> None:
        """The Region's endpoints answer again (idempotent)."""
        with self._lock:
            self.lost_regions.discard(region)

    def _unreachable(self, method: str, headers: dict[str, str]) -> replies.Reply | None:
        # A lost Region's API: AWS's own answer when a service cannot serve
        # (ServiceUnavailable, 503, which SDKs retry), before anything is authorized.
        region = limits.region_of(headers)
        if region not in self.lost_regions:
            return None
        service = limits.service_of(headers)
        refusal = limits.Refusal("ServiceUnavailable", 503,
                                 f"The {service} endpoint of {region} is unavailable.")
        self._note_refusal(self.guard.process_of(headers), refusal, service)
        return replies.error(service, limits.protocol_of(service, headers), refusal.code,
                             refusal.message, head=method == "HEAD", status=refusal.status)

    def check_size(self, method: str, path: str, headers: dict[str, str],
                   client_ip: str = "127.0.0.1") -> replies.Reply | None:
        """Before a body is read: the refusal of one too large or streamed, else None."""
        service = limits.service_of(headers)
        refusal = limits.check_length(service, headers)
        if refusal is None:
            return None
        self._note_refusal(self.guard.process_of(headers), refusal, service)
        return replies.error(service, limits.protocol_of(service, headers), refusal.code,
                             refusal.message, head=method == "HEAD", status=refusal.status)

    def _refused_unread(self, what: str, detail: str) -> None:
        """A connection or a malformed request refused before its headers were known."""
        code = "ConnectionLimitExceeded" if what == "connection" else "MalformedRequest"
        self.recorder.record_sampled("unknown", "request_refused", **bounded(
            {"code": code, "reason": detail}))

    def _note_refusal(self, process: str, refusal: limits.Refusal, service: str) -> None:
        self.recorder.record_sampled(process, "request_refused", **bounded(
            {"code": refusal.code, "reason": refusal.message, "service": service}))

    def handle(self, method: str, path: str, headers: dict[str, str], body: bytes,
               client_ip: str = "127.0.0.1") -> replies.Reply:
        """Answer one request: refuse, deny, swallow, or forward and record."""
        if path.startswith(self.admin_paths):
            self.recorder.record(self.guard.process_of(headers), "authz", **bounded({
                "action": path.split("/")[1].split("?")[0], "operation": method,
                "resource": path.split("?", 1)[0], "decision": "ExplicitDeny",
                "deciding": [],
                "reason": "the emulator's admin API is refused to every workload"}))
            return 403, {"Content-Type": "text/plain"}, b"the emulator admin API is not for you"
        unreachable = self._unreachable(method, headers) if self.lost_regions else None
        if unreachable is not None:
            return unreachable
        try:
            session, call = self.guard.admit(method, path, headers, body, client_ip)
        except Refused as refused:
            return refused.reply
        if call.operation == "ReceiveMessage":
            return self._forward(session, call, method, path, headers, body, client_ip)
        with self._lock:
            self._calling[session.process] += 1
        try:
            return self._forward(session, call, method, path, headers, body, client_ip)
        finally:
            with self._lock:
                self._calling[session.process] -= 1
                self._answered[session.process] = self.recorder.now()

    def calling(self) -> frozenset[str]:
        """The processes with a request being answered now (a receive aside)."""
        with self._lock:
            return frozenset(name for name, n in self._calling.items() if n > 0)

    def answered(self, process: str) -> float | None:
        """When `process`'s last request (a receive aside) was answered, on the run's clock."""
        with self._lock:
            return self._answered.get(process)

    def _forward(self, session: Session, call: actions.Call, method: str, path: str,
                 headers: dict[str, str], body: bytes, client_ip: str) -> replies.Reply:
        """Send an authorized call to the emulator (or swallow it: a fault) and record it."""
        if call.service == "sns" and call.operation in actions.sns.PUBLISH:
            return self.fanout.answer(call)
        request = sqs.parse(headers, body) if call.service == "sqs" else None
        refusal = limits.check_sqs(request) if request is not None else None
        if request is not None and refusal is not None:
            self._note_refusal(session.process, refusal, "sqs")
            return replies.error("sqs", request.protocol, refusal.code, refusal.message,
                                 status=refusal.status)
        if request is not None and request.action == "ReceiveMessage":
            body = sqs.with_receive_count(request, body)
        if request is not None and request.action.startswith("DeleteMessage") \
                and self._take_lost_delete():
            self._record_lost(session.process, request)
            return sqs.success_reply(request)
        forward = {k: v for k, v in headers.items() if k.lower() not in HOP_BY_HOP}
        resp = self._pool.request(method, self.url_of(call.service) + path, body=body,
                                  headers=forward, preload_content=True, redirect=False)
        self.guard.completed(session, call, resp.status, resp.data)
        hidden = self.guard.hide_missing(session, call, method, headers, client_ip,
                                         resp.status, resp.data)
        if hidden is not None:  # S3: a miss the caller may not learn of (403, not 404)
            return hidden
        if request is not None:
            self._record(session.process, request, resp.status, resp.data)
        # A HEAD reply has no body, but its Content-Length is the object's size (S3).
        out = {k: v for k, v in resp.headers.items() if k.lower() not in HOP_BY_HOP
               or (method == "HEAD" and k.lower() == "content-length")}
        return resp.status, out, resp.data

    def _record(self, process: str, request: sqs.SqsRequest, status: int, data: bytes) -> None:
        action = request.action
        if action == "ReceiveMessage":
            for msg in sqs.received(request, status, data):
                with self._lock:
                    self.receipts[msg["receipt"]] = msg["message_id"]
                extra = {"group": msg["group"]} if msg.get("group") else {}
                self.recorder.record(process, "receive", **bounded({
                    "message_id": msg["message_id"],
                    "key": self.key_of(unwrap(msg["body"])),
                    "receive_count": msg["receive_count"], **extra}))
        elif action in ("DeleteMessage", "DeleteMessageBatch"):
            for entry in sqs.succeeded(request, status, data):
                self.recorder.record(process, "delete", message_id=self._message_of(entry))
        elif action.startswith("ChangeMessageVisibility"):
            for entry in sqs.succeeded(request, status, data):
                self.recorder.record(process, "change_visibility",
                                     message_id=self._message_of(entry),
                                     timeout=float(entry.get("VisibilityTimeout", 0)))

    def _record_lost(self, process: str, request: sqs.SqsRequest) -> None:
        for entry in request.entries():
            message_id = self._message_of(entry)
            self.recorder.record(process, "delete", message_id=message_id)
            self.recorder.record("nemesis", "fault_effect", effect="delete lost",
                                 message_id=message_id)

    def _message_of(self, entry: dict[str, Any]) -> str:
        with self._lock:
            return self.receipts.get(entry.get("ReceiptHandle", ""), "unknown")
