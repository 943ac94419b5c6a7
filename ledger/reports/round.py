"""A round as its events say it stands, as plain values: what `ledger round show` prints and
its `--json`, and what the terminal API answers for a table's current round. Its win is the
round's table win, its jackpot stakes and prizes apart (`ledger.reports.round_win`)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ledger.domain.round import Round
from ledger.presentation.wording import describe_outcome
from ledger.reports.round_win import round_win


def round_view(round_: Round) -> dict[str, Any]:
    """What `round show` prints, as plain values: its terminal tables and its `--json`. Each bet
    comes with its own result (None until settled); a result settled without a bet placed (the
    Stud Poker raise) follows the bets."""
    unmatched = list(round_.results)
    bets = [_bet_line(b.box, b.spot, b.player, b.amount, _result_of(b, unmatched), b.carried_from)
            for b in round_.bets]  # each bet with its own result, taken once
    bets += [_bet_line(r.box, r.spot, r.player, r.stake, r, None) for r in unmatched]
    outcome = getattr(round_, "outcome", None)
    win = round_win(round_)
    return {
        "round_id": round_.id, "table": round_.table, "number": round_.number,
        "game": round_.game, "rule_set": round_.rule_set, "phase": round_.phase.value,
        "demonstration": round_.demonstration,
        "gaming_day": round_.gaming_day, "result": describe_outcome(outcome) or None,
        "outcome": outcome,
        "cards": [{"to": c.to, "card": str(c.card), "face_up": c.face_up,
                   "shoe_position": c.shoe_position} for c in round_.cards],
        "bets": bets,
        "jackpots": [{"box": fact[0], "category": fact[1], "prize": fact[2]}
                     for kind, fact in round_.log if kind == "jackpot"],
        "adjustments": [{"box": adj["box"], "spot": adj["spot"], "player": adj.get("player"),
                         "amount": adj["amount"], "reason": adj["reason"],
                         "dispute": adj.get("dispute") or None} for adj in round_.adjustments],
        "win": win.model_dump(), "win_said": win.said,
    }


def _bet_line(box: int, spot: str, player: str | None, stake: Decimal, result: Any | None,
              carried_from: str | None) -> dict[str, Any]:
    return {"box": box, "spot": spot, "player": player, "stake": stake,
            "outcome": result.outcome.value if result else None,
            "returned": result.returned if result else None,
            "payout": result.payout if result else None,
            "commission": result.commission if result else None,
            "carried_from": carried_from}


def _result_of(bet: Any, unmatched: list[Any]) -> Any | None:
    """The settled result of `bet`, removed from `unmatched`: the same box, spot and player, or
    the same box and spot settled without the player's name (a Stud Poker ante)."""
    for same_player in (True, False):
        for result in unmatched:
            if (result.box, result.spot) == (bet.box, bet.spot) and (
                    result.player == bet.player if same_player else None in (result.player,
                                                                             bet.player)):
                unmatched.remove(result)
                return result
    return None
