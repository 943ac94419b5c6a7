"""The registry area's handlers refuse, in memory: enrolments, suspensions, roles, keys and
terminals."""

from __future__ import annotations

from ledger.commands.registry import (
    ChangeStaffRoles,
    EnrolStaff,
    RegisterTerminal,
    ReinstateStaff,
    ReplaceStaffKey,
    RevokeTerminal,
    SuspendStaff,
)
from ledger.core.errors import NotAllowed, NotFound, WrongState
from ledger.domain.base import Role
from ledger.domain.registry import TerminalKind
from tests.unit.handlers.floor import ADMINISTRATOR, KEY, Floor


def _enrolled() -> Floor:
    floor = Floor()
    floor.do(EnrolStaff(staff_id="D-101", name="Dee Dealer", roles=[Role.DEALER],
                        public_key=KEY), ADMINISTRATOR)
    return floor


def _registered() -> Floor:
    floor = Floor()
    floor.do(RegisterTerminal(terminal_id="T-9", kind=TerminalKind.DEALER_TERMINAL,
                              location="table BAC-01", public_key=KEY), ADMINISTRATOR)
    return floor


def test_a_member_of_staff_is_enrolled_once() -> None:
    _enrolled().refuses(EnrolStaff(staff_id="D-101", name="Dee", roles=[Role.DEALER],
                                   public_key=KEY), WrongState,
                        "staff D-101 is already enrolled", actor=ADMINISTRATOR)


def test_staff_never_enrolled_are_not_suspended() -> None:
    Floor().refuses(SuspendStaff(staff_id="D-404", reason="left"), NotFound,
                    "staff D-404 does not exist", actor=ADMINISTRATOR)


def test_an_administrator_does_not_suspend_themselves() -> None:
    Floor().refuses(SuspendStaff(staff_id="A-1", reason="holiday"), NotAllowed,
                    "suspending of A-1 is another administrator's to record",
                    actor=ADMINISTRATOR)


def test_staff_never_enrolled_are_not_reinstated() -> None:
    Floor().refuses(ReinstateStaff(staff_id="D-404", reason="back"), NotFound,
                    "staff D-404 does not exist", actor=ADMINISTRATOR)


def test_an_administrator_does_not_change_their_own_roles() -> None:
    Floor().refuses(ChangeStaffRoles(staff_id="A-1", roles=[Role.PIT_BOSS]), NotAllowed,
                    "changing the roles of A-1", actor=ADMINISTRATOR)


def test_the_roles_of_staff_never_enrolled_are_not_changed() -> None:
    Floor().refuses(ChangeStaffRoles(staff_id="D-404", roles=[Role.PIT_BOSS]), NotFound,
                    "staff D-404 does not exist", actor=ADMINISTRATOR)


def test_the_key_of_staff_never_enrolled_is_not_replaced() -> None:
    Floor().refuses(ReplaceStaffKey(staff_id="D-404", public_key=KEY), NotFound,
                    "staff D-404 does not exist", actor=ADMINISTRATOR)


def test_a_terminal_is_registered_once() -> None:
    _registered().refuses(RegisterTerminal(terminal_id="T-9", kind=TerminalKind.DEALER_TERMINAL,
                                           location="table BAC-02", public_key=KEY),
                          WrongState, "terminal T-9 is already registered",
                          actor=ADMINISTRATOR)


def test_a_terminal_never_registered_is_not_revoked() -> None:
    Floor().refuses(RevokeTerminal(terminal_id="T-404", reason="lost"), NotFound,
                    "terminal T-404 does not exist", actor=ADMINISTRATOR)


def test_a_suspended_member_is_not_suspended_again() -> None:
    floor = _enrolled()
    floor.do(SuspendStaff(staff_id="D-101", reason="left"), ADMINISTRATOR)
    floor.refuses(SuspendStaff(staff_id="D-101", reason="again"), WrongState,
                  "D-101", "is already suspended", actor=ADMINISTRATOR)


def test_a_member_not_suspended_is_not_reinstated() -> None:
    _enrolled().refuses(ReinstateStaff(staff_id="D-101", reason="back"), WrongState,
                        "D-101", "is not suspended", actor=ADMINISTRATOR)


def test_roles_already_held_are_not_given_again() -> None:
    _enrolled().refuses(ChangeStaffRoles(staff_id="D-101", roles=[Role.DEALER]), WrongState,
                        "D-101", "already holds", actor=ADMINISTRATOR)


def test_a_key_is_not_replaced_by_itself() -> None:
    _enrolled().refuses(ReplaceStaffKey(staff_id="D-101", public_key=KEY), WrongState,
                        "already holds that key", actor=ADMINISTRATOR)


def test_a_revoked_terminal_is_not_revoked_again() -> None:
    floor = _registered()
    floor.do(RevokeTerminal(terminal_id="T-9", reason="lost"), ADMINISTRATOR)
    floor.refuses(RevokeTerminal(terminal_id="T-9", reason="again"), WrongState,
                  "terminal T-9 is already revoked", actor=ADMINISTRATOR)
