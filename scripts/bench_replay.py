"""Replay time of one round with 10 thousand and with 1 million events in the store, as a ratio.

One Stud Poker round is recorded through the application (a committed shoe, four boxes, two
jackpot winners, the pool; every command signed by its dealer at the table's dealer terminal
or its supervisor at the pit workstation), so its replay reads all it can: the round's stream, its shoe's
stream, the pool around its settlement, the receipts. The store is then filled by bulk
INSERT ... SELECT straight into `ledger_events` (a million commands would take hours): copies
of that round's own events - its round, shoe and receipt streams - under new stream ids, so
the bodies are real ones; the database's chain trigger hashes every row as for any insert.

The same round is recorded in two stores, one filled to 10 thousand events and one to a
million, and replayed in each in turn on warm connections (so that whatever else the machine
does weighs on both alike); the figures are the median and the 95th percentile of many runs,
and the ratio of the medians. A replay reads by stream and
version (the primary key) and a short range of positions, so the ratio should stay near 1.

Then each store is sealed (the sealer's leaves and tiles, one checkpoint at the end) and the
seal's proofs are timed in each: the audit paths of the events the replay uses, from the stored
tiles (what the replay and `export` do) and, as the baseline, from every stored leaf (what they
did before tiles); and the consistency proof from the checkpoint at half the store to the
whole, from the tiles (what a witness is sent). Made from the tiles, they read a tile or two a
level and the leaves after the last full tile, so their time should not grow with the store.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any
from uuid import UUID

from benchlib import console, signer, throwaway_database
from psycopg import Connection
from rich.table import Table as RichTable

from ledger.audit.log.merkle import inclusion_proofs
from ledger.audit.log.tile_store import StoredTiles, audit_paths, stored_leaves
from ledger.audit.log.tiles import TiledTree
from ledger.audit.replay.round import Verdict, replay_round
from ledger.audit.seal.sealer import Cadence, Sealer
from ledger.commands.jackpot import CreatePool, LinkTable
from ledger.commands.round import DealCard, Decide, OpenRound, PlaceBet, RevealDealer, SettleRound
from ledger.commands.shift import OpenShift
from ledger.commands.shoe import CloseShoe, ShuffleShoe
from ledger.commands.table import OpenTable, SignInDealer
from ledger.core.cards import DECK
from ledger.domain.base import Role
from ledger.domain.registry import TerminalKind
from ledger.domain.round import Round, round_id
from ledger.domain.shift_schedule import DEFAULT_SCHEDULE, MACAU, ShiftSchedule
from ledger.domain.shoe import commitment_of
from ledger.domain.table import table_id
from ledger.identity.keys import Credential
from ledger.runtime.bootstrap import open_ledger

DEALER, SUPERVISOR = "D-1", "SV-1"
CODE, POOL, SECRET = "SP-BENCH", "BENCH-POOL", "bench-secret"
DEALER_TERMINAL, PIT = f"{CODE}-DT", "PIT-BENCH"
HANDS = {1: "9H 8H 7H 6H 5H", 2: "QC QD QH QS 3C", 4: "2H 3H 7S 9D JH", 5: "4C 6D TS JC 2C"}
DEALER_HAND = "AC KD 8S 3D 2S"
WARM_UP = 10

FILL = """
INSERT INTO ledger_events (originator_id, originator_version, topic, state)
SELECT md5(g.n || t.stream::text)::uuid, t.version, t.topic,
       convert_to(replace(replace(replace(t.body,
           t.stream::text, md5(g.n || t.stream::text)::uuid::text),
           %(round)s, md5(g.n || %(round)s)::uuid::text),
           %(shoe)s, md5(g.n || %(shoe)s)::uuid::text), 'UTF8')
  FROM generate_series(%(first)s::int, %(last)s::int) AS g(n)
 CROSS JOIN bench_templates t
 ORDER BY g.n, t.stream, t.version
