"""Who may do what: authenticate a request's SigV4 signature, then authorize each check.

The guard holds the credentials the kit registered (`Session`s), verifies every request
against them (`sigv4`), maps it to IAM checks (`actions`) and decides each one against the
emulator's current policies (`authz`). Every outcome is recorded in the run's history under
the calling process: `authn` ops for requests refused before authorization (unknown key,
bad signature), `authz` ops for every decision, allowed or not. Every field of them is
bounded (kit/history.py `bounded`): a worker chooses its access key id, action and resource.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import replace

from kit.errors import KitError
from kit.gateway import actions, encryption, replies, sigv4
from kit.gateway.authz import Authorizer
from kit.gateway.policies import PolicyStore
from kit.gateway.sessions import Session
from kit.history import MAX_KEY_ID, bounded, clip
from kit.iam import Policy, PolicyError, parse_policy
from kit.recorder import Recorder

_CREDENTIAL = re.compile(r"Credential=([^/\s,]+)/")
_ASSUMED = {name: re.compile(rf"<{name}>([^<]*)</{name}>")
            for name in ("AccessKeyId", "SecretAccessKey", "SessionToken", "Arn")}


class GatewayError(KitError):
    """The kit used the gateway wrongly (e.g. registered credentials without a principal)."""


class Refused(Exception):
    """A request that must not be forwarded, with the error reply to send instead."""

    def __init__(self, reply: replies.Reply) -> None:
        super().__init__(reply[0])
        self.reply = reply


class Guard:
    """Registered sessions, and the decision on each request they sign."""

    def __init__(self, recorder: Recorder, store: PolicyStore, account: str) -> None:
        self.recorder = recorder
        self.store = store
        self.account = account
        self.authorizer = Authorizer(store)
        self.sessions: dict[str, Session] = {}  # access key id -> session
        self.clock = sigv4.Clock()  # what signatures are judged against (clock_skew moves it)
        self._lock = threading.Lock()

    def register(self, session: Session) -> None:
        """Accept the session's credentials from now on."""
        if session.secret_access_key is not None and not session.principal_arn:
            raise GatewayError(
                f"register({session.access_key_id!r}, {session.process!r}) has a secret but "
                "no principal_arn; pass principal_arn=sessions.assumed_role_arn(role_arn, "
                "session_name) (or the user ARN) so that the gateway knows whose policies "
                "apply")
        if session.session_token is not None and session.issued is None:
            session = replace(session, issued=time.time())
        with self._lock:
            self.sessions[session.access_key_id] = session

    def admit(self, method: str, path: str, headers: dict[str, str], body: bytes,
              client_ip: str) -> tuple[Session, actions.Call]:
        """The session and call of an allowed request; raises Refused with the error reply."""
        session, auth = self._authenticate(method, path, headers, body)
        account = (session.principal_arn or "").split(":")[4:5]
        caller_account = account[0] if account else self.account
        call = actions.describe(method, path, headers, body, service=auth.service,
                                account=caller_account, region=auth.region,
                                names=self.store if session.enforced else None)
        if session.enforced:
            call = encryption.with_key_use(call, method, caller_account, auth.region,
                                           self.store)
        self._authorize(session, call, client_ip, auth.region, method)
        return session, call

    def completed(self, session: Session, call: actions.Call, status: int,
                  reply: bytes) -> None:
        """Learn from a forwarded call: policies it changed, sessions it created."""
        if not 200 <= status < 300:
            return
        if call.changes_policy:
            self.store.invalidate()
        if call.service == "sts" and call.operation == "AssumeRole":
            self._register_assumed(session, call, reply)

    def hide_missing(self, session: Session, call: actions.Call, method: str,
                     headers: dict[str, str], client_ip: str, status: int,
                     reply: bytes) -> replies.Reply | None:
        """AWS's answer to a read of a missing object where it is not the emulator's: 403
        AccessDenied to a caller `call.if_missing` (s3:ListBucket) denies; None otherwise.
        The check is decided and recorded only when the object is missing, so its `authz`
        op says the caller used the permission (kit/iam/usage.py)."""
        check = call.if_missing
        if check is None or not session.enforced or not actions.s3.missing_key(
                method, status, reply, lambda: self._bucket_exists(check.resource)):
            return None
        auth = sigv4.parse_authorization(headers.get("authorization"))
        region = auth.region if auth is not None else actions.REGION
        decision = self.authorizer.decide(session, call, check, client_ip, region)
        reason = (f"{decision.reason}; the object does not exist, and S3 tells a caller so "
                  "(404 NoSuchKey) only if it may s3:ListBucket the bucket, else it answers "
                  "403 AccessDenied (S3 API reference, GetObject, Permissions)")
        self._record_decision(session, call, check, decision.effect,
                              [str(ref) for ref in decision.deciding], reason)
        if decision.allowed:
            return None
        return replies.error("s3", call.protocol, "AccessDenied", replies.access_denied_message(
            session.principal_arn or "", check.action, check.resource, decision.reason),
            head=method == "HEAD")

    def _bucket_exists(self, bucket_arn: str) -> bool:
        return self.store.bucket_exists(bucket_arn.removeprefix("arn:aws:s3:::"))

    def process_of(self, headers: dict[str, str]) -> str:
        """The process a request claims to come from (unverified: for refusals only)."""
        found = _CREDENTIAL.search(headers.get("authorization", ""))
        if found is None:
            return "anonymous"
        session = self.sessions.get(found.group(1))
        return session.process if session is not None else "unknown"

    def _authenticate(self, method: str, path: str, headers: dict[str, str], body: bytes
                      ) -> tuple[Session, sigv4.Authorization]:
        """The registered session that signed this request; raises Refused otherwise."""
        process, key, service = self.process_of(headers), None, None
        try:
            auth = sigv4.parse_authorization(headers.get("authorization"))
            if auth is None:
                if "X-Amz-Signature=" in path:
                    raise sigv4.AuthFailure("IncompleteSignature", "presigned (query string) "
                                            "requests are not supported by the kit's gateway")
                raise sigv4.AuthFailure("MissingAuthenticationToken",
                                        "Request is missing Authentication Token")
            key, service = auth.access_key_id, auth.service
            session = self.sessions.get(auth.access_key_id)
            if session is None:
                raise sigv4.AuthFailure("InvalidClientTokenId",
                                        "The security token included in the request is invalid.")
            if session.enforced:
                if session.session_token is not None \
                        and headers.get("x-amz-security-token") != session.session_token:
                    raise sigv4.AuthFailure("InvalidClientTokenId", "The security token "
                                            "included in the request is invalid.")
                sigv4.verify(auth, session.secret_access_key or "", method, path, headers, body,
                             now=self.clock.now(session.process))
        except sigv4.AuthFailure as failure:
            call = actions.describe(method, path, headers, body, service=service,
                                    account=self.account)
            check = call.checks[0] if call.checks else actions.Check("", "")
            self.recorder.record_sampled(process, "authn", **bounded({
                "error": failure.code, "message": failure.message,
                "operation": call.operation, "action": check.action,
                "resource": check.resource}),
                access_key_id=None if key is None else clip(key, MAX_KEY_ID))
            raise Refused(replies.error(call.service, call.protocol, failure.code,
                                         failure.message, head=method == "HEAD")) from None
        return session, auth

    def _authorize(self, session: Session, call: actions.Call, client_ip: str, region: str,
                   method: str) -> None:
        """Record a decision per check; raise Refused (AccessDenied) at the first denial."""
        principal = session.principal_arn or ""
        if not session.enforced:
            for check in call.checks:
                self._record_decision(session, call, check, "Allow", [],
                                      "unenforced: registered without credentials")
            return
        if not call.mapped:
            action = f"{call.service}:{call.operation}" if call.service else call.operation
            self._record_decision(session, call, actions.Check(action, ""), "ImplicitDeny",
                                  [], call.problem)
            raise Refused(replies.error(call.service, call.protocol, "AccessDenied",
                                        f"User: {principal} is not authorized to perform "
                                        f"{call.operation or 'this request'}: {call.problem}",
                                        head=method == "HEAD"))
        for check in call.checks:
            decision = self.authorizer.decide(session, call, check, client_ip, region)
            self._record_decision(session, call, check, decision.effect,
                                  [str(ref) for ref in decision.deciding], decision.reason)
            if not decision.allowed:
                # SQS names a refused key use KmsAccessDenied; SNS says AuthorizationError
                # (SNS API reference, Common Errors); S3 says AccessDenied.
                code = "KmsAccessDenied" if call.service == "sqs" and \
                    check.action.startswith("kms:") else \
                    "AuthorizationError" if call.service == "sns" else "AccessDenied"
                raise Refused(replies.error(
                    call.service, call.protocol, code,
                    replies.access_denied_message(principal, check.action, check.resource,
                                                  decision.reason), head=method == "HEAD"))

    def _record_decision(self, session: Session, call: actions.Call, check: actions.Check,
                         effect: str, deciding: list[str], reason: str | None) -> None:
        """One `authz` op, every field bounded."""
        self.recorder.record(session.process, "authz", **bounded({
            "action": check.action, "operation": call.operation, "resource": check.resource,
            "decision": effect, "deciding": deciding, "reason": reason}))

    def _register_assumed(self, caller: Session, call: actions.Call, reply: bytes) -> None:
        """Accept the credentials an AssumeRole through the gateway returned, for its caller."""
        text = reply.decode(errors="replace")
        found = {name: pattern.search(text) for name, pattern in _ASSUMED.items()}
        if not all(found.values()):
            return
        value = {name: match.group(1) for name, match in found.items() if match}
        params = call.params
        policies: tuple[Policy, ...] = ()
        if params.get("Policy"):
            try:
                policies = (parse_policy(params["Policy"], name="session:Policy"),)
            except PolicyError:
                # A session policy the evaluator cannot read allows nothing (fail closed).
                policies = (Policy((), name="session:unparsable"),)
        arns = tuple(v for k, v in sorted(params.items())
                     if k.startswith("PolicyArns.member.") and k.endswith(".arn"))
        session = Session(value["AccessKeyId"], caller.process, value["SecretAccessKey"],
                          value["Arn"], params.get("RoleArn"), value["SessionToken"],
                          policies, arns, issued=time.time())
        with self._lock:
            self.sessions[session.access_key_id] = session

