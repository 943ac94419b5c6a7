"""The events table in partitions by position: closed ranges can leave the primary.

`ledger_events` is partitioned by RANGE of `notification_id` (the position), in partitions of a
fixed number of positions (`LEDGER_PARTITION_EVENTS`), named `ledger_events_p<first position>`,
and a DEFAULT partition that takes whatever outruns them, so an append never fails for want of
a partition. `ensure` (run by `ledger db init` and `ledger archive`) turns the default's rows,
if any, into a range partition of their own and makes the next partition ahead. An event at a
position below the first range (0 or negative: never the sequence's) stays in the default. Each partition
has its own primary key (stream, version) and unique position: PostgreSQL allows no unique
index on a partitioned table that has foreign partitions, and an archived range is one. The
stream's uniqueness across partitions is the chain trigger's (`schema`): under the append turn
it refuses a version a stream already has, wherever it lies, as a unique violation.

A range's events are found by position, so a read by position prunes to its partitions; a read
by stream probes each partition's key, few on the primary once closed ranges are archived.

A new partition is made beside the table and attached (PostgreSQL checks the range and takes
a SHARE UPDATE EXCLUSIVE lock on the parent, which readers and appends pass): the floor plays
on. The DDL waits for its locks at most `DDL_LOCK_TIMEOUT`, then gives up and says so, rather
than queue the floor behind a long read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg import Connection, errors, sql

from ledger.core.errors import WrongState

DEFAULT_SIZE = 4_194_304
"""Positions per partition: about a day of a 100-table property in continuous play, months of
a small one."""
DDL_LOCK_TIMEOUT = "3s"

PARENT_DDL = """
CREATE TABLE IF NOT EXISTS {schema}.{table} (
    originator_id {id_type} NOT NULL,
    originator_version bigint NOT NULL,
    topic text,
    state bytea,
    notification_id {position_type} NOT NULL)
PARTITION BY RANGE (notification_id)
"""

STORAGE = ("autovacuum_vacuum_threshold = 100000000, autovacuum_vacuum_scale_factor = 0.5, "
           "autovacuum_analyze_threshold = 1000, autovacuum_analyze_scale_factor = 0.01")
"""The library's autovacuum settings for its events table (an append-only table is never
vacuumed for dead rows, often analysed): a partitioned table takes them partition by partition."""


@dataclass(frozen=True)
class Partition:
    name: str
    first: int | None  # None: the default partition
    end: int | None  # the first position past it
    foreign: bool  # an archived range, read from the archive


def partitions(conn: Connection[Any], table: str) -> list[Partition]:
    """The table's partitions, ranges in position order, the default last."""
    rows = conn.execute(
        "SELECT c.relname, c.relkind = 'f', pg_get_expr(c.relpartbound, c.oid) "
        "FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
        "WHERE i.inhparent = to_regclass(%s)", (table,)).fetchall()
    found = []
    for name, foreign, bound in rows:
        first, end = _range(str(bound))
        found.append(Partition(str(name), first, end, bool(foreign)))
    return sorted(found, key=lambda p: (p.first is None, p.first or 0))


def _range(bound: str) -> tuple[int | None, int | None]:
    """`FOR VALUES FROM ('1') TO ('1001')` as (1, 1001); DEFAULT as (None, None)."""
    if bound == "DEFAULT":
        return None, None
    low, high = (part.split(")")[0].strip(" ('") for part in bound.split("(")[1:3])
    return int(low), int(high)


def parent_ddl(schema: str, table: str, position_type: str = "bigserial") -> sql.Composed:
    """The partitioned events table (the library's columns; `chain_hash` is `schema`'s)."""
    return sql.SQL(PARENT_DDL).format(schema=sql.Identifier(schema), table=sql.Identifier(table),
                                      id_type=sql.SQL("uuid"),
                                      position_type=sql.SQL(position_type))


def layout(conn: Connection[Any], table: str) -> dict[str, int]:
    """How many range partitions are on the primary, how many archived, and how many events
    ran past the ranges into the default partition (what `ledger db status` shows)."""
    found = partitions(conn, table)
    spilled = 0
    if any(p.first is None for p in found):
        row = conn.execute(sql.SQL("SELECT count(*) FROM {}").format(
            sql.Identifier(f"{table}_default"))).fetchone()
        spilled = int(row[0]) if row else 0
    return {"on_primary": sum(1 for p in found if p.first is not None and not p.foreign),
            "archived": sum(1 for p in found if p.foreign), "past_the_ranges": spilled}


