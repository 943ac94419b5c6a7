"""What the money did, in words: `details(events)` is a line for each event whose amounts or
result a pit boss checks ("box 3 banker MOP 1,000.00 wins MOP 950.00 after commission MOP
50.00", "banker wins, player 5 banker 7", "fill slip 1043: MOP 20,000.00").

Pure: the events are the domain's own objects (or anything with their fields); no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

from ledger.core.formatting import money
from ledger.domain.base import DomainEvent
from ledger.domain.jackpot_pool import JackpotPool
from ledger.domain.round import Round
from ledger.domain.shift import Shift
from ledger.presentation.wording import describe_outcome, term, void_reason


def details(events: Iterable[Any]) -> tuple[str, ...]:
    """A line for each event whose amounts or result a pit boss checks, in recording order."""
    lines, jackpot_bets = [], Decimal(0)
    for event in events:
        kind = type(event).__qualname__
        if kind == Round.BetSettled.event_type and str(getattr(event.bet.spot, "value",
                                                      event.bet.spot)) == "jackpot":
            bet = event.bet
            jackpot_bets += bet.stake - bet.returned - bet.payout + bet.commission
        if kind == Round.Settled.event_type:
            lines.append(_settled(event, jackpot_bets))
        elif (say := _DETAILS.get(kind)) is not None and (line := say(event)):
            lines.append(line)
    return tuple(lines)


def _bet(box: int, spot: str, player: str | None) -> str:
    return f"box {box}{f' ({player})' if player else ''} {term(spot)}"


def _settled_bet(event: Any) -> str:
    bet = event.bet
    said = f"{_bet(bet.box, bet.spot, bet.player)} {money(bet.stake)}"
    outcome = str(getattr(bet.outcome, "value", bet.outcome))
    if outcome == "won":
        said += f" wins {money(bet.payout - bet.commission)}"  # commission kept from the win
        if bet.commission:
            said += f" after commission {money(bet.commission)}"
        if bet.capped:
            said += " (capped at the house maximum)"
        return said
    if outcome == "lost":
        return said + " loses"
    if outcome == "surrendered":
        return said + f" surrenders: {money(bet.returned)} returned"
    if outcome == "carried":
        return said + " carried to the next round"
    return said + f" {outcome}: {money(bet.returned)} returned"  # pushed, returned


def _decision(event: Any) -> str:
    said = f"box {event.box}{f' ({event.player})' if event.player else ''} {term(event.decision)}"
    return said + (f" {money(event.amount)}" if event.amount else "")


def _prize(event: Any) -> str:
    said = f"box {event.box} {term(event.category)}: {money(event.amount)}"
    if event.paid_by_pool and event.paid_by_house:
        said += (f" ({money(event.paid_by_pool)} from the pool, "
                 f"{money(event.paid_by_house)} by the house)")
    elif event.paid_by_pool:
        said += " from the pool"
    return said


def _settled(event: Any, jackpot_bets: Decimal = Decimal(0)) -> str:
    """The result and the round's table win: the recorded win less its jackpot bets, whose
    stakes are the pool's (`ledger.reports.round_win`)."""
    said = describe_outcome(event.outcome)
    won = event.house_win - jackpot_bets
    house = (f"house wins {money(won)}" if won > 0 else f"house loses {money(-won)}" if won < 0
             else "house even")
    if jackpot_bets:
        house += f"; jackpot stakes {money(jackpot_bets)} to the pool"
    return f"{said}; {house}" if said else house


def _slip(kind: str) -> Callable[[Any], str]:
    return lambda event: f"{kind} slip {event.slip}: {money(event.amount)}"


def _after_close(event: Any) -> str:
    return " (after the gaming day closed)" if getattr(event, "after_close", False) else ""


_DETAILS_OF: dict[type[DomainEvent], Callable[[Any], str]] = {
    Round.BetPlaced: lambda e: f"{_bet(e.box, e.spot, e.player)} {money(e.amount)}",
    Round.DecisionMade: _decision,
    Round.BetSettled: _settled_bet,
    Round.JackpotPrizeAwarded: _prize,
    Round.Settled: _settled,
    Round.Voided: lambda e: f"void: {void_reason(e.reason)}"
                            + ("; jackpot bets carried" if e.jackpot_carried else ""),
    Round.Adjusted: lambda e: (f"{_bet(e.box, e.spot, e.player)} adjusted by {money(e.amount)}: "
                               f"{e.reason}{_after_close(e)}"),
    Shift.Opened: lambda e: f"opening count {money(e.total)}",
    Shift.FillRecorded: _slip("fill"),
    Shift.CreditRecorded: _slip("credit"),
    Shift.SlipVoided: lambda e: f"slip {e.slip} voided: {e.reason}",
    Shift.DropEntered: lambda e: (f"drop {money(e.cash + e.markers)} (cash {money(e.cash)}, "
                                  f"markers {money(e.markers)}){_after_close(e)}"),
    Shift.DropAdjusted: lambda e: (f"drop adjusted to {money(e.cash + e.markers)}: "
                                   f"{e.reason}{_after_close(e)}"),
    Shift.Closed: lambda e: f"closing count {money(e.total)}",
    JackpotPool.ContributionReceived: lambda e: (f"{money(e.to_pool)} to the jackpot pool, now "
                                                 f"{money(e.pool_after)}"),
    JackpotPool.JackpotReduced: lambda e: (f"{money(e.amount)} paid from the jackpot pool, now "
                                           f"{money(e.pool_after)}"),
    JackpotPool.ResetToSeed: lambda e: f"jackpot pool reset to its seed {money(e.seed)}",
    JackpotPool.Adjusted: lambda e: (f"jackpot pool adjusted by {money(e.amount)}, now "
                                     f"{money(e.pool_after)}: {e.reason}"),
}
_DETAILS = {kind.event_type: say for kind, say in _DETAILS_OF.items()}
