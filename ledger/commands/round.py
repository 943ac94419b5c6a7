"""A round from its opening to its settlement, as a dealer terminal sends it.

Round commands name the table; the round is the table's current one. A terminal may also
send `round` (the number it believes is current) and `expected_version` (the round's version
it last saw): if another terminal has moved the round on, the command is refused as a
conflict and nothing is recorded.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ledger.commands.base import Command, Identifier, Money, OptionalText, Text, Word


class RoundCommand(Command):
    table: Identifier
    round: int | None = Field(default=None, ge=1, le=10**9, description="the round number, if known")
    expected_version: int | None = Field(default=None, ge=1, le=10**9)


class OpenRound(Command):
    command: Literal["open_round"] = "open_round"
    table: Identifier
    demonstration: bool = Field(
        default=False, description="a baccarat demonstration coup (art. 2(2)): no bets, at most "
        "three (as the house settings allow) at the start of a shoe, before its first coup")


class PlaceBet(RoundCommand):
    command: Literal["place_bet"] = "place_bet"
    box: int = Field(ge=1, le=99, description="box (Fortune 8: space)")
    spot: Word = Field(description="ante/jackpot, bonus/play, L/8/H, player/banker/tie/...")
    amount: Money
    player: Identifier | None = None
    standing: bool = Field(default=False, description="the player stands (has no seat): baccarat "
                           "art. 15 keeps their bets out of the seated players' boxes")


class CloseBetting(RoundCommand):
    command: Literal["close_betting"] = "close_betting"


class AnnounceDealMode(RoundCommand):
    """Fortune 8: cards on all seven spaces, or only on spaces holding bets (art. 4(6))."""

    command: Literal["announce_deal_mode"] = "announce_deal_mode"
    mode: Word


class DealCard(RoundCommand):
    command: Literal["deal_card"] = "deal_card"
    to: Word = Field(description="box:3, space:3, dealer, player, banker, or burn")
    card: Word
    face_up: bool = False


class ExposeCard(RoundCommand):
    """A card shown by mistake (an irregularity whose consequence the regulation decides)."""

    command: Literal["expose_card"] = "expose_card"
    to: Word
    card: Word


class Decide(RoundCommand):
    """Stud Poker raise (amount: twice the ante) or fold; Q Poker play or surrender."""

    command: Literal["decide"] = "decide"
    box: int = Field(ge=1, le=99)
    decision: Word
    amount: Money | None = None
    player: Identifier | None = None


class RevealDealer(RoundCommand):
    command: Literal["reveal_dealer"] = "reveal_dealer"


class RecordIrregularity(RoundCommand):
    command: Literal["record_irregularity"] = "record_irregularity"
    kind: Word
    box: int | None = Field(default=None, ge=1, le=99)
    cards: list[Word] = Field(default_factory=list, max_length=52)
    correctable: bool = True
    note: OptionalText = ""


class SettleRound(RoundCommand):
    command: Literal["settle_round"] = "settle_round"


class VoidRound(RoundCommand):
    command: Literal["void_round"] = "void_round"
    reason: Text


class AdjustRound(Command):
    """A later correction of a settled round (a dispute settled in the player's favour)."""

    command: Literal["adjust_round"] = "adjust_round"
    table: Identifier
    round: int = Field(ge=1, le=10**9)
    box: int = Field(ge=1, le=99)
    spot: Word
    player: Identifier | None = None
    amount: Money = Field(description="paid to the player (negative: collected from them)")
    reason: Text
    dispute: Identifier = Field(description="the dispute's reference: one adjustment per dispute "
                         "per round")


ROUND_COMMANDS = (
    OpenRound, PlaceBet, CloseBetting, AnnounceDealMode, DealCard, ExposeCard, Decide,
    RevealDealer, RecordIrregularity, SettleRound, VoidRound, AdjustRound,
)
