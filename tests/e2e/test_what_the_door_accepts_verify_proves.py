"""Whatever the door records, `ledger verify` proves: a third party's signed commands, each
optional field sent or left out and amounts written as a terminal's author may write them, sent
through `ledger ingest`, over HTTP and as the CLI sends them, verify in full and incrementally.
A signed command without `command_id` or `at` is refused at the door, in one line that says
what to add, and nothing is recorded: the ledger fills in nothing its signers did not sign."""

from __future__ import annotations

import json
import random
import re
from decimal import Decimal
from typing import Any
from uuid import uuid4

from ledger.application.ingest import LineStatus, ingest_lines
from ledger.commands import SIGNED_FIELDS, Command, all_commands, command_class
from ledger.commands.base import sent_body
from ledger.commands.registry import (
    ChangeStaffRoles,
    EnrolStaff,
    RegisterTerminal,
    ReinstateStaff,
    ReplaceStaffKey,
    RevokeTerminal,
    SuspendStaff,
)
from ledger.commands.round import CloseBetting, OpenRound, PlaceBet, RecordIrregularity
from ledger.commands.shift import AdjustDrop, CloseGamingDay, RecordFill, VoidSlip
from ledger.commands.shoe import CloseShoe
from ledger.commands.table import ChangeTableSettings, CloseTable, SignOutDealer
from ledger.core import clock as ledger_clock
from ledger.domain.base import Actor, Role
from ledger.domain.registry import TerminalKind
from ledger.identity.envelope import SignedCommand
from ledger.identity.keys import Credential
from tests.e2e.served import served  # noqa: F401 - a fixture
from tests.e2e.test_incremental_verify import verified, verifier  # noqa: F401 - a fixture
from tests.e2e.test_insider_forgeries import trust  # noqa: F401 - a fixture
from tests.integration.floor_driver import DAY, DEALER, PIT_BOSS, SHIFT, SUPERVISOR, FloorDriver
from tests.signing import ADMIN, KEYRING, UNTRUSTED, event_count, open_ledger

SEED = 49
ROUTES = ("ingest", "http", "cli")
ADMINISTRATOR = Actor(staff_id=ADMIN, role=Role.ADMINISTRATOR)
WHOLE_AMOUNT = re.compile(r"^\d+\.00$")


class ThirdParty:
    """Signs each command as a terminal vendor's code might write it (an optional field left
    out or sent with its default, a whole amount written "100" or "100.00"), and sends it by
    one of the three ways in turn: a line of `ledger ingest`, `POST /v1/commands`, or
    `Ledger.execute` as the CLI sends what it signs."""

    def __init__(self, ledger: Any, served: Any, rng: random.Random) -> None:
        self.ledger = ledger
        self.served = served
        self.rng = rng
        self.sent: dict[str, set[str]] = {route: set() for route in ROUTES}
        self.left_out = 0
        self.kinds: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.ledger, name)

    def execute(self, command: Command) -> None:
        as_signed = self.ledger.sign(command)  # enrols whoever it names, the first time
        body = self.vendors_body(type(command), dict(as_signed.command))
        cosigners = [s.id for s in as_signed.by("cosigner")]
        signed = KEYRING.sign(body, staff=as_signed.staff, terminal=as_signed.terminal,
                              cosigners=cosigners, ledger=self.ledger.ledger_id)
        route = self.rng.choice(ROUTES)
        self.kinds.add(type(command).__name__)
        self.sent[route].add(type(command).__name__)
        self.send(route, signed)

    def signed_later(self, *commands: Command) -> list[SignedCommand]:
        """Signed as `execute` signs them, to be sent later (a file for `ledger ingest`)."""
        signed = []
        for command in commands:
            as_signed = self.ledger.sign(command)
            body = self.vendors_body(type(command), dict(as_signed.command))
            signed.append(KEYRING.sign(body, staff=as_signed.staff, terminal=as_signed.terminal,
                                       ledger=self.ledger.ledger_id))
        return signed

    def vendors_body(self, kind: type[Command], body: dict[str, Any]) -> dict[str, Any]:
        """Each optional field that holds its default left out at random (the command it
        makes is the same), each whole amount written without its avos at random."""
        for name in list(body):
            field = kind.model_fields.get(name)
            if name in SIGNED_FIELDS or field is None or field.is_required():
                continue
            without = {key: value for key, value in body.items() if key != name}
            if sent_body(kind.model_validate(without).model_dump(mode="json")) != body:
                continue  # it holds more than its default
            if self.rng.random() < 0.5:
                body = without
                self.left_out += 1
        for name, value in body.items():
            if isinstance(value, str) and WHOLE_AMOUNT.match(value) and self.rng.random() < 0.3:
                body[name] = value.removesuffix(".00")
        return body

    def send(self, route: str, signed: SignedCommand) -> None:
        line = json.dumps(signed.model_dump(mode="json"))
        if route == "ingest":
            (result,) = ingest_lines(self.ledger.inner, [line])
            assert result.status is LineStatus.ACCEPTED, result.detail
        elif route == "http":
            answer = self.served.post("/v1/commands", line)
            assert answer.status_code == 201, answer.text
        else:
            assert not self.ledger.inner.execute(signed).duplicate


