"""One body limit for every route: a request body over `MAX_BODY_BYTES` is refused as it
arrives, never read whole, with the API's refusal (413, `too_large`), whichever route it is
sent to (the terminal API's, the sign-in page's, one that takes no body at all); and one kind of
body: a POST, PUT or PATCH that carries one must say it is JSON (415, `unsupported_media_type`,
unread), so that text a browser or a script sends as something else is never recorded."""

from __future__ import annotations

import json
from typing import Any

from fastapi import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 2_000_000
"""The largest request read: a batch of the most commands, each of the largest size, with room."""


class BodyTooLarge(HTTPException):
    """Raised while a body is read past the limit. An `HTTPException`, so that FastAPI passes it
    on as it is (it makes any other error met reading a body a 400) to the application's
    handler, which answers it as `refusal_body` says."""

    def __init__(self, what: str) -> None:
        super().__init__(413, too_large_message(what))


def too_large_message(what: str) -> str:
    return (f"{what}: at most {MAX_BODY_BYTES:,} bytes a request; send a batch in parts; "
            "nothing recorded.")


def refusal_body(message: str) -> dict[str, Any]:
    return {"error": {"code": "too_large", "message": message}}


class BodyLimit:
    """ASGI middleware: a body declared larger than the limit is refused unread, and one
    streamed past it is cut off there (a client cannot make the server hold more)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"").decode("latin-1")
        if declared.isdigit() and int(declared) > self.limit:
            await refuse(send, f"the request is {int(declared):,} bytes")
            return
        received = 0
        started = False

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge("the request is larger than that")
            return message

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, sending)
        except BodyTooLarge as error:  # a route that met it without the application's handler
            if started:
                raise
            await refuse(send, None, str(error.detail))


class JsonBodies:
    """ASGI middleware: a body sent with any Content-Type but application/json (or with none)
    is refused unread. A request without a body (a challenge, a sign-out) passes."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in BODY_METHODS:
            wrong = unsupported_type(dict(scope["headers"]))
            if wrong is not None:
                await refuse(send, None, wrong, status=415, code="unsupported_media_type")
                return
        await self.app(scope, receive, send)


BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


def unsupported_type(headers: dict[bytes, bytes]) -> str | None:
    """Why a request's body is refused unread (it carries one not sent as JSON), or None."""
    length = headers.get(b"content-length", b"").decode("latin-1").strip()
    has_body = b"transfer-encoding" in headers or (length not in ("", "0"))
    kind = headers.get(b"content-type", b"").decode("latin-1")
    if has_body and kind.partition(";")[0].strip().lower() != "application/json":
        said = f"'{kind[:60]}'" if kind else "no Content-Type"
        return (f"the body is sent as {said}: send it as 'Content-Type: application/json'; "
                "nothing recorded.")
    return None


async def refuse(send: Send, what: str | None, message: str | None = None, *,
                  status: int = 413, code: str = "too_large") -> None:
    body = json.dumps({"error": {"code": code, "message": message or too_large_message(
        str(what))}}, separators=(",", ":")).encode()  # as the API's JSONResponse writes it
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
