"""Tables of money and counts in the terminal, whole at any width.

A figure is never cut, ellipsised or broken over lines: its column does not wrap. When the
terminal cannot hold every column, the columns a table ranks least are left out, the least
first, and a line under the table names them and says what shows them (`--wide`, `--json`).
Only a column marked as free text (a reason, an explanation) may wrap. `--wide` prints every
column at its full width, however wide the terminal.

Each table states its columns' rank (`Column.rank`): 0 is never left out; of the others, the
highest is left out first. That rule lives here only: commands describe their columns and
rows, `Grid.print` decides what fits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rich.console import Console, RenderableType
from rich.markup import escape
from rich.measure import Measurement
from rich.segment import Segments
from rich.table import Table

WRAPPED_WIDTH = 12
"""The narrowest a free-text column is counted when deciding what fits (wider if a word in it
is): it wraps within what the figures leave it."""
_UNBOUNDED = 10_000


@dataclass(frozen=True, eq=False)  # each column is itself: two alike are still two
class Column:
    """A column: its heading, how it is aligned, its rank (0: always shown; otherwise the
    highest is left out first when the terminal is too narrow), and whether its text may wrap
    (free text only: never a figure, a name or a code)."""

    heading: str
    justify: Literal["left", "right"] = "right"
    rank: int = 0
    wraps: bool = False


def text(heading: str, rank: int = 0, *, wraps: bool = False) -> Column:
    """A column of words or codes, aligned left."""
    return Column(heading, "left", rank, wraps)


def figure(heading: str, rank: int = 0) -> Column:
    """A column of amounts or counts, aligned right, never cut or wrapped."""
    return Column(heading, "right", rank)


@dataclass(frozen=True)
class _Row:
    cells: tuple[RenderableType, ...]
    style: str | None


class Grid:
    """A Rich table described by its columns and rows, printed by `print` to fit."""

    def __init__(self, *columns: Column, **options: Any) -> None:
        self.columns = columns
        self.options = options
        self.rows: list[_Row | None] = []

    def add_row(self, *cells: RenderableType, style: str | None = None) -> None:
        if len(cells) != len(self.columns):
            raise ValueError(f"a row of {len(cells)} cells in a table of "
                             f"{len(self.columns)} columns")
        self.rows.append(_Row(cells, style))

    def add_section(self) -> None:
        self.rows.append(None)

    def print(self, console: Console, *, wide: bool = False, json: bool = True) -> list[str]:
        """Print the table on `console` and return the headings left out (named under it)."""
        if wide:
            table = self._table(self.columns)
            whole = console.options.update_width(_UNBOUNDED)
            natural = Measurement.get(console, whole, table).maximum
            options = console.options.update_width(max(natural, console.width))
            console.print(Segments(console.render(table, options)), crop=False)
            return []
        kept = self.fitting(console)
        fits = self._natural_width(console, kept) <= console.width
        console.print(self._table(kept, fold=not fits))
        left_out = [column.heading for column in self.columns if column not in kept]
        if left_out:
            # a heading set on two lines (`hold %\non drop`) is named on one
            named = [" ".join(heading.split()) for heading in left_out]
            shows = "`--wide` or `--json` shows" if json else "`--wide` shows"
            console.print(f"[dim]left out to fit {console.width} columns: "
                          f"{escape(', '.join(named))}; {shows} "
                          f"{'it' if len(left_out) == 1 else 'them'}.[/]", highlight=False)
        return left_out

    def fitting(self, console: Console) -> tuple[Column, ...]:
        """The columns kept: all, less the highest ranked until the rest fit the console."""
        kept = list(self.columns)
        while self._natural_width(console, kept) > console.width:
            ranked = [column for column in kept if column.rank > 0]
            if not ranked:
                break
            least = max(ranked, key=lambda column: (column.rank, kept.index(column)))
            kept.remove(least)
        return tuple(kept)

    def _natural_width(self, console: Console, columns: Sequence[Column]) -> int:
        """The table's width with no figure cut and free text wrapped at `WRAPPED_WIDTH`."""
        options = console.options.update_width(_UNBOUNDED)
        table = self._table(columns, wrapped={
            index: self._wrapped_width(console, index) for index, column
            in enumerate(self.columns) if column.wraps and column in columns})
        return Measurement.get(console, options, table).maximum

    def _wrapped_width(self, console: Console, index: int) -> int:
        """How narrow a free-text column may wrap: its longest word, at least `WRAPPED_WIDTH`."""
        cells = [self.columns[index].heading,
                 *(row.cells[index] for row in self.rows if row is not None)]
        longest = max(Measurement.get(console, console.options, cell).minimum for cell in cells)
        return max(longest, WRAPPED_WIDTH)

    def _table(self, columns: Sequence[Column], *, wrapped: dict[int, int] | None = None,
               fold: bool = False) -> Table:
        """The Rich table of these columns; `wrapped`: free-text columns (by index) held to a
        width, to measure. `fold`: the console cannot hold even the columns never left out, so
        a figure folds onto a second line rather than lose its digits."""
        table = Table(**self.options)
        for column in columns:
            table.add_column(column.heading, justify=column.justify,
                             no_wrap=not (column.wraps or fold), overflow="fold",
                             max_width=(wrapped or {}).get(self.columns.index(column)))
        at = [self.columns.index(column) for column in columns]
        for row in self.rows:
            if row is None:
                table.add_section()
            else:
                table.add_row(*(row.cells[index] for index in at), style=row.style)
        return table
