"""The simulated floor's people and devices, enrolled and registered as a real floor's are.

Every table has a dealer terminal; each pit a workstation its supervisor works from; the floor
supervisor a desk; the count room its own device. The staff (each table's rotation of dealers,
a supervisor per pit, the floor supervisor, a cage runner, two counters) are enrolled by the
administrator through their own signed commands, each with a key of their own, and every
command is signed by the person who sends it at the device they send it from (and co-signed
by the supervisor it names, as a shift's paperwork is).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ledger.application.administration import Administrator
from ledger.application.ledger import Ledger
from ledger.commands import Command
from ledger.domain.base import Actor, Role
from ledger.domain.registry import TerminalKind
from ledger.identity.envelope import SignedCommand
from ledger.identity.keyring import Keyring
from ledger.identity.keys import Credential

SUPERVISOR = Actor(staff_id="S-FLOOR", role=Role.SUPERVISOR)
RUNNER = "CAGE-1"
COUNTERS = ("COUNT-1", "COUNT-2")
COUNTER = Actor(staff_id=COUNTERS[0], role=Role.COUNT_TEAM)
FLOOR_DESK = "FLOOR-DESK"
COUNT_ROOM = "COUNT-ROOM"
DEALER_SHIFT_ROUNDS = 15
"""A dealer deals this many rounds before the next of the table's rotation takes over."""


def dealer_id(table: str, number: int) -> str:
    return f"D-{table}-{number}"


def pit_supervisor(pit: str) -> Actor:
    return Actor(staff_id=f"S-{pit}", role=Role.SUPERVISOR)


def dealer_terminal(table: str) -> str:
    return f"{table}-DT"


def pit_workstation(pit: str) -> str:
    return f"PIT-{pit}"


class FloorStaff:
    """Who works the simulated floor, and the keys they sign with."""

    def __init__(self, administrator: Administrator) -> None:
        self.administrator = administrator
        self.keyring = administrator.keyring

    @classmethod
    def under(cls, ledger: Ledger, administrator: Credential, console: Credential,
              keys: Path | None) -> FloorStaff:
        """The floor, enrolled by this administrator at this console; its people's and
        devices' keys kept in the folder `keys` (or in memory alone)."""
        keyring = Keyring(keys)
        keyring.add(administrator)
        keyring.add(console)
        return cls(Administrator(ledger, keyring, administrator.id, console.id))

    def enrol(self, plan: list[Any], rounds: int) -> None:
        """Everyone the plan needs for `rounds` rounds a table, and every device, once."""
        admin = self.administrator
        admin.ensure_staff(SUPERVISOR.staff_id, "Floor supervisor", [Role.SUPERVISOR])
        admin.ensure_terminal(FLOOR_DESK, TerminalKind.PIT_WORKSTATION, "floor supervisor's desk")
        for pit in sorted({spec.pit for spec in plan}):
            admin.ensure_staff(pit_supervisor(pit).staff_id, f"Pit {pit} supervisor",
                               [Role.SUPERVISOR])
            admin.ensure_terminal(pit_workstation(pit), TerminalKind.PIT_WORKSTATION,
                                  f"pit {pit}")
        for spec in plan:
            admin.ensure_terminal(dealer_terminal(spec.code), TerminalKind.DEALER_TERMINAL,
                                  f"table {spec.code}")
            for number in range(1, rounds // DEALER_SHIFT_ROUNDS + 2):
                admin.ensure_staff(dealer_id(spec.code, number),
                                   f"Dealer {number} of {spec.code}", [Role.DEALER])
        admin.ensure_staff(RUNNER, "Cage runner", [Role.CASHIER])
        for n, counter in enumerate(COUNTERS, start=1):
            admin.ensure_staff(counter, f"Count team member {n}", [Role.COUNT_TEAM])
        admin.ensure_terminal(COUNT_ROOM, TerminalKind.COUNT_ROOM, "count room")

    def terminal_for(self, actor: Actor, table: str | None = None, pit: str | None = None
                     ) -> str:
        """The device this person sends from: the table's terminal for its dealer, the count
        room for the counters, the pit's workstation (or the floor desk) for a supervisor."""
        if actor.role is Role.DEALER and table:
            return dealer_terminal(table)
        if actor.role is Role.COUNT_TEAM:
            return COUNT_ROOM
        if pit and actor.staff_id != SUPERVISOR.staff_id:
            return pit_workstation(pit)
        return FLOOR_DESK

    def sign(self, command: Command) -> SignedCommand:
        """Signed by the command's sender at its terminal, co-signed by the supervisor named."""
        if command.actor is None or command.terminal is None:
            raise ValueError("a simulated command names who sends it and from where")
        supervisor = getattr(command, "supervisor", None)
        cosigners = [supervisor.staff_id] if isinstance(supervisor, Actor) else []
        return self.keyring.sign(command, staff=command.actor.staff_id,
                                 terminal=command.terminal, cosigners=cosigners,
                                 ledger=self.administrator.ledger.ledger_id)
