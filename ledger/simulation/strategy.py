"""How simulated players bet and decide: plausible, simple, and the same for the same seed."""

from __future__ import annotations

from decimal import Decimal
from random import Random

HUNDRED = Decimal("100.00")


def stake(rng: Random, minimum: Decimal, maximum: Decimal) -> Decimal:
    """A bet in whole hundreds, mostly near the minimum, now and then a big one."""
    units = int(minimum / HUNDRED) or 1
    top = int(maximum / HUNDRED)
    choice = rng.choices((1, 2, 3, 5, 10, 20, 50), weights=(30, 20, 12, 12, 10, 6, 2))[0]
    return Decimal(min(top, units * choice)) * HUNDRED