"""


def record_round(settings: Any) -> tuple[UUID, UUID, int]:
    """The round to replay, through `Ledger.execute`; its id, its shoe's id, and the position
    of the registry's last event (enrolments and their receipts are no round's templates)."""
    deal = [(f"box:{box}" if box else "dealer", cards.split()[n]) for n in range(5)
            for box, cards in [*sorted(HANDS.items()), (0, DEALER_HAND)]]
    dealt = [card for _, card in deal]
    order = [c for c in DECK if str(c) not in dealt]
    order = [c for code in dealt for c in DECK if str(c) == code] + order
    now = ShiftSchedule.parse(DEFAULT_SCHEDULE).locate(datetime.now(MACAU))
    pit: list[Any] = [
        CreatePool(pool=POOL, settings={
            "seed": "100000.00", "royal_flush": "200000.00", "straight_flush": "20000.00",
            "four_of_a_kind": "5000.00", "full_house": "1500.00", "flush": "1000.00",
            "contribution_rate": "0.5"}),
        OpenTable(table=CODE, game="stud-poker", rule_set="stud-poker/2004",
                  min_bet=Decimal(100), max_bet=Decimal(10000),
                  settings={"royal_odds": 80, "max_payout": "100000.00"},
                  authorisation="DICJ-BENCH"),
        OpenShift(table=CODE, gaming_day=now.gaming_day, shift=now.shift,
                  chips={"5000": 20, "1000": 80, "100": 150}, dealer_id=DEALER,
                  supervisor=SUPERVISOR),
        SignInDealer(table=CODE, dealer_id=DEALER),
        LinkTable(pool=POOL, table=CODE),
    ]
    table: list[Any] = [
        ShuffleShoe(table=CODE, commitment=commitment_of(order, SECRET)),
        OpenRound(table=CODE),
    ]
    for box in sorted(HANDS):
        table.append(PlaceBet(table=CODE, box=box, spot="ante", amount=Decimal(100)))
        table.append(PlaceBet(table=CODE, box=box, spot="jackpot", amount=Decimal(10)))
    table += [DealCard(table=CODE, to=to, card=card) for to, card in deal]
    table += [Decide(table=CODE, box=box, decision="raise", amount=Decimal(200))
              for box in sorted(HANDS)]
    table += [RevealDealer(table=CODE), SettleRound(table=CODE),
              CloseShoe(table=CODE, revealed_order=[str(c) for c in order], secret=SECRET)]
    with open_ledger(settings) as rt:
        signing = signer(rt)
        signing.staff(SUPERVISOR, Role.SUPERVISOR)
        signing.staff(DEALER, Role.DEALER)
        signing.terminal(PIT, TerminalKind.PIT_WORKSTATION)
        signing.terminal(DEALER_TERMINAL, TerminalKind.DEALER_TERMINAL)
        with rt.database.connect() as conn:
            registry_end = int(conn.execute("SELECT max(notification_id) FROM ledger_events"
                                            ).fetchone()[0])
        for command in pit:
            rt.ledger.execute(signing.sign(command, staff=SUPERVISOR, terminal=PIT))
        for command in table:
            rt.ledger.execute(signing.sign(command, staff=DEALER, terminal=DEALER_TERMINAL))
        rid = round_id(table_id(CODE), 1)
        return rid, rt.ledger.load(Round, rid, "the round").shoe_id, registry_end


def templates(conn: Connection[Any], rid: UUID, shoe: UUID, registry_end: int) -> int:
    """The round's, its shoe's and its commands' receipts' events, as bodies to copy."""
    conn.execute("CREATE TEMP TABLE bench_templates AS "
                 "SELECT originator_id AS stream, originator_version AS version, topic, "
                 "       convert_from(state, 'UTF8') AS body FROM ledger_events "
                 " WHERE originator_id IN (%s, %s) OR (topic LIKE '%%CommandReceipt.Accepted' "
                 "       AND notification_id > %s)",
                 (rid, shoe, registry_end))
    return int(conn.execute("SELECT count(*) FROM bench_templates").fetchone()[0])


def fill_to(conn: Connection[Any], rid: UUID, shoe: UUID, per_copy: int, target: int,
            copies_so_far: int) -> int:
    """Add copies until the store holds about `target` events; the number of copies made."""
    total = int(conn.execute("SELECT count(*) FROM ledger_events").fetchone()[0])
    wanted = copies_so_far + max(0, (target - total) // per_copy)
    step = max(1, 100_000 // per_copy)
    started = time.perf_counter()
    for first in range(copies_so_far + 1, wanted + 1, step):
        last = min(wanted, first + step - 1)
        conn.execute(FILL, {"first": first, "last": last, "round": str(rid), "shoe": str(shoe)})
        done = (last - copies_so_far) * per_copy
        rate = done / (time.perf_counter() - started)
        console.print(f"[dim]  +{done:,} events ({rate:,.0f}/s)[/]")
    conn.execute("VACUUM (ANALYZE) ledger_events")
    return wanted


def prepare(settings: Any, database: Any, events: int) -> tuple[UUID, int]:
    """A store of about `events` events holding the round; the round's id and the total."""
    rid, shoe, registry_end = record_round(settings)
    with database.connect() as conn:
        per_copy = templates(conn, rid, shoe, registry_end)
        console.print(f"filling to ~{events:,} events with copies of the round's {per_copy} "
                      "events (round, shoe, receipts)")
        fill_to(conn, rid, shoe, per_copy, events, 0)
        total = int(conn.execute("SELECT count(*) FROM ledger_events").fetchone()[0])
    return rid, total


