"""`ledger ingest FILE.jsonl`: commands as a dealer terminal or a smart shoe sends them.

One JSON object per line: a signed command (the envelope of `ledger.identity.envelope`),
verified as it stands, or, only when ingesting with a voucher, a bare command, which the
ingesting terminal and person sign on its behalf and the ledger records as vouched for ("unsigned
line 7 of feed.jsonl"), never as the work of whoever the line claims. Each line is executed on
its own: a rejected line records nothing and does not stop the others; a line already recorded
(same `command_id`) records nothing new, so ingesting the same file twice is harmless. A bare
line without a `command_id` gets one derived from its text and line number; a bare line
without `at` is stamped with the time it is first recorded (and keeps it when ingested again).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from functools import cache
from typing import Any, get_args
from uuid import NAMESPACE_URL, UUID, uuid5

from pydantic import ValidationError

from ledger.application.ledger import Ledger
from ledger.commands import all_commands, utc_now
from ledger.commands.shift import SHIFT_COMMANDS, ShiftCommand
from ledger.core.errors import LedgerError, describe_validation_error
from ledger.domain.grammar import shown
from ledger.domain.receipt import receipt_id
from ledger.domain.shift_schedule import ShiftSchedule
from ledger.identity.envelope import SignedCommand, sign
from ledger.identity.keys import Credential


class LineStatus(StrEnum):
    ACCEPTED = "accepted"
    DUPLICATE = "duplicate"
    REJECTED = "rejected"
    BLANK = "blank"


@dataclass(frozen=True)
class LineResult:
    number: int
    status: LineStatus
    detail: str


LINE_NAMESPACE = uuid5(NAMESPACE_URL, "https://round-ledger/ingest-line")


@dataclass(frozen=True)
class Voucher:
    """The ingesting terminal and person, who sign bare lines on the lines' behalf; a bare
    shift line that names no gaming day or shift is of the shift in force at its time by the
    schedule (as the CLI's shift commands default), and one that names no supervisor is signed
    by the person vouching for it as its supervisor."""

    terminal: Credential
    staff: Credential
    source: str
    schedule: ShiftSchedule | None = None


SHIFT_LINES = {kind.model_fields["command"].default: kind
               for kind in SHIFT_COMMANDS if issubclass(kind, ShiftCommand)}
"""A shift line's `command` -> its model: which lines name a shift, and which a supervisor."""


MAX_LINE_BYTES = 32_768
"""The longest line read: a signed command of the largest size the door admits, with room."""
BOM = b"\xef\xbb\xbf"


def read_line(raw: bytes) -> str:
    """One line of a feed as text: at most MAX_LINE_BYTES of UTF-8 (a leading byte-order mark,
    which some terminals' exporters write, is dropped); `LedgerError` naming what is wrong."""
    if len(raw) > MAX_LINE_BYTES:
        raise LedgerError(f"the line is {len(raw):,} bytes: a command is at most "
                          f"{MAX_LINE_BYTES:,}; nothing recorded.")
    try:
        return raw.removeprefix(BOM).decode("utf-8")
    except UnicodeDecodeError as error:
        raise LedgerError(f"the line is not UTF-8 (byte {error.start + 1} is "
                          f"0x{raw[error.start]:02x}); nothing recorded.") from None


def parse_json(text: str) -> Any:
    """JSON, strictly: no duplicate keys, no NaN or Infinity, no number beyond what a float or
    the ledger holds (`1e999`, `1e-999`, a whole number of a hundred digits), not nested past
    reason."""
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant,
                          parse_float=_float, parse_int=_int)
    except RecursionError:
        raise LedgerError("the JSON is nested too deeply to be a command; nothing "
                          "recorded.") from None
    except json.JSONDecodeError as error:
        raise LedgerError(f"not JSON: {_where(error)}; nothing recorded.") from None
    except ValueError as error:  # a number the decoder itself cannot hold
        raise LedgerError(f"not JSON the ledger reads: {shown(str(error), 80)}; nothing "
                          "recorded.") from None
    _refuse_unheld(data, None)
    return data


