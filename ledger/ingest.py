"""`ledger ingest FILE.jsonl`: commands as a dealer terminal or a smart shoe sends them.

One JSON object per line. Each line is executed on its own: a rejected line records nothing
and does not stop the others; a line already recorded (same `command_id`) records nothing new,
so ingesting the same file twice is harmless.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum

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


def ingest_lines(ledger: Ledger, lines: Iterable[str]) -> Iterator[LineResult]:
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            yield LineResult(number, LineStatus.BLANK, "")
            continue
        try:
            command = COMMAND_ADAPTER.validate_json(line)
        except ValidationError as error:
            yield LineResult(number, LineStatus.REJECTED, describe_validation_error(error))
            continue
        try:
            recorded = ledger.execute(command)
        except LedgerError as error:
            yield LineResult(number, LineStatus.REJECTED, f"{command.command}: {error}")
            continue
        status = LineStatus.DUPLICATE if recorded.duplicate else LineStatus.ACCEPTED
        yield LineResult(number, status, f"{command.command}: {recorded.summary()}")
