"""The sticky PR comment: one per pull request (and check name), found again by a hidden
marker and updated on every push, never duplicated."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from kit.ci import github
from kit.errors import InputError

# GitHub refuses a comment body above 65536 characters.
LIMIT = 65000
MARKER = "<!-- kit-pr-check:{name} -->"


@dataclass(frozen=True)
class Posted:
    """What `post` did: "created", "updated" or "skipped" (why in `note`), and the URL."""

    action: str
    url: str = ""
    note: str = ""


def summaries(report: Path) -> list[Path]:
    """The summary.md files under a report directory (`kit eval --out DIR`), in order."""
    if not report.is_dir():
        raise InputError(f"--report {report}: no such directory (pass the --out of kit eval)")
    found = sorted(report.rglob("summary.md"))
    if not found:
        raise InputError(f"--report {report}: no summary.md in it (did kit eval run with "
                         f"--out {report}?)")
    return found


def body(report: Path, name: str, footer: str = "") -> str:
    """The comment: the marker, then each summary.md, then `footer`; cut to GitHub's
    limit at a line, saying so."""
    marker = MARKER.format(name=name)
    parts = [p.read_text().strip() for p in summaries(report)]
    text = "\n\n---\n\n".join(parts)
    tail = f"\n\n{footer}" if footer else ""
    room = LIMIT - len(marker) - len(tail) - 200
    if len(text) > room:
        cut = text[:room].rsplit("\n", 1)[0]
        text = (f"{cut}\n\n_(cut: {len(text) - len(cut)} more characters; the whole "
                "summaries are in the reports artifact)_")
    return f"{marker}\n{text}{tail}\n"


def run_link(env: dict[str, str]) -> str:
    """A line linking the workflow run (its artifacts hold the reports), if known."""
    server, repo, run = (env.get(k) for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY",
                                               "GITHUB_RUN_ID"))
    if not (server and repo and run):
        return ""
    url = f"{server}/{repo}/actions/runs/{run}"
    return f"Reports, histories and JUnit: the artifacts of [this run]({url})."


def post(report: Path, name: str = "kit", env: dict[str, str] | None = None) -> Posted:
    """Create the PR's comment, or update the one carrying the marker."""
    env = dict(os.environ if env is None else env)
    summaries(report)  # a wrong --report is said before anything else
    pr = github.from_environment(env)
    if pr is None:
        return Posted("skipped", note="the event is not a pull request: no comment")
    text = body(report, name, run_link(env))
    client = github.Client(pr)
    marker = MARKER.format(name=name)
    try:
        # The kit's own comment begins with the marker (body() puts it first); one that only
        # quotes it (a reviewer's reply, a forged label) is someone else's.
        mine = [c for c in client.comments() if (c.get("body") or "").startswith(marker)]
        if mine:
            done = client.update(mine[0]["id"], text)
            return Posted("updated", done.get("html_url", ""))
        return Posted("created", client.create(text).get("html_url", ""))
    except github.ApiError as exc:
        if exc.status == 403:
            # A PR from a fork gets a read-only token: the check's verdict still stands.
            return Posted("skipped", note=f"the token may not comment here ({exc})")
        raise
