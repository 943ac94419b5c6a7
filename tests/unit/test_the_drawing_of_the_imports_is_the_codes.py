"""docs/architecture.md draws the packages' imports; the drawing is the one the code makes now
(`scripts/package-imports`), so an arrow added or removed shows in the docs or fails here."""

from __future__ import annotations

import re
from pathlib import Path

from scripts.package_imports import drawing

ROOT = Path(__file__).resolve().parents[2]


def test_the_architecture_pages_drawing_of_the_imports_is_the_one_the_code_makes():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    shown = re.search(r"<!-- package-imports -->\n```\n(.*?)\n```\n<!-- /package-imports -->",
                      page, re.DOTALL)
    assert shown, "docs/architecture.md has no drawing of the packages' imports"
    assert shown.group(1) == drawing(), "run scripts/package-imports and put its drawing in"


def test_no_arrow_goes_up_or_sideways_and_no_game_is_imported_from_outside_the_games():
    lines = drawing().splitlines()
    assert "upward or sideways: none" in lines
    assert "a game's package imported from outside the games: none" in lines
