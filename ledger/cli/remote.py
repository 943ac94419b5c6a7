"""A write command sent to the ledger's terminal API (`LEDGER_API_URL`, `ledger serve`) rather
than recorded on the database from here: signed on this machine with its terminal's key and
the person's, as a terminal signs, and recorded by the server's door like any terminal's.

The machine then needs no database login, and the command loads no database client and no
event store. What is printed is what the server answers, the same sentence either way. A
server that cannot be reached, or an answer that is lost, is tried again with the same signed
envelope until the command deadline: the ledger records one command id once, so a resend that
meets a command already recorded is told so and records nothing. Past the deadline the line
says whether the command may have been received (a command typed again is a new one).

A command is signed for one ledger (the envelope's `ledger`), so before it signs the client
asks the server which ledger it records on (`GET /v1/ledger`), once a command.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from ledger.application.config import LedgerSettings
from ledger.core.errors import LedgerError
from ledger.identity.envelope import SignedCommand
from ledger.web.codes import kind_of

RETRY_SECONDS = 1.0  # money-safe: seconds between attempts at an unreachable server


class ApiUnavailable(LedgerError):
    """The terminal API did not answer within the command deadline."""


def ledger_id_over_api(settings: LedgerSettings, on_wait: Callable[[str], None]) -> str:
    """The id of the ledger the API records on (`GET /v1/ledger`), which a command is signed
    for; asked again while the server cannot be reached, up to the command deadline."""
    assert settings.api_url is not None
    url = settings.api_url.rstrip("/") + "/v1/ledger"
    status, answer = _exchange(settings, url, None, on_wait, lambda _: (
        "the command is signed for the ledger's id, asked first, so it was not signed: it was "
        "never received, so nothing was recorded."))
    if status >= 400:
        raise _refusal(status, answer)
    ledger_id = answer.get("ledger")
    if not isinstance(ledger_id, str) or not ledger_id:
        raise LedgerError(f"the server at {settings.api_url} did not say which ledger it "
                          "records on: is LEDGER_API_URL the ledger's API (`ledger serve`)?")
    return ledger_id


def send_over_api(settings: LedgerSettings, signed: SignedCommand,
                  on_wait: Callable[[str], None]) -> str:
    """The command posted to the API; what the server says it recorded (lines), or the
    server's refusal raised as the same kind of `LedgerError` the ledger raised there."""
    assert settings.api_url is not None
    url = settings.api_url.rstrip("/") + "/v1/commands"
    status, answer = _exchange(settings, url, signed.model_dump_json().encode(), on_wait,
                               lambda delivered: (
        f"whether command {signed.command['command_id']} was recorded is not known; look "
        "(`ledger round show`, the floor) before typing it again, for a command typed again "
        "is a new one." if delivered else "it was never received, so nothing was recorded."))
    if status >= 400:
        raise _refusal(status, answer)
    return _said(answer)


def _exchange(settings: LedgerSettings, url: str, body: bytes | None,
              on_wait: Callable[[str], None], lost: Callable[[bool], str]) -> tuple[int, Any]:
    """A request sent (a POST with `body`, a GET without) until it is answered or the
    deadline passes; then `lost(whether it may have been received)` ends the refusal."""
    deadline = settings.command_deadline_seconds
    started = time.monotonic()
    told = False
    delivered = False  # whether any attempt may have reached the server
    while True:
        try:
            return _post(url, body, timeout=deadline + 10.0)
        except OSError as error:  # refused, reset, timed out: the answer may be lost
            reason = getattr(error, "reason", None) or error
            delivered = delivered or not isinstance(reason, ConnectionRefusedError)
            waited = time.monotonic() - started
            if waited >= deadline:
                raise ApiUnavailable(
                    f"the ledger's API at {settings.api_url} did not answer ({reason}; waited "
                    f"{waited:.0f} s, the deadline): {lost(delivered)}") from None
            if not told:
                told = True
                on_wait(f"the ledger's API at {settings.api_url} does not answer ({reason}); "
                        f"sending again up to {deadline} s...")
            time.sleep(RETRY_SECONDS)


def _post(url: str, body: bytes | None, timeout: float) -> tuple[int, Any]:  # money-safe: s
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, text = response.status, response.read()
    except urllib.error.HTTPError as refused:
        status, text = refused.code, refused.read()
    try:
        answer = json.loads(text)
    except ValueError:
        answer = None
    if not isinstance(answer, dict) or not answer.keys() & {"summary", "error", "ledger"}:
        return max(status, 400), {"error": {"code": "refused", "message": (
            f"the server answered {status} without the ledger's JSON: is LEDGER_API_URL the "
            "ledger's API (`ledger serve`)?")}}
    return status, answer


def _refusal(status: int, answer: dict[str, Any]) -> LedgerError:
    error = answer.get("error")
    error = error if isinstance(error, dict) else {}
    message = str(error.get("message") or f"the server refused the command ({status})")
    return kind_of(str(error.get("code", "")))(message)


def _said(answer: dict[str, Any]) -> str:
    """The server's summary, as the CLI prints a local one: what was recorded, then a line
    for each thing the money did."""
    details = [str(line) for line in answer.get("details", [])]
    summary = str(answer["summary"])
    tail = "; ".join(details)
    if details and summary.endswith("; " + tail):
        summary = summary[: -len(tail) - 2]
    return "\n  ".join((summary, *details))
