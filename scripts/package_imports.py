"""The packages' imports, drawn from the code: each layer of the layers contract (in
pyproject.toml, from the top) with the layers it imports and how many module imports each
arrow stands for, then any arrow upward or sideways and any import of a game's package from
outside the games (both none while the contracts hold). docs/architecture.md shows this
drawing; a test holds it to the code.

Run: scripts/package-imports
"""

from __future__ import annotations

import sys
import tomllib
from collections import Counter
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("baccarat", "fortune8", "q_poker", "stud_poker")


def layers() -> list[str]:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return next(c["layers"] for c in contracts["contracts"] if c["type"] == "layers")


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[0] if parts[0] == "projections" else ".".join(parts[:2])


def _short(package: str) -> str:
    return package.removeprefix("ledger.")


def drawing() -> str:
    sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph("ledger", "projections", cache_dir=None)
    arrows: Counter[tuple[str, str]] = Counter()
    games: Counter[str] = Counter()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if _package(module) != _package(imported):
                arrows[_package(module), _package(imported)] += 1
            game = imported.split(".")
            if (len(game) > 2 and game[:2] == ["ledger", "games"] and game[2] in GAMES
                    and not module.startswith("ledger.games")):
                games[_package(module)] += 1
    order = layers()
    place = {package: n for n, package in enumerate(order)}
    width = max(len(_short(p)) for p in order)
    lines = [f"{_short(a):<{width}} -> " + " ".join(
        f"{_short(b)}({arrows[a, b]})" for b in order if arrows[a, b]) for a in order]
    lines = [line.rstrip(" ->") if line.endswith("-> ") else line for line in lines]
    against = [f"{_short(a)}->{_short(b)}({n})" for (a, b), n in sorted(arrows.items())
               if a in place and b in place and place[b] <= place[a]]
    lines.append(f"upward or sideways: {', '.join(against) or 'none'}")
    lines.append("a game's package imported from outside the games: "
                 + (", ".join(f"{_short(p)}({n})" for p, n in sorted(games.items())) or "none"))
    return "\n".join(lines)


if __name__ == "__main__":
    print(drawing())
