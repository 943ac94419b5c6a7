"""Group commit on a real PostgreSQL: one writer records every terminal thread's commands, a
batch per insert, and the ledger it writes is the one the per-command path writes.

- the same seed gives the same events, stream by stream, either way;
- a batch is one transaction, and each caller is answered with its own events;
- a command the rules refuse is refused alone, and the batch's others are recorded;
- a stream another process wrote meanwhile (the CLI, ingest) is noticed: the command is
  checked again on the fresh stream, whether the batch writes that stream or only read it.
"""

from __future__ import annotations

import hashlib
import json
import threading
from datetime import date
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from eventsourcing.persistence import StoredEvent

from ledger.application.config import LedgerSettings
from ledger.application.group_commit import GroupWriter, _Pending
from ledger.application.ledger import Recorded, Sent
from ledger.audit.verification.verify import verify_ledger
from ledger.commands.round import OpenRound
from ledger.commands.table import CloseTable, SignInDealer, SignOutDealer
from ledger.core.errors import LedgerError
from ledger.domain.receipt import receipt_id
from ledger.domain.registry import staff_stream_id
from ledger.domain.table import table_id
from ledger.identity.registry_cache import RegistryMoved
from ledger.infrastructure.recorder import StreamsMoved
from ledger.simulation.floor import floor_plan, run_floor
from ledger.simulation.staffing import FloorStaff
from tests.integration.helpers import DEALER, PIT_BOSS, open_table
from tests.integration.round_helpers import baccarat_table
from tests.signing import (
    ADMIN,
    CONSOLE,
    KEYRING,
    event_count,
    floor_staff,
    open_ledger,
    playing_other_days,
)

DAY = date(2026, 11, 22)
SKIPPED_TOPICS = ("StaffMember", "TerminalDevice", "Registry")  # keys made per test run
REGISTRY_COMMANDS = ("EnrolStaff", "ChangeStaffRoles", "ReplaceStaffKey", "RegisterTerminal")


def _streams(conn: Any) -> dict[tuple[Any, int], tuple[str, dict[str, Any]]]:
    """Every floor event by (stream, version): its type and body, without the recording time."""
    found = {}
    for stream, version, topic, state in conn.execute(
            "SELECT originator_id, originator_version, topic, state FROM ledger_events"):
        if any(f":{name}." in topic for name in SKIPPED_TOPICS):
            continue
        body = json.loads(bytes(state))
        if body.get("command_type") in REGISTRY_COMMANDS:
            continue
        body.pop("timestamp", None)
        if "receipt" not in topic:  # the set-up's command ids are made at random; the
            body.get("by", {}).pop("command_id", None)  # receipts of the rest compare them
        found[(str(stream), version)] = (topic, body)
    return found


def _named(events: dict[tuple[str, int], Any], shared: set[str]) -> dict[tuple[str, int], Any]:
    """The events with each stream made at random (a shoe) named by a digest of its first
    event instead (its table, its time, its cards), and every mention of it renamed alike;
    streams with derived ids (tables, rounds, receipts) keep theirs."""
    def first(stream: str) -> str:
        topic, body = events[(stream, 1)]
        return json.dumps([topic, {k: v for k, v in body.items() if k != "originator_id"}],
                          sort_keys=True)

    names = {stream: hashlib.sha256(first(stream).encode()).hexdigest()
             for stream, _ in events if stream not in shared}

    def renamed(event: Any) -> Any:
        text = json.dumps(event, sort_keys=True)
        for old, new in names.items():
            text = text.replace(old, new)
        return json.loads(text)

    return {(names.get(stream, stream), version): renamed(list(event))
            for (stream, version), event in events.items()}


def _floor(settings: LedgerSettings, keys: Path) -> tuple[dict[Any, Any], GroupWriter | None]:
    """The simulated floor, its people and devices signing with the keys in `keys` (the same
    keys for both runs: their fingerprints are in every event)."""
    with open_ledger(settings) as rt:
        playing_other_days(rt.ledger)  # DAY is a fixed date, replayed whatever today is
        floor_staff(rt.ledger)  # bootstraps the test administrator
        staff = FloorStaff.under(rt.ledger.inner, KEYRING.credential("staff", ADMIN),
                                 KEYRING.credential("terminal", CONSOLE), keys)
        result = run_floor(rt.ledger, staff, floor_plan(4), rounds=3, seed=11, day=DAY)
        assert not result.errors, result.errors
        writer = rt.ledger.inner.writer
        with rt.database.connect() as conn:
            report = verify_ledger(conn, projections=False)
            assert report.ok, report
            return _streams(conn), writer


