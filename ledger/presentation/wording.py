"""What a recorded command did, in the words of the floor rather than the events' class names.

`describe(["Round.BetSettled", "Round.BetSettled", "Round.Settled", "Table.RoundFinished"])`
is "2 bets settled, round settled, round finished": kinds in the order first recorded, each
counted, receipts left out (every command writes one); each event named by its class
(`Round.BetSettled: ("bet settled", "bets settled")`). What the money did, a line an event, is
`ledger.presentation.details`. `describe_outcome` says who won a settled round, the same words
everywhere a round is shown.

The machine's names for hands, bets, deal modes, states, roles and fields are said here in the
words of the regulations and the pit, once for every screen, page and feed: `term("one_pair")`
is "one pair", `deal_mode("all_spaces")` "dealt to all seven spaces" (Fortune 8, art. 4(6)),
`label("max_bet")` "maximum bet", `shown(True)` "yes", `count(5804)` "5,804"; a game by its
regulation's name (`game("fortune-8")` "Fortune 8"), a rule set as "Stud Poker, 2004 rules",
a report line as "table BAC-01" or "Q Poker", a count with its noun (`counted(1, "deck")`
"1 deck"), a jackpot pool by its name (`pool_name("MAIN-PROGRESSIVE")` "Main Progressive").
Terminal, JSON (beside the codes), pages, print and the floor take them from here. Pure: the
events are the domain's own objects (or anything with their fields); no I/O.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from ledger.core.cards import faces
from ledger.core.formatting import count, money
from ledger.domain.base import DomainEvent
from ledger.domain.gaming_day import GamingDay
from ledger.domain.investigation import Investigation
from ledger.domain.jackpot_pool import JackpotPool
from ledger.domain.receipt import CommandReceipt
from ledger.domain.registry import Registry, StaffMember, TerminalDevice
from ledger.domain.round import Round
from ledger.domain.shift import Shift
from ledger.domain.shoe import Shoe
from ledger.domain.table import Table

_ONE_AND_MANY: dict[type[DomainEvent], tuple[str, str]] = {
    Table.Opened: ("table opened", "tables opened"),
    Table.Reopened: ("table re-opened", "tables re-opened"),
    Table.Closed: ("table closed", "tables closed"),
    Table.SettingsChanged: ("house settings changed", "house settings changed"),
    Table.DealerSignedIn: ("dealer signed in", "dealers signed in"),
    Table.DealerSignedOut: ("dealer signed out", "dealers signed out"),
    Table.PoolLinked: ("table linked to its jackpot pool", "tables linked to a pool"),
    Table.JackpotBetsCarried: ("jackpot bets carried to the next round",
                               "jackpot bets carried to the next round"),
    Table.ShoeStarted: ("new shoe at the table", "new shoes at the table"),
    Table.RoundStarted: ("round started", "rounds started"),
    Table.RoundFinished: ("round finished", "rounds finished"),
    Table.ShiftOpened: ("table in its shift", "tables in their shifts"),
    Table.ShiftClosed: ("closing count kept for the next shift",
                        "closing counts kept for the next shifts"),
    Round.Opened: ("round opened", "rounds opened"),
    Round.BetPlaced: ("bet placed", "bets placed"),
    Round.BettingClosed: ("no more bets", "no more bets"),
    Round.DealModeAnnounced: ("deal mode announced", "deal modes announced"),
    Round.CardDealt: ("card dealt", "cards dealt"),
    Round.CardExposed: ("exposed card recorded", "exposed cards recorded"),
    Round.IrregularityRecorded: ("irregularity recorded", "irregularities recorded"),
    Round.DecisionMade: ("decision", "decisions"),
    Round.DealerRevealed: ("dealer's hand revealed", "dealer's hands revealed"),
    Round.BetSettled: ("bet settled", "bets settled"),
    Round.JackpotPrizeAwarded: ("jackpot prize awarded", "jackpot prizes awarded"),
    Round.Settled: ("round settled", "rounds settled"),
    Round.Voided: ("round void", "rounds void"),
    Round.Adjusted: ("settlement adjusted", "settlements adjusted"),
    Shoe.Shuffled: ("shuffle", "shuffles"),
    Shoe.CutMade: ("cut", "cuts"),
    Shoe.CardsBurned: ("cards burned", "cards burned"),
    Shoe.CardDrawn: ("card drawn from the shoe", "cards drawn from the shoe"),
    Shoe.CutCardReached: ("cut card reached", "cut card reached"),
    Shoe.Closed: ("shoe closed", "shoes closed"),
    Shift.Opened: ("shift opened", "shifts opened"),
    Shift.FillRecorded: ("fill slip", "fill slips"),
    Shift.CreditRecorded: ("credit slip", "credit slips"),
    Shift.SlipVoided: ("slip voided", "slips voided"),
    Shift.DropEntered: ("drop counted", "drops counted"),
    Shift.DropAdjusted: ("drop adjusted", "drops adjusted"),
    Shift.Closed: ("shift closed", "shifts closed"),
    GamingDay.Begun: ("gaming day begun", "gaming days begun"),
    GamingDay.ShiftOpened: ("shift entered in its gaming day",
                            "shifts entered in their gaming days"),
    GamingDay.ShiftClosed: ("shift's count entered in its gaming day",
                            "shifts' counts entered in their gaming days"),
    GamingDay.Closed: ("gaming day closed", "gaming days closed"),
    Investigation.Noted: ("investigation noted", "investigations noted"),
    JackpotPool.Created: ("jackpot pool created", "jackpot pools created"),
    JackpotPool.TableLinked: ("table joined the pool", "tables joined the pool"),
    JackpotPool.ContributionReceived: ("jackpot contribution", "jackpot contributions"),
    JackpotPool.JackpotHit: ("jackpot hit", "jackpot hits"),
    JackpotPool.JackpotReduced: ("jackpot paid from the pool", "jackpots paid from the pool"),
    JackpotPool.ResetToSeed: ("pool reset to its seed", "pool resets to its seed"),
    JackpotPool.Adjusted: ("pool adjusted", "pool adjustments"),
    StaffMember.Enrolled: ("staff member enrolled", "staff members enrolled"),
    StaffMember.Suspended: ("staff member suspended", "staff members suspended"),
    StaffMember.Reinstated: ("staff member reinstated", "staff members reinstated"),
    StaffMember.RolesChanged: ("roles changed", "roles changed"),
    StaffMember.KeyReplaced: ("staff key replaced", "staff keys replaced"),
    TerminalDevice.Registered: ("terminal registered", "terminals registered"),
    TerminalDevice.Revoked: ("terminal revoked", "terminals revoked"),
    Registry.Bootstrapped: ("registry started", "registry started"),
}
ONE_AND_MANY = {kind.event_type: words for kind, words in _ONE_AND_MANY.items()}
"""Each event's stored type in words: one, and how many."""
RECEIPT = CommandReceipt.Accepted.event_type


