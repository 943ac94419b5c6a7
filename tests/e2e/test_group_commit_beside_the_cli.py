"""Two processes on the same streams: terminal threads through this process's group writer,
and the `ledger` CLI beside them, signing the same dealer in and out at the same tables.

Nothing acknowledged is lost, every refusal is one readable sentence (never a version
conflict), each table's stream holds exactly the sign-ins and sign-outs that were acknowledged,
and the ledger verifies.
"""

from __future__ import annotations

import threading
from collections import Counter
from uuid import UUID

from ledger.audit.verification.verify import verify_ledger
from ledger.commands.table import SignInDealer, SignOutDealer
from ledger.core.errors import LedgerError
from ledger.domain.receipt import receipt_id
from ledger.domain.table import table_id
from tests.integration.helpers import PIT_BOSS, open_table
from tests.signing import open_ledger

CODES = ("BAC-01", "BAC-02", "BAC-03")
DEALER = "D-101"


def _dealer_events(superuser, code: str) -> int:
    return int(superuser.execute(
        "SELECT count(*) FROM ledger_event_log WHERE stream_id = %s "
        "AND event_type IN ('Table.DealerSignedIn', 'Table.DealerSignedOut')",
        (table_id(code),)).fetchone()[0])


def test_the_group_writer_and_the_cli_on_the_same_tables_lose_nothing_and_refuse_cleanly(
        cli, settings, superuser):
    acknowledged: list[UUID] = []
    per_table: Counter[str] = Counter()
    refusals: list[str] = []
    crashes: list[BaseException] = []
    cli_results = []
    with open_ledger(settings) as rt:
        for code in CODES:
            rt.ledger.execute(open_table(code))
        rt.ledger.sign(SignInDealer(table=CODES[0], dealer_id=DEALER, actor=PIT_BOSS))  # enrols

        def table_terminal(code: str) -> None:
            for n in range(12):
                kind = SignInDealer if n % 2 == 0 else SignOutDealer
                command = kind(table=code, dealer_id=DEALER, actor=PIT_BOSS, terminal="pit-1")
                try:
                    recorded = rt.ledger.execute(command)
                except LedgerError as error:
                    refusals.append(str(error))
                    continue
                except BaseException as error:  # noqa: BLE001 - reported: the thread must not die
                    crashes.append(error)
                    return
                acknowledged.append(recorded.command_id)
                per_table[code] += 1

        def cli_terminal() -> None:
            for n in range(6):
                code = CODES[n % len(CODES)]
                result = cli("table", "sign-in" if n % 2 == 0 else "sign-out", code, DEALER)
                cli_results.append(result)
                if result.code == 0:
                    per_table[code] += 1

        threads = [threading.Thread(target=table_terminal, args=(code,)) for code in CODES]
        threads.append(threading.Thread(target=cli_terminal))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        writer = rt.ledger.inner.writer
        assert writer is not None and writer.commands >= 36
    assert not crashes, crashes
    assert acknowledged and all("version" not in r and "conflict" not in r for r in refusals)
    for result in cli_results:
        assert result.code in (0, 1) and "Traceback" not in result.err, result.err
        if result.code == 1:
            assert len(result.err.strip().splitlines()) == 1, result.err
    found = superuser.execute("SELECT count(*) FROM ledger_events WHERE originator_id = ANY(%s)",
                              ([receipt_id(i) for i in acknowledged],)).fetchone()[0]
    assert found == len(acknowledged)  # every acknowledged command's receipt, once
    for code in CODES:
        assert _dealer_events(superuser, code) == per_table[code]
    report = verify_ledger(superuser, projections=False)
    assert report.ok, report