def test_group_commit_records_exactly_what_the_per_command_path_records_for_the_same_seed(
        settings, second_database, tmp_path):
    alone, no_writer = _floor(LedgerSettings(database_url=second_database.url,
                                             group_commit=False), tmp_path)
    grouped, writer = _floor(LedgerSettings(database_url=settings.database_url,
                                            group_commit=True), tmp_path)
    assert no_writer is None and writer is not None and writer.commands > 100
    assert len(grouped) > 500
    shared = {stream for stream, _ in grouped} & {stream for stream, _ in alone}
    # the supervisor's set-up commands carry ids made at random: their receipts, counted
    setup = [{k: e for k, e in events.items() if k[0] not in shared and "receipt" in e[0]}
             for events in (grouped, alone)]
    assert len(setup[0]) == len(setup[1])
    grouped, alone = ({k: e for k, e in events.items() if k not in extra}
                      for events, extra in zip((grouped, alone), setup))
    grouped, alone = _named(grouped, shared), _named(alone, shared)
    # the tables' threads close their shifts on the gaming day in whichever order they finish:
    # that stream is compared as a set of events, every other stream event by event
    grouped, alone = _days_unordered(grouped), _days_unordered(alone)
    differing = sorted(set(grouped) ^ set(alone), key=str) or [
        key for key in grouped if grouped[key] != alone[key]]
    assert not differing, [(grouped.get(k), alone.get(k)) for k in differing[:2]]


def _days_unordered(events: dict[tuple[str, int], Any]) -> dict[Any, Any]:
    """The gaming days' events keyed by stream and content instead of by version."""
    kept: dict[Any, Any] = {}
    for (stream, version), (topic, body) in events.items():
        if ":GamingDay." in topic:
            body = {k: v for k, v in body.items() if k != "originator_version"}
            kept[(stream, json.dumps([topic, body], sort_keys=True))] = (topic, body)
        else:
            kept[(stream, version)] = (topic, body)
    return kept


