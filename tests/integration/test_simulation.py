"""The simulator on a real PostgreSQL: the same seed gives the same ledger."""

from __future__ import annotations

import secrets
from datetime import date

import pytest

from ledger.bootstrap import open_ledger
from ledger.config import LedgerSettings
from ledger.domain.round import round_id
from ledger.domain.table import table_id
from ledger.simulation.floor import floor_plan, run_floor
from projections.registry import select
from projections.reports import shift_report
from projections.runner import ProjectionRunner
from tests.conftest import _create_database, _drop_database

DAY = date(2026, 11, 22)


@pytest.fixture
def second_database(server, template_database, run_id):
    name = f"{run_id}_{secrets.token_hex(4)}"
    copy = _create_database(server, name, template=template_database)
    try:
        yield copy
    finally:
        _drop_database(server, name)


def _simulate(settings: LedgerSettings):
    plan = floor_plan(8)
    with open_ledger(settings) as rt:
        result = run_floor(rt.ledger, plan, rounds=4, seed=11, day=DAY)
        assert not result.errors, result.errors
        rounds = {
            (spec.code, n): [(r.box, r.spot, r.player, r.stake, r.outcome, r.payout, r.commission)
                             for r in rt.ledger.load(round_id(table_id(spec.code), n), "r").results]
            for spec in plan for n in range(1, 5)
        }
        with ProjectionRunner(rt.database, select()) as runner:
            runner.catch_up()
        with rt.database.connect() as conn:
            report = shift_report(conn, DAY, "day")
    return rounds, report


def test_two_simulations_with_the_same_seed_produce_identical_rounds_and_reports(
    settings, second_database
):
    first_rounds, first_report = _simulate(settings)
    second_rounds, second_report = _simulate(LedgerSettings(database_url=second_database.url))
    assert first_rounds == second_rounds
    assert first_report.model_dump() == second_report.model_dump()
    assert first_report.floor.variance == 0  # the simulated chips reconcile with the events
