"""The staff and terminal registry: enrolment, suspension, roles, keys, devices."""

from __future__ import annotations

from typing import cast

from ledger.application import Ledger
from ledger.commands.registry import (
    ChangeStaffRoles,
    EnrolStaff,
    RegisterTerminal,
    ReinstateStaff,
    ReplaceStaffKey,
    RevokeTerminal,
    SuspendStaff,
)
from ledger.domain.base import Aggregate, Role
from ledger.domain.registry import (
    StaffMember,
    TerminalDevice,
    staff_stream_id,
    terminal_stream_id,
)
from ledger.errors import NotAllowed, WrongState


def load_staff(ledger: Ledger, staff_id: str) -> StaffMember:
    return cast(StaffMember, ledger.load(staff_stream_id(staff_id), f"staff {staff_id}"))


def load_terminal(ledger: Ledger, terminal_id: str) -> TerminalDevice:
    return cast(TerminalDevice, ledger.load(terminal_stream_id(terminal_id),
                                            f"terminal {terminal_id}"))


def _not_self(command: SuspendStaff | ChangeStaffRoles | ReplaceStaffKey, what: str) -> None:
    """An administrator cannot lock themselves out, nor raise their own authority."""
    if command.actor is not None and command.actor.staff_id == command.staff_id:
        raise NotAllowed(f"{what} of {command.staff_id} is another administrator's to record.")


@Ledger.handles(EnrolStaff)
def enrol_staff(ledger: Ledger, command: EnrolStaff) -> tuple[Aggregate, ...]:
    if ledger.exists(staff_stream_id(command.staff_id)):
        raise WrongState(f"staff {command.staff_id} is already enrolled.")
    roles = sorted(set(command.roles), key=list(Role).index)
    return (StaffMember(staff_id=command.staff_id, name=command.name, roles=roles,
                        public_key=command.public_key, by=command.provenance),)


@Ledger.handles(SuspendStaff)
def suspend_staff(ledger: Ledger, command: SuspendStaff) -> tuple[Aggregate, ...]:
    _not_self(command, "suspending")
    member = load_staff(ledger, command.staff_id)
    member.suspend(reason=command.reason, by=command.provenance)
    return (member,)


@Ledger.handles(ReinstateStaff)
def reinstate_staff(ledger: Ledger, command: ReinstateStaff) -> tuple[Aggregate, ...]:
    member = load_staff(ledger, command.staff_id)
    member.reinstate(reason=command.reason, by=command.provenance)
    return (member,)


@Ledger.handles(ChangeStaffRoles)
def change_roles(ledger: Ledger, command: ChangeStaffRoles) -> tuple[Aggregate, ...]:
    _not_self(command, "changing the roles")
    member = load_staff(ledger, command.staff_id)
    member.change_roles(roles=sorted(set(command.roles), key=list(Role).index),
                        by=command.provenance)
    return (member,)


@Ledger.handles(ReplaceStaffKey)
def replace_key(ledger: Ledger, command: ReplaceStaffKey) -> tuple[Aggregate, ...]:
    member = load_staff(ledger, command.staff_id)
    member.replace_key(public_key=command.public_key, by=command.provenance)
    return (member,)


@Ledger.handles(RegisterTerminal)
def register_terminal(ledger: Ledger, command: RegisterTerminal) -> tuple[Aggregate, ...]:
    if ledger.exists(terminal_stream_id(command.terminal_id)):
        raise WrongState(f"terminal {command.terminal_id} is already registered: revoke it and "
                         "register the replacement under a new id.")
    return (TerminalDevice(terminal_id=command.terminal_id, kind=command.kind,
                           location=command.location, public_key=command.public_key,
                           by=command.provenance),)


@Ledger.handles(RevokeTerminal)
def revoke_terminal(ledger: Ledger, command: RevokeTerminal) -> tuple[Aggregate, ...]:
    device = load_terminal(ledger, command.terminal_id)
    device.revoke(reason=command.reason, by=command.provenance)
    return (device,)
