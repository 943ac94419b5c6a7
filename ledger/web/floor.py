"""The floor as the pit sees it, read from the projections: each table's game, limits, dealer,
round and phase, bets on the layout, cards shown, cards left in the shoe, last ten results
(baccarat's as a bead plate and a big road), the shift's win so far against its expected band;
the jackpot meters; and the alerts a pit boss acts on.

The shift in force is the clock's (the ledger's one clock); the figures are each table's newest
shift, said as "the swing shift of 2026-11-28" wherever it is not the one in force, and the
page says so in words when no table has recorded a round in the shift in force yet.

Alerts, in words: each irregularity of the shift with its round and dealer, each void with its
reason (`ledger.web.happenings`; a void among the last ten rounds of a table that holds no
shift); what the shift report flags (a win outside its band, a variance, a hold beyond ±100%, an opener that
differs from the last closer); and, for the whole floor, a witness that refused a checkpoint of
the seal (a fork alarm: `ledger.audit.witnesses.alarms`), projections lagging behind the ledger
(the page would be showing the past); on a hot standby, how far behind the primary it reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any
from uuid import UUID

from psycopg import Connection
from psycopg.rows import dict_row

from ledger.audit.log.trust import TrustFile
from ledger.audit.witnesses.alarms import standing, unwitnessed
from ledger.core import clock
from ledger.core.formatting import counted, money
from ledger.domain.round import round_id
from ledger.domain.shift_schedule import ShiftSchedule
from ledger.games import registry
from ledger.games.boards import Road
from ledger.infrastructure.event_log import settled_bets
from ledger.infrastructure.standby import standby
from ledger.presentation.wording import describe_outcome, game, projection, term
from ledger.reports.round_win import on_layout
from ledger.web.happenings import Happenings, Said
from ledger.web.protection_watch import ProtectionWatch
from projections.queries import (
    JackpotPoolView,
    TableState,
    jackpot_pools,
    projection_statuses,
    shifts_of_newest_day,
    table_states,
)
from projections.shifts.read import TableShift, table_shifts

LAG_EVENTS = 200
"""Events recorded but not yet applied that make the floor say it is behind."""
LAG_SECONDS = 5
"""How long a projection may stand behind the ledger before the floor says so."""
QUIET_FLAGS = ("shift not closed", "drop not counted yet")
"""Report flags that are the normal state of a shift in play: not alerts on the floor."""


@dataclass
class FloorTable:
    state: TableState
    shift: TableShift | None
    alerts: list[str]
    results: list[str]  # the last ten, newest first, in words
    bead: Road | None = None
    road: Road | None = None
    in_force: tuple[Any, str] | None = None  # the shift in force when it was made
    told: list[str] = field(default_factory=list)  # what happened in its shift, in words

    @property
    def shift_label(self) -> str:
        """`swing shift`, or `swing shift of 2026-11-28` when it is not the one in force."""
        if self.shift is None:
            return ""
        if (self.shift.gaming_day, self.shift.shift) == self.in_force:
            return f"{self.shift.shift} shift"
        return f"{self.shift.shift} shift of {self.shift.gaming_day}"

    @property
    def last_round(self) -> bool:
        """Whether the bets and cards shown are a round that is over: the table is closed, or
        its round was settled or voided."""
        return not self.state.is_open or self.state.round_phase in ("settled", "void")

    @property
    def dom_id(self) -> str:
        return f"table-{self.state.code}"

    @property
    def game(self) -> str:
        """The game by its regulation's name: `Stud Poker`."""
        return game(self.state.game)

    @property
    def phase(self) -> str:
        return term(self.state.round_phase or "")

    @property
    def bets(self) -> list[tuple[str, Any]]:
        """(`box 3 player pair`, its amount) for each stake on the layout, its player beside its
        box as every screen names it (`box 5 (P5A) play`: two players on one box stay apart);
        Fortune 8's are on a space's box (art. 4(2)): `space 4 box H`."""
        where = registry.game(self.state.game).bet_place
        return [(where.format(f"{b.box} ({b.player})" if b.player else b.box, term(b.spot)),
                 b.amount) for b in self.state.bets or []]

    @property
    def cards(self) -> list[tuple[str, str]]:
        """(`box 3`, `AS KD`) for each hand with cards shown."""
        return [(term(to).replace(":", " "), " ".join(cards))
                for to, cards in (self.state.cards_shown or {}).items()]


@dataclass
class FloorView:
    gaming_day: Any
    shift: str
    pits: list[tuple[str, list[FloorTable]]]
    pools: list[JackpotPoolView]
    alerts: list[str]
    generated_at: datetime = field(default_factory=lambda: clock.now())
    report: tuple[Any, str] | None = None
    """(gaming day, shift) of the newest shift a table of the floor holds: the one its report
    links open (the shift in force by the clock may not be in the ledger yet)."""

    @property
    def in_force(self) -> bool:
        """Whether the figures shown are the shift in force's."""
        return self.report == (self.gaming_day, self.shift)

    @property
    def figures_of(self) -> str:
        """What the figures are of, when it is not the shift in force, in words."""
        if self.report is None:
            return f"no round recorded in the {self.shift} shift yet, nor in any shift before"
        if self.in_force:
            return ""
        day, shift = self.report
        return (f"no round recorded in the {self.shift} shift yet; figures of the {shift} "
                f"shift of {day}")

    @property
    def tables(self) -> list[FloorTable]:
        return [table for _, tables in self.pits for table in tables]


