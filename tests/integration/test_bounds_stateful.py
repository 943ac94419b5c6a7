"""Commands at every bound the door allows are applied by every projection, equal to a rebuild.

A hypothesis state machine drives the application with commands whose amounts, identifiers,
texts and counts sit on or next to the limits of `ledger.domain.grammar` (the largest amount, the
longest id, 500 characters of Chinese and emoji, chips up to the largest inventory): accepted
or refused by the rules, never a poison event. After each run every projection catches up
without stopping, and equals a rebuild from the first event.
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule, run_state_machine_as_test

from ledger.audit.replay.chain import verify_chains
from ledger.audit.verification.findings import LedgerReport
from ledger.audit.verification.projection_check import check_projections
from ledger.commands.jackpot import AdjustPool, CreatePool
from ledger.commands.shift import OpenShift, RecordFill, VoidSlip
from ledger.commands.table import OpenTable, SignInDealer
from ledger.core import clock as ledger_clock
from ledger.core.errors import LedgerError
from ledger.core.formatting import MACAU
from ledger.domain.base import Actor, Role
from ledger.games.common import MAX_AMOUNT
from projections.engine.runner import ProjectionRunner
from projections.registry import PROJECTIONS
from tests.integration.helpers import PIT_BOSS
from tests.signing import open_ledger

RUNS = itertools.count(1)
ACCEPTED: list[int] = []
REFUSED: list[str] = []
SUPERVISOR = Actor(staff_id="S-BOUND", role=Role.SUPERVISOR)

amounts = st.sampled_from([
    "0.01", "0.99", "1.00", "99.99", "100000.00", "999999999.98", str(MAX_AMOUNT),
]) | st.decimals(min_value=Decimal("0.01"), max_value=MAX_AMOUNT, places=2).map(str)
signed_amounts = amounts | amounts.map(lambda amount: f"-{amount}")
texts = st.sampled_from([
    "x" * 500, "發牌員誤讀手牌" * 71, "😀" * 500, "[red]not markup[/red]", "  padded  ",
    "ａｂｃ full width", "a",
]) | st.text(alphabet=st.characters(categories=["L", "N", "P", "S", "Zs"]), min_size=1,
             max_size=500).filter(lambda text: text.strip())
counts = st.sampled_from([0, 1, 999_999, 1_000_000]) | st.integers(0, 1_000_000)
denominations = st.sampled_from(["1", "5", "100", "25000", "100000"])


def chips(draw_counts: Any) -> Any:
    return st.dictionaries(denominations, draw_counts, min_size=1, max_size=5)


class AtTheBounds(RuleBasedStateMachine):
    def __init__(self, ledger: Any, database: Any) -> None:
        super().__init__()
        self.ledger, self.database = ledger, database
        self.run = next(RUNS)
        self.tables: list[str] = []
        self.shifts: list[tuple[str, Any]] = []
        self.slips = itertools.count(1)
        self.accepted = 0

    def send(self, command: Any) -> None:
        try:
            self.ledger.execute(command)
            self.accepted += 1
        except LedgerError as error:  # refused by the rules, with its sentence: nothing recorded
            REFUSED.append(str(error)[:60])

    @initialize()
    def a_pool(self) -> None:
        self.pool = f"P{self.run}-" + "Q" * (40 - len(f"P{self.run}-"))  # the longest id
        self.send(CreatePool(pool=self.pool.lower(), actor=SUPERVISOR, settings={
            "seed": "1000.00", "royal_flush": str(MAX_AMOUNT), "straight_flush": "500.00",
            "four_of_a_kind": "100.00", "full_house": "50.00", "flush": "20.00",
            "contribution_rate": "1", "cap": str(MAX_AMOUNT), "effective_from": "2026-01-01"}))

    @rule(minimum=amounts, maximum=amounts, pit=st.sampled_from(["A", "vip", "ＥＡＳＴ", "P" * 40]),
          authorisation=texts)
    def open_a_table(self, minimum: str, maximum: str, pit: str, authorisation: str) -> None:
        code = f"B{self.run}-{len(self.tables) + 1:02d}"
        minimum, maximum = sorted((minimum, maximum), key=Decimal)
        self.send(OpenTable(table=code.lower(), game="baccarat", min_bet=minimum,
                            max_bet=maximum, pit=pit, authorisation=authorisation,
                            actor=PIT_BOSS))
        self.tables.append(code)

    @rule(amount=signed_amounts, reason=texts)
    def adjust_the_pool(self, amount: str, reason: str) -> None:
        self.send(AdjustPool(pool=self.pool, amount=amount, reason=reason, actor=SUPERVISOR))

    @rule(data=st.data())
    def sign_in_the_longest_dealer_id(self, data: Any) -> None:
        if self.tables:
            table = data.draw(st.sampled_from(self.tables))
            self.send(SignInDealer(table=table, dealer_id="d-" + "9" * 38, actor=PIT_BOSS))

    @rule(data=st.data(), counted=chips(counts))
    def open_a_shift(self, data: Any, counted: dict[str, int]) -> None:
        if self.tables:
            table = data.draw(st.sampled_from(self.tables))
            day = ledger_clock.now().astimezone(MACAU).date()
            self.send(OpenShift(table=table, gaming_day=day, shift="day", chips=counted,
                                dealer_id="D-BOUND", supervisor=SUPERVISOR, actor=SUPERVISOR))
            self.shifts.append((table, day))

    @rule(data=st.data(), counted=chips(counts), reason=texts)
    def a_fill_then_perhaps_its_void(self, data: Any, counted: dict[str, int],
                                     reason: str) -> None:
        if self.shifts:
            table, day = data.draw(st.sampled_from(self.shifts))
            slip = 999_999_999 - next(self.slips)  # near the largest slip number
            where = {"table": table, "gaming_day": day, "shift": "day"}
            self.send(RecordFill(**where, slip=slip, chips=counted, runner_id="C-BOUND",
                                 supervisor=SUPERVISOR, actor=SUPERVISOR))
            if data.draw(st.booleans()) and len(reason.strip()) >= 3:
                self.send(VoidSlip(**where, slip=slip, reason=reason, actor=SUPERVISOR))

    def teardown(self) -> None:
        ACCEPTED.append(self.accepted)
        with ProjectionRunner(self.database, PROJECTIONS) as runner:
            runner.catch_up()  # raises ProjectionStalled on any event it cannot apply
        with self.database.connect(long=True) as conn:
            report = LedgerReport(chains=verify_chains(conn))
            check_projections(conn, report)
        assert report.ok, [f.reason for f in report.failures]
        assert report.checked["projections"] == len(PROJECTIONS)


def test_commands_at_every_bound_are_applied_by_every_projection_and_equal_a_rebuild(
        settings, database):
    with open_ledger(settings) as rt:
        run_state_machine_as_test(
            lambda: AtTheBounds(rt.ledger, database),
            settings=hypothesis_settings(max_examples=10, stateful_step_count=25, deadline=None,
                                         suppress_health_check=list(HealthCheck)))
    print(f"commands recorded at the bounds, per run: {ACCEPTED}; refused: {len(REFUSED)}")
    assert sum(ACCEPTED) >= 10  # the runs recorded commands at the bounds, not only refusals
