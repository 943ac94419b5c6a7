"""The staff and terminal registry: enrolment, suspension, roles, keys, devices."""

from __future__ import annotations

from ledger.application.handlers.unit_of_work import Handlers, UnitOfWork, handles
from ledger.commands.registry import (
    ChangeStaffRoles,
    EnrolStaff,
    RegisterTerminal,
    ReinstateStaff,
    ReplaceStaffKey,
    RevokeTerminal,
    SuspendStaff,
)
from ledger.core.errors import NotAllowed, WrongState
from ledger.domain.base import Aggregate, Role
from ledger.domain.registry import (
    StaffMember,
    TerminalDevice,
    staff_stream_id,
    terminal_stream_id,
)


def load_staff(uow: UnitOfWork, staff_id: str) -> StaffMember:
    return uow.load(StaffMember, staff_stream_id(staff_id), f"staff {staff_id}")


def load_terminal(uow: UnitOfWork, terminal_id: str) -> TerminalDevice:
    return uow.load(TerminalDevice, terminal_stream_id(terminal_id), f"terminal {terminal_id}")


def _not_self(command: SuspendStaff | ChangeStaffRoles | ReplaceStaffKey, what: str) -> None:
    """An administrator cannot lock themselves out, nor raise their own authority."""
    if command.actor is not None and command.actor.staff_id == command.staff_id:
        raise NotAllowed(f"{what} of {command.staff_id} is another administrator's to record.")


def enrol_staff(command: EnrolStaff, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    if uow.exists(staff_stream_id(command.staff_id)):
        raise WrongState(f"staff {command.staff_id} is already enrolled.")
    roles = sorted(set(command.roles), key=list(Role).index)
    return (StaffMember(staff_id=command.staff_id, name=command.name, roles=roles,
                        public_key=command.public_key, by=command.provenance),)


def suspend_staff(command: SuspendStaff, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    _not_self(command, "suspending")
    member = load_staff(uow, command.staff_id)
    member.suspend(reason=command.reason, by=command.provenance)
    return (member,)


def reinstate_staff(command: ReinstateStaff, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    member = load_staff(uow, command.staff_id)
    member.reinstate(reason=command.reason, by=command.provenance)
    return (member,)


def change_roles(command: ChangeStaffRoles, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    _not_self(command, "changing the roles")
    member = load_staff(uow, command.staff_id)
    member.change_roles(roles=sorted(set(command.roles), key=list(Role).index),
                        by=command.provenance)
    return (member,)


def replace_key(command: ReplaceStaffKey, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    member = load_staff(uow, command.staff_id)
    member.replace_key(public_key=command.public_key, by=command.provenance)
    return (member,)


def register_terminal(command: RegisterTerminal, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    if uow.exists(terminal_stream_id(command.terminal_id)):
        raise WrongState(f"terminal {command.terminal_id} is already registered: revoke it and "
                         "register the replacement under a new id.")
    return (TerminalDevice(terminal_id=command.terminal_id, kind=command.kind,
                           location=command.location, public_key=command.public_key,
                           by=command.provenance),)


def revoke_terminal(command: RevokeTerminal, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    device = load_terminal(uow, command.terminal_id)
    device.revoke(reason=command.reason, by=command.provenance)
    return (device,)


HANDLERS: Handlers = (
    handles(EnrolStaff, enrol_staff),
    handles(SuspendStaff, suspend_staff),
    handles(ReinstateStaff, reinstate_staff),
    handles(ChangeStaffRoles, change_roles),
    handles(ReplaceStaffKey, replace_key),
    handles(RegisterTerminal, register_terminal),
    handles(RevokeTerminal, revoke_terminal),
)
