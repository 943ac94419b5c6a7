"""Rounds: open, bets, cards, decisions, the reveal, irregularities, settlement and voids.

Every check is the game's procedure (`ledger.games`) over the round's recorded facts; every
amount settled is computed by the rules engine, never typed in.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ledger.application.handlers.shoes import (
    check_ready_for_round,
    current_shoe,
    draw_card,
    settings_day,
)
from ledger.application.handlers.tables import load_table
from ledger.application.handlers.unit_of_work import Handlers, UnitOfWork, handles
from ledger.commands.round import (
    AdjustRound,
    AnnounceDealMode,
    CloseBetting,
    DealCard,
    Decide,
    ExposeCard,
    OpenRound,
    PlaceBet,
    RecordIrregularity,
    RevealDealer,
    RoundCommand,
    SettleRound,
    VoidRound,
)
from ledger.core.cards import Card
from ledger.core.errors import (
    ConcurrencyConflict,
    InvalidInput,
    NotFound,
    RuleViolation,
    WrongState,
)
from ledger.core.formatting import money
from ledger.domain.base import Aggregate, Provenance, require_supervisor
from ledger.domain.round import CarriedBet, Phase, Round, SettledBet, round_id
from ledger.domain.shoe import Shoe, ShuffleMethod
from ledger.domain.table import Table, table_id
from ledger.games import registry
from ledger.games.common import BetResult, Consequence, Outcome
from ledger.games.facts import BetFact, CardFact, DecisionFact, ShoeAtStart
from ledger.games.registry import procedure_for
from ledger.games.rulesets import parse_settings, settings_in_force

VOIDING = (Consequence.ROUND_VOID, Consequence.ROUND_VOID_JACKPOT_CARRIED)


def _dealing(shoe: Shoe) -> str:
    return {ShuffleMethod.HAND: "shoe", ShuffleMethod.SHUFFLER: "shuffler",
            ShuffleMethod.AUTOMATIC: "automatic_shuffler_dealer"}[shoe.method]


def shoe_of(uow: UnitOfWork, round_: Round) -> Shoe:
    if round_.shoe_id is None:
        raise NotFound("the round's shoe does not exist.")
    return uow.load(Shoe, round_.shoe_id, "the round's shoe")


def round_in_play(uow: UnitOfWork, command: RoundCommand) -> tuple[Table, Round]:
    table = load_table(uow, command.table)
    if table.current_round is None:
        raise WrongState(f"table {table.code} has no round in play: open one first.")
    round_ = uow.load(Round, table.current_round, f"the round of table {table.code}")
    if command.round is not None and command.round != round_.number:
        raise ConcurrencyConflict(
            f"round {command.round} is not in play at table {table.code}: round "
            f"{round_.number} is. Nothing was recorded."
        )
    if command.expected_version is not None and command.expected_version != round_.version:
        raise ConcurrencyConflict(
            f"{round_.label} changed since this terminal read it (version "
            f"{command.expected_version}, now {round_.version}): nothing was recorded; "
            "refresh and send again."
        )
    return table, round_


def open_round(command: OpenRound, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    table = load_table(uow, command.table)
    table.check_open()
    table.check_in_shift()
    if table.dealer is None:
        raise WrongState(f"table {table.code} has no dealer signed in: no round without one.")
    if table.current_round is not None:
        raise WrongState(f"table {table.code} already has round {table.round_count} in play.")
    shoe = current_shoe(uow, table)
    shoe.check_open()
    if registry.game(table.game).shoe.single_deck and shoe.position:
        raise RuleViolation(f"{table.game} deals each round from a freshly shuffled deck: shuffle first.")
    history = [parse_settings(table.rule_set, data) for data in table.settings_history]
    in_force = settings_in_force(history, settings_day(table, command.at, uow))
    check_ready_for_round(table, shoe, in_force)
    if command.demonstration:
        registry.procedure_for(table.game).check_demonstration(in_force, ShoeAtStart(
            table.code, coups=table.shoe_coups, demonstrations=table.shoe_demonstrations,
            automatic=shoe.method is ShuffleMethod.AUTOMATIC))
    number = table.round_count + 1
    carried = [CarriedBet(box=b["box"], amount=Decimal(b["amount"]), from_round=b["from_round"])
               for b in table.carried_jackpot_bets]
    round_ = Round(
        table=table.code, number=number, game=table.game, rule_set=table.rule_set,
        settings=in_force.model_dump(mode="json"), dealing=_dealing(shoe), shoe_id=shoe.id,
        pool_id=table.pool, carried_jackpot_bets=carried, by=command.provenance,
        gaming_day=table.open_shift[2] if table.open_shift else None,
        demonstration=command.demonstration,
    )
    table.start_round(round_id=round_.id, number=number, by=command.provenance,
                      demonstration=command.demonstration)
    return table, round_


def place_bet(command: PlaceBet, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    _, round_ = round_in_play(uow, command)
    if round_.demonstration:
        raise RuleViolation(f"{round_.label} takes no bets (art. 2(2)).")
    bet = BetFact(command.box, command.spot, command.amount, command.player)
    facts = round_.facts()
    procedure = procedure_for(round_.game)
    procedure.check_bet(facts, bet)
    if command.standing:
        procedure.check_standing_bet(facts, bet)
    _check_limits(facts.settings, bet, has_pool=round_.pool_id is not None)
    round_.place_bet(box=bet.box, spot=bet.spot, amount=bet.amount, player=bet.player,
                     by=command.provenance, standing=command.standing)
    return (round_,)


def _check_limits(settings: Any, bet: BetFact, *, has_pool: bool) -> None:
    where = f"box {bet.box} {bet.spot}"
    if bet.spot == "jackpot":  # the jackpot bet is outside the table limits, into the pool
        if not has_pool:
            raise RuleViolation(f"{where}: this table is linked to no jackpot pool.")
        return
    if bet.amount < settings.min_bet:
        raise RuleViolation(f"{where}: {money(bet.amount)} is below the table minimum "
                            f"{money(settings.min_bet)}.")
    if bet.amount > settings.max_bet:
        raise RuleViolation(f"{where}: {money(bet.amount)} is above the table maximum "
                            f"{money(settings.max_bet)}.")


def _check_bets_after_a_tie(uow: UnitOfWork, table: Table, round_: Round) -> None:
    """As betting closes on a round (by the dealer or by its first card), at a game whose
    pushed bets stand (baccarat art. 12): the game checks the bets a tie pushed in the round
    before. Nothing is owed after a void or a re-opened table, nor for a pushed bet a
    supervisor adjusted or that this round's limits no longer admit."""
    if not registry.game(round_.game).pushed_bets_stand or round_.betting_closed or round_.cards:
        return
    if round_.number - 1 < table.session_first_round:
        return
    previous = uow.load(Round, round_id(table_id(table.code), round_.number - 1),
                        "the coup before")
    if previous.phase is not Phase.SETTLED:
        return
    adjusted = {(a["box"], a["spot"], a["player"]) for a in previous.adjustments}
    facts = round_.facts()
    tied = [BetResult(r.box, r.spot, r.stake, r.outcome, returned=r.returned, player=r.player)
            for r in previous.results if r.outcome == Outcome.PUSHED
            and (r.box, r.spot, r.player) not in adjusted
            and facts.settings.min_bet <= r.stake <= facts.settings.max_bet]
    procedure_for(round_.game).check_bets_standing(previous.facts().settings, tied, facts)


