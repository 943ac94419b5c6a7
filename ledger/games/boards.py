"""The scoreboards a table's display shows players, as the floor page draws them: cells in
columns of six, left to right. A game that keeps them (baccarat's bead plate and big road,
`ledger.games.baccarat.roads`) makes them from its rounds' outcomes (`Game.roads`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

ROWS = 6


@dataclass
class Cell:
    winner: str  # the side that won (banker, player or tie at baccarat)
    ties: int = 0  # ties marked on this cell (baccarat's big road)


@dataclass
class Road:
    """Cells by (column, row); `columns` is how many columns are used."""

    cells: dict[tuple[int, int], Cell] = field(default_factory=dict)

    @property
    def columns(self) -> int:
        return max((column for column, _ in self.cells), default=-1) + 1

    def grid(self, least: int = 1) -> list[list[Cell | None]]:
        """The rows, each a list of cells or None, at least `least` columns wide."""
        width = max(self.columns, least)
        return [[self.cells.get((column, row)) for column in range(width)]
                for row in range(ROWS)]


class Roads(NamedTuple):
    """A table's two scoreboards: one cell a round, and one column a streak."""

    bead: Road
    big: Road
