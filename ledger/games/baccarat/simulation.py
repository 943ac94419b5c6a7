"""Baccarat as the floor simulator plays it: bets, the deal, decisions, settlement."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ledger.core.cards import Card
from ledger.games.baccarat import rules as baccarat_rules
from ledger.games.simulated import MARKED_STAKE, Dealing, Plant, bettor_boxes, deal


def coming_winner(sim: Dealing) -> str:
    """The side the next coup's cards make win, read from the shoe before they are dealt."""
    return str(baccarat_rules.play_coup(sim.peek(n) for n in range(6)).winner)


def planted_bet(sim: Dealing, plant: Plant) -> None:
    """The informed bettor: the banker every coup, ten minimums when they see it win, else the
    minimum. The lucky one: the banker or the player at one to three minimums, the winner
    during their streak."""
    minimum = sim.spec.min_bet
    if plant.kind == "informed-bettor":
        favoured = plant.knows and coming_winner(sim) == "banker"
        amount = minimum * MARKED_STAKE if favoured else minimum
        sim.bet(plant.box, "banker", amount=amount, player=plant.player)
        return
    spot = plant.rng.choice(("banker", "player"))
    if plant.streak and (winner := coming_winner(sim)) != "tie":
        spot = winner
    sim.bet(plant.box, spot, amount=minimum * plant.rng.randint(1, 3), player=plant.player)


def play_demonstration(sim: Dealing) -> None:
    """Art. 2(2): a coup dealt face up and settled at the shoe's start, with no bet on it."""
    sim.act("open_round", table=sim.spec.code, demonstration=True)
    cards: list[Card] = []
    while (side := baccarat_rules.next_card_to(cards)) is not None:
        cards.append(deal(sim, side.value, face_up=True))
    sim.act("settle_round", table=sim.spec.code)


def play_round(sim: Dealing, turn: Any) -> bool:
    """One Baccarat round at a simulated table; True when the round was voided."""
    for box, spot, kept, player in sim.tie_bets:  # kept from a tie (art. 12(2))
        sim.bet(box, spot, amount=kept, player=player)
    sim.tie_bets = []
    marked = sim.knows_the_cards()
    plant = sim.planted()
    for n, box in enumerate(bettor_boxes(sim)):
        if plant is not None and box == plant.box:
            continue  # the planted bettor's seat
        spot = sim.rng.choices(("banker", "player", "tie", "player_pair", "banker_pair"),
                               weights=(46, 40, 6, 4, 4))[0]
        side_bet = spot not in ("banker", "player")  # side bets are small, as players make them
        amount: Decimal | None = sim.spec.min_bet * sim.rng.randint(1, 3) if side_bet else None
        if marked and n == 0:  # the player who knows the cards bets big on the coup's winner
            spot, amount = coming_winner(sim), sim.spec.min_bet * MARKED_STAKE
        sim.bet(box, spot, amount=amount)
    if plant is not None:
        planted_bet(sim, plant)
    cards: list[Card] = []
    while (side := baccarat_rules.next_card_to(cards)) is not None:
        cards.append(deal(sim, side.value, face_up=True))
    if sim.rng.random() < sim.irregularity_rate:  # a card out of the shoe face up: it stands
        sim.act("expose_card", table=sim.spec.code, to="player", card=str(cards[0]))
    sim.settle(turn)
    return False
