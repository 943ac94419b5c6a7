"""A round as game protection reads it: who bet what on which box, what it won, who dealt,
what went wrong, and, for a void, what the cards dealt before it had already decided.

`coup_of` folds one round's domain events, whichever store they came from (the audit's own
reading of PostgreSQL, or a simulated floor's ledger in memory). `round_moments` is the one
place a round's bets get their expected result and variance: the game's exact joint figures
under the rules and settings the round was played under (`Game.round_moments`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from decimal import Decimal
from functools import lru_cache
from typing import Any

from ledger.core.errors import LedgerError
from ledger.domain.round import Round
from ledger.games.common import BetResult
from ledger.games.facts import RoundFacts
from ledger.games.odds import Stake
from ledger.games.registry import game, procedure_for, standard_settings
from ledger.games.settings import HouseSettings

JACKPOT = "jackpot"
UNREAD = ("shuffler_failure",)  # a device's fault, recorded by the supervisor: not the dealer's


@dataclass(frozen=True, slots=True)
class Wager:
    """One settled bet: `result` is what it gave the player (the house's win, negated)."""

    box: int
    spot: str
    player: str | None
    stake: Decimal
    result: Decimal
    outcome: str


@dataclass(frozen=True, slots=True)
class Coup:
    """One round, as the signals read it."""

    table: str
    number: int
    game: str
    gaming_day: date | None
    opened_at: datetime
    dealer: str
    settings: HouseSettings | None
    placed: tuple[Wager, ...]  # the bets placed before the cards (stake only; result 0)
    wagers: tuple[Wager, ...]  # as settled (empty for a void)
    voided: bool = False
    void_reason: str = ""
    voided_by: str = ""
    exposed: bool = False  # a card shown by mistake
    misdealt: bool = False  # an irregularity recorded, not a card exposed nor a device's fault
    jackpot_hits: tuple[int, ...] = ()  # boxes awarded a jackpot prize
    decided: tuple[BetResult, ...] = ()  # a void's bets the cards dealt before it had decided

    @property
    def label(self) -> str:
        return f"{self.table} round {self.number}"


def coup_of(events: Iterable[Any]) -> Coup | None:
    """The coup a round's events record (None: a demonstration coup, or a round in play)."""
    round_: Any = None
    dealer, voided_by, reason = "", "", ""
    hits: list[int] = []
    decided: tuple[BetResult, ...] = ()
    placed: list[Wager] = []
    opened_at: datetime | None = None
    exposed = misdealt = False
    for event in events:
        if isinstance(event, Round.Opened):
            dealer, opened_at = event.by.actor.staff_id, event.by.at
        elif isinstance(event, Round.BetPlaced) and event.spot != JACKPOT:
            placed.append(Wager(event.box, event.spot, event.player, event.amount, Decimal(0), ""))
        elif isinstance(event, Round.CardExposed):
            exposed = True
        elif isinstance(event, Round.IrregularityRecorded):
            # the round's irregularities hold its exposed cards too: a misdeal is only what
            # was recorded as one
            misdealt = misdealt or event.kind not in UNREAD
        elif isinstance(event, Round.JackpotPrizeAwarded):
            hits.append(event.box)
        elif isinstance(event, Round.Voided):
            voided_by, reason = event.by.actor.staff_id, event.reason
            decided = decided_by_cards(round_.facts())
        round_ = event.mutate(round_)
    if round_ is None or round_.demonstration or not round_.is_finished or opened_at is None:
        return None
    return Coup(
        table=round_.table, number=round_.number, game=round_.game,
        gaming_day=round_.gaming_day, opened_at=opened_at, dealer=dealer,
        settings=round_.house_settings, placed=tuple(placed),
        wagers=tuple(Wager(b.box, b.spot, b.player, b.stake, -b.house_win, str(b.outcome))
                     for b in round_.results),
        voided=round_.phase == "void", void_reason=reason,
        voided_by=voided_by, exposed=exposed, misdealt=misdealt, jackpot_hits=tuple(hits),
        decided=decided)


def decided_by_cards(facts: RoundFacts) -> tuple[BetResult, ...]:
    """The bets the cards dealt so far decide, as the game would settle them were nothing
    wrong: none unless every card settlement needs is there (the game's own check)."""
    if not facts.cards:
        return ()
    clean = replace(facts, irregularities=(), void_boxes=frozenset(), exposed=())
    procedure = procedure_for(facts.game)
    try:
        procedure.check_settle(clean)
        results = procedure.settle(clean)
    except (LedgerError, ValueError, KeyError, IndexError):
        return ()
    return tuple(r for r in results if r.spot != JACKPOT and r.outcome in ("won", "lost"))


@lru_cache(maxsize=256)
def _odds(game_code: str, settings: HouseSettings) -> dict[str, tuple[Decimal, Decimal]]:
    return {o.spot: (o.edge, o.variance) for o in game(game_code).bet_odds(settings)}


def round_moments(game_code: str, settings: HouseSettings | None,
                  bets: Sequence[Wager]) -> tuple[Decimal, Decimal]:
    """The player's expected result of these bets of one round and its variance (money and
    money squared): the game's joint figures for a round's bets (`Game.round_moments`: one
    coup's cards settle them all, so they move together). A returned bet risks nothing and a
    jackpot bet is no table bet; a round with a bet of no known odds takes each bet alone, one
    of unknown odds as even money."""
    if settings is None:
        settings = standard_settings(game_code)
    live = [bet for bet in bets if bet.spot != JACKPOT and bet.outcome != "returned"]
    if not live:
        return Decimal(0), Decimal(0)
    try:
        house = game(game_code).round_moments(
            settings, [Stake(bet.box, bet.spot, bet.stake) for bet in live])
    except ValueError:
        return _each_alone(game_code, settings, live)
    return -house.mean, house.variance


def _each_alone(game_code: str, settings: HouseSettings,
                bets: Sequence[Wager]) -> tuple[Decimal, Decimal]:
    odds = _odds(game_code, settings)
    mean, variance = Decimal(0), Decimal(0)
    for bet in bets:
        edge, unit_variance = odds.get(bet.spot, (Decimal(0), Decimal(1)))
        mean -= bet.stake * edge
        variance += bet.stake * bet.stake * unit_variance
    return mean, variance