def describe(kinds: Iterable[str]) -> str:
    """The kinds of events one command recorded, counted, in words ("" for none)."""
    counted = Counter(kind for kind in kinds if kind != RECEIPT)
    return ", ".join(_phrase(kind, count) for kind, count in counted.items())


def kind_words(kind: str) -> str:
    """One event's kind in words, a receipt's too: `Round.BetSettled` is "bet settled"."""
    return "signed command received" if kind == RECEIPT else _phrase(kind, 1)


def _phrase(kind: str, count: int) -> str:
    one, many = ONE_AND_MANY.get(kind) or (_words(kind),) * 2
    return one if count == 1 else f"{count} {many}"


def _words(kind: str) -> str:
    """An event kind nobody worded yet, from its class name: `Shoe.CardsBurned` is
    "shoe: cards burned"."""
    aggregate, _, name = kind.rpartition(".")
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()
    return f"{re.sub(r'(?<!^)(?=[A-Z])', ' ', aggregate).lower()}: {words}" if aggregate else words


# -- names in words -------------------------------------------------------------------------------
DEAL_MODES = {"all_spaces": "dealt to all seven spaces",
              "spaces_with_bets": "dealt only to the spaces with bets"}
"""Fortune 8, art. 4(6): after the burn, a card face up on each of the seven spaces, whether
or not they hold bets, or only on the spaces that do."""
TERMS = {
    **DEAL_MODES,
    "automatic_shuffler_dealer": "automatic shuffler-dealer",
    "admin_console": "administration console",
    "round_void_jackpot_carried": "round void, jackpot bets carried",
}
"""Codes whose words are not simply the code with spaces; every other code reads with its
underscores as spaces (`royal_flush` is "royal flush", `player_pair` "player pair")."""
LABELS = {
    "code": "table", "rule_set": "rule set", "min_bet": "minimum bet", "max_bet": "maximum bet",
    "is_open": "open", "version": "events recorded", "jackpot_pool": "jackpot pool",
    "round_number": "round", "round_phase": "round phase", "shoe_cards_remaining": "cards left",
    "max_payout": "maximum payout", "royal_odds": "royal flush pays",
}
"""A field of a read model, as its row is headed on a screen."""
CODE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def term(code: object) -> str:
    """A code (a hand, a bet, a state, a role, a kind) in words; words in a sentence that holds
    codes (`high_card (KD JC 5D)`) have each said."""
    text = str(getattr(code, "value", code))
    return CODE.sub(lambda found: TERMS.get(found[0], found[0].replace("_", " ")), text)


def game(code: str | None) -> str:
    """`Stud Poker` for `stud-poker`; an unknown code as it is."""
    from ledger.games.registry import GAMES  # each game by the name its regulation gives it

    known = None if code is None else GAMES.get(code)
    return "-" if code is None else code if known is None else known.name


def pool_name(code: str) -> str:
    """A jackpot pool by its name in words: `Main Progressive` for `MAIN-PROGRESSIVE`."""
    return " ".join(word.capitalize() for word in re.split(r"[-_.]", code) if word)


