"""Text a solution wrote, made inert wherever the kit shows it: Markdown, XML, the terminal.

A solution names its queues, roles, functions and resources, its worker writes its own
output and errors, and in team mode its `.kit/` names the scenario, faults and variants;
any of them can reach a report. Shown raw, `![x](https://...)` makes a reviewer's browser
fetch an image, `[ok](https://...)` is a link dressed as kit text, `<!-- kit-pr-check:kit
-->` forges the sticky comment's marker, a newline and `## kit: pass` forges a verdict, an
ESC sequence rewrites a terminal and `[link=...]` is rich markup. Each renderer passes every
value it did not write itself through one of these (report.html escapes with
kit/report/svg.py's `esc`, under a CSP that loads nothing). Written here because no
maintained library escapes Markdown for inline text (markdown-it and mistune parse it;
neither writes it).
"""

from __future__ import annotations

import re

from rich.markup import escape as _rich_escape

# C0 and C1 controls (ESC, BEL, CR, ...) and DEL; a newline is handled by each use.
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")
_LINES = re.compile(r"[\r\n\u2028\u2029]+")
# Every ASCII punctuation CommonMark or GFM may give a meaning inline (links, images,
# emphasis, code, HTML, entities, tables, strikethrough, escapes): CommonMark lets any
# ASCII punctuation be backslash-escaped, so escaping one that needs none is harmless. An
# `_` between two letters or digits can open no emphasis and stays as it is (`db_outage`).
_MARKDOWN = re.compile(r"([\\`*\[\]()<>!|~&#]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
# XML 1.0 allows tab, newline, carriage return and these ranges; anything else is refused
# by every parser (a CI that uploads junit.xml would reject the whole file).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _line(value: object) -> str:
    """One line of text: newlines to spaces, control characters to U+FFFD."""
    return _CONTROL.sub("\ufffd", _LINES.sub(" ", str(value)))


def md(value: object) -> str:
    """A value as inline Markdown text that renders as exactly its characters, on one line."""
    return _MARKDOWN.sub(r"\\\1", _line(value))


def code(value: object) -> str:
    """A value as an inline Markdown code span (literal: no link, image or HTML in it)."""
    text = _line(value)
    ticks = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def fence(value: object, info: str = "") -> str:
    """A value as a fenced Markdown code block: a fence longer than any backtick run in it,
    so nothing inside can close it; control characters (not newlines) replaced."""
    text = _CONTROL.sub("\ufffd", str(value))
    ticks = "`" * max(3, max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    return f"{ticks}{info}\n{text}\n{ticks}"


def xml(text: str) -> str:
    """A whole XML document with every character XML 1.0 forbids replaced."""
    return _NOT_XML.sub("\ufffd", text)


def terminal(value: object) -> str:
    """A value for rich's console: no control characters (ESC, CR, BEL), no markup."""
    return _rich_escape(_CONTROL.sub("\ufffd", str(value)))
