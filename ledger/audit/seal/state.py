"""The sealer's state (`ledger_seal_state`), checked against its stored leaves, and rebuilt from
them when it is damaged.

The state is the tree's size, its frontier (one hash per perfect subtree) and the sealer's
position in the global order; the leaves are every event's leaf hash, in `leaf_index` order.
Each batch checks, cheaply, that the two agree: the frontier fits the size, the last leaf is
leaf `size - 1` at the sealer's position, and when the state sits at a checkpoint the
frontier's root is that checkpoint's root. When they do not (a row edited by hand, a restore
from mismatched backups), the state is rebuilt from the leaves, but only when the leaves can be
trusted: complete (0, 1, 2, ... with no gap), their root at the newest checkpoint's size is that
checkpoint's root, the checkpoint is signed by this sealer's own key for this ledger, and every
leaf after it is the leaf of the event it names, recomputed from the events table. Otherwise
the sealer refuses, in one line, and `ledger seal repair` (which trusts the events, not the
leaves past the last good checkpoint) is the way on.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NoReturn

from psycopg import Connection, sql

from ledger.audit.log.formats import Checkpoint, event_leaf
from ledger.audit.log.merkle import Frontier
from ledger.core.errors import WrongState
from ledger.core.formatting import counted
from ledger.infrastructure.database import EVENTS_TABLE

REPAIR = "ledger seal repair"


@dataclass
class SealState:
    ledger_id: str
    frontier: Frontier
    position: int
    checkpointed_size: int
    checkpointed_at: datetime | None


class Unrebuildable(WrongState):
    """The stored leaves cannot be trusted to rebuild the state from."""


def damage(conn: Connection[Any], size: int, hashes: list[bytes], position: int,
           checkpointed_size: int) -> str | None:
    """Why the stored state does not agree with itself or with the stored leaves; None if it
    does. Three index lookups: cheap enough for every batch."""
    try:
        frontier = Frontier.restore(size, hashes)
    except ValueError as error:
        return f"its frontier does not fit its size ({error})"
    last = conn.execute("SELECT leaf_index, position FROM ledger_seal_leaves "
                        "ORDER BY leaf_index DESC LIMIT 1").fetchone()
    if (last or (-1, 0)) != (size - 1, position):
        where = f"leaf {last[0]} at position {last[1]}" if last else "no leaf"
        return (f"it says {size:,} leaves up to position {position}, the stored leaves end "
                f"with {where}")
    if checkpointed_size == size and size:
        row = conn.execute("SELECT root FROM ledger_seal_checkpoints WHERE size = %s",
                           (size,)).fetchone()
        if row is None or bytes(row[0]) != frontier.root():
            return f"its frontier's root is not the root of its checkpoint at {size:,} leaves"
    return None


def rebuild(conn: Connection[Any], ledger_id: str, public_key: str) -> SealState:
    """The state the stored leaves give, vouched for by the newest checkpoint and the events;
    `Unrebuildable` (one line naming the repair command) when they cannot be trusted."""
    newest = _newest_checkpoint(conn, ledger_id, public_key)
    frontier, after = Frontier(), []
    last_position = 0
    with conn.cursor(binary=True) as cursor:
        for index, position, stream_id, version, leaf in cursor.stream(
                "SELECT leaf_index, position, stream_id, version, leaf FROM ledger_seal_leaves "
                "ORDER BY leaf_index"):
            if index != frontier.size:
                _refuse(f"leaf {frontier.size} is missing (the next stored is {index})")
            if position <= last_position:
                _refuse(f"leaf {index} is at position {position}, not after {last_position}")
            if newest is not None and frontier.size == newest.size:
                _vouched(frontier, last_position, newest)
            frontier.append(bytes(leaf))
            last_position = position
            if newest is None or index >= newest.size:
                after.append((index, position, stream_id, version, bytes(leaf)))
    if newest is not None:
        if frontier.size < newest.size:
            _refuse(f"{frontier.size:,} leaves are stored, the newest checkpoint covers "
                    f"{newest.size:,}")
        if frontier.size == newest.size:
            _vouched(frontier, last_position, newest)
    _check_against_events(conn, after)
    return SealState(ledger_id, frontier, last_position, newest.size if newest else 0,
                     newest.when if newest else None)


def repair(conn: Connection[Any], ledger_id: str) -> tuple[SealState, str | None]:
    """The state rebuilt from the stored leaves, each checked against the event it names
    (recomputed from the events table), whatever the checkpoints say: for when `rebuild`
    refused and `ledger verify` has shown why. Returns it with what the checkpoints say
    against it, if anything (verify names that too). Refuses when the leaves are not complete
    or not the events: then no state rebuilt in place would be true."""
    frontier, position, roots = Frontier(), 0, {}
    sizes = {int(size): bytes(root) for size, root in conn.execute(
        "SELECT size, root FROM ledger_seal_checkpoints")}
    query = sql.SQL(
        "SELECT l.leaf_index, l.position, l.stream_id, l.version, l.leaf, e.notification_id, "
        "e.originator_id, e.originator_version, e.topic, e.state FROM ledger_seal_leaves l "
        "LEFT JOIN {} e ON e.notification_id = l.position ORDER BY l.leaf_index").format(
        sql.Identifier(EVENTS_TABLE))
    with conn.cursor(binary=True) as cursor:
        for index, at, stream_id, version, leaf, *event in cursor.stream(query):
            if index != frontier.size:
                _cannot_repair(f"leaf {frontier.size} is missing (the next stored is {index})")
            if event[0] is None or (event[1], event[2]) != (stream_id, version) or event_leaf(
                    event[0], event[1], event[2], event[3], bytes(event[4])) != bytes(leaf):
                _cannot_repair(f"leaf {index} is not the event at position {at}")
            frontier.append(bytes(leaf))
            position = at
            if frontier.size in sizes:
                roots[frontier.size] = frontier.root()
    newest = max(sizes, default=0)
    if newest > frontier.size:
        _cannot_repair(f"{frontier.size:,} leaves are stored, a checkpoint covers {newest:,}")
    wrong = [size for size, root in sorted(sizes.items()) if roots.get(size) != root]
    sealed_at = conn.execute("SELECT sealed_at FROM ledger_seal_checkpoints WHERE size = %s",
                             (newest,)).fetchone()
    state = SealState(ledger_id, frontier, position, newest, sealed_at[0] if sealed_at else None)
    note = (f"{counted(len(wrong), 'checkpoint')} disagree with the leaves, the first at "
            f"{wrong[0]:,} leaves: `ledger verify` names them") if wrong else None
    return state, note


def store(conn: Connection[Any], state: SealState) -> None:
    conn.execute("UPDATE ledger_seal_state SET size = %s, frontier = %s, position = %s, "
                 "checkpointed_size = %s, checkpointed_at = %s",
                 (state.frontier.size, state.frontier.hashes(), state.position,
                  state.checkpointed_size, state.checkpointed_at))


def _vouched(frontier: Frontier, position: int, newest: Checkpoint) -> None:
    """The first leaves, up to the newest checkpoint's size, are what it signed."""
    if frontier.root() != newest.root:
        _refuse(f"the root of the first {newest.size:,} leaves is not the root of the newest "
                "checkpoint")
    if position != newest.position:
        _refuse(f"leaf {newest.size - 1} is at position {position}, the newest checkpoint "
                f"ends at {newest.position}")


