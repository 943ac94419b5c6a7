"""The staff and terminal registry, kept by an administrator."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from ledger.commands.base import Command, Identifier, Text
from ledger.domain.base import Role
from ledger.domain.registry import TerminalKind

PublicKey = Annotated[str, StringConstraints(
    strip_whitespace=True, pattern=r"^[A-Za-z0-9+/]{43}=$",
)]
"""An Ed25519 public key: base64 of its 32 raw bytes (`ledger key new` prints it)."""
Roles = Annotated[list[Role], Field(min_length=1, max_length=len(Role))]


class EnrolStaff(Command):
    command: Literal["enrol_staff"] = "enrol_staff"
    staff_id: Identifier
    name: Text
    roles: Roles
    public_key: PublicKey


class SuspendStaff(Command):
    command: Literal["suspend_staff"] = "suspend_staff"
    staff_id: Identifier
    reason: Text


class ReinstateStaff(Command):
    command: Literal["reinstate_staff"] = "reinstate_staff"
    staff_id: Identifier
    reason: Text


class ChangeStaffRoles(Command):
    command: Literal["change_staff_roles"] = "change_staff_roles"
    staff_id: Identifier
    roles: Roles


class ReplaceStaffKey(Command):
    """A badge lost or reissued: the old key stops working, the new one starts."""

    command: Literal["replace_staff_key"] = "replace_staff_key"
    staff_id: Identifier
    public_key: PublicKey


class RegisterTerminal(Command):
    command: Literal["register_terminal"] = "register_terminal"
    terminal_id: Identifier
    kind: TerminalKind
    location: Text
    public_key: PublicKey


class RevokeTerminal(Command):
    command: Literal["revoke_terminal"] = "revoke_terminal"
    terminal_id: Identifier
    reason: Text


REGISTRY_COMMANDS = (
    EnrolStaff, SuspendStaff, ReinstateStaff, ChangeStaffRoles, ReplaceStaffKey,
    RegisterTerminal, RevokeTerminal,
)
