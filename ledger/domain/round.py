"""A round: one game at a table, from its opening to its settlement (or void).

The aggregate keeps the facts in the same shape for every game (`RoundFacts`); the game's
procedure (`ledger.games`) checks each new fact against the regulation before it is recorded,
and computes the settlement. Mutators only record: they never re-check, so a round always
loads exactly as it was written.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from enum import StrEnum
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import event
from pydantic import BaseModel, ConfigDict

from ledger.core.errors import LedgerError, WrongState
from ledger.core.formatting import money
from ledger.domain.base import Aggregate, CardCode, Provenance, applies
from ledger.domain.table import table_id
from ledger.games.common import BetResult, Consequence, Outcome
from ledger.games.facts import (
    BetFact,
    CardFact,
    DecisionFact,
    IrregularityFact,
    RoundFacts,
)
from ledger.games.rulesets import parse_settings
from ledger.games.settings import HouseSettings


def round_id(table_stream: UUID, number: int) -> UUID:
    return uuid5(table_stream, f"round/{number}")


class Phase(StrEnum):
    BETTING = "betting"
    DEALING = "dealing"
    REVEALED = "revealed"
    SETTLED = "settled"
    VOID = "void"


class CarriedBet(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    box: int
    amount: Decimal
    from_round: str


class SettledBet(BaseModel):
    """One bet's result, as the rules engine computed it; never typed in."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    box: int
    spot: str
    player: str | None = None
    stake: Decimal
    outcome: Outcome
    returned: Decimal
    payout: Decimal
    commission: Decimal
    capped: bool = False

    @classmethod
    def of(cls, result: BetResult) -> SettledBet:
        return cls(box=result.box, spot=str(result.spot), player=result.player, stake=result.stake,
                   outcome=result.outcome, returned=result.returned, payout=result.payout,
                   commission=result.commission, capped=result.capped)

    @property
    def house_win(self) -> Decimal:
        return self.stake - self.returned - self.payout + self.commission


def _parsed(rule_set: str, settings: dict[str, Any]) -> HouseSettings | None:
    """A round's house settings, parsed once when it opens (or is replayed); None for settings
    no longer valid, which a check then refuses with the reason (`parse_settings`)."""
    try:
        return parse_settings(rule_set, settings)
    except LedgerError:
        return None