def _where(error: json.JSONDecodeError) -> str:
    """What the decoder found wrong, at the line and column where it is (a line cut short is
    wrong at its end: after its last character, not on a line after it)."""
    text = error.doc.rstrip("\r\n")
    position = min(error.pos, len(text))
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    said = error.msg[0].lower() + error.msg[1:]
    place = f"line {line}, column {column}" if "\n" in text else f"column {column}"
    if position >= len(text):
        return f"it ends at {place} before the JSON is complete ({said})"
    return f"{said} at {place}"


def parse_object(line: str) -> dict[str, Any]:
    """One JSON object, strictly (`parse_json`)."""
    data = parse_json(line)
    if not isinstance(data, dict):
        raise LedgerError("each line must be one JSON object.")
    return data


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise LedgerError(f"the key '{shown(key)}' appears twice in one object: which one "
                              "was meant cannot be told, so nothing is recorded.")
        _refuse_unheld(value, key)
        data[key] = value
    return data


def _no_constant(name: str) -> Any:
    raise LedgerError(f"{name} is not a number the ledger records.")


MONEY_AS_TEXT = " (money is sent as a string of patacas such as \"100.00\")"


@cache
def money_fields() -> frozenset[str]:
    """The fields that hold money in some command (`Money`, a Decimal): where a number out of
    range is told how money is sent (read when one is met: every command area imported)."""
    from ledger.commands import all_commands

    return frozenset(name for kind in all_commands() for name, field in kind.model_fields.items()
                     if Decimal in (field.annotation, *get_args(field.annotation)))


@cache
def whole_number_fields() -> dict[str, str]:
    """The fields that hold a whole number in some command (a box, a round, a count), each with
    what it takes (`a whole number from 1 to 99`): what a line is told when it sends a number
    no such field can be."""
    from ledger.commands import all_commands

    said: dict[str, str] = {}
    for kind in all_commands():
        for name, field in kind.model_fields.items():
            if name in said or int not in (field.annotation, *get_args(field.annotation)):
                continue
            low = next((m.ge for m in field.metadata if hasattr(m, "ge")), None)
            high = next((m.le for m in field.metadata if hasattr(m, "le")), None)
            bounds = f" from {low:,} to {high:,}" if low is not None and high is not None else ""
            said[name] = f"a whole number{bounds}"
    return said


MAX_DIGITS = 30
"""The longest whole number read: more than any count, box or amount the ledger holds."""


@dataclass(frozen=True)
class _Unheld:
    """A number as written that no value holds faithfully: refused, naming its key, by the
    object it is found in (or by `parse_json`, outside any object)."""

    text: str
    why: str
    money: bool = False
    """A fraction: under a money field, say how money is sent."""


def _float(text: str) -> float | _Unheld:  # money-safe: JSON's own fraction, never money
    """A JSON fraction as `json` reads it, checked that a float holds it; a money field then
    refuses any JSON number (money is sent as text), so no amount is ever read through it."""
    value = float(text)  # money-safe: see above
    if not math.isfinite(value):
        return _Unheld(text, "not a finite number", money=True)
    if value == 0 and any(digit in "123456789" for digit in text.lower().partition("e")[0]):
        return _Unheld(text, "too small to be held: it reads as zero", money=True)
    return value


def _int(text: str) -> int | _Unheld:
    if len(text.lstrip("-")) > MAX_DIGITS:
        return _Unheld(text, f"a whole number of {len(text.lstrip('-')):,} digits, beyond any "
                             "count or amount the ledger records")
    return int(text)


