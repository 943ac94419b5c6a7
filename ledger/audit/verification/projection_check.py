"""Each projection's live tables against a rebuild from the events at the same position."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import Connection, sql

from ledger.audit.verification.findings import Failure, LedgerReport
from ledger.core.errors import first_line
from ledger.core.formatting import counted


class OtherShape(Exception):
    """A live table whose columns are not those the code's DDL makes."""


def check_projections(conn: Connection[Any], report: LedgerReport) -> None:
    """Each projection's live tables against a rebuild at the same position."""
    from ledger.presentation.wording import projection
    from projections.engine.tracking import stalled
    from projections.engine.versions import being_rebuilt, difference, stale
    from projections.registry import PROJECTIONS

    report.checked["projections"] = 0
    for stored, reason in stalled(conn).items():
        report.failures.append(Failure("projection", f"projection {projection(stored)}", reason))
    old = stale(conn, list(PROJECTIONS))
    building = being_rebuilt(conn, list(old))
    for projection_class in PROJECTIONS:
        name = projection(projection_class.name)
        versions = old.get(projection_class.name)
        if projection_class.name in building and versions is not None:
            report.notes.append(f"projection {name} not compared: being rebuilt beside its live "
                                f"tables ({difference(*versions)}), swapped in when caught up")
            continue
        try:
            problems = _compare_projection(conn, projection_class)
        except OtherShape as error:  # the code's version recorded, another shape: altered
            if versions is None:
                report.failures.append(Failure("projection", f"projection {name}", (
                    f"{error}, though its tracking row says the code's version built it: "
                    f"altered behind the ledger? `ledger projections rebuild {name}` builds "
                    "it again")))
                continue
            report.notes.append(f"projection {name} not compared: its live tables were built "
                                f"by another version of the code ({difference(*versions)}): "
                                "`ledger projections run` rebuilds it by itself")
            continue
        except psycopg.Error as error:
            first = first_line(error, type(error).__name__)
            report.notes.append(f"projection {name} not compared: {first}")
            continue
        if problems is None:
            report.notes.append(f"projection {name} not compared: its tables do not exist")
            continue
        report.checked["projections"] += 1
        if versions is not None:  # differences may be the versions': said, not failed
            report.notes += [f"projection {name}: {p}, as tables another version built may "
                             f"({difference(*versions)}): `ledger projections run` rebuilds "
                             "it by itself" for p in problems]
            continue
        report.failures += [Failure("projection", f"projection {name}", p) for p in problems]


def _compare_projection(conn: Connection[Any], projection_class: Any) -> list[str] | None:
    """Rebuild into this session's temporary tables (a reader, who may create nothing in the
    ledger's schema, can still compare), then compare at one snapshot.

    Most of the rebuild commits batch by batch: one transaction updating the same rows
    thousands of times keeps every old version alive and slows each later update. Only the
    events recorded meanwhile are applied inside the repeatable-read transaction that pins
    the live tables at their position; that transaction is rolled back, the temporary tables
    dropped: nothing written, writers not stopped."""
    live = _scalar(conn, "SELECT current_schema()")
    projection = projection_class()
    for table in projection.tables:
        if _scalar(conn, "SELECT to_regclass(%s)", (f'"{live}"."{table}"',)) is None:
            return None
    conn.execute(sql.SQL("SET search_path = pg_temp, {}").format(sql.Identifier(live)))
    try:
        _drop_scratch(conn, projection)
        projection.create_tables(conn)
        scratch = _scalar(conn, "SELECT nspname FROM pg_namespace "
                                "WHERE oid = pg_my_temp_schema()")
        done = _rebuild(conn, projection, 0, _tracked(conn, projection.name),
                        tidy=lambda: _vacuum_scratch(conn, projection))
        with conn.transaction(force_rollback=True):
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            position = _tracked(conn, projection.name)
            if position < done:  # the live projection was rebuilt meanwhile: start again
                for table in projection.tables:
                    conn.execute(sql.SQL("TRUNCATE {}").format(sql.Identifier(table)))
                done = 0
            _rebuild(conn, projection, done, position)
            return _differences(conn, projection, scratch, live, position)
    finally:
        _drop_scratch(conn, projection)
        conn.execute("RESET search_path")


def _vacuum_scratch(conn: Connection[Any], projection: Any) -> None:
    """Autovacuum never visits temporary tables: without this, every row updated leaves a dead
    version that each later statement scans past."""
    for table in projection.tables:
        conn.execute(sql.SQL("VACUUM (ANALYZE) pg_temp.{}").format(sql.Identifier(table)))


def _drop_scratch(conn: Connection[Any], projection: Any) -> None:
    """This session's temporary copies only: always schema-qualified, never the live ones."""
    for table in projection.tables:
        conn.execute(sql.SQL("DROP TABLE IF EXISTS pg_temp.{}").format(sql.Identifier(table)))


def _tracked(conn: Connection[Any], name: str) -> int:
    return int(_scalar(conn, "SELECT position FROM ledger_tracking WHERE projection = %s",
                       (name,)) or 0)


def _differences(conn: Connection[Any], projection: Any, scratch: str, live: str,
                 position: int) -> list[str]:
    problems = []
    for table in projection.tables:
        if _columns(conn, scratch, table) != _columns(conn, live, table):
            raise OtherShape(f"the live table {table} has another shape than the code's")
        missing, extra = (_scalar(conn, sql.SQL(
            "SELECT count(*) FROM (SELECT * FROM {}.{} EXCEPT ALL SELECT * FROM {}.{}) AS d"
        ).format(sql.Identifier(first), sql.Identifier(table), sql.Identifier(second),
                 sql.Identifier(table))) for first, second in ((scratch, live), (live, scratch)))
        if missing or extra:
            problems.append(f"table {table} differs from a rebuild from the events up to its "
                            f"position {position}: {counted(missing, 'row')} the events give "
                            f"{_are(missing)} missing or different, {counted(extra, 'row')} "
                            f"{_are(extra)} not what the events give")
    return problems


def _scalar(conn: Connection[Any], query: Any, params: tuple[Any, ...] = ()) -> Any:
    row = conn.execute(query, params).fetchone()
    return row[0] if row else None


def _columns(conn: Connection[Any], schema: str, table: str) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in conn.execute(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = %s AND table_name = %s ORDER BY ordinal_position",
        (schema, table)).fetchall()]


def _rebuild(conn: Connection[Any], projection: Any, after: int, position: int,
             tidy: Callable[[], None] | None = None) -> int:
    """Apply the events after `after` up to `position`, a batch a transaction (or inside the
    caller's), `tidy()` after each; returns the last position applied."""
    from projections.engine.folding import apply_batch, read_events

    while after < position:
        events = [e for e in read_events(conn, after, 1000, projection.handled_types())
                  if e.position <= position]
        if not events:
            break
        with conn.transaction():  # its own, or a savepoint in the caller's
            apply_batch(conn, projection, events, fold=False)  # the handlers: folds checked
        if tidy is not None:
            tidy()
        after = events[-1].position
    return after


def _are(rows: int) -> str:
    return "is" if rows == 1 else "are"
