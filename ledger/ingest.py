"""`ledger ingest FILE.jsonl`: commands as a dealer terminal or a smart shoe sends them.

One JSON object per line. Each line is executed on its own: a rejected line records nothing
and does not stop the others; a line already recorded (same `command_id`) records nothing new,
so ingesting the same file twice is harmless. A terminal sends its own `command_id`; a line
without one gets an id derived from its text and line number.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from uuid import NAMESPACE_URL, uuid5

from pydantic import ValidationError

from ledger.application import Ledger
from ledger.commands import COMMAND_ADAPTER
from ledger.errors import LedgerError, describe_validation_error


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


def _with_command_id(line: str, number: int) -> dict[str, Any]:
    """The line's fields; a line without a `command_id` gets one derived from its text and its
    line number, so ingesting the same file again records nothing new."""
    data = json.loads(line)
    if not isinstance(data, dict):
        raise ValueError("each line must be one JSON object")
    data.setdefault("command_id", str(uuid5(LINE_NAMESPACE, f"{number}:{line.strip()}")))
    return data


def ingest_lines(ledger: Ledger, lines: Iterable[str]) -> Iterator[LineResult]:
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            yield LineResult(number, LineStatus.BLANK, "")
            continue
        try:
            command = COMMAND_ADAPTER.validate_python(_with_command_id(line, number))
        except ValidationError as error:  # before ValueError: it is one
            yield LineResult(number, LineStatus.REJECTED, describe_validation_error(error))
            continue
        except ValueError as error:
            yield LineResult(number, LineStatus.REJECTED, f"not a JSON object: {error}")
            continue
        try:
            recorded = ledger.execute(command)
        except LedgerError as error:
            yield LineResult(number, LineStatus.REJECTED, f"{command.command}: {error}")
            continue
        status = LineStatus.DUPLICATE if recorded.duplicate else LineStatus.ACCEPTED
        yield LineResult(number, status, f"{command.command}: {recorded.summary()}")
