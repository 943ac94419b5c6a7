"""A floor: its tables, the Stud Poker pool they share, a shift played concurrently.

Tables run in threads, as a casino floor does. Stud Poker tables share a progressive pool;
so that the same seed gives the same pool, their rounds reach the pool in a fixed order (round
by round, table by table) through a turnstile, while every other table runs free.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from ledger.application.ledger import Ledger
from ledger.commands import Command
from ledger.commands.jackpot import CreatePool, LinkTable
from ledger.commands.round import VoidRound
from ledger.commands.shift import CloseShift, EnterDrop, OpenShift, RecordCredit, RecordFill
from ledger.commands.table import CloseTable, OpenTable, SignInDealer
from ledger.core.errors import InvalidInput
from ledger.domain.chips import plain
from ledger.domain.shift import shift_id
from ledger.domain.shift_schedule import ShiftSlot
from ledger.domain.table import Table, table_id
from ledger.games import registry
from ledger.simulation.bias import Bias
from ledger.simulation.players import Player
from ledger.simulation.staffing import (
    COUNTER,
    COUNTERS,
    DEALER_SHIFT_ROUNDS,
    RUNNER,
    SUPERVISOR,
    FloorStaff,
    dealer_id,
)
from ledger.simulation.table import TableSimulator, TableSpec, Tally

MACAU = ZoneInfo("Asia/Macau")
GAME_ORDER = registry.floor_order()
OPENING_CHIPS = {"5000": 20, "1000": 80, "100": 150, "25": 40, "5": 40}  # 196,200.00
DENOMINATIONS = (100000, 50000, 25000, 10000, 5000, 1000, 500, 100, 25, 10, 5, 1)
FILL = {"5000": 10, "1000": 50}  # 100,000.00
POOL = "MAIN-PROGRESSIVE"
POOL_SETTINGS = {
    "seed": "200000.00", "royal_flush": "200000.00", "straight_flush": "20000.00",
    "four_of_a_kind": "5000.00", "full_house": "1500.00", "flush": "1000.00",
    "contribution_rate": "0.70", "reserve_rate": "0.10",
}


def floor_plan(tables: int, games: tuple[str, ...] = GAME_ORDER,
               after: int = 0) -> list[TableSpec]:
    """`tables` tables spread over the games in turn, two pits, limits by game; every other
    Stud and Q Poker table deals by shuffler, the rest from a hand-shuffled shoe; every other
    baccarat table keeps a tie's player and banker bets for the next coup (art. 12(2)); the
    others play a demonstration coup at the start of each shoe (art. 2(2)). `after`: each
    game's tables are numbered from after+1 (another floor of the same property)."""
    counts: dict[str, int] = dict.fromkeys(games, after)
    plan = []
    for n in range(tables):
        game = games[n % len(games)]
        counts[game] = counts.get(game, 0) + 1
        table = registry.game(game).table_plan
        odd = counts[game] % 2 == 1
        settings = registry.game(game).simulated_settings(odd)
        plan.append(TableSpec(f"{table.prefix}-{counts[game]:02d}", game,
                              "A" if n % 2 == 0 else "B", table.min_bet, table.max_bet,
                              shuffler=table.shuffler_on_odd_tables and odd, settings=settings))
    return plan


