"""A replay as the page for a dispute file (`templates/replay.html`): the verdict first, then
the shoe, the hands as inline SVG cards, the results beside their re-computation, the jackpot,
the timeline of who did what from which terminal, later adjustments, and in an appendix the
hash-chain evidence of every event the replay used. Under the verdict, one line says whether
those events are the ones the seal signed, and under which checkpoint. Nothing is loaded from outside."""

from __future__ import annotations

from ledger.audit.replay.check import BetLine
from ledger.audit.replay.round import CardView, RoundReplay
from ledger.core.formatting import counted, money
from ledger.pages import render
from ledger.presentation.wording import term
from ledger.reports.round_win import (
    Prize,
    hand_name,
    jackpot_bet_words,
    on_layout,
    outcome_words,
    paid,
    win_sentence,
)

SUIT_NAMES = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}


def card(view: CardView) -> dict[str, object]:
    """What the card macro draws: rank, suit, colours and how the card was dealt (face down:
    dashed blue frame; exposed by mistake: orange)."""
    rank, suit = view.card[:-1], view.card[-1]
    how = "exposed" if view.exposed else ("face up" if view.face_up else "face down")
    return {
        "code": view.card, "rank": "10" if rank == "T" else rank, "suit": suit,
        "suit_name": SUIT_NAMES.get(suit, suit), "how": how,
        "colour": "#c62828" if suit in "HD" else "#1d1d1f",
        "frame": "#e67e22" if view.exposed else ("#1d1d1f" if view.face_up else "#1f5fa8"),
        "dashed": not view.face_up and not view.exposed, "position": view.shoe_position,
        "mark": "exp" if view.exposed else ("down" if not view.face_up else ""),
    }


def _due(line: BetLine, prizes: list[Prize]) -> str:
    if not on_layout(line.spot):
        return jackpot_bet_words(line.box, line.outcome, prizes)
    return (f"{line.outcome}, returned {money(line.returned)}, paid {money(line.payout)}"
            + (f", commission {money(line.commission)}" if line.commission else ""))


def results(replay: RoundReplay) -> list[dict[str, object]]:
    """Each recorded result beside what the rules give for it; a jackpot bet's outcome says
    what became of it (a prize won: which hand, what prize)."""
    recomputed = {(due.box, due.spot, due.player): due for due in replay.check.recomputed}
    prizes = replay.win.prizes if replay.win else []
    again = replay.check.recomputed_win.prizes if replay.check.recomputed_win else []
    rows = []
    for line in replay.results:
        due = recomputed.get((line.box, line.spot, line.player))
        rows.append({"line": line, "due": _due(due, again) if due else "nothing due",
                     "outcome": outcome_words(line.spot, line.box, line.outcome, prizes),
                     "paid": paid(line.spot, line.box, line.payout, prizes),
                     "differs": due is None or due != line})
    return rows


def wins(replay: RoundReplay) -> dict[str, str]:
    """The round's win as recorded and as re-computed, in words."""
    recomputed = replay.check.recomputed_win
    return {"recorded": win_sentence(replay.win) if replay.win else "not known",
            "recomputed": win_sentence(recomputed) if recomputed else
            "nothing to re-compute until the round is settled or voided"}


def shoe_facts(replay: RoundReplay) -> list[str]:
    shoe = replay.shoe
    if shoe is None:
        return []
    facts = [f"{counted(shoe.decks, 'deck')}, shuffled by {term(shoe.method)}"]
    facts += [f"shuffler serial {shoe.shuffler_serial}"] if shoe.shuffler_serial else []
    facts += [f"cut by {shoe.cut_by}"] if shoe.cut_by else []
    facts += [f"cut card after card {shoe.cut_card_position}"] if shoe.cut_card_position else []
    facts += [f"{counted(shoe.burned, 'card')} burned"
              + (f": {' '.join(shoe.burned_cards)}" if shoe.burned_cards else "")
              ] if shoe.burned else []
    return facts


def to_html(replay: RoundReplay, property_name: str = "", dispute: str | None = None) -> str:
    """The page; `dispute` is the reference of the dispute it is filed under, if any."""
    hands = [(hand, [card(c) for c in hand.cards]) for hand in replay.hands]
    kind = "demonstration coup" if replay.demonstration else "round"
    return render("replay.html", title=f"Replay of {replay.table} {kind} {replay.number}",
                  replay=replay, hands=hands, results=results(replay), wins=wins(replay),
                  hand_name=hand_name,
                  shoe_facts=shoe_facts(replay), property_name=property_name, dispute=dispute)
