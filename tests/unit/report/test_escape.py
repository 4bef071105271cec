"""What a solution writes is shown as exactly its characters (kit/report/escape.py): in
summary.md and the PR comment (parsed here by markdown-it, a CommonMark parser, with GFM's
tables and strikethrough), in junit.xml (parsed by ElementTree) and on the terminal (rich)."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
from markdown_it import MarkdownIt
from rich.console import Console

from kit import scenario
from kit.checks.result import CheckResult
from kit.ci import comment
from kit.report import compare, document, junit, markdown
from kit.report.escape import code, fence, md, terminal
from kit.run.result import RunResult

HOSTILE = ["![x](https://evil.example/p.png)", "[ok](https://evil.example)",
           "<!-- kit-pr-check:kit -->", "a\n\n## kit: `order-pipeline`: pass", "<img src=x>",
           "`tick` ``two``", "| cell | break |", "**bold** _em_ ~~gone~~", "&amp; &#60;",
           "\\[escaped\\]", "```\n</details>\n```", "\x1b[31mred\x1b]8;;https://x\x07",
           "[bold red]markup[/]", "q_name_", "_lead", "https://bare.example"]
PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _kinds(text: str) -> set[str]:
    kinds = set()
    for token in PARSER.parse(text):
        kinds.add(token.type)
        kinds |= {child.type for child in token.children or []}
    return kinds


def _plain(text: str) -> str:
    """What a reader sees of an inline Markdown text."""
    (inline,) = [t for t in PARSER.parse(text) if t.type == "inline"]
    return "".join(c.content for c in inline.children if c.type in ("text", "code_inline"))


@pytest.mark.parametrize("value", HOSTILE)
def test_inline_text_and_code_render_as_their_characters_on_one_line(value: str) -> None:
    one_line = re.sub(r"\n+", " ", value)
    for rendered in (md(value), code(value)):
        kinds = _kinds(f"x {rendered} y")
        assert not kinds & {"link_open", "image", "html_inline", "html_block", "heading_open",
                            "em_open", "strong_open", "s_open", "table_open"}, rendered
    shown = _plain(f"x {md(value)} y")
    assert shown == f"x {one_line} y".replace("\x1b", "\ufffd").replace("\x07", "\ufffd")


@pytest.mark.parametrize("value", HOSTILE)
def test_a_fenced_block_cannot_be_closed_from_inside(value: str) -> None:
    tokens = [t for t in PARSER.parse(f"{fence(value, 'json')}\n\nafter\n") if t.type == "fence"]
    assert len(tokens) == 1
    assert tokens[0].content.rstrip("\n") == value.replace("\x1b", "\ufffd").replace(
        "\x07", "\ufffd")


def _hostile_document() -> dict:
    sc = scenario.load("order-pipeline")
    evil = " ".join(HOSTILE)
    results = {"delivery.no_loss": CheckResult(
        id="delivery.no_loss", verdict="fail", summary=f"lost {evil}",
        evidence={"lost": [evil, "```"], "of": 3}, params={})}
    run = RunResult("order-pipeline", "sol", "worker_crash", 1, "fail", results,
                    None).to_dict()
    run["used_vs_granted"] = {evil: {"granted": 2, "used": [["sqs:SendMessage", evil]],
                                     "granted_unused": [{"action": "sqs:*", "resource": evil}],
                                     "needed_policy": {"Statement": [{"Resource": evil}]}}}
    erred = RunResult("order-pipeline", "sol", "db_outage", 1, "error", {},
                      f"deploy failed: {evil}").to_dict()
    build = [RunResult("order-pipeline", "sol", "worker_crash", 1, "fail", results)]
    doc = document.build(sc, f"/work/{evil}", build, f"kit eval --solution '{evil}'")
    doc["runs"] = [run, erred]
    base = doc | {"runs": [RunResult("order-pipeline", "sol", "worker_crash", 1, "pass",
                                     {}).to_dict()], "outcome": "pass"}
    return compare.attach(doc, base, "new", evil, evil, "f" * 40)


def test_the_summary_of_a_hostile_solution_has_no_link_image_html_or_forged_heading() -> None:
    text = markdown.render(_hostile_document())
    kinds = _kinds(text)
    assert not kinds & {"link_open", "image", "s_open", "em_open"}
    tokens = PARSER.parse(text)
    titles = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert titles[0].startswith("kit: `order-pipeline`")
    assert not [title for title in titles[1:] if title.startswith("kit:")]
    html = _html(text)
    assert all(h.strip().startswith(("<details>", "</details>", "<summary>", "</summary>"))
               for h in html), html

def _html(text: str) -> list[str]:
    """Every HTML the text holds, as a Markdown renderer would pass it through."""
    tokens = PARSER.parse(text)
    return [t.content for t in tokens if t.type == "html_block"] + [
        c.content for t in tokens for c in t.children or [] if c.type == "html_inline"]


def test_the_comment_is_found_by_its_leading_marker_only(tmp_path) -> None:
    (tmp_path / "summary.md").write_text(markdown.render(_hostile_document()))
    body = comment.body(tmp_path, "kit")
    assert body.startswith(comment.MARKER.format(name="kit"))
    assert [h for h in _html(body) if "kit-pr-check" in h] == [comment.MARKER.format(
        name="kit") + "\n"]  # a forged one is text in a code span, never a comment


def test_junit_of_a_hostile_solution_is_well_formed_xml() -> None:
    root = ET.fromstring(junit.render(_hostile_document()).split("\n", 1)[1])
    failure = root.find(".//failure")
    assert failure is not None and "kit-pr-check" in failure.get("message", "")


def test_the_terminal_shows_markup_and_escapes_as_text() -> None:
    out = io.StringIO()
    Console(file=out, force_terminal=True, color_system="truecolor", width=200).print(
        terminal("[bold red]markup[/] \x1b[31mred\x1b]8;;https://x\x07"), highlight=False)
    printed = out.getvalue()
    assert "[bold red]markup[/]" in printed
    assert "\x1b[31mred" not in printed and "\x07" not in printed and "\x1b]8" not in printed
