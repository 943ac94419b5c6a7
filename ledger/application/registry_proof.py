"""The registry as the door trusts it: every entry proven by the signed command that made it.

The door decides who may act from the registry, so an entry the registry holds is taken only
once it is proven as `ledger verify` proves it (`ledger.audit.verification.authorship`): the event claims a
command whose receipt closes its run (the receipt after it, with no other receipt between);
the receipt's envelope passes the door on the registry as it stood before that receipt (its
signers' own entries proven the same way, back to the registry's bootstrap, whose first
administrator and console signed their own enrolment); and the command, executed again by its
own handler on the stream as proven before it, records exactly that event. An entry that
fails (inserted by whoever could write to the table, with junk signatures, a receipt copied
from another command, or a command recorded once and claimed again) is ignored: the door
reads the stream as if it were not there, and the finding is raised as an alarm (logged, and
named in the refusal of any command that meets it).

Each entry is proven once and kept: a stream read again proves only its new events, so the
cost is paid when a registry change is first read, not on every command.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from eventsourcing.persistence import JSONTranscoder, StoredEvent
from pydantic import ValidationError

from ledger.application.handlers.unit_of_work import ReadsByKind
from ledger.commands.base import Command
from ledger.core.errors import DamagedStream, LedgerError, first_line
from ledger.core.formatting import counted
from ledger.domain.base import Aggregate, K, of_kind
from ledger.domain.receipt import RULES_EDITION, CommandReceipt, receipt_id
from ledger.domain.registry import (
    REGISTRY_ID,
    StaffMember,
    TerminalDevice,
    staff_stream_id,
    terminal_stream_id,
)
from ledger.identity.door import admit
from ledger.identity.envelope import SignedCommand, from_receipt
from ledger.identity.keys import fingerprint, verify
from ledger.infrastructure.mapper import PydanticJSONMapper
from ledger.infrastructure.registry_rows import StoredRow, StreamRows

alarms = logging.getLogger("ledger.alarm")
_mapper = PydanticJSONMapper(transcoder=JSONTranscoder())
UNTIMED = ("timestamp",)


@dataclass
class _Stream:
    """One registry stream: its stored rows, and how far they are proven."""

    stream_id: UUID
    rows: list[StoredRow] = field(default_factory=list)
    horizon: int = 0  # the log's last position when the rows were read
    done: int = 0  # rows[:done] are decided
    # (position, proven state after)
    states: list[tuple[int, Aggregate | None]] = field(default_factory=list)
    forged: list[str] = field(default_factory=list)
    busy: bool = False

    def state_before(self, position: int) -> Aggregate | None:
        found = None
        for at, state in self.states:
            if at >= position:
                break
            found = state
        return found


REGISTRY_FIRST_EVENTS = (StaffMember.Enrolled.event_type, TerminalDevice.Registered.event_type)
"""How a registry stream begins: the streams the door reads only proven."""


class RegistryProof:
    """Registry streams proven once, kept by stream id (thread-safe)."""

    def __init__(self, rows: StreamRows, ledger_id: str | None,
                 stored: Callable[[UUID], Aggregate | None] | None = None) -> None:
        self.rows = rows
        self.ledger_id = ledger_id
        self.stored = stored  # the stream as the store rebuilds it (its version, cheaply)
        self._streams: dict[UUID, _Stream] = {}
        self._lock = threading.RLock()

    def current(self, stream_id: UUID, known_version: int | None = None) -> Aggregate | None:
        """The stream as proven, at the version last stored (its unproven events skipped), or
        None when nothing proves it exists. `known_version`: the stream's version as the caller
        already read it; when every row to it is decided, nothing is read again."""
        with self._lock:
            stream = self._streams.get(stream_id)
            if stream is None or known_version is None or stream.done < known_version \
                    or stream.done != len(stream.rows):
                stream = self._read(stream_id)
            self._decide(stream, None)
            state = stream.states[-1][1] if stream.states else None
            if state is None or not stream.rows:
                return None
            if state.version != stream.rows[-1].version:
                state = deepcopy(state)
                # read at the stream's stored version, so the writer's check of what the door
                # read does not take a skipped event for a change
                state.version = stream.rows[-1].version
            return state

    def entry(self, stream_id: UUID) -> Aggregate | None:
        """`current`, its rows read again only when the stream moved since it was proven."""
        try:
            stored = self.stored(stream_id) if self.stored is not None else None
        except Exception:  # noqa: BLE001 - a stream an insider broke: its rows are read
            return self.current(stream_id)
        if stored is None and self.stored is not None:
            return None
        return self.current(stream_id, stored.version if stored is not None else None)

    def instead_of(self, damaged: DamagedStream, stream_id: UUID) -> Aggregate:
        """A registry stream an insider damaged (an event no one can read, a version out of
        turn), read as the door reads it: its proven entries at its stored version, so the
        administrator can still suspend, re-key or change the roles of its holder. Any other
        stream, or one nothing proves, stays refused with `damaged`."""
        rows, _ = self.rows.stream(stream_id)
        if not rows or rows[0].topic.split(":")[-1] not in REGISTRY_FIRST_EVENTS:
            raise damaged
        proven = self.current(stream_id)
        if proven is None:
            raise damaged
        return proven

    def forged(self, stream_id: UUID) -> list[str]:
        """What the stream holds that nothing proves (found so far)."""
        with self._lock:
            stream = self._streams.get(stream_id)
            return list(stream.forged) if stream else []

    # -- reading and deciding -------------------------------------------------------------
    def _read(self, stream_id: UUID) -> _Stream:
        stream = self._streams.setdefault(stream_id, _Stream(stream_id))
        rows, horizon = self.rows.stream(stream_id)
        if rows[:stream.done] != stream.rows[:stream.done]:  # never for an append-only log
            stream = self._streams[stream_id] = _Stream(stream_id)
        stream.rows, stream.horizon = rows, horizon
        return stream

    def _as_of(self, stream_id: UUID, position: int) -> Aggregate | None:
        """The stream as proven before `position` (its rows read again if they were read
        before that position was written)."""
        stream = self._streams.get(stream_id)
        if stream is None or (stream.horizon < position and not stream.busy):
            stream = self._read(stream_id)
        if not stream.busy:
            self._decide(stream, position)
        return stream.state_before(position)

    def _decide(self, stream: _Stream, before: int | None) -> None:
        stream.busy = True
        try:
            while stream.done < len(stream.rows):
                row = stream.rows[stream.done]
                if before is not None and row.position >= before:
                    return
                state = stream.states[-1][1] if stream.states else None
                proven: Aggregate | None
                try:
                    proven = self._prove(stream, row, state)
                except _Unproven as error:
                    reason = (f"the registry holds {row.topic.split(':')[-1]} at stream "
                              f"{stream.stream_id} version {row.version} (position "
                              f"{row.position}) that no signed command proves: {error}; the "
                              "door ignores it (`ledger verify` names it)")
                    stream.forged.append(reason)
                    alarms.error("%s", reason)
                    proven = _at_version(state, row.version)
                stream.states.append((row.position, proven))
                stream.done += 1
        finally:
            stream.busy = False

    # -- one entry ------------------------------------------------------------------------
    def _prove(self, stream: _Stream, row: StoredRow, before: Aggregate | None) -> Aggregate:
        """The stream's state after `row`, once proven; raises `_Unproven` with the reason."""
        if stream.states and row.position <= stream.states[-1][0]:
            raise _Unproven("it stands before its stream's previous event in the log")
        event = _decode(row.topic, row.state, stream.stream_id, row.version)
        by = getattr(event, "by", None)
        if by is None:
            raise _Unproven("it claims no command")
        receipts, _ = self.rows.stream(receipt_id(by.command_id))
        if not receipts:
            raise _Unproven(f"it claims command {by.command_id}, which no receipt records")
        receipt = _decode(receipts[0].topic, receipts[0].state, receipt_id(by.command_id), 1)
        at = receipts[0].position
        if not isinstance(receipt, CommandReceipt.Accepted):
            raise _Unproven(f"the stream of command {by.command_id}'s receipt holds no receipt")
        bootstrap = self._bootstrap_of(stream.stream_id, row)
        if at <= row.position:
            raise _Unproven(f"its command's receipt is at position {at}, before it: a "
                            "command recorded once is claimed again")
        if self.rows.receipt_between(row.position, at) and not bootstrap:
            raise _Unproven(f"another command's receipt lies between it and its command's "
                            f"(position {at})")
        if str(stream.stream_id) not in receipt.streams:
            raise _Unproven(f"the receipt of command {by.command_id} does not name its stream")
        if receipt.signed is None:
            raise _Unproven("its command's receipt keeps no signed envelope")
        try:
            signed = from_receipt(receipt.signed, receipt.command)
        except ValidationError:
            raise _Unproven("its command's envelope cannot be read") from None
        if bootstrap:
            return self._self_signed(signed, receipt, event)
        command = self._door(signed, stream, at)
        if str(command.command_id) != str(by.command_id):
            raise _Unproven(f"the envelope its receipt keeps is command {command.command_id}'s")
        from ledger.application.bus import registered
        from ledger.application.handlers.registry import HANDLERS  # loaded once proven

        handler = registered(HANDLERS).get(type(command))
        if handler is None:
            raise _Unproven(f"{type(command).__name__} does not change the registry")
        try:
            aggregates = handler(command, _Before(self, stream, before, at))
        except LedgerError as error:
            raise _Unproven(f"executed again on the registry before it, {type(command).__name__} "
                            f"is refused: {first_line(error)[:200]}") from None
        made = [e for a in aggregates for e in a.collect_events()]
        if len(made) != 1 or not _same(made[0], stream.stream_id, row):
            raise _Unproven(f"{type(command).__name__}, executed again, does not record it")
        return aggregates[0]

    def _door(self, signed: SignedCommand, stream: _Stream, at: int) -> Command:
        def entry(kind: type[K], stream_id: UUID) -> K | None:
            if stream_id == stream.stream_id:
                found = stream.states[-1][1] if stream.states else None
            else:
                found = self._as_of(stream_id, at)
            return of_kind(kind, found, stream_id)

        if signed.ledger is None:
            bound = self.rows.first_bound()
            if bound is not None and at > bound:
                raise _Unproven(f"its envelope names no ledger, though the ledger's commands "
                                f"have named it since position {bound}: the door refuses it")
        try:
            return admit(signed, lambda i: entry(StaffMember, staff_stream_id(i)),
                         lambda i: entry(TerminalDevice, terminal_stream_id(i)), None,
                         ledger_id=self.ledger_id if signed.ledger is not None else None)
        except (LedgerError, ValidationError) as error:
            reason = (f"its envelope is malformed ({counted(error.error_count(), 'problem')})"
                      if isinstance(error, ValidationError) else first_line(error)[:240])
            raise _Unproven(f"its envelope would be refused at the door as the registry "
                            f"stood before its receipt (position {at}): {reason}") from None

    # -- the bootstrap --------------------------------------------------------------------
    def _bootstrap_of(self, stream_id: UUID, row: StoredRow) -> bool:
        """Whether `row` is the first administrator's enrolment or their console's
        registration, recorded with the registry's root by `ledger db init`."""
        if row.version != 1 or stream_id == REGISTRY_ID:
            return False
        roots, _ = self.rows.stream(REGISTRY_ID)
        if not roots or roots[0].position >= row.position:
            return False
        root = _decode(roots[0].topic, roots[0].state, REGISTRY_ID, 1)
        return stream_id in (staff_stream_id(root.administrator),
                             terminal_stream_id(root.terminal)) \
            and not self.rows.receipt_between(roots[0].position, row.position)

    def _self_signed(self, signed: SignedCommand, receipt: Any, event: Any) -> Aggregate:
        """The bootstrap's entry: signed by the staff and terminal keys it enrols itself."""
        command = receipt.command
        body = {k: v for k, v in command.items() if k not in ("actor", "terminal",
                                                               "credentials")}
        if signed.command != body or str(command.get("command_id")) != str(
                event.by.command_id):
            raise _Unproven("its receipt's command is not the envelope's")
        keys = {"staff": command.get("public_key") if isinstance(event, StaffMember.Enrolled)
                else None,
                "terminal": command.get("public_key")
                if isinstance(event, TerminalDevice.Registered) else None}
        for signer, key in keys.items():
            if key is None:
                continue
            mine = signed.by(signer)
            if len(mine) != 1 or mine[0].key != fingerprint(key) \
                    or not verify(key, mine[0].value, signed.message()):
                raise _Unproven(f"the bootstrap's {signer} signature is not by the key it enrols")
        fields = ("staff_id", "name", "roles", "public_key", "terminal_id", "kind", "location")
        for name in fields:
            if hasattr(event, name) and str(getattr(event, name)) != str(command.get(name)) \
                    and not isinstance(getattr(event, name), list):
                raise _Unproven(f"its {name} is not what its signed command says")
        if isinstance(event, StaffMember.Enrolled) and [str(r) for r in event.roles] != [
                str(r) for r in command.get("roles", [])]:
            raise _Unproven("its roles are not what its signed command says")
        enrolled: Aggregate = event.mutate(None)  # the stream's first event makes it
        return enrolled


