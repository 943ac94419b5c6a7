"""Baccarat's scoreboards, from the coups' winners in the order they were dealt: pure, no I/O.

- The **bead plate**: one cell a coup (banker, player or tie), filled down columns of six, left
  to right.
- The **big road**: a column for each streak of the same winner (banker or player), six cells
  down; a streak longer than the column turns right along its bottom row (the "dragon tail").
  A tie is not a cell of its own: it is marked on the cell of the coup before it (a tie
  before any banker or player win is marked on the first cell when it comes).

These are what a baccarat table's display shows players; the floor page draws them for the pit.
"""

from __future__ import annotations

from collections.abc import Iterable

from ledger.games.boards import ROWS, Cell, Road

WINNERS = ("banker", "player", "tie")


def bead_plate(winners: Iterable[str]) -> Road:
    road = Road()
    for index, winner in enumerate(_checked(winners)):
        road.cells[(index // ROWS, index % ROWS)] = Cell(winner)
    return road


def big_road(winners: Iterable[str]) -> Road:
    road = Road()
    streak_start = -1  # the column the current streak began in
    last: tuple[int, int] | None = None
    pending_ties = 0  # ties before the first banker or player win
    for winner in _checked(winners):
        if winner == "tie":
            if last is None:
                pending_ties += 1
            else:
                road.cells[last].ties += 1
            continue
        if last is None or road.cells[last].winner != winner:
            streak_start = _first_free_column(road, streak_start + 1)
            place = (streak_start, 0)
        else:
            column, row = last
            below = (column, row + 1)
            place = below if row + 1 < ROWS and below not in road.cells else (column + 1, row)
        road.cells[place] = Cell(winner, ties=pending_ties)
        pending_ties = 0
        last = place
    return road


def _first_free_column(road: Road, start: int) -> int:
    """A new streak starts at the top of the next column whose top cell is free (a dragon
    tail may have run along the bottom into it, but never its top)."""
    column = start
    while (column, 0) in road.cells:
        column += 1
    return column


def _checked(winners: Iterable[str]) -> list[str]:
    listed = list(winners)
    for winner in listed:
        if winner not in WINNERS:
            raise ValueError(f"'{winner}' is not a baccarat winner: banker, player or tie")
    return listed