def the_registry(floor: FloorDriver) -> None:
    """The administrator's commands, which the floor's shift does not send."""
    send = floor.send
    admin = {"actor": ADMINISTRATOR}
    newcomer, device = Credential.generate("staff", "D-49"), Credential.generate("terminal", "T-49")
    send(EnrolStaff, **admin, staff_id="D-49", name="Dee Forty-Nine", roles=[Role.DEALER],
         public_key=newcomer.public_key)
    send(ChangeStaffRoles, **admin, staff_id="D-49", roles=[Role.DEALER, Role.SUPERVISOR])
    send(SuspendStaff, **admin, staff_id="D-49", reason="keys left at the pit")
    send(ReinstateStaff, **admin, staff_id="D-49", reason="keys found")
    send(ReplaceStaffKey, **admin, staff_id="D-49",
         public_key=Credential.generate("staff", "D-49").public_key)
    send(RegisterTerminal, **admin, terminal_id="T-49", kind=TerminalKind.DEALER_TERMINAL,
         location="BAC-01", public_key=device.public_key)
    send(RevokeTerminal, **admin, terminal_id="T-49", reason="screen broken")


def the_rest_of_the_shift(floor: FloorDriver) -> None:
    """Before the floor's shifts close: a setting changed, a coup stopped by an irregularity,
    a shoe closed, a dealer signed out and a table closed, a fill slip voided."""
    send = floor.send
    send(ChangeTableSettings, actor=PIT_BOSS, table="BAC-02", settings={"decks": 8},
         effective_from=DAY, authorisation="house rules memo 49")
    send(OpenRound, table="BAC-01")
    send(PlaceBet, table="BAC-01", box=1, spot="player", amount=Decimal("100.00"))
    send(CloseBetting, table="BAC-01")
    send(RecordIrregularity, actor=SUPERVISOR, table="BAC-01", kind="card_face_up",
         cards=["AS"], correctable=True, note="burned face up")
    floor.void("BAC-01", "a card exposed before the deal")
    send(CloseShoe, table="BAC-02")
    send(SignOutDealer, actor=PIT_BOSS, table="BAC-02", dealer_id=DEALER.staff_id)
    send(CloseTable, actor=PIT_BOSS, table="BAC-02")
    shift = {"table": "BAC-01", "gaming_day": DAY, "shift": SHIFT}
    send(RecordFill, actor=SUPERVISOR, **shift, slip=107, chips={"1000": 1}, runner_id="R-1",
         supervisor=SUPERVISOR)
    send(VoidSlip, actor=SUPERVISOR, **shift, slip=107, reason="written on the wrong table")


def after_the_shift(floor: FloorDriver) -> None:
    """Once the floor's shifts are closed: a drop adjusted, the day closed."""
    send = floor.send
    shift = {"table": "BAC-01", "gaming_day": DAY, "shift": SHIFT}
    send(AdjustDrop, actor=SUPERVISOR, **shift, cash=Decimal("4100.00"), markers=Decimal("0.00"),
         reason="a 100 note found in the box")
    send(CloseGamingDay, actor=PIT_BOSS, gaming_day=DAY)


