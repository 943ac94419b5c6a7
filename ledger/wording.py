"""What a recorded command did, in the words of the floor rather than the events' class names.

`describe(["Round.BetSettled", "Round.BetSettled", "Round.Settled", "Table.RoundFinished"])`
is "2 bets settled, round settled, round finished": kinds in the order first recorded, each
counted, receipts left out (every command writes one).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

ONE_AND_MANY: dict[str, tuple[str, str]] = {
    "Table.Opened": ("table opened", "tables opened"),
    "Table.Reopened": ("table re-opened", "tables re-opened"),
    "Table.Closed": ("table closed", "tables closed"),
    "Table.SettingsChanged": ("house settings changed", "house settings changed"),
    "Table.DealerSignedIn": ("dealer signed in", "dealers signed in"),
    "Table.DealerSignedOut": ("dealer signed out", "dealers signed out"),
    "Table.PoolLinked": ("table linked to its jackpot pool", "tables linked to a pool"),
    "Table.JackpotBetsCarried": ("jackpot bets carried to the next round",
                                 "jackpot bets carried to the next round"),
    "Table.ShoeStarted": ("new shoe at the table", "new shoes at the table"),
    "Table.RoundStarted": ("round started", "rounds started"),
    "Table.RoundFinished": ("round finished", "rounds finished"),
    "Table.ShiftOpened": ("table in its shift", "tables in their shifts"),
    "Table.ShiftClosed": ("closing count kept for the next shift",
                          "closing counts kept for the next shifts"),
    "Round.Opened": ("round opened", "rounds opened"),
    "Round.BetPlaced": ("bet placed", "bets placed"),
    "Round.BettingClosed": ("no more bets", "no more bets"),
    "Round.DealModeAnnounced": ("deal mode announced", "deal modes announced"),
    "Round.CardDealt": ("card dealt", "cards dealt"),
    "Round.CardExposed": ("exposed card recorded", "exposed cards recorded"),
    "Round.IrregularityRecorded": ("irregularity recorded", "irregularities recorded"),
    "Round.DecisionMade": ("decision", "decisions"),
    "Round.DealerRevealed": ("dealer's hand revealed", "dealer's hands revealed"),
    "Round.BetSettled": ("bet settled", "bets settled"),
    "Round.JackpotPrizeAwarded": ("jackpot prize awarded", "jackpot prizes awarded"),
    "Round.Settled": ("round settled", "rounds settled"),
    "Round.Voided": ("round void", "rounds void"),
    "Round.Adjusted": ("settlement adjusted", "settlements adjusted"),
    "Shoe.Shuffled": ("shuffle", "shuffles"),
    "Shoe.CutMade": ("cut", "cuts"),
    "Shoe.CardsBurned": ("cards burned", "cards burned"),
    "Shoe.CardDrawn": ("card drawn from the shoe", "cards drawn from the shoe"),
    "Shoe.CutCardReached": ("cut card reached", "cut card reached"),
    "Shoe.Closed": ("shoe closed", "shoes closed"),
    "Shift.Opened": ("shift opened", "shifts opened"),
    "Shift.FillRecorded": ("fill slip", "fill slips"),
    "Shift.CreditRecorded": ("credit slip", "credit slips"),
    "Shift.SlipVoided": ("slip voided", "slips voided"),
    "Shift.DropEntered": ("drop counted", "drops counted"),
    "Shift.DropAdjusted": ("drop adjusted", "drops adjusted"),
    "Shift.Closed": ("shift closed", "shifts closed"),
    "GamingDay.Begun": ("gaming day begun", "gaming days begun"),
    "GamingDay.ShiftOpened": ("shift entered in its gaming day", "shifts entered in their gaming days"),
    "GamingDay.ShiftClosed": ("shift's count entered in its gaming day",
                              "shifts' counts entered in their gaming days"),
    "GamingDay.Closed": ("gaming day closed", "gaming days closed"),
    "JackpotPool.Created": ("jackpot pool created", "jackpot pools created"),
    "JackpotPool.TableLinked": ("table joined the pool", "tables joined the pool"),
    "JackpotPool.ContributionReceived": ("jackpot contribution", "jackpot contributions"),
    "JackpotPool.JackpotHit": ("jackpot hit", "jackpot hits"),
    "JackpotPool.JackpotReduced": ("jackpot paid from the pool", "jackpots paid from the pool"),
    "JackpotPool.ResetToSeed": ("pool reset to its seed", "pool resets to its seed"),
    "JackpotPool.Adjusted": ("pool adjusted", "pool adjustments"),
    "StaffMember.Enrolled": ("staff member enrolled", "staff members enrolled"),
    "StaffMember.Suspended": ("staff member suspended", "staff members suspended"),
    "StaffMember.Reinstated": ("staff member reinstated", "staff members reinstated"),
    "StaffMember.RolesChanged": ("roles changed", "roles changed"),
    "StaffMember.KeyReplaced": ("staff key replaced", "staff keys replaced"),
    "TerminalDevice.Registered": ("terminal registered", "terminals registered"),
    "TerminalDevice.Revoked": ("terminal revoked", "terminals revoked"),
    "TerminalDevice.KeyReplaced": ("terminal key replaced", "terminal keys replaced"),
    "Registry.Bootstrapped": ("registry started", "registry started"),
}
RECEIPT = "CommandReceipt.Accepted"


def describe(kinds: Iterable[str]) -> str:
    """The kinds of events one command recorded, counted, in words ("" for none)."""
    counted = Counter(kind for kind in kinds if kind != RECEIPT)
    return ", ".join(_phrase(kind, count) for kind, count in counted.items())


def _phrase(kind: str, count: int) -> str:
    one, many = ONE_AND_MANY.get(kind) or (_words(kind),) * 2
    return one if count == 1 else f"{count} {many}"


def _words(kind: str) -> str:
    """An event kind nobody worded yet, from its class name: `Shoe.CardsBurned` is
    "shoe: cards burned"."""
    aggregate, _, name = kind.rpartition(".")
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()
    return f"{re.sub(r'(?<!^)(?=[A-Z])', ' ', aggregate).lower()}: {words}" if aggregate else words
