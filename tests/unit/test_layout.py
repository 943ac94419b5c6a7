"""The layout holds: every module is short enough to read whole, the product's modules live in
its layer packages (none loose at the top of `ledger`), and no code outside a game's own package
decides anything by comparing a game's code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 400
GAME_CODES = re.compile(r"^(baccarat|stud-poker|stud_poker|q-poker|q_poker|fortune-8|fortune8)$")


def product_modules() -> list[Path]:
    return sorted(p for package in ("ledger", "projections") for p in (ROOT / package).rglob("*.py"))


def test_every_module_of_the_product_is_under_four_hundred_lines() -> None:
    long = {str(p.relative_to(ROOT)): n for p in product_modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) >= LIMIT}
    assert long == {}


def test_no_module_sits_loose_at_the_top_of_the_ledger() -> None:
    loose = sorted(p.name for p in (ROOT / "ledger").glob("*.py") if p.name != "__init__.py")
    assert loose == []


def game_code_literals(path: Path) -> list[str]:
    """The game codes written as string literals in a module (its docstrings aside)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and GAME_CODES.match(node.value):
            found.append(f"{path.name}:{node.lineno} {node.value!r}")
    return found


def test_only_a_games_own_package_names_its_code() -> None:
    games = ROOT / "ledger" / "games"
    outside = [line for p in product_modules() if games not in p.parents
               for line in game_code_literals(p)]
    assert outside == []


def test_the_game_code_check_finds_a_comparison(tmp_path: Path) -> None:
    sample = tmp_path / "floor.py"
    sample.write_text('"""Baccarat\'s roads."""\nif table.game == "baccarat":\n    pass\n',
                      encoding="utf-8")
    assert game_code_literals(sample) == ["floor.py:2 'baccarat'"]


SQL = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|LISTEN|NOTIFY|GRANT|REVOKE|"
                 r"TRUNCATE|WITH|LOCK|SET|SHOW)\s", re.IGNORECASE)
STORAGE = ("ledger/infrastructure", "projections", "ledger/audit")
"""Where statements may be written: the storage layer (the event store, the readable log, the
projections) and the audit, whose checks read the stored events themselves rather than
through the layer they are checking."""


def statements_in(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and SQL.match(node.value) and node.value.split()[0].isupper():
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_statements_are_written_only_in_storage_and_the_audit() -> None:
    outside = [line for p in product_modules()
               if not str(p.relative_to(ROOT)).startswith(STORAGE)
               for line in statements_in(p)]
    assert outside == []


def test_the_architecture_page_names_every_package_of_the_tree() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    layout = page.split("## Layout", 1)[1].split("```")[1]
    packages = sorted(p.parent.name for p in (ROOT / "ledger").glob("*/__init__.py"))
    missing = [name for name in packages if f"  {name}/" not in layout]
    assert packages and missing == []


def test_every_type_ignore_says_why() -> None:
    bare = [f"{p.relative_to(ROOT)}:{n}" for p in product_modules()
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if "type: ignore" in line
            and not re.search(r"type: ignore\[[a-z,_-]+\]\s*#\s*\S", line)]
    assert bare == []
