"""`ledger key ...`, `ledger staff ...`, `ledger terminal ...`: credentials and the registry.

Keys are made where they are used and never leave it: `ledger key new` writes the private key
to a file readable by its owner alone and prints the public key, which is all an administrator
enrols. Every change to the registry is a signed command of an administrator, recorded as an
event; `list` and `show` read the registry back, with each change's who and when.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import TypeAdapter, ValidationError
from rich import box

from ledger.application.bus import REGISTRY
from ledger.cli.common import JsonOption, console, print_json, runtime, sender
from ledger.commands.base import Identifier
from ledger.commands.registry import (
    ChangeStaffRoles,
    EnrolStaff,
    RegisterTerminal,
    ReinstateStaff,
    ReplaceStaffKey,
    RevokeTerminal,
    SuspendStaff,
)
from ledger.core.errors import InvalidInput, NotFound
from ledger.core.formatting import iso, when
from ledger.domain.base import Role
from ledger.domain.registry import (
    StaffMember,
    TerminalDevice,
    TerminalKind,
    role_list,
    staff_stream_id,
    terminal_stream_id,
)
from ledger.identity.keys import Credential, Kind, fingerprint
from ledger.identity.registry_log import registered_ids
from ledger.presentation.columns import Grid, text
from ledger.presentation.render import safe
from ledger.presentation.wording import describe, term

send = sender(REGISTRY)
"""Sends a command of the registry area (its handlers alone are loaded)."""

KEY = "key"
"""A key's fingerprint, in a column never cut: it is checked by eye against another copy."""

keys = typer.Typer(help="Make a key pair; show a key's public half.", no_args_is_help=True)
staff = typer.Typer(help="Enrol, suspend, reinstate staff; change roles and keys.",
                    no_args_is_help=True)
terminals = typer.Typer(help="Register and revoke terminals and devices.", no_args_is_help=True)

Id = Annotated[str, typer.Argument(help="Staff id or terminal id, e.g. D-101 or BAC-01-DT.")]
PublicKey = Annotated[str, typer.Option("--public-key", help="The public key `ledger key new` "
                                        "printed (base64); the private key stays with its owner.")]
Reason = Annotated[str, typer.Option("--reason", help="Why (recorded with the event).")]
Roles = Annotated[list[Role], typer.Option("--role", help="A role held (repeat for each).")]


@keys.command("new")
def key_new(
    kind: Annotated[str, typer.Argument(help="staff, terminal, seal, witness or verifier.")], id: Id,
    out: Annotated[Path, typer.Option("--out", help="Where to write the private key "
                                      "(mode 0600; never overwritten).")],
) -> None:
    """Make an Ed25519 key pair: the private key to a file, the public key printed."""
    credential = Credential.generate(_kind(kind), _identifier(id))
    credential.save(out)
    console.print(f"{kind} {id}: private key written to {out}", highlight=False)
    console.print(f"public key  {credential.public_key}", highlight=False)
    console.print(f"fingerprint {credential.fingerprint}", highlight=False)


@keys.command("show")
def key_show(path: Annotated[Path, typer.Argument(help="A key file.")],
             as_json: JsonOption = False) -> None:
    """Whose key a file holds, its public key and fingerprint (never the private key)."""
    credential = Credential.load(path, _peek_kind(path))
    if as_json:
        print_json({"kind": credential.kind, "id": credential.id,
                    "public_key": credential.public_key, "fingerprint": credential.fingerprint})
        return
    console.print(f"{credential.kind} {credential.id}\npublic key  {credential.public_key}\n"
                  f"fingerprint {credential.fingerprint}", highlight=False)


@staff.command("enrol")
def enrol(id: Id, name: Annotated[str, typer.Option("--name", help="Full name.")],
          role: Roles, public_key: PublicKey) -> None:
    """Enrol a member of staff with the roles they hold and their public key."""
    send(EnrolStaff(staff_id=id, name=name, roles=role, public_key=public_key))


@staff.command("suspend")
def suspend(id: Id, reason: Reason) -> None:
    """Suspend: nothing they sign is accepted until they are reinstated."""
    send(SuspendStaff(staff_id=id, reason=reason))


@staff.command("reinstate")
def reinstate(id: Id, reason: Reason) -> None:
    """Lift a suspension."""
    send(ReinstateStaff(staff_id=id, reason=reason))


@staff.command("roles")
def roles(id: Id, role: Roles) -> None:
    """Replace the roles a member of staff holds."""
    send(ChangeStaffRoles(staff_id=id, roles=role))


@staff.command("rekey")
def rekey(id: Id, public_key: PublicKey) -> None:
    """Replace a lost or compromised key: the old one signs nothing more."""
    send(ReplaceStaffKey(staff_id=id, public_key=public_key))


@staff.command("list")
def staff_list(as_json: JsonOption = False) -> None:
    """Everyone enrolled: roles, standing and key fingerprint."""
    with runtime() as rt:
        members = [rt.ledger.staff(i) for i in registered_ids(rt.database, "staff")]
    if as_json:
        print_json([_staff_record(m) for m in filter(None, members)])
        return
    grid = Grid(text("staff"), text("name", wraps=True), text("roles", wraps=True),
                text("standing"), text(KEY), box=box.SIMPLE_HEAD, pad_edge=False,
                collapse_padding=True)
    for m in filter(None, members):
        grid.add_row(safe(m.staff_id), safe(m.name), role_list(m.roles), _standing(m.suspended, "suspended"),
                     fingerprint(m.public_key))
    grid.print(console, json=True)


