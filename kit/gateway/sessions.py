"""The credentials the gateway accepts, and whom each one belongs to."""

from __future__ import annotations

from dataclasses import dataclass

from kit.iam import Policy


@dataclass(frozen=True, slots=True)
class Session:
    """One set of credentials the kit handed out: its process, secret and IAM principal.

    Without a secret the session is attribution only (tests): its calls are recorded but
    neither verified nor authorized.
    """

    access_key_id: str
    process: str
    secret_access_key: str | None = None
    principal_arn: str | None = None  # arn:aws:sts::ACCT:assumed-role/ROLE/SESSION, or a user
    role_arn: str | None = None  # the role behind a role session, with its path
    session_token: str | None = None  # when set, requests must carry this token
    session_policies: tuple[Policy, ...] = ()  # AssumeRole's Policy parameter
    session_policy_arns: tuple[str, ...] = ()  # AssumeRole's PolicyArns parameter
    # When temporary credentials were issued (epoch seconds): aws:TokenIssueTime, which a
    # revocation of the role's sessions compares ("Revoking IAM role temporary security
    # credentials"); None for long-term credentials. Set by the guard when registered.
    issued: float | None = None

    @property
    def enforced(self) -> bool:
        """Say whether calls with these credentials are verified and authorized."""
        return self.secret_access_key is not None

    @property
    def session_name(self) -> str:
        """The role session name (the last part of an assumed-role ARN), or ""."""
        arn = self.principal_arn or ""
        return arn.rsplit("/", 1)[-1] if ":assumed-role/" in arn else ""


def assumed_role_arn(role_arn: str, session_name: str) -> str:
    """The principal ARN of a session of `role_arn` (STS drops the role's path)."""
    account = role_arn.split(":")[4]
    role_name = role_arn.rsplit("/", 1)[-1]
    return f"arn:aws:sts::{account}:assumed-role/{role_name}/{session_name}"
