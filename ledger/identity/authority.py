"""Who may send what, and from which kind of device: the one table the door enforces.

The role comes from the registry, never from the command. A person holding several roles
acts in the most senior role the command admits (a pit boss who also deals acts as pit boss),
so a later check that depends on the round's state (an exposed card that voids the round needs
a supervisor) sees the role they really hold. Surveillance and auditors record nothing but
their investigation notes: they read, replay and verify through a reader connection.
"""

from __future__ import annotations

from ledger.domain.base import Role
from ledger.domain.registry import TerminalKind

SENIORITY = (
    Role.ADMINISTRATOR, Role.PIT_BOSS, Role.SUPERVISOR, Role.DEALER, Role.COUNT_TEAM,
    Role.CASHIER, Role.SURVEILLANCE, Role.AUDITOR,
)
"""Order in which a person's roles are tried; the first the command admits is the one used."""

DEALING = frozenset({Role.DEALER, Role.SUPERVISOR, Role.PIT_BOSS})
SUPERVISING = frozenset({Role.SUPERVISOR, Role.PIT_BOSS})
COUNTING = frozenset({Role.COUNT_TEAM})
ADMINISTERING = frozenset({Role.ADMINISTRATOR})

TABLE = ("open_table", "change_table_settings", "close_table")
DEALERS_IN = ("sign_in_dealer", "sign_out_dealer")
SHOE = ("shuffle_shoe", "cut_shoe", "burn_cards", "close_shoe")
DEALT = ("open_round", "place_bet", "close_betting", "announce_deal_mode", "deal_card",
         "expose_card", "record_irregularity", "decide", "reveal_dealer", "settle_round")
RULINGS = ("void_round", "adjust_round")
"""An exposed card or an irregularity is the dealer's to report; one whose consequence voids
the round is a ruling, and its handler asks for a supervisor against the round's state."""
POOLS = ("create_pool", "link_table", "adjust_pool")
SHIFT = ("open_shift", "record_fill", "record_credit", "void_slip", "adjust_drop",
         "close_shift", "close_gaming_day")
REGISTRY = ("enrol_staff", "suspend_staff", "reinstate_staff", "change_staff_roles",
            "replace_staff_key", "register_terminal", "revoke_terminal")

AUTHORITY: dict[str, frozenset[Role]] = {
    **{name: SUPERVISING for name in TABLE},
    **{name: DEALING for name in DEALERS_IN + SHOE + DEALT},
    **{name: SUPERVISING for name in RULINGS + POOLS + SHIFT},
    "enter_drop": COUNTING,
    "note_investigation": SUPERVISING | {Role.SURVEILLANCE, Role.AUDITOR},
    **{name: ADMINISTERING for name in REGISTRY},
}
"""Command → the roles that may send it."""

DEVICES: dict[TerminalKind, frozenset[str]] = {
    TerminalKind.DEALER_TERMINAL: frozenset(DEALERS_IN + SHOE + DEALT + RULINGS),
    TerminalKind.SMART_SHOE: frozenset(SHOE + ("deal_card", "expose_card")),
    TerminalKind.PIT_WORKSTATION: frozenset(TABLE + DEALERS_IN + SHOE + DEALT + RULINGS + POOLS + SHIFT
                                            + ("note_investigation",)),
    TerminalKind.COUNT_ROOM: frozenset(("enter_drop", "adjust_drop")),
    TerminalKind.ADMIN_CONSOLE: frozenset(REGISTRY),
    TerminalKind.SIMULATOR: frozenset(TABLE + DEALERS_IN + SHOE + DEALT + RULINGS + POOLS + SHIFT
                                      + ("enter_drop", "note_investigation")),
}
"""Device kind → the commands it may carry."""

ACTIONS = {
    "void_round": "voiding a round", "adjust_round": "adjusting a settled round",
    "create_pool": "creating a jackpot pool", "link_table": "linking a table to a jackpot pool",
    "adjust_pool": "adjusting a jackpot pool",
    "change_table_settings": "changing a table's house settings",
    "open_table": "opening a table", "close_table": "closing a table",
    "sign_in_dealer": "signing a dealer in", "sign_out_dealer": "signing a dealer out",
    "open_shift": "opening a shift", "close_shift": "closing a shift",
    "close_gaming_day": "closing a gaming day",
    "note_investigation": "noting an investigation",
    "record_fill": "recording a fill slip", "record_credit": "recording a credit slip",
    "void_slip": "voiding a slip", "adjust_drop": "adjusting the drop",
    "enter_drop": "entering the drop",
    "enrol_staff": "enrolling staff", "suspend_staff": "suspending staff",
    "reinstate_staff": "reinstating staff", "change_staff_roles": "changing staff roles",
    "replace_staff_key": "replacing a staff key", "register_terminal": "registering a terminal",
    "revoke_terminal": "revoking a terminal",
    "shuffle_shoe": "shuffling a shoe", "cut_shoe": "cutting a shoe",
    "burn_cards": "burning cards", "close_shoe": "closing a shoe",
    "open_round": "opening a round", "place_bet": "placing a bet",
    "close_betting": "closing the betting", "announce_deal_mode": "announcing the deal",
    "deal_card": "dealing a card", "expose_card": "recording an exposed card",
    "record_irregularity": "recording an irregularity", "decide": "recording a decision",
    "reveal_dealer": "revealing the dealer's hand", "settle_round": "settling a round",
}

SELF_ONLY = {("sign_in_dealer", Role.DEALER): "dealer_id",
             ("sign_out_dealer", Role.DEALER): "dealer_id"}
"""(command, role) → the field that must name the sender: a dealer badges in and out at the
table themselves; signing another dealer in or out is a supervisor's."""

NAMED_STAFF = {"dealer_id": Role.DEALER, "runner_id": Role.CASHIER, "counted_by": Role.COUNT_TEAM}
"""Fields that name another person who signs on paper: each must be enrolled, active and hold
this role (a dealer signing an inventory must be a dealer)."""


def action(command: str) -> str:
    return ACTIONS.get(command, command.replace("_", " "))


def carried_by(command: str) -> str:
    """'a dealer terminal or pit workstation': the kinds of terminal that carry a command."""
    kinds = [kind.value.replace("_", " ") for kind, names in DEVICES.items()
             if command in names and kind is not TerminalKind.SIMULATOR]
    return _either(kinds) if kinds else "no terminal"


def who_may(roles: frozenset[Role]) -> str:
    names = [role.value.replace("_", " ") for role in SENIORITY[::-1] if role in roles]
    if roles == COUNTING:
        return "the count team"
    return _either(names)


def _either(names: list[str]) -> str:
    """'a dealer terminal or pit workstation': one of these, with its article."""
    article = "an" if names[0][0] in "aeiou" else "a"
    return f"{article} {names[0]}" if len(names) == 1 else (
        f"{article} {', '.join(names[:-1])} or {names[-1]}")


def acting_role(command: str, held: list[Role]) -> Role | None:
    """The most senior role the person holds that the command admits, or None."""
    allowed = AUTHORITY[command]
    return next((role for role in SENIORITY if role in held and role in allowed), None)


def senior_role(held: list[Role]) -> Role:
    """The most senior role a person holds (how a co-signer is recorded)."""
    return next(role for role in SENIORITY if role in held)