def _refuse_unheld(value: Any, key: str | None) -> None:
    """Refuse a number `_float` or `_int` could not hold: the value of `key`, or in a list
    there (an object in the list was checked as it was read)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, list):
            pending += item
        elif isinstance(item, _Unheld):
            where = f"'{shown(key)}' is" if key is not None else "the JSON holds"
            why = item.why
            if item.money and key in money_fields():
                why = f"{why.replace('number', 'amount of money')}{MONEY_AS_TEXT}"
            elif key in whole_number_fields():
                why = f"{why}; '{shown(key)}' takes {whole_number_fields()[key]}"
            raise LedgerError(f"{where} the number {shown(item.text)}: {why}; nothing "
                              "recorded.")


UNSIGNED = ("an unsigned line: send signed commands, or ingest with --vouch to record it under "
            "this terminal's and your signature as vouched for")


def _signed(ledger: Ledger, data: dict[str, Any], number: int, line: str,
            voucher: Voucher | None) -> SignedCommand:
    if "signatures" in data or "protocol" in data:
        return SignedCommand.model_validate(data)
    if voucher is None:
        raise LedgerError(UNSIGNED)
    data.setdefault("command_id", str(uuid5(LINE_NAMESPACE, f"{number}:{line.strip()}")))
    if "at" not in data:  # stamped when first recorded; the same line again keeps that time
        data["at"] = _first_recorded_at(ledger, data["command_id"]) or utc_now().isoformat()
    if data.get("command") in SHIFT_LINES:
        _shift_defaults(data, voucher)
    return sign(data, voucher.terminal, voucher.staff,
                vouched=f"unsigned line {number} of {voucher.source}", ledger=ledger.ledger_id)


def _shift_defaults(data: dict[str, Any], voucher: Voucher) -> None:
    if voucher.schedule is not None and ("gaming_day" not in data or "shift" not in data):
        try:
            slot = voucher.schedule.locate(datetime.fromisoformat(str(data["at"])))
        except ValueError:
            return  # the command's own validation names the time
        data.setdefault("gaming_day", slot.gaming_day.isoformat())
        data.setdefault("shift", slot.shift)
    if "supervisor" in SHIFT_LINES[data["command"]].model_fields:
        data.setdefault("supervisor", voucher.staff.id)


def _first_recorded_at(ledger: Ledger, command_id: Any) -> str | None:
    try:
        accepted = next(ledger.app.events.get(receipt_id(UUID(str(command_id))), limit=1), None)
    except ValueError:
        return None  # not a UUID: the command's own validation names it
    receipt: Any = accepted  # a CommandReceipt.Accepted: the command it recorded
    return str(receipt.command["at"]) if receipt is not None else None


def ingest_lines(ledger: Ledger, lines: Iterable[bytes | str],
                 voucher: Voucher | None = None) -> Iterator[LineResult]:
    """Each line (bytes as read from the file, or text) executed on its own."""
    for number, raw in enumerate(lines, start=1):
        try:
            line = read_line(raw) if isinstance(raw, bytes) else raw
            if not line.strip() or line.lstrip().startswith("#"):
                yield LineResult(number, LineStatus.BLANK, "")
                continue
            signed = _signed(ledger, parse_object(line), number, line, voucher)
        except ValidationError as error:
            yield LineResult(number, LineStatus.REJECTED, describe_validation_error(error))
            continue
        except LedgerError as error:
            yield LineResult(number, LineStatus.REJECTED, str(error))
            continue
        try:
            recorded = ledger.execute(signed)
        except LedgerError as error:
            said = str(error).removeprefix(f"{signed.name}: ")  # named once, first
            if signed.name in {command.model_fields["command"].default
                               for command in all_commands()}:
                said = f"{shown(signed.name)}: {said}"
            yield LineResult(number, LineStatus.REJECTED, said)  # an unknown one names itself
            continue
        status = LineStatus.DUPLICATE if recorded.duplicate else LineStatus.ACCEPTED
        yield LineResult(number, status, f"{signed.name}: {recorded.summary(between='; ')}")
