"""Tables of money and counts in the terminal, whole at any width.

A figure is never cut, ellipsised or broken over lines: its column does not wrap. When the
terminal cannot hold every column, the columns a table ranks least are left out, the least
first, and a line under the table names them and says what shows them (`--wide`, `--json`).
Only a column marked as free text (a reason, an explanation) may wrap. `--wide` prints every
column at its full width, however wide the terminal.

Each table states its columns' rank (`Column.rank`): 0 is never left out; of the others, the
highest is left out first. A column with nothing in it (every cell zero or `-`) is left out
before any other: it tells nothing. Columns whose figures make one sum (a round's stakes,
returned, paid, commission, jackpot and win) share a name in `Column.together`: they are left
out all at once or not at all, so the figures shown always add up; a set with a column ranked 0
is never left out but for its empty columns. That rule lives here only: commands describe their
columns and rows, `Grid.print` decides what fits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from rich.console import Console, RenderableType
from rich.markup import escape
from rich.measure import Measurement
from rich.segment import Segments
from rich.table import Table
from rich.text import Text

WRAPPED_WIDTH = 12
"""The narrowest a free-text column is counted when deciding what fits (wider if a word in it
is): it wraps within what the figures leave it."""
_UNBOUNDED = 10_000


@dataclass(frozen=True, eq=False)  # each column is itself: two alike are still two
class Column:
    """A column: its heading, how it is aligned, its rank (0: always shown; otherwise the
    highest is left out first when the terminal is too narrow), whether its text may wrap
    (free text only: never a figure, a name or a code), and the sum it is part of, if any
    (`together`: the columns sharing it are left out all at once or not at all)."""

    heading: str
    justify: Literal["left", "right"] = "right"
    rank: int = 0
    wraps: bool = False
    together: str = ""


def text(heading: str, rank: int = 0, *, wraps: bool = False, together: str = "") -> Column:
    """A column of words or codes, aligned left."""
    return Column(heading, "left", rank, wraps, together)


def figure(heading: str, rank: int = 0, *, together: str = "") -> Column:
    """A column of amounts or counts, aligned right, never cut or wrapped."""
    return Column(heading, "right", rank, together=together)


def _nothing(cell: RenderableType) -> bool:
    """Whether a cell says nothing: empty, `-` or a zero amount."""
    if not isinstance(cell, str | Text):
        return False
    said = str(cell).replace(",", "").strip()
    if said in ("", "-"):
        return True
    try:
        return Decimal(said) == 0
    except ArithmeticError:
        return False


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
        console.print(self._table(kept, fold=not fits, fixed={} if fits else {
            index: self._natural_column(console, index) for index, column
            in enumerate(self.columns) if column in kept and column.justify == "right"}))
        left_out = [column.heading for column in self.columns if column not in kept]
        if left_out:
            # a heading set on two lines (`hold %\non drop`) is named on one
            named = [" ".join(heading.split()) for heading in left_out]
            shows = "`--wide` or `--json` shows" if json else "`--wide` shows"
            console.print(f"[dim]left out to fit {console.width} columns: "
                          f"{escape(', '.join(named))}; {shows} "
                          f"{'it' if len(left_out) == 1 else 'them'}.[/]", highlight=False)
        return left_out

    def fits(self, console: Console) -> bool:
        """Whether the columns `print` keeps fit the console with no figure or word folded
        (free text wrapped at whole words), so a command can offer a narrower layout of its
        own where they do not."""
        return self._natural_width(console, self.fitting(console)) <= console.width

    def fitting(self, console: Console) -> tuple[Column, ...]:
        """The columns kept: all, less the highest ranked until the rest fit the console."""
        kept = list(self.columns)
        while self._natural_width(console, kept) > console.width:
            empty = [column for column in kept if column.rank > 0 and self._empty(column)]
            ranked = [column for column in kept if column.rank > 0
                      and not any(other.rank == 0 for other in self._set(column))]
            if not (empty or ranked):
                break
            least = max(empty or ranked, key=lambda column: (
                max(other.rank for other in self._set(column)), kept.index(column)))
            for column in [least] if empty else self._set(least):
                if column in kept:
                    kept.remove(column)
        return tuple(kept)

    def _set(self, column: Column) -> list[Column]:
        """The column and those that make one sum with it (`Column.together`)."""
        return [other for other in self.columns if other is column
                or (column.together and other.together == column.together)]

    def _empty(self, column: Column) -> bool:
        """Whether every cell of the column says nothing (zero or `-`); a table with no rows
        has no empty column."""
        index = self.columns.index(column)
        cells = [row.cells[index] for row in self.rows if row is not None]
        return bool(cells) and all(_nothing(cell) for cell in cells)

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

    def _natural_column(self, console: Console, index: int) -> int:
        """The width of a column's widest cell or heading, unwrapped."""
        cells = [self.columns[index].heading,
                 *(row.cells[index] for row in self.rows if row is not None)]
        return max(Measurement.get(console, console.options, cell).maximum for cell in cells)

    def _table(self, columns: Sequence[Column], *, wrapped: dict[int, int] | None = None,
               fold: bool = False, fixed: dict[int, int] | None = None) -> Table:
        """The Rich table of these columns; `wrapped`: free-text columns (by index) held to a
        width, to measure. `fold`: the console cannot hold even the columns never left out, so
        the words give way first (`fixed`: the figures' own widths, by index), and a figure
        folds onto a second line only when they cannot, rather than lose its digits."""
        table = Table(**self.options)
        for column in columns:
            index = self.columns.index(column)
            table.add_column(column.heading, justify=column.justify,
                             no_wrap=not (column.wraps or fold), overflow="fold",
                             width=(fixed or {}).get(index),
                             max_width=(wrapped or {}).get(index))
        at = [self.columns.index(column) for column in columns]
        for row in self.rows:
            if row is None:
                table.add_section()
            else:
                table.add_row(*(row.cells[index] for index in at), style=row.style)
        return table
