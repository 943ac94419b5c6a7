"""The ledger's one grammar for what people and terminals type: identifiers, text, amounts.

Events cannot be removed, so whatever is admitted stays in the ledger for good and is shown on
every screen, report and psql query that reads it. Everything a command carries is therefore
checked here, once, before it can become an event:

- **Identifiers** (tables, pools, pits, staff, terminals, players, dispute references) are
  Unicode-normalised (NFKC, so a full-width `ＢＡＣ-０１` is `BAC-01`), upper case (`s-a` is
  `S-A`), ASCII letters, digits, `.`, `_` and `-`, starting with a letter or digit, at most
  40 characters. Look-alikes that are not the same characters after NFKC (Cyrillic `ВАС`,
  Arabic-Indic digits, the non-breaking hyphen U+2011) are refused, not told apart: two ids
  are compared only in this normal form.
- **Text** (reasons, notes, names, locations, authorisations) is NFC-normalised and
  stripped, one line of at most 500 characters, with no control, format (bidirectional
  overrides, zero-width), private-use or unassigned characters.
- **Words** (a spot, a decision, a card, an irregularity's kind) are short text: at most 40
  characters under the same rules; the game decides which words it knows.
- **Money** is patacas with two places, at most 999,999,999.99 either way, as the read
  models' `numeric(18, 2)` columns hold with room for a shift's sums.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from datetime import datetime, timedelta
from decimal import Decimal
from functools import lru_cache, wraps
from uuid import UUID

from ledger.core.errors import InvalidInput
from ledger.core.formatting import money
from ledger.games.common import MAX_AMOUNT

IDENTIFIER_MAX = 40
TEXT_MAX = 500
WORD_MAX = 40
MONEY_DIGITS, MONEY_PLACES = 18, 2
"""Every money column of every read model is `numeric(MONEY_DIGITS, MONEY_PLACES)`."""
MONEY_SQL = f"numeric({MONEY_DIGITS}, {MONEY_PLACES})"

_IDENTIFIER = re.compile(r"[A-Z0-9][A-Z0-9._-]*")
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories never recorded: controls, format (bidi, zero-width), surrogates, private
use, unassigned, line and paragraph separators."""


def shown(text: str, limit: int = 40) -> str:
    """A value quoted in an error sentence: escaped, and cut short when long."""
    escaped = text.encode("unicode_escape").decode("ascii")
    return escaped if len(escaped) <= limit else escaped[: limit - 3] + "..."


IDS_KEPT = 4096


def kept_ids(derive: Callable[[str], UUID]) -> Callable[[str], UUID]:
    """A stream id derived from a name (a table's, a staff member's, a terminal's, a pool's),
    kept for the names used last: every command names several, and each is a normal form and
    a SHA-1 away. Anything but text goes straight to `derive`, which says what is wrong."""
    kept = lru_cache(maxsize=IDS_KEPT)(derive)

    @wraps(derive)
    def stream_id(name: str) -> UUID:
        return kept(name) if type(name) is str else derive(name)

    return stream_id


def normal_identifier(value: object, what: str = "an identifier") -> str:
    """`value` in the identifiers' normal form, or `InvalidInput` saying what is wrong."""
    if not isinstance(value, str):
        raise InvalidInput(f"{what} is text, not {type(value).__name__}.")
    _refuse_controls(value, what)
    cleaned = unicodedata.normalize("NFKC", value).strip().upper()
    if not cleaned:
        raise InvalidInput(f"{what} cannot be empty.")
    if len(cleaned) > IDENTIFIER_MAX:
        raise InvalidInput(f"{what} is at most {IDENTIFIER_MAX} characters, not {len(cleaned)} "
                           f"('{shown(cleaned)}').")
    if not cleaned.isascii() or _IDENTIFIER.fullmatch(cleaned) is None:
        raise InvalidInput(
            f"'{shown(value)}' is not {what}: use the letters A-Z, digits 0-9, '.', '_' and '-', "
            "starting with a letter or digit (e.g. BAC-01, D-101).")
    return cleaned


def clean_text(value: object, what: str = "text", *, limit: int = TEXT_MAX,
               required: bool = True) -> str:
    """One line of text a person typed, normalised (NFC) and stripped, or `InvalidInput`."""
    if not isinstance(value, str):
        raise InvalidInput(f"{what} is text, not {type(value).__name__}.")
    _refuse_controls(value, what)
    cleaned = unicodedata.normalize("NFC", value).strip()
    if required and not cleaned:
        raise InvalidInput(f"{what} cannot be empty.")
    if len(cleaned) > limit:
        raise InvalidInput(f"{what} is at most {limit} characters, not {len(cleaned)}.")
    return cleaned


def _refuse_controls(value: str, what: str) -> None:
    if value.isascii() and value.isprintable():
        return  # printable ASCII holds none of the refused categories (its controls are Cc)
    for index, char in enumerate(value):
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            raise InvalidInput(
                f"{what} holds the control or invisible character U+{ord(char):04X} at "
                f"position {index + 1}: only printable characters are recorded.")


def check_amount(amount: Decimal, what: str = "an amount") -> Decimal:
    """A finite amount of at most two places within ±MAX_AMOUNT, kept with exactly two."""
    if not amount.is_finite():
        raise InvalidInput(f"{what} must be a number of patacas, not {amount}.")
    if abs(amount) > MAX_AMOUNT:
        raise InvalidInput(f"{what} of {amount} is beyond what the ledger records: at most "
                           f"{money(MAX_AMOUNT)}.")
    if amount != amount.quantize(Decimal("0.01"), rounding="ROUND_DOWN"):
        raise InvalidInput(f"{what} has at most two decimal places (avos), not {shown(str(amount))}.")
    return amount.quantize(Decimal("0.01"))


UTC_OFFSETS_IN_USE = (timedelta(hours=-12), timedelta(hours=14))
"""The UTC offsets places use, westernmost to easternmost (Baker Island's -12:00, Kiribati's
+14:00)."""


def offset_in_use(moment: datetime) -> bool:
    """Whether the time carries a UTC offset a clock somewhere gives."""
    offset = moment.utcoffset()
    return offset is not None and UTC_OFFSETS_IN_USE[0] <= offset <= UTC_OFFSETS_IN_USE[1]


def check_offset(moment: datetime) -> datetime:
    """A time whose UTC offset a clock somewhere gives: a terminal's `+20:00` is refused at the
    door, not stored where a server's cast of it would stop a verification."""
    if moment.utcoffset() is not None and not offset_in_use(moment):
        raise InvalidInput(f"the UTC offset of {moment.isoformat()} is not one any place uses "
                           "(offsets run from -12:00 to +14:00).")
    return moment