def pool_code(given: str) -> str:
    """A pool as a person names it on the command line: its code (`MAIN-PROGRESSIVE`, any case)
    or its name in words as `pool_name` shows it (`Main Progressive`), a space for a dash.

    >>> pool_code("Main Progressive"), pool_code("main-progressive"), pool_code(" STUD-POOL ")
    ('MAIN-PROGRESSIVE', 'main-progressive', 'STUD-POOL')
    """
    words = given.split()
    return "-".join(word.upper() for word in words) if len(words) > 1 else given.strip()


def rule_set(rule_set_id: str | None, *, with_game: bool = True) -> str:
    """`Stud Poker, 2004 rules` for `stud-poker/2004` (`2004 rules` beside the game's name);
    an unknown rule set as it is."""
    from ledger.games.rulesets import RULE_SETS

    known = RULE_SETS.get(rule_set_id or "")
    if known is None:
        return rule_set_id or "-"
    return f"{game(known.game)}, {known.version} rules" if with_game else f"{known.version} rules"


NO_CARDS = "no card was dealt in this round"
"""A round without cards (one voided before the deal), said once instead of an empty table."""

DEMONSTRATION = ("a demonstration coup (baccarat, art. 2(2)): dealt at the start of a shoe with "
                 "no bets; it is in no result, handle or win")


def round_reached(number: int | None, phase: object, demonstrations: int = 0, *,
                  settled: int = 0, voided: int = 0) -> str:
    """A table's rounds: how many were settled (and how many of those demonstration coups,
    baccarat art. 2(2): dealt without bets, in no result), how many voided, and the latest
    round when it is still being played: `14 settled, 1 void`, `16 settled, 1 of them a
    demonstration coup`, `3 settled, round 4 dealing`; `-` before the first.

    >>> round_reached(15, "settled", settled=14, voided=1)
    '14 settled, 1 void'
    >>> round_reached(4, "dealing", settled=3)
    '3 settled, round 4 dealing'
    >>> round_reached(1, "betting")
    'round 1 betting'
    """
    if not number:
        return "-"
    said = f"{count(settled)} settled"
    if demonstrations:
        coups = "a demonstration coup" if demonstrations == 1 else "demonstration coups"
        said += f", {count(demonstrations)} of them {coups}"
    if voided:
        said += f"{'; ' if demonstrations else ', '}{count(voided)} void"
    if str(getattr(phase, "value", phase)) not in ("settled", "void"):
        playing = f"round {number} {term(phase)}"
        return playing if said == "0 settled" else f"{said}, {playing}"
    return said


def line_name(level: str, name: str) -> str:
    """A report line's name: `table BAC-01`, `dealer D-7`, `pit A`, a game by its name
    (`Fortune 8`), `floor`."""
    if level == "floor":
        return "floor"
    return game(name) if level == "game" else f"{level} {name}"


def deal_mode(mode: object) -> str:
    """A Fortune 8 round's deal mode: `dealt to all seven spaces`."""
    return term(mode)


def label(field: str) -> str:
    """`maximum bet` for `max_bet`."""
    return LABELS.get(field, term(field))


def projection(name: str) -> str:
    """A projection as it is typed on the command line and shown: `table-state`."""
    return name.replace("_", "-")


def projection_name(typed: str) -> str:
    """The projection `table-state` (or `table_state`) names."""
    return typed.replace("-", "_")


def shown(value: object) -> str:
    """A value as a person reads it: yes or no, an amount with its currency, a count separated,
    a code in words, `-` for nothing."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        return money(value)
    if isinstance(value, int):
        return count(value)
    if isinstance(value, list | tuple):
        return ", ".join(shown(item) for item in value) or "-"
    if isinstance(value, dict):
        return "; ".join(f"{label(str(k))} {shown(v)}" for k, v in value.items()) or "-"
    return term(value)


def bet_name(box: int, spot: str, player: str | None) -> str:
    """A bet as every screen names it, its player beside its box: `box 1 (P-2) play`."""
    return f"box {box}{f' ({player})' if player else ''} {term(spot)}"


def void_reason(reason: str) -> str:
    """A void's reason as people read it: an irregularity's kind in words (`wrong count`), a
    supervisor's own reason as they wrote it but for its underscores, as every screen, page and
    report shows it."""
    return term(reason)


def describe_outcome(outcome: Mapping[str, Any] | None) -> str:
    """Who won a baccarat coup (with its totals and pairs), whether Q Poker's dealer played,
    Fortune 8's mode, a void's reason; "" for an outcome that says nothing more than its bets."""
    if not outcome:
        return ""
    if "void" in outcome:
        return f"void: {void_reason(str(outcome['void']))}"
    if "winner" in outcome:
        winner = str(outcome["winner"])
        said = "tie" if winner == "tie" else f"{winner} wins"
        said += f", player {outcome.get('player_total')} banker {outcome.get('banker_total')}"
        pairs = [side for side in ("player", "banker") if outcome.get(f"{side}_pair")]
        return said + ("; " + " and ".join(f"{side} pair" for side in pairs) if pairs else "")
    if "dealer_qualifies" in outcome:
        plays = "qualifies" if outcome["dealer_qualifies"] else "does not qualify"
        return f"dealer {faces(term(outcome.get('dealer') or 'hand not shown'))}: {plays}"
    if outcome.get("mode"):
        return deal_mode(outcome["mode"])
    return ""