def _newest_checkpoint(conn: Connection[Any], ledger_id: str,
                       public_key: str) -> Checkpoint | None:
    row = conn.execute("SELECT size, position, root, statement, signature "
                       "FROM ledger_seal_checkpoints ORDER BY size DESC LIMIT 1").fetchone()
    if row is None:
        return None
    size, position, root, statement, signature = row
    try:
        checkpoint = Checkpoint.from_statement(bytes(statement), bytes(signature))
    except ValueError as error:
        _refuse(f"the newest checkpoint (at {size:,} leaves) cannot be read ({error})")
    if not checkpoint.verifies(public_key):
        _refuse(f"the newest checkpoint (at {size:,} leaves) is not signed by this sealer's key")
    if (checkpoint.ledger, checkpoint.size, checkpoint.position, checkpoint.root) != (
            ledger_id, size, position, bytes(root)):
        _refuse(f"the newest checkpoint's row (at {size:,} leaves) is not what was signed "
                "for this ledger")
    return checkpoint


def _check_against_events(conn: Connection[Any],
                          leaves: list[tuple[int, int, Any, int, bytes]]) -> None:
    """Each leaf no checkpoint vouches for is the leaf of the event at its position."""
    if not leaves:
        return
    query = sql.SQL("SELECT notification_id, originator_id, originator_version, topic, state "
                    "FROM {} WHERE notification_id = ANY(%s)").format(sql.Identifier(EVENTS_TABLE))
    with conn.cursor(binary=True) as cursor:
        events = {row[0]: row for row in cursor.execute(query, ([p for _, p, *_ in leaves],))}
    for index, position, stream_id, version, leaf in leaves:
        event = events.get(position)
        if event is None or (event[1], event[2]) != (stream_id, version) or event_leaf(
                event[0], event[1], event[2], event[3], bytes(event[4])) != leaf:
            _refuse(f"leaf {index}, past the newest checkpoint, is not the event at position "
                    f"{position}")


def _refuse(why: str) -> NoReturn:
    raise Unrebuildable(
        f"the seal's state is damaged and its stored leaves cannot rebuild it: {why}. Nothing "
        f"was sealed; find what changed with `ledger verify`, then run `{REPAIR}`.")


def _cannot_repair(why: str) -> NoReturn:
    raise Unrebuildable(
        f"the seal cannot be repaired in place: {why}. The seal's own tables or the events "
        "were changed after sealing; `ledger verify` names what changed.")


def lock(conn: Connection[Any]) -> None:
    """Hold the seal's state row for this transaction: one sealer (or repair) at a time."""
    conn.execute("SELECT 1 FROM ledger_seal_state FOR UPDATE")


def checkpoint_count(conn: Connection[Any]) -> int:
    """How many signed checkpoints the seal has stored."""
    row = conn.execute("SELECT count(*) FROM ledger_seal_checkpoints").fetchone()
    return int(row[0]) if row else 0
