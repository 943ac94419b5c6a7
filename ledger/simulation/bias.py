"""A table biased on purpose, so that the review's flags have something to catch.

`marked-cards`: a player at the table knows the next cards and, on a stated share of rounds,
bets the side they make win (baccarat: the coup's winner; Fortune 8: the L, H or 8 of the
space whose card comes). The shoe stays shuffled by the seed and the ledger settles every bet
by the rules; only the players' choices change, so the players win more than chance allows.

The game-protection cases (`ledger report protection`), at baccarat unless said:
`informed-bettor`: `INFORMED-<table>` on box 7 bets the banker every coup, the minimum, and ten
minimums when, seeing the coming cards (on the share of coups), the banker wins them.
`lucky-streak`: `LUCKY-<table>` on box 7 bets the banker or the player at one to three
minimums, and wins six coups running once in the shift (rounds 40 to 45): a streak chance
alone gives a player about once in 64 starts, so it is luck, not a signal. Over a month the
bettor plays every day and has the run on one of them (`streak` false on the others).
`misdealer` (baccarat, Stud Poker, Q Poker): the table's dealer `D-<table>-2` deals every
other turn of the rotation and has irregularities at three times the table's rate.
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger.core.errors import InvalidInput

KINDS = ("marked-cards", "informed-bettor", "lucky-streak", "misdealer")
PLANTED_BOX = 7  # where the informed bettor and the lucky one sit
MISDEALER = 2  # the number in the table's rotation of the dealer who misdeals
STREAK = range(40, 46)  # the lucky streak's rounds of the shift
DEFAULT_SHARE = 0.5  # money-safe: a share of rounds


@dataclass(frozen=True)
class Bias:
    kind: str
    share: float = DEFAULT_SHARE  # money-safe: the share of rounds the bias plays in
    streak: bool = True  # lucky-streak: whether this shift holds the six-coup run

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise InvalidInput(f"no bias '{self.kind}': the simulator knows {', '.join(KINDS)}.")
        if not 0 < self.share <= 1:
            raise InvalidInput(f"a bias plays in a share of rounds above 0 and at most 1, "
                               f"not {self.share}.")


def parse_bias(text: str) -> tuple[str, Bias]:
    """`TABLE:KIND` or `TABLE:KIND:SHARE`, as `ledger simulate --bias` takes it.

    >>> parse_bias("F8-01:marked-cards:0.3")
    ('F8-01', Bias(kind='marked-cards', share=0.3, streak=True))
    """
    table, _, rest = text.partition(":")
    kind, _, share = rest.partition(":")
    if not table or not kind:
        raise InvalidInput(f"a bias is TABLE:KIND or TABLE:KIND:SHARE (F8-01:marked-cards), "
                           f"not '{text}'.")
    try:
        portion = float(share) if share else DEFAULT_SHARE  # money-safe: a share of rounds
    except ValueError:
        raise InvalidInput(f"the share in '{text}' is not a number: give one such as 0.5."
                           ) from None
    return table.strip(), Bias(kind.strip(), portion)
