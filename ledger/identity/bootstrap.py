"""The first administrator and their console, recorded by `ledger db init`.

There is no default account and no default secret: the operator supplies the administrator's
credential and the console's, and the bootstrap records their public keys, each enrolment
signed by the keys it enrols (proof that the operator holds them). It happens once: the
registry's root stream exists afterwards, and a second bootstrap is refused.
"""

from __future__ import annotations

from typing import cast

from eventsourcing.persistence import IntegrityError

from ledger.application import Ledger
from ledger.commands import Command
from ledger.commands.base import Credentials
from ledger.commands.registry import EnrolStaff, RegisterTerminal
from ledger.domain.base import Actor, Role
from ledger.domain.receipt import CommandReceipt
from ledger.domain.registry import REGISTRY_ID, Registry, StaffMember, TerminalDevice, TerminalKind
from ledger.errors import WrongState
from ledger.identity.envelope import sign
from ledger.identity.keys import Credential

VOUCHED = "bootstrap by `ledger db init`: the first administrator, self-signed"


def is_bootstrapped(ledger: Ledger) -> bool:
    return ledger.exists(REGISTRY_ID)


def registry_summary(ledger: Ledger) -> str:
    root = ledger.load(REGISTRY_ID, "the registry")
    return (f"bootstrapped by administrator {root.administrator} at console {root.terminal}; "
            "`ledger staff list` and `ledger terminal list` show who is enrolled.")


def bootstrap_registry(ledger: Ledger, administrator: Credential, console: Credential,
                       name: str, location: str = "administration") -> None:
    if is_bootstrapped(ledger):
        root = ledger.load(REGISTRY_ID, "the registry")
        raise WrongState(f"the registry was bootstrapped already (administrator "
                         f"{root.administrator}): enrol more staff with `ledger staff enrol`.")
    actor = Actor(staff_id=administrator.id, role=Role.ADMINISTRATOR)
    keys = Credentials(staff_key=administrator.fingerprint, terminal_key=console.fingerprint,
                       vouched=VOUCHED)
    commands: list[Command] = [
        EnrolStaff(staff_id=administrator.id, name=name, roles=[Role.ADMINISTRATOR],
                   public_key=administrator.public_key),
        RegisterTerminal(terminal_id=console.id, kind=TerminalKind.ADMIN_CONSOLE,
                         location=location, public_key=console.public_key),
    ]
    admitted = [c.model_copy(update={"actor": actor, "terminal": console.id, "credentials": keys})
                for c in commands]
    enrol, register = cast(EnrolStaff, admitted[0]), cast(RegisterTerminal, admitted[1])
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