def close_betting(command: CloseBetting, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    table, round_ = round_in_play(uow, command)
    if round_.betting_closed:
        raise WrongState(f"betting is already closed in {round_.label}.")
    _check_bets_after_a_tie(uow, table, round_)
    round_.close_betting(by=command.provenance)
    return (round_,)


def announce_deal_mode(command: AnnounceDealMode, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    _, round_ = round_in_play(uow, command)
    procedure_for(round_.game).check_announce(round_.facts(), command.mode)
    round_.announce(mode=command.mode, by=command.provenance)
    return (round_,)


def deal_card(command: DealCard, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    table, round_ = round_in_play(uow, command)
    _check_bets_after_a_tie(uow, table, round_)
    card = Card.parse(command.card)
    fact = procedure_for(round_.game).check_card(
        round_.facts(), CardFact(command.to, card, command.face_up)
    )
    shoe = shoe_of(uow, round_)
    position = draw_card(shoe, card, round_.id, command.provenance)
    round_.deal(to=fact.to, card=card, face_up=fact.face_up, shoe_position=position,
                by=command.provenance)
    return round_, shoe


def expose_card(command: ExposeCard, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    table, round_ = round_in_play(uow, command)
    card = Card.parse(command.card)
    facts = round_.facts()
    if card not in facts.hand(command.to):
        raise InvalidInput(f"{card} was not dealt to {command.to} in {round_.label}.")
    kind, consequence = procedure_for(round_.game).classify_exposure(
        facts, CardFact(command.to, card, True)
    )
    if consequence in VOIDING:
        require_supervisor(command.provenance.actor, f"an exposed card that voids {round_.label}")
    round_.expose(to=command.to, card=card, kind=kind, consequence=consequence,
                  by=command.provenance)
    return _apply_consequence(table, round_, consequence, f"{kind}: {card}", command.provenance)


def record_irregularity(command: RecordIrregularity, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    table, round_ = round_in_play(uow, command)
    consequence = procedure_for(round_.game).classify(
        round_.facts(), command.kind, command.box, command.correctable
    )
    if consequence in VOIDING:
        require_supervisor(command.provenance.actor, f"an irregularity that voids {round_.label}")
    cards = [Card.parse(code) for code in command.cards]
    strays: tuple[Aggregate, ...] = ()
    if consequence is Consequence.BOX_VOID and cards:  # dealt to a box without bets: now out
        shoe = shoe_of(uow, round_)
        for card in cards:
            draw_card(shoe, card, round_.id, command.provenance)
        strays = (shoe,)
    round_.record_irregularity(kind=command.kind, consequence=consequence, box=command.box,
                               cards=cards, note=command.note, by=command.provenance)
    return (*_apply_consequence(table, round_, consequence, command.kind, command.provenance),
            *strays)


def _apply_consequence(table: Table, round_: Round, consequence: Consequence, reason: str,
                       by: Provenance) -> tuple[Aggregate, ...]:
    if consequence not in VOIDING:
        return (round_,)
    carry = consequence is Consequence.ROUND_VOID_JACKPOT_CARRIED
    return _void(table, round_, reason, carry, by)


def _void(table: Table, round_: Round, reason: str, carry: bool,
          by: Provenance) -> tuple[Aggregate, ...]:
    facts = round_.facts()
    results = procedure_for(round_.game).settle_void(facts, carry_jackpot=carry)
    for result in results:
        round_.settle_bet(bet=SettledBet.of(result), by=by)
    carried = [
        {"box": r.box, "amount": str(r.stake), "from_round": str(round_.id)}
        for r in results if r.outcome == "carried"
    ]
    round_.void(reason=reason, jackpot_carried=bool(carried), by=by)
    table.finish_round(round_id=round_.id, by=by)
    if carried:
        table.carry_jackpot_bets(from_round=round_.id, bets=carried, by=by)
    return round_, table


def decide(command: Decide, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    _, round_ = round_in_play(uow, command)
    fact = DecisionFact(command.box, command.player, command.decision,
                        command.amount or Decimal("0.00"))
    procedure_for(round_.game).check_decision(round_.facts(), fact)
    round_.decide(box=fact.box, player=fact.player, decision=fact.decision, amount=fact.amount,
                  by=command.provenance)
    return (round_,)


def reveal_dealer(command: RevealDealer, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    _, round_ = round_in_play(uow, command)
    facts = round_.facts()
    procedure_for(round_.game).check_reveal(facts)
    round_.reveal(cards=list(facts.hand("dealer")), by=command.provenance)
    return (round_,)


def settle_round(command: SettleRound, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    table, round_ = round_in_play(uow, command)
    procedure = procedure_for(round_.game)
    facts = round_.facts()
    results = procedure.settle(facts)
    changed: list[Aggregate] = [round_, table]
    if round_.pool_id is not None and registry.game(round_.game).takes_jackpot_bets:
        from ledger.application.handlers.jackpots import (
            settle_jackpot,  # only a pool's tables load pools
        )

        changed += settle_jackpot(uow, table, round_, facts, command.provenance)
    for result in results:
        round_.settle_bet(bet=SettledBet.of(result), by=command.provenance)
    house_win = sum((SettledBet.of(r).house_win for r in results), Decimal("0.00"))
    round_.close_settled(outcome=procedure.outcome(facts), house_win=house_win, by=command.provenance)
    table.finish_round(round_id=round_.id, by=command.provenance)
    return tuple(changed)


def void_round(command: VoidRound, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    require_supervisor(command.provenance.actor, "voiding a round")
    table, round_ = round_in_play(uow, command)
    carry = registry.game(round_.game).void_carries_jackpot  # Stud Poker art. 11
    return _void(table, round_, command.reason, carry, command.provenance)


def adjust_round(command: AdjustRound, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    from ledger.application.handlers.days import (
        day_closed,  # the gaming day's area, loaded when adjusting
    )

    require_supervisor(command.provenance.actor, "adjusting a settled round")
    table = load_table(uow, command.table)
    rid = round_id(table_id(table.code), command.round)
    round_ = uow.load(Round, rid, f"round {command.round} of table {table.code}")
    if not round_.is_finished:
        raise WrongState(f"{round_.label} is still in play: adjust it once it is settled.")
    if not any(r.box == command.box and r.spot == command.spot for r in round_.results):
        raise NotFound(f"{round_.label} has no {command.spot} bet on box {command.box}.")
    round_.adjust(box=command.box, spot=command.spot, player=command.player,
                  amount=command.amount, reason=command.reason, by=command.provenance,
                  dispute=command.dispute,
                  after_close=round_.gaming_day is not None
                  and day_closed(uow, round_.gaming_day))
    return (round_,)


HANDLERS: Handlers = (
    handles(OpenRound, open_round),
    handles(PlaceBet, place_bet),
    handles(CloseBetting, close_betting),
    handles(AnnounceDealMode, announce_deal_mode),
    handles(DealCard, deal_card),
    handles(ExposeCard, expose_card),
    handles(RecordIrregularity, record_irregularity),
    handles(Decide, decide),
    handles(RevealDealer, reveal_dealer),
    handles(SettleRound, settle_round),
    handles(VoidRound, void_round),
    handles(AdjustRound, adjust_round),
)