def floor_view(conn: Connection[Any], schedule: ShiftSchedule,
               now: datetime | None = None, states: list[TableState] | None = None,
               known: dict[str, FloorTable] | None = None,
               trust: TrustFile | None = None,
               happenings: Happenings | None = None,
               protection: ProtectionWatch | None = None) -> FloorView:
    """The floor at `now` (the ledger's clock): the current shift's figures by the schedule;
    `states`: the tables as the caller read them already (the feed, which reads only those that
    changed); `known`: the caller's tables as last made, by code, kept up to date here (a table
    whose state object, shift line and shift in force are the ones it was made from is not made
    again); `happenings`: the caller's sentences of the shifts' irregularities and voids, read
    again only when a count moved; `protection`: the caller's game-protection alerts of the
    gaming day (`ledger.web.protection_watch`), none without it."""
    now = now or clock.now()
    slot = schedule.locate(now)
    in_force = (slot.gaming_day, slot.shift)
    with conn.cursor(row_factory=dict_row) as cursor:
        lines = table_shifts(cursor, slot.gaming_day - timedelta(days=1), slot.gaming_day)
    shifts = current_shifts(lines, schedule)
    states = table_states(conn) if states is None else states
    known = {} if known is None else known
    told = (happenings or Happenings()).of(conn, list(shifts.values()))
    fresh = [state for state in states if not _unchanged(
        known.get(state.code), state, shifts.get(state.code), in_force, told)]
    boxes = round_boxes(conn, fresh)
    for state in fresh:
        known[state.code] = floor_table(state, shifts.get(state.code), boxes, in_force, told)
    for code in set(known) - {state.code for state in states}:
        del known[code]
    tables = [known[state.code] for state in states]
    rank = {name: n for n, name in enumerate(schedule.names)}
    held = sorted((line.gaming_day, rank.get(line.shift, -1), line.shift)
                  for line in shifts.values())
    pits: dict[str, list[FloorTable]] = {}
    for table in tables:
        pits.setdefault(table.state.pit, []).append(table)
    report = (held[-1][0], held[-1][2]) if held else newest_shift(conn, rank)
    return FloorView(slot.gaming_day, slot.shift, sorted(pits.items()), jackpot_pools(conn),
                     floor_alerts(conn, now, trust)
                     + (protection.of(conn, schedule, now) if protection else []),
                     generated_at=now, report=report)


def _unchanged(table: FloorTable | None, state: TableState, shift: TableShift | None,
               in_force: tuple[Any, str], told: Said) -> bool:
    return (table is not None and table.state is state and table.shift == shift
            and table.in_force == in_force and table.told == told.get(state.code, []))


def newest_shift(conn: Connection[Any], rank: dict[str, int]) -> tuple[Any, str] | None:
    """The newest (gaming day, shift) the shift report holds, if any: days ago, when no table
    has played since."""
    rows = shifts_of_newest_day(conn)
    if not rows:
        return None
    day, shift = max(rows, key=lambda row: rank.get(row[1], -1))
    return day, shift


def current_shifts(lines: list[TableShift], schedule: ShiftSchedule) -> dict[str, TableShift]:
    """Each table's shift in play: the one open (a table keeps its shift past the schedule's
    change of shift until it is counted), else its latest of these gaming days."""
    rank = {name: index for index, name in enumerate(schedule.names)}

    def later(line: TableShift) -> tuple[bool, Any, int]:
        return line.status == "open", line.gaming_day, rank.get(line.shift, -1)

    current: dict[str, TableShift] = {}
    for line in lines:
        if line.table not in current or later(line) > later(current[line.table]):
            current[line.table] = line
    return current


@dataclass(frozen=True)
class BoxesRound:
    """What the floor says of a settled round beyond its table's last results, for a game whose
    boxes' results or jackpot bets the outcome does not say (Stud Poker's)."""

    boxes: str  # `boxes 3 and 5 win; box 2 loses; box 6 folds`
    jackpot: Decimal  # what its jackpot bets left the house: not table win (they go to the pool)


def round_boxes(conn: Connection[Any], states: list[TableState]) -> dict[UUID, BoxesRound]:
    """What each box did in the rounds the floor lists of a game that says it from the bets
    (`Game.describe_boxes`) or takes jackpot bets, by round id, and what their jackpot bets
    came to, read from their settled bets in one query."""
    rounds = [round_id(state.stream_id, result.number) for state in states
              if _reads_bets(state.game)
              for result in state.last_results or []
              if result.status == "settled"]
    if not rounds:
        return {}
    bets = settled_bets(conn, rounds)
    games = {round_id(state.stream_id, result.number): state.game for state in states
             for result in state.last_results or []}
    return {stream: BoxesRound(registry.game(games[stream]).describe_boxes(settled),
                               _jackpot_part(settled))
            for stream, settled in bets.items()}


