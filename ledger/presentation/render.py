"""Showing what people typed, safely: nothing a terminal sent is ever read as markup or as a
terminal control sequence.

The grammar (`ledger.domain.grammar`) already refuses control characters and markup brackets in
identifiers, and control characters in text; this is the second wall, for every place a
recorded value is printed with Rich (`[red]` in a reason is shown as `[red]`, not as colour).
HTML pages escape through their templates' autoescaping.
"""

from __future__ import annotations

import unicodedata

from rich.markup import escape

from ledger.domain.grammar import REFUSED_CATEGORIES as REFUSED


def printable(text: str) -> str:
    """`text` with every control or invisible character shown as its code (`\\x1b`)."""
    if all(unicodedata.category(char) not in REFUSED for char in text):
        return text
    return "".join(char.encode("unicode_escape").decode("ascii")
                   if unicodedata.category(char) in REFUSED else char for char in text)


def safe(value: object) -> str:
    """A recorded value for a Rich string: printable, its markup escaped."""
    return escape(printable("-" if value is None else str(value)))
