"""A test floor that signs like a real one.

The rule and projection tests build commands as a terminal's author thinks of them: "dealer
D-101 deals the ace of spades from pit-1". `SigningLedger` turns each into what a real terminal
sends: it enrols the people and registers the terminals a test names (through the test
administrator's own signed commands, the first time each appears, in the role the test gives
them), signs the command with their keys, co-signs it by the supervisor it names, and hands
the signed command to the real door, which verifies everything as it would for a terminal.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from ledger.application.administration import Administrator, bootstrap_registry, is_bootstrapped
from ledger.application.config import LedgerSettings
from ledger.application.ledger import Ledger, Recorded
from ledger.commands import Command
from ledger.commands.registry import REGISTRY_COMMANDS
from ledger.core.clock import Clock
from ledger.domain.base import Actor, Role
from ledger.domain.registry import TerminalKind
from ledger.domain.shift_schedule import DEFAULT_SCHEDULE, ShiftSchedule
from ledger.identity.authority import NAMED_STAFF
from ledger.identity.envelope import SignedCommand
from ledger.identity.keyring import Keyring
from ledger.runtime.bootstrap import open_ledger as open_real_ledger
from tests.clock import RUN_CLOCK

UNTRUSTED = 3
"""`ledger verify`'s exit code when nothing failed but no trust file was given."""
KEYS = Path(tempfile.mkdtemp(prefix="ledger-test-keys-"))
KEYRING = Keyring(KEYS)
ADMIN = "ADM-1"
CONSOLE = "ADMIN-CONSOLE"
DEFAULT_TERMINAL = "T-TEST"


def credential_env() -> dict[str, str]:
    """What the CLI needs to act as the test administrator at the test console."""
    KEYRING.credential("staff", ADMIN)
    KEYRING.credential("terminal", CONSOLE)
    return {"LEDGER_STAFF_CREDENTIAL": str(KEYS / f"staff-{ADMIN}.key"),
            "LEDGER_TERMINAL_CREDENTIAL": str(KEYS / f"terminal-{CONSOLE}.key")}


def bootstrap(ledger: Ledger) -> None:
    if not is_bootstrapped(ledger):
        bootstrap_registry(ledger, KEYRING.credential("staff", ADMIN),
                           KEYRING.credential("terminal", CONSOLE), "Test Administrator")


class SigningLedger:
    def __init__(self, ledger: Ledger) -> None:
        self.inner = ledger
        self.admin = Administrator(ledger, KEYRING, ADMIN, CONSOLE)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def execute(self, command: Command | SignedCommand) -> Recorded:
        if isinstance(command, SignedCommand):
            return self.inner.execute(command)
        return self.inner.execute(self.sign(command))

    def sign(self, command: Command) -> SignedCommand:
        """Enrol whoever the command names, then sign it as its actor at its terminal."""
        actor = command.actor
        if actor is None:
            raise ValueError("a test command names its actor: SigningLedger signs as them")
        self.admin.ensure_staff(actor.staff_id, actor.staff_id, [actor.role])
        kind = (TerminalKind.ADMIN_CONSOLE if isinstance(command, REGISTRY_COMMANDS)
                else TerminalKind.SIMULATOR)
        terminal = command.terminal or DEFAULT_TERMINAL
        self.admin.ensure_terminal(terminal, kind, "test floor")
        for field, role in NAMED_STAFF.items():
            value = getattr(command, field, None)
            for staff_id in [value] if isinstance(value, str) else value or ():
                self.admin.ensure_staff(staff_id, staff_id, [role])
        cosigners = []
        supervisor = getattr(command, "supervisor", None)
        if isinstance(supervisor, Actor):
            self.admin.ensure_staff(supervisor.staff_id, supervisor.staff_id, [supervisor.role])
            cosigners.append(supervisor.staff_id)
        return KEYRING.sign(command, staff=actor.staff_id, terminal=terminal,
                            cosigners=cosigners, ledger=self.inner.ledger_id)


@contextmanager
def open_ledger(settings: LedgerSettings | None = None, clock: Clock | None = None) -> Iterator[Any]:
    """The ledger on `settings`, its door signing like a floor; `clock`: the ledger's one clock
    (`ledger.core.clock`: a fixed or offset one), the run's by default (`tests/clock.py`)."""
    with open_real_ledger(settings, clock=clock) as rt:
        rt.ledger = SigningLedger(rt.ledger)  # type: ignore[assignment]
        yield rt