class _Before(ReadsByKind):
    """The registry as a handler executed again reads it: the stream being proven as it
    stood before the event, any other as proven before the command's receipt."""

    rules = RULES_EDITION  # the registry's handlers read no edition

    def __init__(self, proof: RegistryProof, stream: _Stream, before: Aggregate | None,
                 at: int) -> None:
        self.proof, self.stream, self.before, self.at = proof, stream, before, at

    def found(self, aggregate_id: UUID) -> Aggregate | None:
        if aggregate_id == self.stream.stream_id:
            return deepcopy(self.before)
        return deepcopy(self.proof._as_of(aggregate_id, self.at))

    def exists(self, aggregate_id: UUID) -> bool:
        return self.found(aggregate_id) is not None


class _Unproven(Exception):
    pass


def _at_version(state: Aggregate | None, version: int) -> Aggregate | None:
    """The state unchanged but at the version an event skipped took: the next real change is
    executed again at the version the log gave it (a forged event in between does not void a
    real suspension)."""
    if state is None:
        return None
    state = deepcopy(state)
    state.version = version
    return state


def _decode(topic: str, state: bytes, stream_id: UUID, version: int) -> Any:
    try:
        return _mapper.to_domain_event(StoredEvent(stream_id, version, topic, state))
    except (ValidationError, ValueError, ImportError, AttributeError, TypeError) as error:
        raise _Unproven(f"it cannot be read as the event it names ({first_line(error)[:120]})"
                        ) from None


def _same(made: Any, stream_id: UUID, row: StoredRow) -> bool:
    stored = _mapper.to_stored_event(made)
    if (stored.originator_id, stored.originator_version, stored.topic) != (
            stream_id, row.version, row.topic):
        return False
    mine, theirs = json.loads(stored.state), json.loads(row.state)
    return all(mine.get(k) == theirs.get(k) for k in set(mine) | set(theirs)
               if k not in UNTIMED)


def with_alarm(error: LedgerError, signed: SignedCommand, proof: RegistryProof) -> LedgerError:
    """The door's refusal, naming what the registry holds for the command's signers that no
    signed command proves (the refusal as it was when there is nothing)."""
    ids = [(terminal_stream_id, signed.terminal), (staff_stream_id, signed.staff),
           *((staff_stream_id, s.id) for s in signed.by("cosigner"))]
    found: list[str] = []
    for stream_of, signer in ids:
        try:
            found += [f for f in proof.forged(stream_of(signer)) if f not in found]
        except LedgerError:
            continue  # an id the door refused as malformed
    if not found:
        return error
    try:
        return type(error)(f"{error} ALARM: {'; '.join(found)}.")
    except TypeError:
        return error
