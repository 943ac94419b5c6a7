"""The staff and terminal registry: who may act, from which device, with which public key.

Each member of staff and each terminal is a stream of its own, so enrolment, suspension, a
change of roles or a revoked device is an event like any other: recorded, chained, replayable.
The registry holds public keys only (base64 of the raw 32-byte Ed25519 key); nothing in it
lets a reader recover a secret. Checking a signature is the application's door's business
(`ledger.identity`); this module only keeps the facts and refuses changes that make no sense.
"""

from __future__ import annotations

from enum import StrEnum
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from ledger.core.errors import WrongState
from ledger.domain.base import Aggregate, Provenance, Role, applies
from ledger.domain.grammar import kept_ids, normal_identifier

STAFF_NAMESPACE = uuid5(NAMESPACE_URL, "https://round-ledger/staff")
TERMINAL_NAMESPACE = uuid5(NAMESPACE_URL, "https://round-ledger/terminal")
REGISTRY_ID = uuid5(NAMESPACE_URL, "https://round-ledger/registry")


@kept_ids
def staff_stream_id(staff_id: str) -> UUID:
    return uuid5(STAFF_NAMESPACE, normal_identifier(staff_id, "a staff id"))


@kept_ids
def terminal_stream_id(terminal_id: str) -> UUID:
    return uuid5(TERMINAL_NAMESPACE, normal_identifier(terminal_id, "a terminal id"))


def role_list(roles: list[Role]) -> str:
    return ", ".join(role.value.replace("_", " ") for role in roles) or "no role"


class TerminalKind(StrEnum):
    """The devices a floor registers; what each may send is `ledger.identity.authority`."""

    DEALER_TERMINAL = "dealer_terminal"
    SMART_SHOE = "smart_shoe"
    PIT_WORKSTATION = "pit_workstation"
    COUNT_ROOM = "count_room"
    ADMIN_CONSOLE = "admin_console"
    SIMULATOR = "simulator"


class StaffMember(Aggregate):
    """One member of staff: their name, the roles they hold, their public key, their standing."""

    class Enrolled(Aggregate.Created):
        staff_id: str
        name: str
        roles: list[Role]
        public_key: str
        by: Provenance

    @staticmethod
    def create_id(staff_id: str, **_: object) -> UUID:
        return staff_stream_id(staff_id)

    @event(Enrolled)
    def __init__(self, staff_id: str, name: str, roles: list[Role], public_key: str,
                 by: Provenance) -> None:
        self.staff_id = staff_id
        self.name = name
        self.roles = list(roles)
        self.public_key = public_key
        self.suspended: str | None = None  # the reason, while suspended

    @property
    def active(self) -> bool:
        return self.suspended is None

    def describe(self) -> str:
        return f"{self.staff_id} ({self.name})"

    class Suspended(Aggregate.Event):
        reason: str
        by: Provenance

    @applies(Suspended)
    def _suspend(self, reason: str, by: Provenance) -> None:
        self.suspended = reason

    def suspend(self, reason: str, by: Provenance) -> None:
        if self.suspended is not None:
            raise WrongState(f"staff {self.describe()} is already suspended ({self.suspended}).")
        self._suspend(reason=reason, by=by)

    class Reinstated(Aggregate.Event):
        reason: str
        by: Provenance

    @applies(Reinstated)
    def _reinstate(self, reason: str, by: Provenance) -> None:
        self.suspended = None

    def reinstate(self, reason: str, by: Provenance) -> None:
        if self.suspended is None:
            raise WrongState(f"staff {self.describe()} is not suspended.")
        self._reinstate(reason=reason, by=by)

    class RolesChanged(Aggregate.Event):
        roles: list[Role]
        by: Provenance

    @applies(RolesChanged)
    def _change_roles(self, roles: list[Role], by: Provenance) -> None:
        self.roles = list(roles)

    def change_roles(self, roles: list[Role], by: Provenance) -> None:
        if sorted(roles) == sorted(self.roles):
            raise WrongState(f"staff {self.describe()} already holds {role_list(self.roles)}.")
        self._change_roles(roles=roles, by=by)

    class KeyReplaced(Aggregate.Event):
        public_key: str
        by: Provenance

    @applies(KeyReplaced)
    def _replace_key(self, public_key: str, by: Provenance) -> None:
        self.public_key = public_key

    def replace_key(self, public_key: str, by: Provenance) -> None:
        if public_key == self.public_key:
            raise WrongState(f"staff {self.describe()} already holds that key.")
        self._replace_key(public_key=public_key, by=by)


class TerminalDevice(Aggregate):
    """A registered terminal or device: its kind, where it stands, its public key."""

    class Registered(Aggregate.Created):
        terminal_id: str
        kind: TerminalKind
        location: str
        public_key: str
        by: Provenance

    @staticmethod
    def create_id(terminal_id: str, **_: object) -> UUID:
        return terminal_stream_id(terminal_id)

    @event(Registered)
    def __init__(self, terminal_id: str, kind: TerminalKind, location: str, public_key: str,
                 by: Provenance) -> None:
        self.terminal_id = terminal_id
        self.kind = kind
        self.location = location
        self.public_key = public_key
        self.revoked: str | None = None  # the reason, once revoked

    @property
    def active(self) -> bool:
        return self.revoked is None

    class Revoked(Aggregate.Event):
        reason: str
        by: Provenance

    @applies(Revoked)
    def _revoke(self, reason: str, by: Provenance) -> None:
        self.revoked = reason

    def revoke(self, reason: str, by: Provenance) -> None:
        if self.revoked is not None:
            raise WrongState(f"terminal {self.terminal_id} is already revoked ({self.revoked}).")
        self._revoke(reason=reason, by=by)


class Registry(Aggregate):
    """The registry's root: created once, by `ledger db init`, with the first administrator
    and the console they use. Its existence is what makes a second bootstrap impossible."""

    class Bootstrapped(Aggregate.Created):
        administrator: str
        terminal: str
        by: Provenance

    @staticmethod
    def create_id(**_: object) -> UUID:
        return REGISTRY_ID

    @event(Bootstrapped)
    def __init__(self, administrator: str, terminal: str, by: Provenance) -> None:
        self.administrator = administrator
        self.terminal = terminal
