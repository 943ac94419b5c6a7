"""The casino's chips: inventories and slips are counted by denomination, never typed as a sum."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from ledger.core.errors import InvalidInput
from ledger.games.common import AVO, MAX_AMOUNT, ZERO

CHIP_SET: tuple[Decimal, ...] = tuple(
    Decimal(value).quantize(AVO)
    for value in (1, 5, 10, 25, 100, 500, 1000, 5000, 10000, 25000, 50000, 100000)
)
"""The casino's chips, in patacas: an inventory or a slip may hold these and no others."""

Chips = Mapping[Decimal, int]
"""Chips by denomination: denomination (patacas) -> number of chips."""


def plain(amount: Decimal) -> str:
    """`100` for 100.00, `0.50` for 0.50: how a chip's face reads."""
    return f"{amount:.0f}" if amount == amount.to_integral_value() else f"{amount:.2f}"


def parse_chips(text: str) -> dict[Decimal, int]:
    """`100=40,500=20` as {100: 40, 500: 20}; the command checks places, the aggregate chips."""
    chips: dict[Decimal, int] = {}
    for item in (part.strip() for part in text.split(",")):
        denomination, sep, count = item.partition("=")
        try:
            value, number = Decimal(denomination.strip()), int(count.strip())
        except (InvalidOperation, ValueError):
            value, number = Decimal("NaN"), 0
        if not sep or not value.is_finite():
            raise InvalidInput(
                f"'{item}' is not denomination=count: write the chips as 100=40,500=20."
            )
        if value in chips:
            raise InvalidInput(f"denomination {plain(value)} is given twice in '{text}'.")
        chips[value] = number
    return chips


def check_chips(chips: Chips, what: str) -> dict[Decimal, int]:
    """The chips in denomination order, each a chip of the casino, no count below zero."""
    if not chips:
        raise InvalidInput(f"{what} counts no chips: give them as denomination=count.")
    for denomination in sorted(chips):
        if denomination not in CHIP_SET:
            listing = ", ".join(plain(chip) for chip in CHIP_SET)
            raise InvalidInput(
                f"denomination {denomination:.2f} is not a chip of this casino: "
                f"chips are {listing}."
            )
        if chips[denomination] < 0:
            raise InvalidInput(
                f"{what} cannot count {chips[denomination]} chips of {plain(denomination)}."
            )
    total = sum((denomination * count for denomination, count in chips.items()), ZERO)
    if total > MAX_AMOUNT:
        raise InvalidInput(f"{what} adds up to {plain(total)}, beyond the "
                           f"{plain(MAX_AMOUNT)} the ledger records in one amount.")
    return {denomination: chips[denomination] for denomination in sorted(chips)}


def chips_total(chips: Chips) -> Decimal:
    return sum((d * n for d, n in chips.items()), ZERO).quantize(AVO)


def differing_closing(opening: dict[Any, int],
                      previous: dict[Any, int] | None) -> Decimal | None:
    """The total of the table's last closing count where the opener counted other chips (None
    where they agree, or nothing was closed before). Denominations as numbers or strings."""
    if previous is None:
        return None
    counted = {Decimal(d): n for d, n in previous.items() if n}
    if counted == {Decimal(d): n for d, n in opening.items() if n}:
        return None
    return chips_total(counted)