def is_partitioned(conn: Connection[Any], table: str) -> bool:
    row = conn.execute("SELECT relkind FROM pg_class WHERE oid = to_regclass(%s)",
                       (table,)).fetchone()
    return bool(row and row[0] == "p")


def convert(conn: Connection[Any], table: str) -> None:
    """A ledger made before partitioning: its events table becomes the first partition of a
    partitioned table of the same name, holding every position it has and the range up to
    the next partition (in the caller's transaction, under the append turn)."""
    old = f"{table}_p1"
    ident, old_ident = sql.Identifier(table), sql.Identifier(old)
    run = conn.execute
    row = run(sql.SQL("SELECT coalesce(max(notification_id), 0) + 1 FROM {}").format(
        ident)).fetchone()
    end = int(row[0]) if row else 1
    for trigger in (f"{table}_chain", f"{table}_serialise", f"{table}_assigned_position",
                    f"{table}_no_update_delete", f"{table}_no_truncate"):
        run(sql.SQL("DROP TRIGGER IF EXISTS {} ON {}").format(sql.Identifier(trigger), ident))
    run(sql.SQL("ALTER TABLE {} RENAME TO {}").format(ident, old_ident))
    for index, suffix in ((f"{table}_pkey", "stream_version"),
                          (f"{table}_notification_id_idx", "position")):
        run(sql.SQL("ALTER INDEX IF EXISTS {} RENAME TO {}").format(
            sql.Identifier(index), sql.Identifier(f"{old}_{suffix}")))
    run(parent_ddl(_schema(conn), table, "bigint"))
    run(sql.SQL("ALTER TABLE {} ADD COLUMN IF NOT EXISTS chain_hash bytea").format(ident))
    sequence = f"{table}_notification_id_seq"
    run(sql.SQL("ALTER TABLE {} ALTER COLUMN notification_id SET DEFAULT nextval({})").format(
        ident, sql.Literal(sequence)))
    run(sql.SQL("ALTER SEQUENCE {} OWNED BY {}.notification_id").format(
        sql.Identifier(sequence), ident))
    run(sql.SQL("ALTER TABLE {} ATTACH PARTITION {} FOR VALUES FROM (1) TO ({})").format(
        ident, old_ident, sql.Literal(end)))


def ensure(conn: Connection[Any], table: str, size: int, *, ahead: int = 1) -> list[str]:
    """The default partition's rows made a range partition of their own, the default made if
    missing, and range partitions made until `ahead` stand beyond the newest position. In the
    caller's transaction; the append turn is taken first, so no append lands meanwhile.
    Returns the partitions made."""
    if size < 1:
        raise WrongState(f"a partition must hold at least one position, not {size}")
    run = conn.execute
    ident = sql.Identifier(table)
    run(sql.SQL("SET LOCAL lock_timeout = {}").format(sql.Literal(DDL_LOCK_TIMEOUT)))
    try:
        run("SELECT 1 FROM ledger_append_turn FOR UPDATE")
        made = _ensure(conn, table, ident, size, ahead)
    except errors.LockNotAvailable:
        raise WrongState(f"{table} is busy (a long read holds it): its partitions were not "
                         "made; run again in a quiet moment.") from None
    return made


