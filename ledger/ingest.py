"""`ledger ingest FILE.jsonl`: commands as a dealer terminal or a smart shoe sends them.

One JSON object per line: a signed command (the envelope of `ledger.identity.envelope`),
verified as it stands, or, only when ingesting with a voucher, a bare command, which the
ingesting terminal and person sign on its behalf and the ledger records as vouched for ("unsigned
line 7 of feed.jsonl"), never as the work of whoever the line claims. Each line is executed on
its own: a rejected line records nothing and does not stop the others; a line already recorded
(same `command_id`) records nothing new, so ingesting the same file twice is harmless. A bare
line without a `command_id` gets one derived from its text and line number.
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
from ledger.errors import LedgerError, describe_validation_error
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
    """The ingesting terminal and person, who sign bare lines on the lines' behalf."""

    terminal: Credential
    staff: Credential
    source: str


UNSIGNED = ("an unsigned line: send signed commands, or ingest with --vouch to record it under "
            "this terminal's and your signature as vouched for")


def _signed(data: dict[str, Any], number: int, line: str,
            voucher: Voucher | None) -> SignedCommand:
    if "signatures" in data or "protocol" in data:
        return SignedCommand.model_validate(data)
    if voucher is None:
        raise LedgerError(UNSIGNED)
    data.setdefault("command_id", str(uuid5(LINE_NAMESPACE, f"{number}:{line.strip()}")))
    return sign(data, voucher.terminal, voucher.staff,
                vouched=f"unsigned line {number} of {voucher.source}")


def ingest_lines(ledger: Ledger, lines: Iterable[str],
                 voucher: Voucher | None = None) -> Iterator[LineResult]:
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            yield LineResult(number, LineStatus.BLANK, "")
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise ValueError("each line must be one JSON object")
            signed = _signed(data, number, line, voucher)
        except ValidationError as error:  # before ValueError: it is one
            yield LineResult(number, LineStatus.REJECTED, describe_validation_error(error))
            continue
        except ValueError as error:
            yield LineResult(number, LineStatus.REJECTED, f"not a JSON object: {error}")
            continue
        except LedgerError as error:
            yield LineResult(number, LineStatus.REJECTED, str(error))
            continue
        try:
            recorded = ledger.execute(signed)
        except LedgerError as error:
            yield LineResult(number, LineStatus.REJECTED, f"{signed.name}: {error}")
            continue
        status = LineStatus.DUPLICATE if recorded.duplicate else LineStatus.ACCEPTED
        yield LineResult(number, status, f"{signed.name}: {recorded.summary()}")