def _reads_bets(code: str) -> bool:
    found = registry.game(code)
    return found.takes_jackpot_bets or found.describes_boxes


def _jackpot_part(bets: list[dict[str, Any]]) -> Decimal:
    """The jackpot bets' share of a round's recorded win: stake - returned - paid +
    commission of each, as `ledger.reports.round_win` leaves them out of the table win."""
    return sum((Decimal(bet["stake"]) - Decimal(bet.get("returned") or 0)
                - Decimal(bet.get("payout") or 0) + Decimal(bet.get("commission") or 0)
                for bet in bets if not on_layout(bet["spot"])), Decimal("0.00"))


def floor_table(state: TableState, shift: TableShift | None,
                boxes: dict[UUID, BoxesRound] | None = None,
                in_force: tuple[Any, str] | None = None, told: Said | None = None
                ) -> FloorTable:
    """The table as the floor shows it; `told`: the sentences of what happened in each
    table's shift (`ledger.web.happenings`)."""
    results = state.last_results or []
    happened = (told or {}).get(state.code, [])
    if shift is None:  # no shift of these gaming days: the voids among its last rounds
        alerts = [f"round {r.number} voided: {_reason(r.reason)}"
                  for r in results if r.status == "void"]
    else:
        alerts = list(happened)
        alerts += [flag for flag in shift.flags if not flag.startswith(QUIET_FLAGS)]
    table = FloorTable(state, shift, alerts, [
        _said(r, state.game, boxes.get(round_id(state.stream_id, r.number)) if boxes else None)
        for r in results], in_force=in_force, told=happened)
    roads = registry.game(state.game).roads(
        [r.outcome for r in reversed(results) if r.status != "void" and r.outcome])
    if roads is not None:
        table.bead, table.road = roads
    return table


def _said(result: Any, code: str, boxes: BoxesRound | None = None) -> str:
    """A round's result as the pit reads it: `#47 dealer 7S 9C 3D TC 2H, high card, ten high:
    does not qualify; boxes 2 and 3 win; house loses MOP 1,100.00; jackpot: box 3 flush
    MOP 5,000.00`. The house's figure is the round's table win: jackpot bets are the pool's."""
    if result.status == "void":
        return f"#{result.number} void ({_reason(result.reason)})"
    said = describe_outcome(result.outcome) or _dealer(result.dealer_cards, code) or "settled"
    said += f"; {boxes.boxes}" if boxes and boxes.boxes else ""
    won = result.house_win - (boxes.jackpot if boxes else 0)
    house = (f"house wins {money(won)}" if won > 0 else f"house loses {money(-won)}" if won < 0
             else "house even")
    prizes = [f"box {p.box} {term(p.category)} {money(p.amount)}" for p in result.jackpot]
    return (f"#{result.number} {said}; {house}"
            + (f"; jackpot: {', '.join(prizes)}" if prizes else ""))


def _dealer(cards: list[str] | None, code: str) -> str:
    """Stud Poker's dealer hand, whether it qualifies (art. 9): what each box's result turned
    on; "" for a game whose outcome says it already, or a hand not shown."""
    return registry.game(code).dealer_summary(cards or [])


def _reason(code: str | None) -> str:
    return term(code) if code else "no reason given"


def fork_alarms(conn: Connection[Any]) -> list[str]:
    """A sentence for each witness that refused a checkpoint of the seal (its newest refusal):
    the log showed it a history other than the one it cosigned."""
    return [alarm.describe() + (f"; {counted(count - 1, 'earlier refusal')}" if count > 1
                                else "")
            for alarm, count in standing(conn)]


def floor_alerts(conn: Connection[Any], now: datetime, trust: TrustFile | None = None
                 ) -> list[str]:
    """The floor's own alerts, beyond any table's: a standby's lag, fork alarms, a seal whose
    newest checkpoint waits for its witnesses (with the trust file that names them),
    projections lagging."""
    replica = standby(conn)
    witnessed = [] if trust is None else unwitnessed(
        conn, now, [w.name for w in trust.witnesses], trust.quorum)
    return ([replica.describe()] if replica else []) + fork_alarms(conn) + witnessed \
        + lagging(conn, now)


def lagging(conn: Connection[Any], now: datetime) -> list[str]:
    """A sentence for each projection the floor reads that stands behind the ledger."""
    alerts = []
    for status in projection_statuses(conn):
        if status.name not in ("table_state", "shift_report", "jackpot_pools") or not status.lag:
            continue
        stale = status.updated_at is None or now - status.updated_at > timedelta(
            seconds=LAG_SECONDS)
        if status.lag >= LAG_EVENTS or stale:
            alerts.append(f"projections lagging: {projection(status.name)} is "
                          f"{counted(status.lag, 'event')} behind "
                          "the ledger; the floor shows the past (is `ledger projections run` "
                          "running?)")
    return alerts
