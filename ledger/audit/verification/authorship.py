"""Every event proven by a signed, authorised command, checked from the events alone.

`ledger verify` reads the log once, in the global order, and holds every stream as it stood
at each point. A command's events and its receipt are saved in one insert, the events first
and the receipt after them (`ledger.application.ledger`, `ledger.application.group_commit`), so the log is a
sequence of *runs*: some events, then the receipt (or, for the registry's bootstrap, the two
receipts) of the commands that recorded them. For each run it checks:

- every event claims a command (`by.command_id`) whose receipt closes its run: an event with
  no command, claiming a command no receipt records, or lying outside its command's run is
  named. Nothing here reads a transaction id, so a dump and restore changes nothing;
- the receipt keeps a signed envelope whose signatures verify against the keys the registry
  held at that point of the log, from a registered, unrevoked terminal of a kind that carries
  the command, by enrolled, unsuspended staff whose role as it then stood may send it: the
  door itself (`ledger.identity.door.admit`) is run again on the registry as the log had it,
  without the clock (which was checked when it arrived);
- the command is executed again, by its own handler, on the streams as they stood before it,
  and must record exactly the events the log holds for it (stream, version, type and every
  field but the time it was written); the receipt's command, streams and provenance must be
  what the door and the handler make of the envelope.

The registry is proven the same way, back to its bootstrap: the first administrator's own
signature, under the public key the trust file gives when there is one. A registry event
that fails is not applied, so everything signed later by a key it brought in is named too.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from psycopg import Connection, sql
from pydantic import ValidationError

from ledger.audit.verification.comparison import (
    Row,
    body_of,
    bootstrap_differs,
    claimed_command,
    compare,
    drawn_ids,
    mapper,
    receipt_differs,
    refusal,
)
from ledger.audit.verification.log_streams import Carried, ResumedStreams, Streams, carries
from ledger.core.errors import LedgerError, first_line
from ledger.core.formatting import counted
from ledger.domain.receipt import CommandReceipt
from ledger.domain.registry import Registry
from ledger.infrastructure.database import EVENTS_TABLE
from ledger.infrastructure.registry_rows import bound_from

if TYPE_CHECKING:
    from ledger.application.bus import Bus

REGISTRY_STREAMS = ("StaffMember.", "TerminalDevice.", "Registry.")
BOOTSTRAP_VOUCHED = "bootstrap by `ledger db init`: the first administrator, self-signed"
@dataclass
class Authorship:
    """What the check found: failures as (subject, reason), and how much it proved."""

    commands: int = 0
    events: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    carried: Carried | None = None  # the state at the boundary asked for
    worker_seconds: list[float] = field(default_factory=list)  # money-safe: each worker's CPU seconds


def _rows(conn: Connection[Any], after: int = 0) -> Generator[Row, None, None]:
    query = sql.SQL("SELECT notification_id, originator_id, originator_version, topic, state "
                    "FROM {} WHERE notification_id > %s ORDER BY notification_id"
                    ).format(sql.Identifier(EVENTS_TABLE))
    with conn.transaction(), conn.cursor(name="ledger_authorship", binary=True) as cursor:
        cursor.itersize = 5000
        cursor.execute(query, (after,))
        for position, stream_id, version, topic, state in cursor:
            yield Row(position, stream_id, version, topic, bytes(state))


def _runs(rows: Iterator[Row]) -> Iterator[tuple[list[Row], list[Row]]]:
    """(events, the receipts that close them), in log order; a trailing run without a
    receipt comes last with no receipts."""
    events: list[Row] = []
    receipts: list[Row] = []
    for row in rows:
        if row.kind == CommandReceipt.Accepted.event_type:
            receipts.append(row)
            continue
        if receipts:
            yield events, receipts
            events, receipts = [], []
        events.append(row)
    if events or receipts:
        yield events, receipts


def check_authorship(conn: Connection[Any], *, administrator_key: str | None = None,
                     ledger_id: str | None = None, resume: Carried | None = None,
                     boundary: int | None = None) -> Authorship:
    """Every event proven by its signed command (module docstring). `administrator_key`: the
    bootstrap administrator's public key, from the trust file; `ledger_id`: the ledger the
    envelopes must name (the trust file's; by default the database's own).

    `resume`: the state a verification that held carried to its boundary; only the commands
    after it are checked, on the streams as they stood (`ledger.audit.verification.incremental`).
    `boundary`: a position (a signed checkpoint's); the state after the last command wholly at
    or before it is kept in `found.carried`, for the next verification to resume from."""
    from ledger.audit.log.formats import recorded_ledger_id

    checker = _Checker(administrator_key, ledger_id or recorded_ledger_id(conn))
    checker.bound_from = bound_from(conn)
    after = 0
    if resume is not None:
        checker.resume(conn, resume)
        after = resume.after
    with closing(_rows(conn, after)) as rows:
        for events, receipts in _runs(rows):
            end = (receipts or events)[-1].position
            if boundary is not None and end > boundary and checker.found.carried is None:
                checker.carry(after)
            checker.run(events, receipts)
            after = end
    if boundary is not None and checker.found.carried is None:
        checker.carry(after)
    checker.finish()
    return checker.found


class _Checker:
    def __init__(self, administrator_key: str | None, ledger_id: str | None) -> None:
        self.streams: Streams = Streams()
        self.found = Authorship()
        self.administrator_key = administrator_key
        self.ledger_id = ledger_id
        self.bootstrapped = False
        self.commands_seen: dict[str, int] = {}  # command id -> its receipt's position
        self.unbound = 0  # envelopes recorded before envelopes named their ledger
        self.bound_from: int | None = None  # the first receipt naming it: none unbound after
        self.unproven: dict[UUID, set[int]] = {}  # stream -> positions of events not proven
        self.resumed = False  # resumed from a carried state: the log before it is not read
        self._bus: Bus | None = None

    @property
    def bus(self) -> Bus:
        """Every area's handlers, loaded for the first command checked."""
        if self._bus is None:
            from ledger.application.bus import EVERY_AREA, Bus

            self._bus = Bus(EVERY_AREA)
        return self._bus

    def resume(self, conn: Connection[Any], carried: Carried) -> None:
        self.streams = ResumedStreams(conn, carried.after)
        self.streams.streams.update(carried.streams)
        self.unproven = {stream: set(positions) for stream, positions in carried.unproven.items()}
        self.unbound = carried.unbound
        self.bootstrapped = True
        self.resumed = True

    def carry(self, after: int) -> None:
        """The state as it stands now, copied (the check goes on changing it)."""
        import copy

        streams = {stream: copy.deepcopy(aggregate)
                   for stream, aggregate in self.streams.streams.items() if carries(aggregate)}
        self.found.carried = Carried(after, streams, {s: set(p) for s, p in
                                                      self.unproven.items()}, self.unbound)

    def fail(self, subject: str, reason: str, *rows: Row) -> None:
        self.found.failures.append((subject, reason))
        for row in rows:
            self.unproven.setdefault(row.stream_id, set()).add(row.position)

    # -- one run ------------------------------------------------------------------------
    def run(self, events: list[Row], receipts: list[Row]) -> None:
        self.found.events += len(events) + len(receipts)
        decoded = {row.position: self._decode(row) for row in (*events, *receipts)}
        by_command: dict[str, Row] = {}
        for row in receipts:
            receipt = decoded[row.position]
            if receipt is None:
                continue
            command_id = str(receipt.by.command_id)
            if self.resumed and row.version != 1 and command_id not in self.commands_seen:
                self.fail(row.where, f"a second receipt of command {command_id} (its receipt "
                                     f"stream's version {row.version}: the first is version 1)")
                continue
            if command_id in self.commands_seen:
                self.fail(row.where, f"a second receipt of command {command_id} (the first is "
                                     f"at position {self.commands_seen[command_id]})")
                continue
            self.commands_seen[command_id] = row.position
            by_command[command_id] = row
        claimed: dict[str, list[Row]] = {command_id: [] for command_id in by_command}
        for row in events:
            claim = claimed_command(decoded[row.position], row)
            if claim is None:
                self.fail(row.where, f"{row.kind} was recorded by no command: it claims none",
                          row)
            elif claim in claimed:
                claimed[claim].append(row)
            elif claim in self.commands_seen:
                self.fail(row.where, f"{row.kind} claims command {claim}, whose receipt "
                          f"is at position {self.commands_seen[claim]}: outside that "
                          "command's run of positions", row)
            elif not receipts:
                self.fail(row.where, f"{row.kind} claims command {claim}, and no receipt "
                          "follows it: recorded by no command", row)
            else:
                self.fail(row.where, f"{row.kind} claims command {claim}, which no "
                          "receipt in its run records", row)
        if any(isinstance(decoded[r.position], Registry.Bootstrapped)
               for r in events) or not self.bootstrapped:
            self._bootstrap(by_command, claimed, decoded)
            return
        for command_id, receipt_row in by_command.items():
            self._command(receipt_row, decoded[receipt_row.position], claimed[command_id],
                          decoded)

    def _decode(self, row: Row) -> Any:
        try:
            return mapper.to_domain_event(StoredEvent(row.stream_id, row.version, row.topic,
                                                       row.state))
        except (ValidationError, ValueError, ImportError, AttributeError, TypeError) as error:
            self.fail(row.where, f"{row.kind} cannot be read as the event it names: "
                      f"{first_line(error)[:160]}", row)
            return None

    # -- one command --------------------------------------------------------------------
    def _command(self, receipt_row: Row, receipt: Any, rows: list[Row],
                 decoded: dict[int, Any]) -> None:
        from ledger.identity.door import admit

        self.found.commands += 1
        subject = f"command {receipt.by.command_id} ({receipt.command_type}, receipt at " \
                  f"position {receipt_row.position})"
        try:
            signed = self._envelope(receipt)
            if signed.ledger is None and self.bound_from is not None \
                    and receipt_row.position > self.bound_from:
                raise LedgerError(f"it names no ledger, though every command since position "
                                  f"{self.bound_from:,} names this one")
            command = admit(signed, self.streams.staff, self.streams.terminal, None,
                            ledger_id=self.ledger_id if signed.ledger is not None else None)
            if signed.ledger is None:
                self.unbound += 1
        except (LedgerError, ValidationError) as error:
            self._refused(subject, rows, decoded, f"its signed envelope would have been "
                          f"refused at the door as the registry then stood: {refusal(error)}")
            return
        differs = receipt_differs(receipt, command)
        if differs:
            self._refused(subject, rows, decoded, f"the receipt is not what its signed "
                          f"envelope says: {differs}")
            return
        self.streams.rules = receipt.rules or 1  # the edition it was recorded under
        try:
            aggregates = self.bus.handle(command, self.streams)
        except LedgerError as error:
            self._refused(subject, rows, decoded, "executed again on the streams as they stood "
                          f"before it, the command is refused: {refusal(error)}")
            return
        produced = [e for aggregate in aggregates for e in aggregate.collect_events()]
        streams = [str(aggregate.id) for aggregate in aggregates]
        drawn = drawn_ids(produced, rows, self.streams)
        problem = compare(produced, rows, drawn)
        streams = [drawn.get(stream, stream) for stream in streams]
        if problem is None and list(receipt.streams) != streams:
            problem = (f"its receipt lists streams {', '.join(receipt.streams) or 'none'}; the "
                       f"command writes {', '.join(streams) or 'none'}")
        if problem:
            self._refused(subject, rows, decoded, problem)
            return
        for row in rows:
            self.streams.apply(decoded[row.position])

    def _envelope(self, receipt: Any) -> Any:
        from ledger.identity.envelope import from_receipt

        if receipt.signed is None:
            raise _Unsigned("it keeps no signed envelope")
        return from_receipt(receipt.signed, receipt.command)

    def _refused(self, subject: str, rows: list[Row], decoded: dict[int, Any],
                 reason: str) -> None:
        """Name the command; its events stay in the streams (so what follows is checked on
        the log as recorded), except the registry's: a key no valid command brought in proves
        nothing after it."""
        self.fail(subject, reason, *rows)
        for row in rows:
            event = decoded[row.position]
            if event is not None and not row.kind.startswith(REGISTRY_STREAMS):
                self._apply_recorded(row, event)

    def _apply_recorded(self, row: Row, event: Any) -> None:
        try:
            self.streams.apply(event)
        except Exception as error:  # noqa: BLE001 - a forged event must not stop the check
            self.fail(row.where, f"{row.kind} does not apply to its stream as the log holds "
                      f"it: {first_line(error)[:160]}")

    # -- the registry's bootstrap -------------------------------------------------------
    def _bootstrap(self, by_command: dict[str, Row], claimed: dict[str, list[Row]],
                   decoded: dict[int, Any]) -> None:
        from ledger.identity.envelope import from_receipt
        from ledger.identity.keys import fingerprint, verify

        if self.bootstrapped:
            for rows in claimed.values():
                for row in rows:
                    if row.kind == Registry.Bootstrapped.event_type:
                        self.fail(row.where, "a second bootstrap of the registry: only "
                                  "`ledger db init` records one, once, first")
            for command_id, receipt_row in by_command.items():
                self._command(receipt_row, decoded[receipt_row.position], claimed[command_id],
                              decoded)
            return
        self.bootstrapped = True
        names = {decoded[r.position].command_type: r for r in by_command.values()
                 if decoded[r.position] is not None}
        if set(names) != {"EnrolStaff", "RegisterTerminal"}:
            self.fail("the registry's bootstrap", "the ledger does not begin with the first "
                      "administrator's enrolment and console: its first commands are "
                      f"{', '.join(sorted(names)) or 'none'}")
            for command_id, receipt_row in by_command.items():
                self._command(receipt_row, decoded[receipt_row.position], claimed[command_id],
                              decoded)
            return
        enrol = decoded[names["EnrolStaff"].position]
        register = decoded[names["RegisterTerminal"].position]
        admin_key = enrol.command.get("public_key")
        console_key = register.command.get("public_key")
        problems = bootstrap_differs(enrol.command, register.command,
                                     [decoded[r.position] for rows in claimed.values()
                                      for r in rows])
        for receipt, key, signer in ((enrol, admin_key, "staff"), (enrol, console_key, "terminal"),
                                     (register, admin_key, "staff"),
                                     (register, console_key, "terminal")):
            try:
                signed = from_receipt(receipt.signed or {}, receipt.command)
            except ValidationError:
                problems.append(f"{receipt.command_type}'s envelope cannot be read")
                continue
            if signed.ledger is not None and self.ledger_id is not None \
                    and signed.ledger != self.ledger_id:
                problems.append(f"{receipt.command_type} was signed for ledger {signed.ledger}, "
                                f"not this one ({self.ledger_id})")
            signatures = signed.by(signer)
            if (len(signatures) != 1 or signatures[0].key != fingerprint(key)
                    or not verify(key, signatures[0].value, signed.message())
                    or signed.command != body_of(receipt.command)):
                problems.append(f"{receipt.command_type} is not signed by the {signer} key it "
                                "enrols")
        if self.administrator_key is not None and admin_key != self.administrator_key:
            problems.append(f"the first administrator's key is {fingerprint(admin_key)}, and "
                            f"the trust file names {fingerprint(self.administrator_key)}: the "
                            "registry was bootstrapped again by someone else")
        elif self.administrator_key is None:
            self.found.notes.append("the registry's bootstrap is self-signed and no trust file "
                                    "names the first administrator's key: it is not anchored")
        for problem in problems:
            self.fail("the registry's bootstrap", problem)
        self.found.commands += 2
        for rows in claimed.values():
            for row in rows:
                if not problems:
                    self.streams.apply(decoded[row.position])

    def finish(self) -> None:
        from ledger.domain.jackpot_pool import JackpotPool

        if self.unbound:
            self.found.notes.append(f"{counted(self.unbound, 'command')} {'was' if self.unbound == 1 else 'were'} signed before envelopes "
                                    "named their ledger: their signatures do not say which "
                                    "ledger they were for")
        for aggregate in self.streams.streams.values():
            if not isinstance(aggregate, JackpotPool):
                continue
            unproven = len(self.unproven.get(aggregate.id, ()))
            if unproven:
                self.fail(f"jackpot pool {aggregate.name}",
                          f"{unproven} of its events are not proven by a signed command: its "
                          f"balance by its proven events is {aggregate.amount}, whatever the "
                          "rest say")
            if Decimal(aggregate.amount) < 0:
                self.fail(f"jackpot pool {aggregate.name}",
                          f"its events leave it at {aggregate.amount}: a pool is never "
                          "negative")


class _Unsigned(LedgerError):
    code = "unsigned"
