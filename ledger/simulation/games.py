"""A round of each game as a dealer terminal records it: bets, cards, decisions, settlement.

Each function plays one round on a `TableSimulator` and says whether the round was voided.
Irregularities happen at the simulator's rate: cards shown by mistake, a misdeal, a shuffler
failure, each recorded and left to the regulation's consequence.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from random import Random
from typing import Any, Protocol

from ledger.cards import Card
from ledger.commands import Command
from ledger.commands.round import (
    AnnounceDealMode,
    DealCard,
    Decide,
    ExposeCard,
    RecordIrregularity,
    RevealDealer,
)
from ledger.domain.base import Actor
from ledger.games import baccarat as baccarat_rules
from ledger.games import q_poker as q_poker_rules
from ledger.games import stud_poker as stud_rules
from ledger.simulation.strategy import q_poker_plays, stud_raises


class Dealing(Protocol):
    """What a round needs from the table it is played at (`TableSimulator` is one)."""

    spec: Any  # the table's TableSpec: code, game, seats, limits, shuffler
    rng: Random
    players: int
    carried: set[int]
    irregularity_rate: float  # money-safe: a probability
    supervisor: Actor
    tie_bets: list[tuple[int, str, Decimal, str | None]]

    def last_jackpot_boxes(self) -> list[int]: ...
    def send(self, command_class: type[Command], *, actor: Actor | None = None,
             **fields: Any) -> None: ...
    def draw(self) -> Card: ...
    def bet(self, box: int, spot: str, amount: Decimal | None = None,
            player: str | None = None) -> Decimal: ...
    def settle(self, settle_turn: Any = None) -> None: ...
    def buy_in(self, players: int | bool) -> None: ...
    def shuffler_stops_at(self, cards: int) -> int | None: ...
    def shuffler_failure(self, dealt: int) -> None: ...

JACKPOT_BET = "100.00"


def _deal(sim: Dealing, to: str, face_up: bool = False) -> Card:
    card = sim.draw()
    sim.send(DealCard, table=sim.spec.code, to=to, card=str(card), face_up=face_up)
    return card


def _boxes(sim: Dealing) -> list[int]:
    return sorted(sim.rng.sample(range(1, sim.spec.seats + 1), sim.players))


def _turn(turn: Any) -> Any:
    from contextlib import nullcontext

    return nullcontext() if turn is None else turn


def baccarat(sim: Dealing, turn: Any) -> bool:
    for box, spot, amount, player in sim.tie_bets:  # kept from a tie (art. 12(2))
        sim.bet(box, spot, amount=amount, player=player)
    sim.tie_bets = []
    for box in _boxes(sim):
        spot = sim.rng.choices(("banker", "player", "tie", "player_pair", "banker_pair"),
                               weights=(46, 40, 6, 4, 4))[0]
        side_bet = spot not in ("banker", "player")  # side bets are small, as players make them
        sim.bet(box, spot, amount=sim.spec.min_bet * sim.rng.randint(1, 3) if side_bet else None)
    sim.buy_in(sim.rng.random() < 0.3)
    cards: list[Card] = []
    while (side := baccarat_rules.next_card_to(cards)) is not None:
        cards.append(_deal(sim, side.value, face_up=True))
    if sim.rng.random() < sim.irregularity_rate:  # a card out of the shoe face up: it stands
        sim.send(ExposeCard, table=sim.spec.code, to="player", card=str(cards[0]))
    sim.settle(turn)
    return False


def fortune8(sim: Dealing, turn: Any) -> bool:
    spaces = set()
    for n in range(sim.players + sim.rng.randint(0, 3)):
        space = sim.rng.randint(1, 7)
        spaces.add(space)
        sim.bet(space, sim.rng.choices(("L", "H", "8"), weights=(45, 45, 10))[0], player=f"P{n}")
    sim.buy_in(sim.rng.random() < 0.3)
    mode = "all_spaces" if sim.rng.random() < 0.7 else "spaces_with_bets"
    sim.send(AnnounceDealMode, table=sim.spec.code, mode=mode)
    _deal(sim, "burn")
    for space in range(1, 8) if mode == "all_spaces" else sorted(spaces):
        _deal(sim, f"space:{space}", face_up=True)
    sim.settle(turn)
    return False


def stud_poker(sim: Dealing, turn: Any) -> bool:
    boxes = sorted(set(_boxes(sim)) | sim.carried)
    antes = {box: sim.bet(box, "ante") for box in boxes}
    for box in boxes:
        if box not in sim.carried and sim.rng.random() < 0.5:
            sim.bet(box, "jackpot", amount=JACKPOT_BET)  # type: ignore[arg-type]
    jackpot_boxes = {box for box in boxes if box in sim.carried} | set(sim.last_jackpot_boxes())
    sim.carried = set()
    sim.buy_in(sim.rng.random() < 0.3)
    hands: dict[str, list[Card]] = {}
    method = stud_rules.DealMethod.SHUFFLER if sim.spec.shuffler else stud_rules.DealMethod.SHOE
    plan = stud_rules.expected_deal(boxes, method)
    stops_at = sim.shuffler_stops_at(len(plan))
    for n, step in enumerate(plan):
        if n == stops_at:  # the shuffler fails: void, jackpot bets carried (art. 11, 4))
            with _turn(turn):
                sim.shuffler_failure(n)
            sim.carried = jackpot_boxes
            return True
        to = "dealer" if step.to == "dealer" else f"box:{step.to}"
        hands.setdefault(to, []).append(_deal(sim, to))
    if sim.rng.random() < sim.irregularity_rate / 3:  # a misdeal: the round is void (art. 11, 1))
        with _turn(turn):
            sim.send(RecordIrregularity, table=sim.spec.code, kind="wrong_count",
                     note="a box received six cards", actor=sim.supervisor)
        sim.carried = jackpot_boxes
        return True
    if sim.rng.random() < sim.irregularity_rate:  # one card shown by mistake: play goes on
        sim.send(ExposeCard, table=sim.spec.code, to=f"box:{boxes[0]}",
                 card=str(hands[f"box:{boxes[0]}"][0]))
    for box in boxes:
        raised = stud_raises(tuple(hands[f"box:{box}"]))
        sim.send(Decide, table=sim.spec.code, box=box, decision="raise" if raised else "fold",
                 amount=antes[box] * 2 if raised else None)
    sim.send(RevealDealer, table=sim.spec.code)
    sim.settle(turn)
    return False


def q_poker(sim: Dealing, turn: Any) -> bool:
    boxes = _boxes(sim)
    bettors: list[tuple[int, str]] = []
    for box in boxes:
        players = [f"P{box}a"] + ([f"P{box}b"] if sim.rng.random() < 0.25 else [])
        for player in players:
            sim.bet(box, "play", player=player)
            bettors.append((box, player))
            if sim.rng.random() < 0.5:
                sim.bet(box, "bonus", player=player)
    sim.buy_in(sim.rng.random() < 0.3)
    hands: dict[int, list[Card]] = {}
    equipment = q_poker_rules.Equipment.SHUFFLER if sim.spec.shuffler else q_poker_rules.Equipment.SHOE
    order = q_poker_rules.deal_order(boxes, equipment)
    stops_at = sim.shuffler_stops_at(len(order))
    for n, recipient in enumerate(order):
        if n == stops_at:  # the shuffler fails: the round is void (art. 11(5))
            sim.shuffler_failure(n)
            return True
        to = "dealer" if recipient == q_poker_rules.DEALER else f"box:{recipient}"
        hands.setdefault(recipient, []).append(_deal(sim, to))
    if sim.rng.random() < sim.irregularity_rate / 3:  # a dealer card shown: void (art. 11(3))
        with _turn(turn):
            sim.send(ExposeCard, table=sim.spec.code, to="dealer",
                     card=str(hands[q_poker_rules.DEALER][0]), actor=sim.supervisor)
        return True
    for box, player in bettors:
        plays = q_poker_plays(tuple(hands[box]))
        sim.send(Decide, table=sim.spec.code, box=box, player=player,
                 decision="play" if plays else "surrender")
    sim.send(RevealDealer, table=sim.spec.code)
    sim.settle(turn)
    return False


PLAYERS: dict[str, Callable[[Dealing, Any], bool]] = {
    "baccarat": baccarat, "fortune-8": fortune8, "stud-poker": stud_poker, "q-poker": q_poker,
}
