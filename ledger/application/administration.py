"""The registry's administration: its bootstrap by `ledger db init`, and an administrator
enrolling a floor's staff and terminals with their own signed commands.

The first administrator and their console are recorded by `ledger db init`.

There is no default account and no default secret: the operator supplies the administrator's
credential and the console's, and the bootstrap records their public keys, each enrolment
signed by the keys it enrols (proof that the operator holds them). It happens once: the
registry's root stream exists afterwards, and a second bootstrap is refused.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from eventsourcing.persistence import IntegrityError

from ledger.application.ledger import Ledger, Recorded
from ledger.commands.base import Credentials
from ledger.commands.registry import (
    ChangeStaffRoles,
    EnrolStaff,
    RegisterTerminal,
    ReplaceStaffKey,
)
from ledger.core.errors import WrongState
from ledger.domain.base import Actor, Role
from ledger.domain.receipt import CommandReceipt
from ledger.domain.registry import REGISTRY_ID, Registry, StaffMember, TerminalDevice, TerminalKind
from ledger.identity.envelope import sign
from ledger.identity.keyring import Keyring
from ledger.identity.keys import Credential

VOUCHED = "bootstrap by `ledger db init`: the first administrator, self-signed"


def is_bootstrapped(ledger: Ledger) -> bool:
    return ledger.exists(REGISTRY_ID)


def registry_summary(ledger: Ledger) -> str:
    root = ledger.load(Registry, REGISTRY_ID, "the registry")
    return (f"bootstrapped by administrator {root.administrator} at console {root.terminal}; "
            "`ledger staff list` and `ledger terminal list` show who is enrolled.")


def bootstrap_registry(ledger: Ledger, administrator: Credential, console: Credential,
                       name: str, location: str = "administration") -> None:
    if is_bootstrapped(ledger):
        root = ledger.load(Registry, REGISTRY_ID, "the registry")
        raise WrongState(f"the registry was bootstrapped already (administrator "
                         f"{root.administrator}): enrol more staff with `ledger staff enrol`.")
    actor = Actor(staff_id=administrator.id, role=Role.ADMINISTRATOR)
    keys = Credentials(staff_key=administrator.fingerprint, terminal_key=console.fingerprint,
                       vouched=VOUCHED)
    admitted = {"actor": actor, "terminal": console.id, "credentials": keys}
    enrol = EnrolStaff(staff_id=administrator.id, name=name, roles=[Role.ADMINISTRATOR],
                       public_key=administrator.public_key).model_copy(update=admitted)
    register = RegisterTerminal(terminal_id=console.id, kind=TerminalKind.ADMIN_CONSOLE,
                                location=location, public_key=console.public_key,
                                ).model_copy(update=admitted)
    member = StaffMember(staff_id=enrol.staff_id, name=enrol.name, roles=enrol.roles,
                         public_key=enrol.public_key, by=enrol.provenance)
    device = TerminalDevice(terminal_id=register.terminal_id, kind=register.kind,
                            location=register.location, public_key=register.public_key,
                            by=register.provenance)
    root = Registry(administrator=administrator.id, terminal=console.id, by=enrol.provenance)
    receipts = [
        CommandReceipt(command_type=type(c).__name__, command=c.model_dump(mode="json"),
                       streams=[str(s.id) for s in streams], by=c.provenance,
                       signed=sign(c, console, administrator, vouched=VOUCHED,
                                   ledger=ledger.ledger_id).model_dump(
                           mode="json"))
        for c, streams in ((enrol, (member, root)), (register, (device,)))
    ]
    try:
        ledger.app.save(root, member, device, *receipts)
    except IntegrityError:
        raise WrongState("the registry was bootstrapped already, or staff "
                         f"{administrator.id} or terminal {console.id} exists.") from None


class Administrator:
    """Enrols a floor's staff and terminals as an administrator at their console would."""

    def __init__(self, ledger: Ledger, keyring: Keyring, staff_id: str, console: str) -> None:
        self.ledger, self.keyring = ledger, keyring
        self.staff_id, self.console = staff_id, console

    def send(self, command: Any) -> Recorded | None:
        """Record a registry change, dated by the ledger's clock; one another administrator
        made meanwhile is left be."""
        dated = command.model_copy(update={"at": self.ledger.clock.now()})
        try:
            return self.ledger.execute(
                self.keyring.sign(dated, staff=self.staff_id, terminal=self.console,
                                  ledger=self.ledger.ledger_id))
        except WrongState:  # enrolled or registered by a concurrent setup: the same end
            return None

    def ensure_staff(self, staff_id: str, name: str, roles: Iterable[Role]) -> None:
        """Enrolled, holding at least these roles, with the keyring's key."""
        wanted = list(roles)
        key = self.keyring.credential("staff", staff_id).public_key
        member = self.ledger.staff(staff_id)
        if member is None:
            self.send(EnrolStaff(staff_id=staff_id, name=name, roles=wanted, public_key=key))
            return
        missing = [role for role in wanted if role not in member.roles]
        if missing:
            self.send(ChangeStaffRoles(staff_id=staff_id, roles=[*member.roles, *missing]))
        if member.public_key != key:
            self.send(ReplaceStaffKey(staff_id=staff_id, public_key=key))

    def ensure_terminal(self, terminal_id: str, kind: TerminalKind, location: str) -> None:
        if self.ledger.terminal(terminal_id) is None:
            key = self.keyring.credential("terminal", terminal_id).public_key
            self.send(RegisterTerminal(terminal_id=terminal_id, kind=kind, location=location,
                                       public_key=key))
