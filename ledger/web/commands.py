"""`POST /v1/commands`: the terminals' signed commands in, their answers out.

A floor's terminals send one command after another, each waiting for its answer, so the route
is answered before the framework's stack (`serve`, called by `ledger.web.app.LedgerApp` for
this one method and path): the request's body read under the same limit and refused as the
same JSON as every other route's (`ledger.web.limits`, `ledger.web.errors`), without the
middleware, routing, dependency and response objects around it, which took a third of the
server's interpreter at a busy floor. `answer` is the route itself, shared with the
framework's route that the OpenAPI schema documents (`ledger.web.api.commands`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import Executor
from typing import Any

from pydantic import ValidationError

from ledger.application.batch import execute_batch
from ledger.application.ingest import parse_json
from ledger.application.ledger import Ledger, Recorded
from ledger.core.errors import LedgerError
from ledger.identity.envelope import SignedCommand
from ledger.web.errors import ApiError, internal_error, refusal
from ledger.web.limits import MAX_BODY_BYTES, refuse, unsupported_type
from ledger.web.recording import record

log = logging.getLogger("ledger.web")
PATH = "/v1/commands"
JSON_TYPE = [(b"content-type", b"application/json")]


async def answer(ledger: Ledger, threads: Executor, raw: bytes) -> tuple[int, bytes]:
    """The answer to a body sent to the route: its status and JSON."""
    try:
        sent = read_envelopes(raw)
        if isinstance(sent, list):
            done = await asyncio.get_running_loop().run_in_executor(
                threads, execute_batch, ledger, sent)
            return 200 if all(r.duplicate for r in done) else 201, answer_body(done)
    except (ApiError, LedgerError) as error:
        status, out = refusal(error)
        return status, dumps(out)
    try:
        recorded = await record(ledger, sent, threads)
    except LedgerError as error:
        status, out = refusal(error)
        out["error"]["command"] = sent.name
        return status, dumps(out)
    return 200 if recorded.duplicate else 201, answer_body(recorded)


async def serve(ledger: Ledger, threads: Executor, scope: Any, receive: Any, send: Any) -> None:
    """The route as a plain ASGI application."""
    headers = dict(scope["headers"])
    declared = headers.get(b"content-length", b"").decode("latin-1")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        await refuse(send, f"the request is {int(declared):,} bytes")
        return
    wrong = unsupported_type(headers)
    if wrong is not None:
        await refuse(send, None, wrong, status=415, code="unsupported_media_type")
        return
    raw = bytearray()
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client went away: no one to answer
            return
        raw += message.get("body", b"")
        if len(raw) > MAX_BODY_BYTES:
            await refuse(send, "the request is larger than that")
            return
        if not message.get("more_body", False):
            break
    try:
        status, body = await answer(ledger, threads, bytes(raw))
    except Exception as error:  # answered as the application answers a failure
        log.exception("POST %s failed", PATH)
        status, body = 500, dumps(internal_error(error))
    await send({"type": "http.response.start", "status": status, "headers": [
        *JSON_TYPE, (b"content-length", str(len(body)).encode("ascii"))]})
    await send({"type": "http.response.body", "body": body})


def read_envelopes(raw: bytes) -> SignedCommand | list[SignedCommand]:
    """A request's body read into its signed command, or its ordered batch of them."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ApiError(400, "invalid_json", f"the body is not UTF-8 (byte {error.start + 1}); "
                       "nothing recorded.") from None
    try:
        data = parse_json(text)
    except LedgerError as error:
        raise ApiError(400, "invalid_json", str(error)) from None
    if isinstance(data, list):
        return [_envelope(item, f"command {index + 1} of {len(data)}")
                for index, item in enumerate(data)]
    return _envelope(data, "the command")


def _envelope(data: Any, which: str) -> SignedCommand:
    if not isinstance(data, dict):
        raise ApiError(400, "invalid_json", f"{which} is not a JSON object: send a signed "
                       "command, or an array of them; nothing recorded.")
    try:
        return SignedCommand.model_validate(data)
    except ValidationError as error:
        status, body = refusal(error)
        raise ApiError(status, "invalid_input", f"{which}: {body['error']['message']}") from None


def recorded_out(recorded: Recorded) -> dict[str, Any]:
    """A recorded command as the API answers it (`ledger.web.api.RecordedOut`'s shape, written
    without building the model: a terminal waits for every answer)."""
    return {"status": "already_recorded" if recorded.duplicate else "recorded",
            "command_id": str(recorded.command_id), "summary": recorded.summary(between="; "),
            "details": list(recorded.details),
            "events": [{"stream": str(s), "version": v, "type": t}
                       for s, v, t in recorded.events]}


def answer_body(recorded: Recorded | list[Recorded]) -> bytes:
    """The answer's bytes, as `JSONResponse` writes JSON."""
    return dumps([recorded_out(r) for r in recorded] if isinstance(recorded, list)
                 else recorded_out(recorded))


def dumps(out: Any) -> bytes:
    """JSON as `JSONResponse` writes it."""
    return json.dumps(out, ensure_ascii=False, allow_nan=False,
                      separators=(",", ":")).encode("utf-8")
