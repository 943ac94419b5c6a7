"""A round from its opening to its settlement, as a dealer terminal sends it.

Round commands name the table; the round is the table's current one. A terminal may also
send `round` (the number it believes is current) and `expected_version` (the round's version
it last saw): if another terminal has moved the round on, the command is refused as a
conflict and nothing is recorded.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ledger.commands.base import Command, Money


class RoundCommand(Command):
    table: str
    round: int | None = Field(default=None, ge=1, description="the round number, if known")
    expected_version: int | None = Field(default=None, ge=1)


class OpenRound(Command):
    command: Literal["open_round"] = "open_round"
    table: str


class PlaceBet(RoundCommand):
    command: Literal["place_bet"] = "place_bet"
    box: int = Field(ge=1, description="box (Fortune 8: space)")
    spot: str = Field(description="ante/jackpot, bonus/play, L/8/H, player/banker/tie/...")
    amount: Money
    player: str | None = None


class CloseBetting(RoundCommand):
    command: Literal["close_betting"] = "close_betting"


class AnnounceDealMode(RoundCommand):
    """Fortune 8: cards on all seven spaces, or only on spaces holding bets (art. 4(6))."""

    command: Literal["announce_deal_mode"] = "announce_deal_mode"
    mode: str


class DealCard(RoundCommand):
    command: Literal["deal_card"] = "deal_card"
    to: str = Field(description="box:3, space:3, dealer, player, banker, or burn")
    card: str
    face_up: bool = False


class ExposeCard(RoundCommand):
    """A card shown by mistake (an irregularity whose consequence the regulation decides)."""

    command: Literal["expose_card"] = "expose_card"
    to: str
    card: str


class Decide(RoundCommand):
    """Stud Poker raise (amount: twice the ante) or fold; Q Poker play or surrender."""

    command: Literal["decide"] = "decide"
    box: int = Field(ge=1)
    decision: str
    amount: Money | None = None
    player: str | None = None


class RevealDealer(RoundCommand):
    command: Literal["reveal_dealer"] = "reveal_dealer"


class RecordIrregularity(RoundCommand):
    command: Literal["record_irregularity"] = "record_irregularity"
    kind: str
    box: int | None = Field(default=None, ge=1)
    cards: list[str] = Field(default_factory=list)
    correctable: bool = True
    note: str = ""


class SettleRound(RoundCommand):
    command: Literal["settle_round"] = "settle_round"


class VoidRound(RoundCommand):
    command: Literal["void_round"] = "void_round"
    reason: str = Field(min_length=1)


class AdjustRound(Command):
    """A later correction of a settled round (a dispute settled in the player's favour)."""

    command: Literal["adjust_round"] = "adjust_round"
    table: str
    round: int = Field(ge=1)
    box: int = Field(ge=1)
    spot: str
    player: str | None = None
    amount: Money = Field(description="paid to the player (negative: collected from them)")
    reason: str = Field(min_length=1)
    dispute: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]*$",
                         description="the dispute's reference: one adjustment per dispute "
                         "per round")


ROUND_COMMANDS = (
    OpenRound, PlaceBet, CloseBetting, AnnounceDealMode, DealCard, ExposeCard, Decide,
    RevealDealer, RecordIrregularity, SettleRound, VoidRound, AdjustRound,
)