@staff.command("show")
def staff_show(id: Id, as_json: JsonOption = False) -> None:
    """One member of staff and every change to their record: what, by whom, when."""
    _history("staff", id, as_json)


@terminals.command("register")
def register(
    id: Id, kind: Annotated[TerminalKind, typer.Option("--kind", help="What the device is.")],
    location: Annotated[str, typer.Option("--location", help="Where it stands.")],
    public_key: PublicKey,
) -> None:
    """Register a terminal or device with the public key it signs with."""
    send(RegisterTerminal(terminal_id=id, kind=kind, location=location, public_key=public_key))


@terminals.command("revoke")
def revoke(id: Id, reason: Reason) -> None:
    """Revoke a device for good: nothing it signs is accepted again."""
    send(RevokeTerminal(terminal_id=id, reason=reason))


@terminals.command("list")
def terminal_list(as_json: JsonOption = False) -> None:
    """Every registered device: kind, location, standing and key fingerprint."""
    with runtime() as rt:
        devices = [rt.ledger.terminal(i) for i in registered_ids(rt.database, "terminal")]
    if as_json:
        print_json([_terminal_record(d) for d in filter(None, devices)])
        return
    grid = Grid(text("terminal"), text("kind", wraps=True), text("location", 1, wraps=True),
                text("standing"), text(KEY), box=box.SIMPLE_HEAD, pad_edge=False,
                collapse_padding=True)
    for d in filter(None, devices):
        grid.add_row(safe(d.terminal_id), term(d.kind), safe(d.location), _standing(d.revoked, "revoked"),
                     fingerprint(d.public_key))
    grid.print(console, json=True)


@terminals.command("show")
def terminal_show(id: Id, as_json: JsonOption = False) -> None:
    """One device and every change to its record."""
    _history("terminal", id, as_json)


def _staff_record(member: StaffMember) -> dict[str, Any]:
    """A member of staff as `staff list --json` and `staff show --json` give them; `suspended`
    is the reason while suspended, None while active."""
    return {"staff_id": member.staff_id, "name": member.name,
            "roles": [role.value for role in member.roles], "suspended": member.suspended,
            "public_key": member.public_key, "fingerprint": fingerprint(member.public_key)}


def _terminal_record(device: TerminalDevice) -> dict[str, Any]:
    """A device as `terminal list --json` and `terminal show --json` give it; `revoked` is the
    reason once revoked, None while active."""
    return {"terminal_id": device.terminal_id, "kind": device.kind.value,
            "location": device.location, "revoked": device.revoked,
            "public_key": device.public_key, "fingerprint": fingerprint(device.public_key)}


def _change(event: Any) -> dict[str, Any]:
    """One change to a registry record: what, when (Macau time), by whom, from where."""
    by = event.by
    return {"version": event.originator_version, "event": type(event).__name__,
            "at": iso(by.at), "role": by.actor.role.value, "staff_id": by.actor.staff_id,
            "terminal": by.terminal, "vouched": by.vouched}


def _history(kind: Kind, id: str, as_json: bool) -> None:
    with runtime() as rt:
        found = rt.ledger.staff(id) if kind == "staff" else rt.ledger.terminal(id)
        if found is None:
            raise NotFound(f"no {kind} {id} in the registry: `ledger {kind} list` shows who is.")
        stream = staff_stream_id(id) if kind == "staff" else terminal_stream_id(id)
        events = list(rt.ledger.stream_events(stream))
    if isinstance(found, StaffMember):
        record = _staff_record(found)
        what = f"{safe(found.name)}, {role_list(found.roles)}"
        standing = found.suspended
    else:
        record = _terminal_record(found)
        what = f"{term(found.kind)} at {safe(found.location)}"
        standing = found.revoked
    if as_json:
        print_json({**record, "history": [_change(event) for event in events]})
        return
    console.print(f"[bold]{kind} {safe(id)}[/]: {what}; {_standing(standing, 'suspended' if kind == 'staff' else 'revoked')}; "
                  f"key {fingerprint(found.public_key)}", highlight=False)
    for event in events:
        by = event.by
        console.print(f"  v{event.originator_version} {describe([type(event).__qualname__])} "
                      f"{when(by.at)}, "
                      f"by {term(by.actor.role)} {safe(by.actor.staff_id)} at {safe(by.terminal)}"
                      f"{' (' + safe(by.vouched) + ')' if by.vouched else ''}", highlight=False)


def _standing(reason: str | None, word: str) -> str:
    return f"[red]{word}[/]: {safe(reason)}" if reason else "[green]active[/]"


def _kind(text: str) -> Kind:
    kinds: dict[str, Kind] = {"staff": "staff", "terminal": "terminal", "seal": "seal",
                              "witness": "witness", "verifier": "verifier"}
    if text not in kinds:
        raise InvalidInput(f"'{text}' is not a kind of key: staff, terminal, seal, witness or "
                           "verifier.")
    return kinds[text]


def _identifier(text: str) -> str:
    """The id a key is made for, in the registry's own grammar (refused before a file exists)."""
    try:
        return str(TypeAdapter(Identifier).validate_python(text))
    except ValidationError:
        raise InvalidInput(f"'{text}' is not an id: 1 to 64 letters, digits, '.', '_' or '-', "
                           "starting with a letter or digit.") from None


def _peek_kind(path: Path) -> Kind:
    import json

    try:
        kind = json.loads(path.expanduser().read_text(encoding="utf-8")).get("kind", "")
    except (OSError, ValueError, AttributeError):
        raise InvalidInput(f"{path} is not a ledger key file (see `ledger key new`).") from None
    return _kind(str(kind))
