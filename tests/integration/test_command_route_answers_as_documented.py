"""`POST /v1/commands` is answered before the framework's stack (`ledger.web.commands`): every
answer it gives, recorded, already recorded or refused, is the one the documented route gives
through the framework, status and body, byte for byte."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
from fastapi import FastAPI

from ledger.runtime.bootstrap import open_ledger
from ledger.web.app import create_app
from tests.integration.helpers import open_table
from tests.signing import SigningLedger

JSON = {"Content-Type": "application/json"}


def _post(app: Callable[..., Any], content: bytes | Callable[[], AsyncIterator[bytes]],
          headers: dict[str, str]) -> httpx.Response:
    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://ledger") as client:
            return await client.post("/v1/commands", headers=headers, content=content
                                     if isinstance(content, bytes) else content())
    return asyncio.run(send())


async def _streamed() -> AsyncIterator[bytes]:
    """A body sent in parts without a declared length, past the limit."""
    yield b'{"padding": "'
    for _ in range(25):
        yield b"x" * 100_000
    yield b'"}'


def test_the_commands_route_answers_every_body_as_the_framework_route_does(settings):
    with open_ledger(settings) as rt:
        app = create_app(rt)

        def framework(scope: Any, receive: Any, send: Any) -> Any:  # the route as documented
            return FastAPI.__call__(app, scope, receive, send)
        signer = SigningLedger(rt.ledger)
        opening = signer.sign(open_table("BAC-31")).model_dump_json().encode()
        elsewhere = signer.sign(open_table("BAC-32")).model_dump(mode="json")
        elsewhere["ledger"] = "another-ledger"
        bodies: dict[str, tuple[bytes, dict[str, str]]] = {
            "not JSON": (b"{", JSON),
            "not UTF-8": (b'{"command": "\xff"}', JSON),
            "an array of a number": (b"[1]", JSON),
            "an envelope of the wrong shape": (b'{"command": {"command": "open_table"}}', JSON),
            "sent as text": (opening, {"Content-Type": "text/plain"}),
            "over the limit": (json.dumps({"padding": "x" * 2_100_000}).encode(), JSON),
            "signed for another ledger": (json.dumps(elsewhere).encode(), JSON),
        }
        for what, (content, headers) in bodies.items():
            fast, documented = _post(app, content, headers), _post(framework, content, headers)
            assert (fast.status_code, fast.content) == (
                documented.status_code, documented.content), what
            assert fast.headers["content-type"] == "application/json", what
        streamed = _post(app, _streamed, JSON), _post(framework, _streamed, JSON)  # no length
        assert [(a.status_code, a.content) for a in streamed] == [
            (413, streamed[0].content)] * 2
        assert b'"code":"too_large"' in streamed[0].content
        batch = b"[" + opening + b"]"
        assert _post(app, batch, JSON).status_code == 201  # recorded
        for content in (batch, opening):  # and sent again, alone or in a batch
            again = _post(app, content, JSON), _post(framework, content, JSON)
            assert [a.status_code for a in again] == [200, 200]
            assert again[0].content == again[1].content
            assert "already_recorded" in again[0].text