def time_replays(stores: list[tuple[Connection[Any], UUID]], runs: int) -> list[list[float]]:
    """Seconds per replay in each store, the stores taking turns run by run, so that whatever
    else the machine is doing weighs on both alike."""
    for conn, rid in stores:
        verdict = replay_round(conn, rid).check.verdict
        if verdict is not Verdict.MATCH:
            raise SystemExit(f"the benchmark round replays as {verdict}")
        for _ in range(WARM_UP):  # pages, plans and pydantic warm before any timing
            replay_round(conn, rid)
    seconds: list[list[float]] = [[] for _ in stores]
    for _ in range(runs):
        for index, (conn, rid) in enumerate(stores):
            started = time.perf_counter()
            replay_round(conn, rid)
            seconds[index].append(time.perf_counter() - started)
    return seconds


def seal(database: Any) -> float:
    """Seal the whole store, one checkpoint at the end; the seconds it took."""
    key = Credential.generate("seal", "SEAL-BENCH")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as witness, database.connect() as conn:
        Sealer(database, key, Path(witness), Cadence(every_events=10**9, every_seconds=10**9),
               batch_size=10_000).catch_up(conn, checkpoint_at_end=True)
    return time.perf_counter() - started


def proof_costs(conn: Connection[Any], rid: UUID, runs: int) -> dict[str, Any]:
    """The seal's proofs in one store: medians in seconds, and the rows the tiles' read."""
    positions = [e.position for e in replay_round(conn, rid).evidence]
    size, root = conn.execute("SELECT size, root FROM ledger_seal_checkpoints "
                              "ORDER BY size DESC LIMIT 1").fetchone()
    root = bytes(root)
    indices = [i for (i,) in conn.execute("SELECT leaf_index FROM ledger_seal_leaves "
                                          "WHERE position = ANY(%s)", (positions,))]

    def from_tiles() -> None:
        found = audit_paths(conn, size, root, indices)
        if found.altered or found.damaged_tiles or len(found.paths) != len(indices):
            raise SystemExit("the benchmark's seal does not prove its own events")

    def from_leaves() -> None:
        inclusion_proofs(stored_leaves(conn, size), indices)

    def consistency() -> None:
        TiledTree(StoredTiles(conn), size).consistency_proof(size // 2)

    source = StoredTiles(conn)
    tree = TiledTree(source, size)
    for index in indices:
        tree.inclusion_proof(index)
    return {"size": size, "events": len(indices), "rows": source.rows,
            "tiles": _median(from_tiles, runs), "consistency": _median(consistency, runs),
            "leaves": _median(from_leaves, max(3, runs // 20))}


def _median(work: Any, runs: int) -> float:
    work()  # warm
    seconds = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        seconds.append(time.perf_counter() - started)
    return statistics.median(seconds)


def report_proofs(costs: list[dict[str, Any]], sealing: list[float]) -> None:
    grid = RichTable(title="the seal's proofs of the round's events, under the checkpoint "
                           "over the whole store")
    for column in ("events sealed", "sealing s", "audit paths from tiles ms", "rows read",
                   "from every leaf ms (before tiles)", "consistency from tiles ms"):
        grid.add_column(column, justify="right")
    for cost, seconds in zip(costs, sealing, strict=True):
        grid.add_row(f"{cost['size']:,}", f"{seconds:.1f}", f"{cost['tiles'] * 1000:.1f}",
                     f"{cost['rows']:,}", f"{cost['leaves'] * 1000:.1f}",
                     f"{cost['consistency'] * 1000:.1f}")
    console.print(grid)
    small, large = costs[0], costs[-1]
    console.print(
        f"seal proof at {large['size']:,} events / at {small['size']:,} events: from tiles "
        f"[bold]{large['tiles'] / small['tiles']:.2f}[/], from every leaf "
        f"{large['leaves'] / small['leaves']:.2f}; consistency from tiles "
        f"{large['consistency'] / small['consistency']:.2f}; at {large['size']:,} events, "
        f"tiles / every leaf {large['tiles'] / large['leaves']:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--small", type=int, default=10_000, help="events in the small store")
    parser.add_argument("--large", type=int, default=1_000_000, help="events in the large store")
    parser.add_argument("--runs", type=int, default=200, help="replays timed in each store")
    parser.add_argument("--proof-runs", type=int, default=60,
                        help="seal proofs from tiles timed in each store (from every leaf: "
                             "a twentieth, at least 3)")
    args = parser.parse_args()
    with throwaway_database("ledger_bench_replay_small") as small, \
            throwaway_database("ledger_bench_replay_large") as large:
        prepared = [prepare(*store, events) for store, events in
                    ((small, args.small), (large, args.large))]
        with small[1].connect() as small_conn, large[1].connect() as large_conn:
            used = len(replay_round(small_conn, prepared[0][0]).evidence)
            seconds = time_replays([(small_conn, prepared[0][0]), (large_conn, prepared[1][0])],
                                   args.runs)
        report([(total, times, used) for (_, total), times in zip(prepared, seconds,
                                                                    strict=True)])
        sealing = [seal(store[1]) for store in (small, large)]
        with small[1].connect() as small_conn, large[1].connect() as large_conn:
            costs = [proof_costs(conn, rid, args.proof_runs) for conn, (rid, _) in
                     zip((small_conn, large_conn), prepared, strict=True)]
        report_proofs(costs, sealing)


def report(rows: list[tuple[int, list[float], int]]) -> None:
    grid = RichTable(title="replay of one Stud Poker round (round, shoe, pool, 2 jackpot hits)")
    for column in ("events in store", "events used", "median ms", "p95 ms", "vs smallest"):
        grid.add_column(column, justify="right")
    base = statistics.median(rows[0][1])
    for total, seconds, used in rows:
        median = statistics.median(seconds)
        p95 = sorted(seconds)[int(0.95 * (len(seconds) - 1))]
        grid.add_row(f"{total:,}", str(used), f"{median * 1000:.1f}", f"{p95 * 1000:.1f}",
                     f"{median / base:.2f}x")
    console.print(grid)
    ratio = statistics.median(rows[-1][1]) / base
    console.print(f"replay time at {rows[-1][0]:,} events / at {rows[0][0]:,} events: "
                  f"[bold]{ratio:.2f}[/]")


if __name__ == "__main__":
    main()
