"""The few GitHub REST calls of the PR comment, with the workflow's own token only."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

from kit.errors import InputError, KitError

PER_PAGE = 100
TIMEOUT = 30


@dataclass(frozen=True)
class PullRequest:
    """Where a comment goes: the API, the repository, the PR's number, the token."""

    api: str
    repository: str
    number: int
    token: str


def from_environment(env: dict[str, str] | None = None) -> PullRequest | None:
    """The PR of this workflow run (from GITHUB_* variables and the event payload); None
    when the event is not a pull request. InputError naming the variable or field that is
    missing."""
    env = dict(os.environ if env is None else env)
    for name in ("GITHUB_REPOSITORY", "GITHUB_EVENT_PATH", "GITHUB_TOKEN"):
        if not env.get(name):
            raise InputError(f"{name} is not set: run `kit comment` in a GitHub Actions step "
                             "(GITHUB_TOKEN: pass the workflow's token in env)")
    path = Path(env["GITHUB_EVENT_PATH"])
    try:
        event = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise InputError(f"GITHUB_EVENT_PATH {path}: cannot read the event payload: "
                         f"{exc}") from exc
    pull = event.get("pull_request") if isinstance(event, dict) else None
    if pull is None:
        return None
    number = pull.get("number", event.get("number")) if isinstance(pull, dict) else None
    if not isinstance(number, int):
        raise InputError(f"{path}: field pull_request.number is missing or not a number")
    return PullRequest(env.get("GITHUB_API_URL") or "https://api.github.com",
                       env["GITHUB_REPOSITORY"], number, env["GITHUB_TOKEN"])


class Client:
    """Issue comments of one pull request."""

    def __init__(self, pr: PullRequest) -> None:
        self.pr = pr
        self.session = requests.Session()
        self.session.headers.update({"Authorization": f"Bearer {pr.token}",
                                     "Accept": "application/vnd.github+json",
                                     "X-GitHub-Api-Version": "2022-11-28"})

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        url = f"{self.pr.api.rstrip('/')}{path}"
        try:
            response = self.session.request(method, url, timeout=TIMEOUT, **kwargs)
        except requests.RequestException as exc:
            raise KitError(f"GitHub API {method} {url}: {exc}") from exc
        if response.status_code >= 400:
            raise ApiError(response.status_code, f"GitHub API {method} {url}: HTTP "
                           f"{response.status_code}: {response.text[:300]}")
        return response.json()

    def comments(self) -> list[dict[str, Any]]:
        """Every comment of the PR, page by page."""
        found: list[dict[str, Any]] = []
        page = 1
        while True:
            batch = self._call("GET", f"/repos/{self.pr.repository}/issues/{self.pr.number}"
                               f"/comments", params={"per_page": PER_PAGE, "page": page})
            found += batch
            if len(batch) < PER_PAGE:
                return found
            page += 1

    def create(self, body: str) -> dict[str, Any]:
        """A new comment on the PR."""
        return self._call("POST", f"/repos/{self.pr.repository}/issues/{self.pr.number}"
                          "/comments", json={"body": body})

    def update(self, comment_id: int, body: str) -> dict[str, Any]:
        """Replace a comment's body."""
        return self._call("PATCH", f"/repos/{self.pr.repository}/issues/comments/{comment_id}",
                          json={"body": body})


class ApiError(KitError):
    """An HTTP error answer of the GitHub API."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
