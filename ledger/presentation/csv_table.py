"""A report as CSV, as a person opens it in a spreadsheet: its header block (a name and a value a
row), a blank row, the columns headed in words (`hold (% of drop)`, never `hold_pct`), then a
row a line, every empty value written as nothing. The JSON of the same report keeps the codes
(machines read them); `HEADINGS` says each in words, once for every CSV the reports write."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ledger.presentation.wording import game, label

HEADINGS = {
    "rounds_played": "rounds played", "rounds_voided": "rounds void",
    "ledger_win": "ledger win", "opening": "opening count", "closing": "closing count",
    "accounting_win": "accounting win", "hold_pct": "hold (% of drop)",
    "jackpot_stakes": "jackpot stakes", "jackpot_contributions": "jackpot contributions",
    "jackpot_prizes": "jackpot prizes", "dealers": "dealers (dealt rounds)",
    "dealt_no_round": "signed in, dealt no round", "uncounted": "shifts not counted",
    "flagged": "tables flagged", "theoretical_win": "theoretical win",
    "theoretical_hold_pct": "theoretical hold (% of handle)", "actual_win": "actual win",
    "actual_hold_pct": "actual hold (% of handle)",
    "variance_pct": "hold variance (points)", "projected_variance": "projected variance",
    "band_low": "band low", "band_high": "band high", "probability": "chance (0 to 1)",
    "win_to_drop_pct": "win-to-drop (%)", "shifts_uncounted": "shifts not counted",
    "base_handle": "base handle", "base_actual_win": "base actual win", "base_drop": "base drop",
    "base_accounting_win": "base accounting win",
    "base_win_to_drop_pct": "base win-to-drop (%)",
    "change_pct": "change of win-to-drop (points)", "change_low": "change low (points)",
    "change_high": "change high (points)", "first_day": "first gaming day",
    "last_day": "last gaming day", "hold_low_pct": "hold band low (% of handle)",
    "hold_high_pct": "hold band high (% of handle)",
}
"""A column's heading where its code with spaces would not say it (`hold_pct`)."""


def heading(column: str) -> str:
    """`hold (% of drop)` for `hold_pct`; any other column by its code in words."""
    return HEADINGS.get(column) or label(column)


def named(level: str, name: str) -> str:
    """A line's name in a CSV cell: a game by its name (`Fortune 8`), any other as it is."""
    return game(name) if level == "game" else name


def csv_table(header: Iterable[tuple[str, str]], columns: Sequence[str],
              rows: Iterable[Mapping[str, Any]]) -> str:
    """The text, in CSV's own line endings.

    >>> csv_table([("report", "hold")], ["name", "hold_pct"],
    ...           [{"name": "Baccarat", "hold_pct": None}]).splitlines()
    ['report,hold', '', 'name,hold (% of drop)', 'Baccarat,']
    """
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerows([key, value] for key, value in header)
    writer.writerow([])
    writer.writerow([heading(column) for column in columns])
    for row in rows:
        writer.writerow(["" if row[column] is None else str(row[column]) for column in columns])
    return out.getvalue()