def test_every_command_a_third_party_signs_is_proven_by_verify_full_and_incremental(
        cli, settings, served, trust, verifier, tmp_path):
    first = verified(cli, trust, verifier)
    assert first.code == 0, first.out
    rng = random.Random(SEED)
    with open_ledger(settings) as rt:
        vendor = ThirdParty(rt.ledger, served, rng)
        floor = FloorDriver(vendor)  # a Ledger to the driver: it calls `execute`
        the_registry(floor)
        floor.record_shift(before_close=lambda: the_rest_of_the_shift(floor))
        after_the_shift(floor)
        later = vendor.signed_later(  # for `ledger ingest` as a process, once the CLI opened it
            ChangeTableSettings(table="BAC-09", settings={"decks": 6}, effective_from=DAY,
                                authorisation="memo 9", actor=PIT_BOSS, terminal="pit-pit-boss"),
            CloseTable(table="BAC-09", actor=PIT_BOSS, terminal="pit-pit-boss"))
    every_kind = {kind.__name__ for kind in all_commands()}
    assert vendor.kinds == every_kind, f"not sent: {sorted(every_kind - vendor.kinds)}"
    assert all(vendor.sent.values()) and vendor.left_out > 50, (vendor.sent, vendor.left_out)
    opened = cli("table", "open", "BAC-09", "--game", "baccarat", "--min", "100", "--max",
                 "10000", "--setting", "decks=8")  # the CLI as a process signs its own
    assert opened.code == 0, opened.out + opened.err
    feed = tmp_path / "feed.jsonl"
    feed.write_text("".join(json.dumps(signed.model_dump(mode="json")) + "\n" for signed in later))
    ingested = cli("ingest", str(feed))
    assert ingested.code == 0 and "2 accepted" in ingested.out, ingested.out
    assert cli("seal", "run", "--once").code == 0

    later = verified(cli, trust, verifier)
    assert later.code == 0 and "FAIL" not in later.out, later.out
    assert "since the last verification" in later.out, later.out
    full = verified(cli, trust, verifier, "--full")
    assert full.code == 0 and "FAIL" not in full.out, full.out


def _signed_open_table(ledger_id: str, leave_out: tuple[str, ...], at: str) -> str:
    """The issue's line: an `open_table` a supervisor signs at a pit workstation, as a third
    party writes it from `docs/signing.md`, without the fields named."""
    command = {"command": "open_table", "command_id": str(uuid4()),
               "at": at, "table": "BAC-49", "game": "baccarat",
               "min_bet": "100.00", "max_bet": "10000.00"}
    for name in leave_out:
        del command[name]
    signed = KEYRING.sign(command, staff=SUPERVISOR.staff_id, terminal="PIT-49",
                          ledger=ledger_id)
    return json.dumps(signed.model_dump(mode="json"))


def test_a_signed_command_without_its_time_or_id_is_refused_at_the_door_naming_what_to_add(
        cli, settings, served, superuser, tmp_path):
    with open_ledger(settings) as rt:
        rt.ledger.admin.ensure_staff(SUPERVISOR.staff_id, "Sue Pervisor", [Role.SUPERVISOR])
        rt.ledger.admin.ensure_terminal("PIT-49", TerminalKind.PIT_WORKSTATION, "pit 49")
        ledger_id = rt.ledger.ledger_id
    before, now = event_count(superuser), ledger_clock.now().isoformat()
    for leave_out, named in ((("at",), "no 'at'"), (("command_id",), "no 'command_id'"),
                             (("command_id", "at"), "no 'command_id' and no 'at'")):
        feed = tmp_path / f"without-{'-'.join(leave_out)}.jsonl"
        feed.write_text(_signed_open_table(ledger_id, leave_out, now) + "\n")
        refused = cli("ingest", str(feed))
        assert refused.code == 1, refused.out
        (line,) = [text for text in refused.out.splitlines() if text.startswith("line 1")]
        assert f"the signed command carries {named}" in line, line
        assert "sign it again; nothing recorded." in line, line
        for key in leave_out:
            assert f"add '{key}'" in line or f"and '{key}'" in line, line
        answer = served.post("/v1/commands", feed.read_text())
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"]["code"] == "invalid_input", answer.text
        assert f"the signed command carries {named}" in answer.json()["error"]["message"]
    assert event_count(superuser) == before
    whole = tmp_path / "whole.jsonl"
    whole.write_text(_signed_open_table(ledger_id, (), now) + "\n")
    assert cli("ingest", str(whole)).code == 0
    checked = cli("verify")
    assert checked.code == UNTRUSTED and "FAIL" not in checked.out, checked.out


def test_the_schema_a_vendor_reads_requires_the_id_and_the_time_and_never_who(cli):
    schemas = json.loads(cli("schema").out)
    assert set(schemas) == {command_class(name).model_fields["command"].default
                            for name in schemas}
    for name, schema in schemas.items():
        assert {"command", "command_id", "at"} <= set(schema["required"]), name
        assert not {"actor", "terminal", "credentials"} & set(schema["properties"]), name