def _pending(count: int, make: Any, ledger: Any) -> list[Any]:
    """`count` commands sent at once by as many threads, held until all are queued, so the
    writer takes them as one batch."""
    outcomes: list[Any] = [None] * count
    signed = [ledger.sign(make(n)) for n in range(count)]
    writer: GroupWriter = ledger.inner.writer
    gate = threading.Lock()
    gate.acquire()
    real = writer._record
    taken: list[int] = []

    def held(batch: list[Any]) -> None:
        taken.append(len(batch))
        with gate:
            real(batch)

    writer._record = held  # type: ignore[method-assign]
    queued = threading.Barrier(count + 1)

    def send(n: int) -> None:
        queued.wait()
        try:
            outcomes[n] = ledger.inner.execute(signed[n])
        except LedgerError as error:
            outcomes[n] = error

    threads = [threading.Thread(target=send, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    queued.wait()
    _until(lambda: sum(taken) + writer._queue.qsize() == count)  # the first taken, the rest wait
    gate.release()
    for thread in threads:
        thread.join()
    writer._record = real  # type: ignore[method-assign]
    return outcomes


def _until(condition: Any) -> None:
    import time

    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, "the commands never reached the writer"
        time.sleep(0.01)


def test_a_batch_is_one_transaction_and_each_caller_gets_its_own_events(settings, superuser):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-00"))  # enrols the pit boss and the terminal
        batches = rt.ledger.inner.writer.batches
        outcomes = _pending(6, lambda n: open_table(f"BAC-{n + 1:02d}"), rt.ledger)
        assert rt.ledger.inner.writer.batches - batches <= 2  # what was taken, then the rest
    assert all(isinstance(outcome, Recorded) for outcome in outcomes), outcomes
    for outcome in outcomes:
        assert [kind for _, _, kind in outcome.events] == ["Table.Opened", "CommandReceipt.Accepted"]
    transactions = superuser.execute(
        "SELECT count(DISTINCT xmin::text) FROM ledger_events WHERE originator_id = ANY(%s)",
        ([receipt_id(o.command_id) for o in outcomes],)).fetchone()[0]
    assert transactions <= 2  # six commands, at most two inserts


def test_a_command_refused_in_a_batch_is_refused_alone_and_the_others_are_recorded(
        settings, superuser):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-00"))
        codes = ["BAC-01", "BAC-02", "BAC-01", "BAC-03"]  # the second BAC-01 is one too many
        outcomes = _pending(4, lambda n: open_table(codes[n]), rt.ledger)
    refused = [o for o in outcomes if isinstance(o, LedgerError)]
    assert len(refused) == 1 and "BAC-01" in str(refused[0]), outcomes
    assert sum(isinstance(o, Recorded) for o in outcomes) == 3
    opened = superuser.execute("SELECT count(*) FROM ledger_event_log "
                               "WHERE event_type = 'Table.Opened'").fetchone()[0]
    assert opened == 4


def test_a_stream_the_cli_changed_is_noticed_and_the_command_checked_again_on_it(settings):
    with open_ledger(settings) as rt, open_ledger(
            LedgerSettings(database_url=settings.database_url, group_commit=False)) as cli:
        rt.ledger.execute(open_table("BAC-01"))  # the writer now holds BAC-01 in memory
        cli.ledger.execute(CloseTable(table="BAC-01", actor=PIT_BOSS))  # behind its back
        with pytest.raises(LedgerError, match="closed"):
            rt.ledger.execute(SignInDealer(table="BAC-01", dealer_id=DEALER.staff_id,
                                           actor=DEALER))


def test_a_stream_a_command_only_read_is_checked_before_the_insert(settings):
    with open_ledger(settings) as rt, open_ledger(
            LedgerSettings(database_url=settings.database_url, group_commit=False)) as cli:
        terminal = baccarat_table(rt.ledger)
        terminal.send(OpenRound)  # the writer now holds the table and the round in memory
        writer: GroupWriter = rt.ledger.inner.writer
        table = table_id("BAC-01")
        assert writer.knows(table)
        cli.ledger.execute(SignOutDealer(table="BAC-01", dealer_id=DEALER.staff_id,
                                         actor=PIT_BOSS, terminal="pit-1"))  # behind its back
        alone = writer.alone
        recorded = terminal.bet(1, "player", "100")  # reads the table, writes only the round
        assert writer.alone == alone + 1  # the table had moved on: checked again, alone
        assert not writer.knows(table)
    assert [kind for _, _, kind in recorded.events] == ["Round.BetPlaced", "CommandReceipt.Accepted"]


def test_an_insert_on_condition_records_nothing_when_a_stream_it_read_has_moved(
        settings, superuser):
    """The batch's check and its insert are one statement, one round trip."""
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-01"))
        recorder = rt.ledger.inner.app.recorder
        table, before = table_id("BAC-01"), event_count(superuser)
        version = superuser.execute("SELECT max(originator_version) FROM ledger_events "
                                    "WHERE originator_id = %s", (table,)).fetchone()[0]
        probe = [StoredEvent(originator_id=uuid4(), originator_version=1, topic="tests:Probe",
                             state=b"{}")]
        with pytest.raises(StreamsMoved):
            recorder.insert_events(probe, unmoved={table: version - 1})
        with pytest.raises(StreamsMoved):  # a stream read as missing that now exists
            recorder.insert_events(probe, unmoved={uuid4(): 0, table: version + 1})
        assert event_count(superuser) == before
        recorder.insert_events(probe, unmoved={table: version, uuid4(): 0})
        assert event_count(superuser) == before + 1


def test_a_command_admitted_on_a_stale_registry_read_is_not_recorded_whatever_its_batch_holds(
        settings, superuser):
    """Two commands of one batch admitted on one registry stream at two versions: the one on
    the stale version is sent back to the door, and no later command's reads can stand in for
    the check of the earlier ones (the review's case: the check once kept only the last)."""
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-00"))  # enrols PB-7 and the pit's terminal
        writer: GroupWriter = rt.ledger.inner.writer
        staff = staff_stream_id("PB-7")
        version = superuser.execute("SELECT max(originator_version) FROM ledger_events WHERE "
                                    "originator_id = %s", (staff,)).fetchone()[0]
        other = uuid4()  # a registry stream nobody wrote, read as missing
        stale, fresh, last = (_Pending(open_table(code), None, Sent(), registry)
                              for code, registry in (("BAC-01", {staff: version - 1}),
                                                     ("BAC-02", {staff: version}),
                                                     ("BAC-03", {other: 0})))
        before = event_count(superuser)
        writer._record([stale, fresh, last])  # as the writer thread takes a batch
    assert isinstance(stale.error, RegistryMoved) and stale.result is None
    assert fresh.result is not None and last.result is not None  # recorded, alone
    assert event_count(superuser) == before + 4  # two tables opened, each with its receipt