def _ensure(conn: Connection[Any], table: str, ident: sql.Identifier, size: int,
            ahead: int) -> list[str]:
    run = conn.execute
    made: list[str] = []
    default = f"{table}_default"
    existing = partitions(conn, table)
    ranges = [p for p in existing if p.first is not None]
    top = max((p.end or 1 for p in ranges), default=1)
    if any(p.first is None for p in existing):
        row = run(sql.SQL("SELECT max(notification_id), min(notification_id) FROM {}").format(
            sql.Identifier(default))).fetchone()
        # an event below the first range (a position the sequence never gave: `ledger verify`
        # names it) stays in the default partition, which no range may then take whole
        if row and row[0] is not None and row[0] >= top and row[1] < top:
            raise WrongState(
                f"{default} holds events past the ranges and events at positions below them "
                f"(from {row[1]}), which no range can hold: run `ledger verify`, which names "
                "the positions the sequence never gave")
        if row and row[0] is not None and row[0] >= top:  # the floor outran the ranges
            name = f"{table}_p{top}"
            run(sql.SQL("ALTER TABLE {} DETACH PARTITION {}").format(
                ident, sql.Identifier(default)))
            run(sql.SQL("ALTER TABLE {} RENAME TO {}").format(
                sql.Identifier(default), sql.Identifier(name)))
            for suffix in ("stream_version", "position"):
                run(sql.SQL("ALTER INDEX {} RENAME TO {}").format(
                    sql.Identifier(f"{default}_{suffix}"), sql.Identifier(f"{name}_{suffix}")))
            run(sql.SQL("ALTER TABLE {} ATTACH PARTITION {} FOR VALUES FROM ({}) TO ({})"
                        ).format(ident, sql.Identifier(name), sql.Literal(top),
                                 sql.Literal(int(row[0]) + 1)))
            made.append(name)
            top = int(row[0]) + 1
            existing = []
    if not any(p.first is None for p in existing):
        _new_partition(conn, table, default, None)
        made.append(default)
    row = run(sql.SQL("SELECT coalesce(max(notification_id), 0) FROM {}").format(
        ident)).fetchone()
    newest = int(row[0]) if row else 0
    while top <= newest + size * ahead:
        name = f"{table}_p{top}"
        _new_partition(conn, table, name, (top, top + size))
        made.append(name)
        top += size
    return made


def _new_partition(conn: Connection[Any], table: str, name: str,
                   bounds: tuple[int, int] | None) -> None:
    """An empty partition, with its key, its unique positions and its own statement triggers,
    attached to `table` (a range, or the default)."""
    run = conn.execute
    ident, part = sql.Identifier(table), sql.Identifier(name)
    run(sql.SQL("CREATE TABLE {} (LIKE {} INCLUDING DEFAULTS) WITH (" + STORAGE + ")").format(
        part, ident))
    run(sql.SQL("ALTER TABLE {} ADD CONSTRAINT {} PRIMARY KEY (originator_id, "
                "originator_version)").format(part, sql.Identifier(f"{name}_stream_version")))
    run(sql.SQL("CREATE UNIQUE INDEX {} ON {} (notification_id)").format(
        sql.Identifier(f"{name}_position"), part))
    if bounds is None:
        run(sql.SQL("ALTER TABLE {} ATTACH PARTITION {} DEFAULT").format(ident, part))
    else:
        run(sql.SQL("ALTER TABLE {} ATTACH PARTITION {} FOR VALUES FROM ({}) TO ({})").format(
            ident, part, sql.Literal(bounds[0]), sql.Literal(bounds[1])))
    partition_triggers(conn, table, name)


def partition_triggers(conn: Connection[Any], table: str, partition: str) -> None:
    """A partition's own statement triggers (an insert or a TRUNCATE naming the partition
    itself fires its own, not its parent's) and its copies of the parent's row triggers,
    enabled ALWAYS like theirs."""
    part = sql.Identifier(partition)
    name = f"{table}_serialise"
    conn.execute(sql.SQL(
        "CREATE OR REPLACE TRIGGER {trigger} BEFORE INSERT ON {table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION {function}()").format(
        trigger=sql.Identifier(name), table=part, function=sql.Identifier(name)))
    trigger = sql.Identifier(f"{table}_no_truncate")
    conn.execute(sql.SQL("CREATE OR REPLACE TRIGGER {} BEFORE TRUNCATE ON {} FOR EACH STATEMENT "
                         "EXECUTE FUNCTION ledger_refuse_change()").format(trigger, part))
    for each in (name, f"{table}_no_truncate", f"{table}_chain", f"{table}_assigned_position",
                 f"{table}_no_update_delete"):
        found = conn.execute("SELECT 1 FROM pg_trigger WHERE tgrelid = to_regclass(%s) "
                             "AND tgname = %s", (partition, each)).fetchone()
        if found:
            conn.execute(sql.SQL("ALTER TABLE {} ENABLE ALWAYS TRIGGER {}").format(
                part, sql.Identifier(each)))


def hot_from(conn: Connection[Any], table: str) -> int:
    """The first position kept on the primary: past the newest archived range (1: none)."""
    return max((p.end or 1 for p in partitions(conn, table) if p.foreign), default=1)


def _schema(conn: Connection[Any]) -> str:
    row = conn.execute("SELECT current_schema()").fetchone()
    assert row is not None  # a SELECT without FROM returns exactly one row
    return str(row[0])