class Round(Aggregate):
    class Opened(Aggregate.Created):
        table: str
        number: int
        game: str
        rule_set: str
        settings: dict[str, Any]
        dealing: str
        shoe_id: UUID | None
        pool_id: UUID | None
        carried_jackpot_bets: list[CarriedBet]
        by: Provenance
        gaming_day: date | None = None  # of the shift it opened in (None: before shifts were)
        demonstration: bool = False  # a baccarat demonstration coup (art. 2(2)): no bets

    @staticmethod
    def create_id(table: str, number: int, **_: object) -> UUID:
        return round_id(table_id(table), number)

    @event(Opened)
    def __init__(
        self, table: str, number: int, game: str, rule_set: str,
        settings: dict[str, Any], dealing: str, shoe_id: UUID | None, pool_id: UUID | None,
        carried_jackpot_bets: list[CarriedBet], by: Provenance, gaming_day: date | None = None,
        demonstration: bool = False,
    ) -> None:
        self.table, self.number, self.game, self.rule_set = table, number, game, rule_set
        self.gaming_day, self.demonstration = gaming_day, demonstration
        self.settings_data, self.dealing = settings, dealing
        self.house_settings = _parsed(rule_set, settings)  # read by every command's check
        self.shoe_id, self.pool_id = shoe_id, pool_id
        self.phase = Phase.BETTING
        self.log: list[tuple[str, Any]] = []
        self.bets: list[BetFact] = []
        self.cards: list[CardFact] = []
        self.decisions: list[DecisionFact] = []
        self.exposed: list[CardFact] = []
        self.irregularities: list[IrregularityFact] = []
        self.void_boxes: set[int] = set()
        self.mode: str | None = None
        self.betting_closed = False
        self.results: list[SettledBet] = []
        self.adjustments: list[dict[str, Any]] = []
        for carried in carried_jackpot_bets:
            self._add_bet(BetFact(carried.box, "jackpot", carried.amount, None, carried.from_round))

    @property
    def label(self) -> str:
        kind = "demonstration coup" if self.demonstration else "round"
        return f"{self.table} {kind} {self.number}"

    def facts(self) -> RoundFacts:
        return RoundFacts(
            game=self.game, rule_set=self.rule_set,
            settings=(self.house_settings if self.house_settings is not None
                      else parse_settings(self.rule_set, self.settings_data)),
            dealing=self.dealing,
            bets=tuple(self.bets), cards=tuple(self.cards), decisions=tuple(self.decisions),
            exposed=tuple(self.exposed), irregularities=tuple(self.irregularities),
            void_boxes=frozenset(self.void_boxes), mode=self.mode,
            betting_closed=self.betting_closed, revealed=self.phase is Phase.REVEALED,
            log=tuple(self.log),
        )

    @property
    def is_finished(self) -> bool:
        return self.phase in (Phase.SETTLED, Phase.VOID)

    def _add_bet(self, bet: BetFact) -> None:
        self.bets.append(bet)
        self.log.append(("bet", bet))

    # -- betting ------------------------------------------------------------------------
    class BetPlaced(Aggregate.Event):
        box: int
        spot: str
        amount: Decimal
        player: str | None
        by: Provenance
        standing: bool = False  # a standing player's bet (baccarat art. 15)

    @applies(BetPlaced)
    def place_bet(self, box: int, spot: str, amount: Decimal, player: str | None,
                  by: Provenance, standing: bool = False) -> None:
        self._add_bet(BetFact(box, spot, amount, player))

    class BettingClosed(Aggregate.Event):
        by: Provenance

    @applies(BettingClosed)
    def close_betting(self, by: Provenance) -> None:
        self.betting_closed = True
        self.log.append(("close_betting", None))

    class DealModeAnnounced(Aggregate.Event):
        mode: str
        by: Provenance

    @applies(DealModeAnnounced)
    def announce(self, mode: str, by: Provenance) -> None:
        self.mode, self.betting_closed = mode, True
        self.log.append(("announce", mode))

    # -- the deal -----------------------------------------------------------------------
    class CardDealt(Aggregate.Event):
        to: str
        card: CardCode
        face_up: bool
        shoe_position: int | None
        by: Provenance

    @applies(CardDealt)
    def deal(self, to: str, card: Any, face_up: bool, shoe_position: int | None,
             by: Provenance) -> None:
        fact = CardFact(to, card, face_up, shoe_position)
        self.cards.append(fact)
        self.log.append(("card", fact))
        self.betting_closed = True
        if self.phase is Phase.BETTING:
            self.phase = Phase.DEALING

    class CardExposed(Aggregate.Event):
        to: str
        card: CardCode
        kind: str
        consequence: Consequence
        by: Provenance

    @applies(CardExposed)
    def expose(self, to: str, card: Any, kind: str, consequence: Consequence,
               by: Provenance) -> None:
        self.exposed.append(CardFact(to, card, True))
        self._apply_irregularity(IrregularityFact(kind, consequence, None, (card,)))

    class IrregularityRecorded(Aggregate.Event):
        kind: str
        consequence: Consequence
        box: int | None
        cards: list[CardCode]
        note: str
        by: Provenance

    @applies(IrregularityRecorded)
    def record_irregularity(self, kind: str, consequence: Consequence, box: int | None,
                            cards: list[Any], note: str, by: Provenance) -> None:
        self._apply_irregularity(IrregularityFact(kind, consequence, box, tuple(cards)))

    def _apply_irregularity(self, fact: IrregularityFact) -> None:
        self.irregularities.append(fact)
        self.log.append(("irregularity", fact))
        if fact.consequence is Consequence.BOX_VOID and fact.box is not None:
            self.void_boxes.add(fact.box)

    # -- decisions and the reveal -------------------------------------------------------
    class DecisionMade(Aggregate.Event):
        box: int
        player: str | None
        decision: str
        amount: Decimal
        by: Provenance

    @applies(DecisionMade)
    def decide(self, box: int, player: str | None, decision: str, amount: Decimal,
               by: Provenance) -> None:
        fact = DecisionFact(box, player, decision, amount)
        self.decisions.append(fact)
        self.log.append(("decision", fact))

    class DealerRevealed(Aggregate.Event):
        cards: list[CardCode]
        by: Provenance

    @applies(DealerRevealed)
    def reveal(self, cards: list[Any], by: Provenance) -> None:
        self.phase = Phase.REVEALED
        self.log.append(("reveal", None))

    # -- the end ------------------------------------------------------------------------
    class BetSettled(Aggregate.Event):
        bet: SettledBet
        by: Provenance

    @applies(BetSettled)
    def settle_bet(self, bet: SettledBet, by: Provenance) -> None:
        self.results.append(bet)

    class JackpotPrizeAwarded(Aggregate.Event):
        box: int
        category: str
        amount: Decimal
        paid_by_pool: Decimal
        paid_by_house: Decimal
        pool_id: UUID
        by: Provenance

    @applies(JackpotPrizeAwarded)
    def award_jackpot(self, box: int, category: str, amount: Decimal, paid_by_pool: Decimal,
                      paid_by_house: Decimal, pool_id: UUID, by: Provenance) -> None:
        self.log.append(("jackpot", (box, category, amount)))

    class Settled(Aggregate.Event):
        outcome: dict[str, Any]
        house_win: Decimal
        by: Provenance

    @applies(Settled)
    def close_settled(self, outcome: dict[str, Any], house_win: Decimal, by: Provenance) -> None:
        self.phase = Phase.SETTLED
        self.outcome = outcome

    class Voided(Aggregate.Event):
        reason: str
        jackpot_carried: bool
        by: Provenance

    @applies(Voided)
    def void(self, reason: str, jackpot_carried: bool, by: Provenance) -> None:
        self.phase = Phase.VOID

    class Adjusted(Aggregate.Event):
        box: int
        spot: str
        player: str | None
        amount: Decimal
        reason: str
        by: Provenance
        dispute: str = ""
        after_close: bool = False  # recorded after the round's gaming day closed

    @applies(Adjusted)
    def _adjusted(self, box: int, spot: str, player: str | None, amount: Decimal, reason: str,
                  by: Provenance, dispute: str = "", after_close: bool = False) -> None:
        self.adjustments.append({"box": box, "spot": spot, "player": player, "amount": amount,
                                 "reason": reason, "dispute": dispute})

    def adjust(self, box: int, spot: str, player: str | None, amount: Decimal, reason: str,
               by: Provenance, dispute: str, after_close: bool = False) -> None:
        """One adjustment per dispute: the same dispute typed twice is refused, not paid twice."""
        for earlier in self.adjustments:
            if earlier.get("dispute") == dispute:
                raise WrongState(
                    f"dispute {dispute} was adjusted already on {self.label} (box "
                    f"{earlier['box']} {earlier['spot']} {money(earlier['amount'])}): an adjustment is "
                    "recorded once per dispute; nothing was recorded.")
        self._adjusted(box=box, spot=spot, player=player, amount=amount, reason=reason, by=by,
                       dispute=dispute, after_close=after_close)
