"""The README stays a ten-minute read and the docs site stays whole: every relative link
resolves inside the repository, and every page is in mkdocs.yml's nav and the README."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"
GLOSSARY = ("scenario", "solution", "golden", "variant", "fault", "invariant", "history",
            "verdict", "reward")
# Inline links and images, `[text](target)`; an autolink or a reference link is not used here.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def pages() -> list[Path]:
    """The README and every page of docs/."""
    return [README, *sorted(DOCS.glob("*.md"))]


def prose(text: str) -> str:
    """The text outside fenced code blocks, where a `[x](y)` is code, not a link."""
    return FENCE.sub("", text)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it (lower case, punctuation dropped, spaces as -)."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a markdown file's headings."""
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", prose(path.read_text()),
                                                   re.M)}


def links(path: Path) -> list[str]:
    """The relative link targets of a markdown file (no URL scheme, no mailto)."""
    return [t for t in LINK.findall(prose(path.read_text()))
            if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def broken(path: Path, root: Path = ROOT) -> list[str]:
    """Each relative link of a file that leaves the repository or finds nothing there."""
    found = []
    for target in links(path):
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path.resolve()
        if not dest.is_relative_to(root.resolve()):
            found.append(f"{target}: outside the repository")
        elif not dest.exists():
            found.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            found.append(f"{target}: no heading #{anchor}")
    return found


def nav_files(nav: object) -> set[str]:
    """Every page file named anywhere in mkdocs.yml's nested nav."""
    if isinstance(nav, str):
        return {nav}
    if isinstance(nav, list):
        return set().union(*(nav_files(item) for item in nav))
    if isinstance(nav, dict):
        return set().union(*(nav_files(item) for item in nav.values()))
    return set()


def test_the_readme_is_short() -> None:
    lines = README.read_text().splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines (at most 250)"
    long = [n for n, line in enumerate(lines, 1) if len(line) > 300]
    assert not long, f"README.md lines over 300 characters: {long}"


def test_the_quick_start_shows_the_setup_commands() -> None:
    text = README.read_text()
    section = re.search(r"^## Quick start\n(.*?)(?=^## )", text, re.M | re.S)
    assert section, "README.md has no '## Quick start' section"
    block = re.search(r"^```\w*\n(.*?)^```", section.group(1), re.M | re.S)
    assert block, "the quick start has no code block"
    for command in ("make setup", "make doctor", "make eval SCENARIO=order-pipeline",
                    "make test"):
        assert command in block.group(1), f"the quick start's code block lacks `{command}`"


def test_the_glossary_names_each_term() -> None:
    section = re.search(r"^## Glossary\n(.*?)(?=^## |\Z)", README.read_text(), re.M | re.S)
    assert section, "README.md has no '## Glossary' section"
    defined = set(re.findall(r"^- \*\*(\w+)\*\*", section.group(1), re.M))
    missing = [term for term in GLOSSARY if term not in defined]
    assert not missing, f"the glossary does not define {missing}"


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_inside_the_repository(page: Path) -> None:
    assert not broken(page), f"{page.relative_to(ROOT)}: {broken(page)}"


def test_no_link_to_the_design_outside_the_repository() -> None:
    # The design used to be linked as ../shared/DESIGN.md, beside the repository.
    for page in pages():
        assert "DESIGN.md" not in page.read_text(), f"{page.relative_to(ROOT)} names DESIGN.md"


def test_every_page_is_in_the_nav_and_the_readme() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    assert config["docs_dir"] == "docs"
    nav = nav_files(config["nav"])
    readme = {Path(t.partition("#")[0]).as_posix() for t in links(README)}
    on_disk = {p.name for p in DOCS.glob("*.md")}
    assert on_disk - nav == set(), f"pages missing from mkdocs.yml's nav: {on_disk - nav}"
    assert nav - on_disk == set(), f"mkdocs.yml's nav names missing pages: {nav - on_disk}"
    unlinked = {name for name in on_disk if f"docs/{name}" not in readme}
    assert not unlinked, f"pages the README does not link: {sorted(unlinked)}"


def test_the_checks_catch_a_bad_link(tmp_path: Path) -> None:
    # The link check must be able to fail: a missing file, a missing heading, an escape;
    # a link to a heading, a URL and a link inside a code block pass.
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Index\n\n## Two words\n")
    bad = tmp_path / "docs" / "bad.md"
    bad.write_text("# Title\n\n[a](nothing.md) [b](index.md#no-such-heading) "
                   "[c](../../outside.md) [d](#title) [e](https://example.com) "
                   "[g](index.md#two-words)\n```\n[f](in-code.md)\n```\n")
    assert broken(bad, tmp_path) == [
        "nothing.md: no such file",
        "index.md#no-such-heading: no heading #no-such-heading",
        "../../outside.md: outside the repository"]


def test_the_old_readme_fails(tmp_path: Path) -> None:
    # A README like the one before the docs site: too long, a link beside the repository.
    old = tmp_path / "README.md"
    old.write_text("# kit\n\nDesign: [design](../shared/DESIGN.md).\n" + "text\n" * 1995)
    assert len(old.read_text().splitlines()) > 250
    assert broken(old, tmp_path) == ["../shared/DESIGN.md: outside the repository"]
