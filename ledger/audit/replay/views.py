"""How a replay reads to people: one sentence per event, what each hand is worth, and each
hand in words (`Flush, queen high`)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from ledger.core.cards import Card
from ledger.core.formatting import counted, money
from ledger.domain.jackpot_pool import JackpotPool
from ledger.domain.round import Round
from ledger.domain.shoe import Shoe
from ledger.games import registry
from ledger.games.facts import BURN, RoundFacts
from ledger.games.protocol import HandValue
from ledger.presentation.wording import bet_name, deal_mode, rule_set, term, void_reason


def label(target: str) -> str:
    """`box:3` -> `box 3`; `dealer`, `player`, `banker` as they are; `burn` -> `burned`."""
    kind, _, number = target.partition(":")
    return f"{kind} {number}" if number else ("burned" if target == BURN else target)


def _bet(body: dict[str, Any]) -> str:
    return bet_name(body["box"], body["spot"], body.get("player"))


_SENTENCES: dict[str, Callable[[dict[str, Any]], str]] = {
    Round.Opened.event_type: lambda b: (
        f"round {b['number']} opened at table {b['table']}: {rule_set(b['rule_set'])}, "
        f"dealt from a {term(b['dealing'])}"
        + "".join(f"; jackpot bet {money(c['amount'])} carried to box {c['box']}"
                  for c in b.get("carried_jackpot_bets", []))),
    Round.BetPlaced.event_type: lambda b: f"bet {money(b['amount'])} on {_bet(b)}",
    Round.BettingClosed.event_type: lambda b: "betting closed",
    Round.DealModeAnnounced.event_type: lambda b: f"announced: {deal_mode(b['mode'])}",
    Round.CardDealt.event_type: lambda b: (
        f"{b['card']} to {label(b['to'])}, face {'up' if b['face_up'] else 'down'}"
        + (f" (shoe position {b['shoe_position']})" if b.get("shoe_position") is not None
           else "")),
    Round.CardExposed.event_type: lambda b: (
        f"{b['card']} of {label(b['to'])} exposed by mistake ({b['kind']}): "
        f"{term(b['consequence'])}"),
    Round.IrregularityRecorded.event_type: lambda b: (
        f"irregularity {term(b['kind'])}"
        + (f" at box {b['box']}" if b.get("box") else "")
        + (f" ({' '.join(b['cards'])})" if b.get("cards") else "")
        + f": {term(b['consequence'])}" + (f"; {b['note']}" if b.get("note") else "")),
    Round.DecisionMade.event_type: lambda b: (
        f"box {b['box']}" + (f" ({b['player']})" if b.get("player") else "") + f": {term(b['decision'])}"
        + (f" {money(b['amount'])}" if b["decision"] == "raise" else "")),
    Round.DealerRevealed.event_type: lambda b: f"dealer's hand revealed: {' '.join(b['cards'])}",
    Round.JackpotPrizeAwarded.event_type: lambda b: (
        f"jackpot: box {b['box']} {term(b['category'])} wins {money(b['amount'])}"
        f" ({money(b['paid_by_pool'])} from the pool, {money(b['paid_by_house'])} by the house)"),
    Round.BetSettled.event_type: lambda b: (
        f"{_bet(b['bet'])} {b['bet']['outcome']}: stake {money(b['bet']['stake'])}, returned "
        f"{money(b['bet']['returned'])}, paid {money(b['bet']['payout'])}"
        + (f", commission {money(b['bet']['commission'])}"
           if Decimal(b['bet']['commission']) else "")
        + (" (capped)" if b["bet"].get("capped") else "")),
    Round.Settled.event_type: lambda b: (f"round settled: recorded win {money(b['house_win'])} "
                                "(every bet, jackpot bets included)"),
    Round.Voided.event_type: lambda b: (
        f"round void: {void_reason(b['reason'])}" + ("; jackpot bets carried to the next round"
                                        if b.get("jackpot_carried") else "")),
    Round.Adjusted.event_type: lambda b: (
        f"adjustment of {money(b['amount'])} on {_bet(b)}: {b['reason']}"),
    Shoe.Shuffled.event_type: lambda b: (
        f"shoe of {counted(b['decks'], 'deck')} shuffled by "
        f"{term(b['method'])}"
        + (f" (serial {b['shuffler_serial']})" if b.get("shuffler_serial") else "")
        + (f"; order committed to {b['commitment'][:16]}..." if b.get("commitment") else "")),
    Shoe.CutMade.event_type: lambda b: (
        f"cut by {b['cut_by']}" + (f", cut card after card {b['cut_card_position']}"
                                   if b.get("cut_card_position") else "")),
    Shoe.CardsBurned.event_type: lambda b: (
        f"{counted(b['count'], 'card')} burned from shoe position "
        f"{b['first_position']}" + (f": {' '.join(b['cards'])}" if b.get("cards") else "")),
    Shoe.CutCardReached.event_type: lambda b: f"cut card reached at shoe position {b['position']}",
    Shoe.Closed.event_type: lambda b: (
        "shoe closed" + ("" if b.get("revealed_order") is None else
                         f"; order and secret revealed, commitment "
                         f"{'holds' if b.get('commitment_holds') else 'does NOT hold'}")),
    JackpotPool.ContributionReceived.event_type: lambda b: (
        f"pool receives {money(b['to_pool'])} of {money(b['stakes'])} in jackpot bets "
        f"(seed reserve {money(b['to_reserve'])}): pool {money(b['pool_after'])}"),
    JackpotPool.JackpotHit.event_type: lambda b: (
        f"pool pays box {b['box']} {term(b['category'])} {money(b['prize'])}: "
        f"{money(b['paid_by_pool'])} from the pool, {money(b['paid_by_house'])} by the house; "
        f"pool {money(b['pool_before'])} -> {money(b['pool_after'])}"),
    JackpotPool.JackpotReduced.event_type: lambda b: (
        f"pool reduced by {money(b['amount'])} to {money(b['pool_after'])}"),
    JackpotPool.ResetToSeed.event_type: lambda b: (
        f"pool emptied: restarts at its seed {money(b['seed'])}"),
}


def describe(event_type: str, body: dict[str, Any]) -> str:
    """One sentence for one event; the event type itself for a type without a sentence."""
    sentence = _SENTENCES.get(event_type)
    try:
        return sentence(body) if sentence else event_type
    except (KeyError, TypeError, ArithmeticError, ValueError):
        return f"{event_type} (a body this ledger does not describe)"


# -- hands ------------------------------------------------------------------------------------

def hand_values(facts: RoundFacts) -> dict[str, HandValue]:
    """Each complete hand's value under the game's rules; the dealer's qualification."""
    hands: dict[str, list[Card]] = {}
    for card in facts.cards:
        hands.setdefault(card.to, []).append(card.card)
    game = registry.GAMES.get(facts.game)
    if game is None:
        return {}
    return {target: game.hand_value(target, tuple(cards)) for target, cards in hands.items()
            if target != BURN}

