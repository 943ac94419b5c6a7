"""A report as CSV: its header block (a name and a value a row), a blank row, the column names,
then a row a line, every empty value written as nothing."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def csv_table(header: Iterable[tuple[str, str]], columns: Sequence[str],
              rows: Iterable[Mapping[str, Any]]) -> str:
    """The text, in CSV's own line endings.

    >>> csv_table([("report", "hold")], ["game", "win"],
    ...           [{"game": "Baccarat", "win": None}]).splitlines()
    ['report,hold', '', 'game,win', 'Baccarat,']
    """
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerows([key, value] for key, value in header)
    writer.writerow([])
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if row[column] is None else str(row[column]) for column in columns])
    return out.getvalue()
