"""The README and the pages under docs/: the site builds, every relative link, image and anchor
resolves (on GitHub and in MkDocs alike), the README stays one short page, and no page cites an
issue number."""

from __future__ import annotations

import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
README_MAX_LINES = 250

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1", re.DOTALL)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)


def prose(text: str) -> str:
    """The text as a reader sees it outside code: fenced blocks and code spans removed."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading (MkDocs agrees on the headings these pages use)."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = unicodedata.normalize("NFKC", text).strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    for _, heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(heading)
        name, n = base, 1
        while name in found:  # a repeated heading gets -1, -2, ...
            name, n = f"{base}-{n}", n + 1
        found.add(name)
    return found


def links(path: Path) -> list[str]:
    return LINK.findall(prose(path.read_text(encoding="utf-8")))


def test_mkdocs_builds_the_site_strictly(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="mkdocs is not installed: pip install -e '.[docs]'")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                            str(tmp_path / "site"), "--config-file", str(ROOT / "mkdocs.yml")],
                           cwd=ROOT, capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    assert (tmp_path / "site" / "index.html").exists()


def test_every_page_is_in_the_sites_navigation() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r":\s*([\w-]+\.md)\s*$", config, re.MULTILINE))
    assert listed == {page.name for page in DOCS.glob("*.md")}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_and_images_resolve(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):  # http:, https:, mailto:
            continue
        where, _, anchor = target.partition("#")
        file = (page.parent / where).resolve() if where else page
        if not file.exists():
            broken.append(f"{target}: no file {file}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading with the anchor #{anchor} in {file.name}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_table_cell_holds_a_pipe_in_code(page: Path) -> None:
    """GitHub splits a table row at every `|`, code spans included; MkDocs does not."""
    rows = [line for line in FENCE.sub("", page.read_text(encoding="utf-8")).splitlines()
            if line.startswith("|")]
    split = [span for row in rows for span in re.findall(r"`[^`]*`", row) if "|" in span]
    assert not split, f"{page.relative_to(ROOT)}: {split}"


def test_the_readme_is_one_short_page() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


def test_the_readme_links_every_docs_page() -> None:
    linked = {Path(target.partition("#")[0]).name for target in links(README)
              if target.startswith("docs/") and target.partition("#")[0].endswith(".md")}
    missing = {page.name for page in DOCS.glob("*.md")} - linked - {"index.md"}
    assert not missing, f"README.md links no page {sorted(missing)}"


ISSUE = re.compile(r"\bissues?\s*#?\d+|(?<![\w&/])#\d{1,4}\b", re.IGNORECASE)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_cites_an_issue_number(page: Path) -> None:
    cited = ISSUE.findall(prose(page.read_text(encoding="utf-8")))
    assert not cited, f"{page.relative_to(ROOT)} cites {cited}"


def test_the_issue_pattern_catches_what_it_should() -> None:
    for text in ("fixed in issue 12", "see Issues #31", "(#7)", "as #120 said"):
        assert ISSUE.search(prose(text)), text
    for text in ("a 64-table floor", "`#1`", "[x](page.md#the-seal)", "C#", "&#39;"):
        assert not ISSUE.search(prose(text)), text


def test_every_picture_in_docs_was_taken_from_the_page_templates_as_they_are():
    """docs/screenshots.json keeps, for each picture, the digest of the templates its page is
    drawn from when it was taken: a template changed since means the picture shows an older
    page."""
    import json

    from scripts.screenshots import PICTURES, RECORD, record

    kept = json.loads(RECORD.read_text(encoding="utf-8"))
    now = record()
    assert sorted(kept) == sorted(PICTURES) and all((DOCS / p).is_file() for p in PICTURES)
    stale = {picture: now[picture]["templates"] for picture in PICTURES
             if kept[picture]["sha256"] != now[picture]["sha256"]}
    assert not stale, (
        "page templates changed after their pictures were taken: "
        + "; ".join(f"docs/{p} ({', '.join(t)})" for p, t in stale.items())
        + ": run scripts/screenshots to take them again")