def free_floor(ledger: Ledger, tables: int, games: tuple[str, ...],
               slot: ShiftSlot) -> list[TableSpec]:
    """The first floor of `tables` tables (numbered on past those before it) none of whose
    tables holds `slot` or is open: where a floor has played the shift in force, the next
    one plays it."""
    per_game = -(-tables // len(games))
    after = 0
    while True:
        plan = floor_plan(tables, games, after)
        if not any(ledger.exists(shift_id(spec.code, slot.gaming_day, slot.shift))
                   or (ledger.exists(table_id(spec.code))
                       and ledger.load(Table, table_id(spec.code), spec.code).is_open)
                   for spec in plan):
            return plan
        after += per_game


class Turnstile:
    """Lets (round, table) pass in one fixed order: round 1 of every table, then round 2..."""

    def __init__(self, tables: list[str]) -> None:
        self.tables, self.turn = tables, 0
        self.condition = threading.Condition()
        self.ticket = 0

    def abandon(self) -> None:
        """A table failed: let every waiting table through rather than hang the floor."""
        with self.condition:
            self.turn = 10**12
            self.condition.notify_all()

    def for_round(self, table: str, number: int) -> _Ticket:
        return _Ticket(self, (number - 1) * len(self.tables) + self.tables.index(table))


class _Ticket:
    def __init__(self, gate: Turnstile, number: int) -> None:
        self.gate, self.number = gate, number

    def __enter__(self) -> None:
        with self.gate.condition:
            self.gate.condition.wait_for(lambda: self.gate.turn >= self.number)

    def __exit__(self, *exc: object) -> None:
        with self.gate.condition:
            self.gate.turn += 1
            self.gate.condition.notify_all()


@dataclass
class FloorResult:
    tables: dict[str, Tally] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    slot: ShiftSlot | None = None  # the shift played, where the caller chose it by the clock


def shift_start(day: date) -> datetime:
    return datetime.combine(day, time(6, 0), tzinfo=MACAU)


def set_up(ledger: Ledger, staff: FloorStaff, plan: list[TableSpec], day: date,
           shift: str = "day", starts_at: datetime | None = None) -> None:
    """Tables opened, dealers in, the pool created and linked, every shift opened: by the
    floor supervisor at their desk, half an hour before the shift starts."""
    at = (starts_at or shift_start(day)) - timedelta(minutes=30)
    stud = [spec for spec in plan if registry.game(spec.game).takes_jackpot_bets]
    desk = staff.terminal_for(SUPERVISOR)

    def send(command: Command) -> None:
        ledger.execute(staff.sign(command.model_copy(update={"terminal": desk})))

    for spec in plan:
        send(OpenTable(table=spec.code, game=spec.game, min_bet=spec.min_bet,
                                 max_bet=spec.max_bet, pit=spec.pit, settings=spec.settings,
                                 actor=SUPERVISOR, at=at))
    if stud and not ledger.exists(_pool_id()):
        send(CreatePool(pool=POOL, settings={**POOL_SETTINGS,
                                  "effective_from": str(day)}, actor=SUPERVISOR, at=at))
    for spec in stud:
        if ledger.load(Table, table_id(spec.code), spec.code).pool is None:
            send(LinkTable(pool=POOL, table=spec.code, actor=SUPERVISOR, at=at))
    for spec in plan:
        # validated as from the wire: the command reads each denomination from its text
        send(OpenShift.model_validate({
            "table": spec.code, "gaming_day": day, "shift": shift,
            "chips": opening_chips(ledger, spec.code), "dealer_id": dealer_id(spec.code, 1),
            "supervisor": SUPERVISOR, "actor": SUPERVISOR, "at": at}))
        send(SignInDealer(table=spec.code, dealer_id=dealer_id(spec.code, 1),
                          actor=SUPERVISOR, at=at))


def _pool_id() -> Any:
    from ledger.domain.jackpot_pool import pool_id

    return pool_id(POOL)


def opening_chips(ledger: Ledger, code: str) -> dict[str, int]:
    """The tray as the table's last closer left it (a new table's: the standard float), so the
    opener's count agrees with the closer's."""
    last = ledger.load(Table, table_id(code), code).last_closing
    return {plain(d): n for d, n in last.items()} if last else OPENING_CHIPS


def chips_for(amount: Decimal) -> dict[str, int]:
    chips, left = {}, int(amount)
    for denomination in DENOMINATIONS:
        if left >= denomination:
            chips[str(denomination)], left = divmod(left, denomination)[0], left % denomination
    return chips


def play_table(sim: TableSimulator, rounds: int, turnstile: Turnstile | None,
               on_round: Callable[[], None]) -> None:
    slip = sim.rng.randint(10_000, 90_000)
    sim.tally.rack = sum((Decimal(d) * n for d, n in opening_chips(sim.ledger, sim.spec.code)
                          .items()), Decimal(0))
    sim.tally.opening = sim.tally.rack
    for number in range(1, rounds + 1):
        ticket = turnstile.for_round(sim.spec.code, number) if turnstile else None
        sim.play_round(ticket)
        if number % DEALER_SHIFT_ROUNDS == 0:
            sim.change_dealer(sim.dealer_turn(number // DEALER_SHIFT_ROUNDS + 1))
        slip = _balance_rack(sim, slip)
        on_round()
    _close_shift(sim)


def _balance_rack(sim: TableSimulator, slip: int) -> int:
    shift = {"table": sim.spec.code, "gaming_day": sim.gaming_day, "shift": sim.shift}
    if sim.tally.rack < Decimal(60000):
        sim.send(RecordFill, **shift, slip=slip, chips=FILL, runner_id=RUNNER,
                 supervisor=sim.supervisor, actor=sim.supervisor)
        sim.tally.rack += Decimal(100000)
        sim.tally.fills += Decimal(100000)
        return slip + 1
    if sim.tally.rack > Decimal(400000):
        sim.send(RecordCredit, **shift, slip=slip, chips=FILL, runner_id=RUNNER,
                 supervisor=sim.supervisor, actor=sim.supervisor)
        sim.tally.rack -= Decimal(100000)
        sim.tally.credits += Decimal(100000)
        return slip + 1
    return slip


def _close_shift(sim: TableSimulator) -> None:
    shift = {"table": sim.spec.code, "shift": sim.shift, "gaming_day": sim.gaming_day}
    if sim.order:  # reveal the last shoe's order and secret
        sim.close_shoe()
    if sim.staying is None:
        sim.crowd.leave_all()
    else:
        sim.staying[sim.spec.code] = sim.crowd.stay_on()
    sim.send(EnterDrop, **shift, cash=sim.tally.cash, markers=sim.tally.markers,
             counted_by=COUNTERS, actor=COUNTER)
    sim.send(CloseShift, **shift, chips=chips_for(sim.tally.rack), dealer_id=sim.dealer.staff_id,
             supervisor=sim.supervisor, actor=sim.supervisor)
    sim.send(CloseTable, table=sim.spec.code, actor=sim.supervisor)


def wind_down(sim: TableSimulator) -> str | None:
    """After a table failed: its round in play voided, its shift counted and closed, the table
    closed, as a floor supervisor would, so that no table is left half open. What could not be
    done is said, with the command that does it."""
    code = sim.spec.code
    try:
        table = sim.ledger.load(Table, table_id(code), code)
        if not table.is_open:
            return None
        if table.current_round is not None:
            sim.send(VoidRound, table=code, reason="the simulation stopped at this table",
                     actor=sim.supervisor)
        _close_shift(sim)
    except Exception as error:  # noqa: BLE001 - said, with what a person must do instead
        return (f"{code} is left open ({error}): close it at a pit workstation with `ledger "
                f"table close {code}` once its round and shift are closed.")
    return None


def check_bias(plan: list[TableSpec], bias: Mapping[str, Bias]) -> None:
    """Refuse, before any command, a bias at a table not on the floor or of a game whose
    simulation does not play it."""
    games = {spec.code: spec.game for spec in plan}
    for code, chosen in bias.items():
        if code not in games:
            raise InvalidInput(f"no table {code} on the simulated floor to bias: it has "
                               f"{', '.join(games)}.")
        if chosen.kind not in registry.game(games[code]).table_plan.biases:
            raise InvalidInput(f"{code} deals {registry.game(games[code]).name}, whose "
                               f"simulation does not play {chosen.kind}.")


COMMANDS_A_ROUND = 40
"""About the most commands a simulated round sends (bets, cards, settlement)."""


def pace(round_seconds: int, budget: float) -> tuple[float, float]:  # money-safe: durations
    """(seconds a round adds, seconds between two commands) for a round given `budget`
    seconds: the game's own pace when there is time for it, else half the budget for the
    round and half for its commands.

    >>> pace(55, 3600.0)
    (55, 1.0)
    >>> pace(55, 20.0)
    (10.0, 0.25)
    """
    if budget >= round_seconds + COMMANDS_A_ROUND:
        return round_seconds, 1.0
    return budget / 2, min(1.0, budget / 2 / COMMANDS_A_ROUND)


def run_floor(ledger: Ledger, staff: FloorStaff, plan: list[TableSpec], *, rounds: int,
              seed: int, day: date, on_round: Callable[[int], None] = lambda events: None,
              irregularity_rate: float = 0.01,  # money-safe: a probability
              shift: str = "day", starts_at: datetime | None = None,
              play_seconds: int | None = None,
              bias: Mapping[str, Bias] | None = None,
              staying: dict[str, list[Player]] | None = None,
              until: datetime | None = None) -> FloorResult:
    """Play `rounds` rounds at every table of the plan, concurrently, in one shift of `day`
    (the day shift from 06:00 Macau time unless told), its rounds spread over `play_seconds`
    from `starts_at` (the shift's eight hours less the half hour of closing, unless told).
    `on_round` hears of each round with the floor's events recorded so far. Its staff are
    enrolled and its devices registered first, if they are not yet. `bias` puts a biased
    player at some tables, by code (`ledger.simulation.bias`). With `staying`, the players
    still seated at a shift's end stay for the next shift played with the same dict (a week
    in one process); without it they walk away with their chips. `until`: no command is dated
    after it (the ledger's clock when the run began: a shift in force is played only as far
    as it has gone; a round that would run past it is dated at it)."""
    check_bias(plan, bias or {})
    starts_at = starts_at or shift_start(day)
    staff.enrol(plan, rounds)
    set_up(ledger, staff, plan, day, shift, starts_at)
    started_at = {spec.code: ledger.load(Table, table_id(spec.code), spec.code).round_count
                  for spec in plan}
    stud = [spec.code for spec in plan if registry.game(spec.game).takes_jackpot_bets]
    turnstile = Turnstile(stud) if stud else None
    result = FloorResult()
    shift_seconds = play_seconds if play_seconds is not None else 8 * 3600 - 1800
    sims = []
    for spec in plan:
        sim = TableSimulator(ledger, staff, spec, seed, starts_at, irregularity_rate,
                             (bias or {}).get(spec.code))
        sim.gaming_day, sim.shift = day, shift
        sim.first_round = started_at[spec.code]
        sim.resume()
        if staying is not None:
            sim.staying = staying
            sim.crowd.seat(staying.pop(spec.code, []))
        sim.round_seconds, sim.step = pace(registry.game(spec.game).table_plan.round_seconds,
                                           shift_seconds / max(rounds, 1))
        sim.latest = until
        sims.append(sim)

    def worker(sim: TableSimulator) -> None:
        try:
            play_table(sim, rounds,
                       turnstile if registry.game(sim.spec.game).takes_jackpot_bets else None,
                       lambda: on_round(sum(s.tally.events for s in sims)))
        except Exception as error:  # noqa: BLE001 - reported with the table it happened at
            result.errors.append(f"{sim.spec.code}: {type(error).__name__}: {error}")
            if turnstile is not None:
                turnstile.abandon()
            left = wind_down(sim)
            if left:
                result.errors.append(left)

    threads = [threading.Thread(target=worker, args=(sim,), name=sim.spec.code) for sim in sims]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result.tables = {sim.spec.code: sim.tally for sim in sims}
    return result
