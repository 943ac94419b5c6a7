"""What the API and the pages both read: a round's replay, a shift's and a gaming day's
report. One place, so the JSON and the page of the same thing cannot drift apart."""

from __future__ import annotations

from typing import Any

from ledger.domain.shift_schedule import parse_gaming_day
from ledger.domain.table import check_table_code
from ledger.runtime.bootstrap import Runtime


def replayed(rt: Runtime, code: str, number: int) -> Any:
    """A round replayed, every event proven against the seal under the server's trust file
    (LEDGER_TRUST_FILE) or sealing public key, as `ledger replay` proves it."""
    from ledger.audit.log.trust import load_trust
    from ledger.audit.replay.round import find_round, replay_round
    from ledger.audit.replay.sealed_events import SealTrust
    from ledger.runtime.bootstrap import trusted_seal_keys

    trust = load_trust(rt.settings.trust_file) if rt.settings.trust_file else None
    seal = SealTrust.of(trust, trusted_seal_keys(rt.settings))
    with rt.database.connect() as conn:
        return replay_round(conn, find_round(conn, check_table_code(code), number), seal)


def shift_view(rt: Runtime, gaming_day: str, shift: str, table: str | None = None, *,
               catch_up: bool) -> Any:
    """A shift's report; with `catch_up`, the shift-report projection brought up to date first."""
    from projections.shifts.read import shift_report

    schedule = rt.settings.shift_schedule
    if catch_up:
        _caught_up(rt)
    with rt.database.connect() as conn:
        return shift_report(conn, parse_gaming_day(gaming_day), schedule.check_name(shift),
                            check_table_code(table) if table else None,
                            day_starts=schedule.day_starts)


def day_view(rt: Runtime, gaming_day: str, *, catch_up: bool) -> Any:
    """A gaming day's report; with `catch_up`, as `shift_view`."""
    from projections.shifts.period_reports import gaming_day_report

    schedule = rt.settings.shift_schedule
    if catch_up:
        _caught_up(rt)
    with rt.database.connect() as conn:
        return gaming_day_report(conn, parse_gaming_day(gaming_day), schedule.names,
                                 day_starts=schedule.day_starts)


def _caught_up(rt: Runtime) -> None:
    from projections.engine.runner import ProjectionRunner
    from projections.registry import select

    with ProjectionRunner(rt.database, select(["shift_report"]), rebuild=False) as runner:
        runner.catch_up()