GAMING_DAY = ShiftSchedule.parse(DEFAULT_SCHEDULE).locate(RUN_CLOCK.now()).gaming_day
"""The gaming day in force by the run's clock (`tests/clock.py`): a test that opens a shift now
opens the current one's."""

ENROLMENT_COUNT = """
SELECT count(*) FROM ledger_event_log
WHERE NOT (event_type LIKE 'StaffMember.%%' OR event_type LIKE 'TerminalDevice.%%'
           OR event_type LIKE 'Registry.%%'
           OR (event_type = 'CommandReceipt.Accepted'
               AND body ->> 'command_type' IN ('EnrolStaff', 'ChangeStaffRoles',
                                               'ReplaceStaffKey', 'RegisterTerminal')))
"""


def event_count(conn: Any) -> int:
    """Events recorded at the tables: all but the registry entries this harness adds when a
    test first names someone, so "nothing recorded" still means nothing the command did."""
    return int(conn.execute(ENROLMENT_COUNT).fetchone()[0])


def floor_staff(ledger: Any) -> Any:
    """The simulator's floor, enrolled by the test administrator (keys in memory)."""
    from ledger.simulation.staffing import FloorStaff

    inner = ledger.inner if isinstance(ledger, SigningLedger) else ledger
    bootstrap(inner)
    return FloorStaff.under(inner, KEYRING.credential("staff", ADMIN),
                            KEYRING.credential("terminal", CONSOLE), None)


E2E_PIT_BOSS = "PB-E2E"
E2E_WORKSTATION = "PIT-E2E"


E2E_CAST = {
    **{f"D-{n}": Role.DEALER for n in (*range(1, 10), 101)},
    "S-1": Role.SUPERVISOR, "S-201": Role.SUPERVISOR,
    "R-1": Role.CASHIER, "R-2": Role.CASHIER, "C-1": Role.COUNT_TEAM, "C-2": Role.COUNT_TEAM,
}
"""The end-to-end floor's staff, named by the CLI tests (dealers signed in, the supervisor who
signs slips, the cage runners, the count team)."""


def enrol_e2e_defaults(ledger: Ledger) -> None:
    """The person the end-to-end tests act as unless they say otherwise (a pit boss at a pit
    workstation) and the floor's cast, enrolled in the template database by the test
    administrator's signed commands, as an administrator would."""
    admin = Administrator(ledger, KEYRING, ADMIN, CONSOLE)
    admin.ensure_staff(E2E_PIT_BOSS, "End-to-end Pit Boss", [Role.PIT_BOSS])
    admin.ensure_terminal(E2E_WORKSTATION, TerminalKind.PIT_WORKSTATION, "e2e pit")
    for staff_id, role in E2E_CAST.items():
        admin.ensure_staff(staff_id, staff_id, [role])


def key_file(staff_id: str) -> str:
    """The key file of a member of staff the test keyring holds (for `--cosigner`)."""
    KEYRING.credential("staff", staff_id)
    return str(KEYS / f"staff-{staff_id}.key")


def acting_env(staff_id: str, terminal: str) -> dict[str, str]:
    """The environment that makes `ledger` sign as this person at this terminal."""
    KEYRING.credential("staff", staff_id)
    KEYRING.credential("terminal", terminal)
    return {"LEDGER_STAFF_CREDENTIAL": str(KEYS / f"staff-{staff_id}.key"),
            "LEDGER_TERMINAL_CREDENTIAL": str(KEYS / f"terminal-{terminal}.key")}


OTHER_DAYS_ENV = {"LEDGER_CLOCK_PAST_MINUTES": str(366 * 24 * 60)}
"""For a `ledger` process a test starts to play days up to a year back (`playing_other_days`)."""


def clock_after(day: str) -> dict[str, str]:
    """For a `ledger` process a test starts on its practice ledger: the ledger's clock at the
    end of gaming day `day` (YYYY-MM-DD), every shift of it past."""
    from datetime import date

    following = date.fromisoformat(day) + timedelta(days=1)
    return {"LEDGER_CLOCK_AT": f"{following.isoformat()}T06:00:00+08:00"}


def playing_other_days(ledger: Any) -> None:
    """For a test that plays rounds on days other than today (limits effective tomorrow, a
    table opened last March): its ledger takes times up to a year back and a week ahead. A
    real floor's commands must fall within 36 h before and 5 min after the ledger's clock."""
    from datetime import timedelta

    from ledger.identity.door import ClockWindow

    inner = getattr(ledger, "inner", ledger)
    inner.clock = ClockWindow(timedelta(days=366), timedelta(days=7), inner.clock.clock)
