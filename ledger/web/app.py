"""The web application: the terminal API on the ledger a `Runtime` holds (the composition root's,
`ledger.runtime.bootstrap.open_ledger`), refusals as JSON with stable codes, OpenAPI at /docs."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send

from ledger import software_version
from ledger.application.config import LedgerSettings
from ledger.audit.log.trust import TrustFile, load_trust
from ledger.core.errors import LedgerError
from ledger.identity.challenge import LABEL, Challenges
from ledger.identity.envelope import SignedCommand
from ledger.identity.keys import Credential
from ledger.infrastructure.sign_ins import SignInStore, unshared
from ledger.pages import render
from ledger.runtime.bootstrap import Runtime
from ledger.runtime.credentials import configured
from ledger.web import api, floor_pages
from ledger.web.commands import PATH, serve
from ledger.web.errors import ApiError, http_refusal, internal_error, refusal
from ledger.web.feed import FloorFeed
from ledger.web.limits import BodyLimit, BodyTooLarge, JsonBodies, refusal_body
from ledger.web.sessions import Sessions
from projections.registry import select

log = logging.getLogger("ledger.web")
FLOOR_PROJECTIONS = ["table_state", "shift_report", "jackpot_pools"]
"""The projections the floor reads, which the server keeps up to date unless told not to."""
COMMAND_THREADS = 40
"""Threads for what a command must block for (a pool apart from the reads'): an ordered batch,
a server without a group writer, a command riding out a lost database. A single command under
group commit waits on the event loop instead (`ledger.web.recording`)."""


def create_app(rt: Runtime, *, follow: bool = True,
               on_close: Callable[[], None] | None = None) -> FastAPI:
    """The application on `rt`; its floor feed follows the projections unless `follow` is
    False (another process runs `ledger projections run`). `on_close` is called when the
    server stops (a worker closes the ledger it opened)."""
    feed = FloorFeed(rt.database, rt.settings.shift_schedule, follow=follow,
                     projections=select(FLOOR_PROJECTIONS), trust=served_trust(rt.settings),
                     clock=rt.ledger.clock)
    command_threads = ThreadPoolExecutor(COMMAND_THREADS, thread_name_prefix="ledger-command")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        feed.start()
        try:
            yield
        finally:
            feed.close()
            command_threads.shutdown(wait=True)
            if store is not None:
                store.shut()
            if on_close is not None:
                on_close()

    app = LedgerApp(title="Round ledger", version=software_version(), lifespan=lifespan,
                  docs_url=None, redoc_url=None,
                  description="The terminal API of the round ledger: signed commands in, the "
                              "floor, recall, replays and reports out. Every refusal is "
                              "`{\"error\": {\"code\", \"message\"}}` with a stable code.")
    app.state.runtime = rt
    app.state.terminal = terminal = _terminal(rt)
    store = SignInStore(rt.database) if unshared(rt.database) is None else None
    app.state.sessions = Sessions(rt.ledger, _challenges(
        terminal, rt.settings.sign_in_window_seconds, store), store)
    app.state.feed = feed
    app.state.command_threads = command_threads
    app.add_middleware(JsonBodies)
    app.add_middleware(BodyLimit)  # outermost: a body too large is refused before its type
    app.include_router(api.router)
    app.include_router(floor_pages.router)
    app.mount("/static", StaticFiles(directory=Path(__file__).with_name("static")), name="static")

    @app.get("/", include_in_schema=False)
    def home() -> RedirectResponse:
        return RedirectResponse("/floor", status_code=303)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]  # a method replaced, as FastAPI documents

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        """Swagger UI on the schema, served from the package like the floor's scripts."""
        return get_swagger_ui_html(
            openapi_url="/openapi.json", title="Round ledger: the terminal API",
            swagger_js_url="/static/swagger/swagger-ui-bundle.js",
            swagger_css_url="/static/swagger/swagger-ui.css",
            swagger_favicon_url="/static/swagger/favicon-32x32.png")

    @app.exception_handler(ApiError)
    @app.exception_handler(LedgerError)
    @app.exception_handler(ValidationError)  # a model a route builds (the pages' sign-in)
    async def refused(request: Request, error: Exception) -> JSONResponse:
        status, body = refusal(error)
        return JSONResponse(body, status_code=status)

    @app.exception_handler(BodyTooLarge)
    async def too_large(request: Request, error: Exception) -> JSONResponse:
        return JSONResponse(refusal_body(str(getattr(error, "detail", error))), status_code=413)

    @app.exception_handler(StarletteHTTPException)
    async def routing(request: Request, error: StarletteHTTPException) -> Response:
        """No such route, or not by this method: the documented refusal, or on the pages (under
        /floor) a page saying so."""
        if isinstance(error, BodyTooLarge):
            return await too_large(request, error)
        status, code, message = http_refusal(error.status_code, request.method,
                                             request.url.path, error.headers)
        if request.url.path == "/floor" or request.url.path.startswith("/floor/"):
            return HTMLResponse(render("refused.html", message=message, title=(
                f"{rt.settings.property_name}: {message}")), status_code=status,
                headers=error.headers)
        return JSONResponse({"error": {"code": code, "message": message}}, status_code=status,
                            headers=error.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        where = ", ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
                          for e in error.errors()[:3])
        return JSONResponse({"error": {"code": "invalid_input", "message": where}},
                            status_code=422)

    @app.exception_handler(Exception)
    async def failed(request: Request, error: Exception) -> JSONResponse:
        log.exception("%s %s failed", request.method, request.url.path)
        return JSONResponse(internal_error(error), status_code=500)

    return app


class LedgerApp(FastAPI):
    """The application, whose terminals' commands (`POST /v1/commands`) are answered before
    the framework's stack (`ledger.web.commands`); every other request goes through it."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == PATH:
            await serve(self.state.runtime.ledger, self.state.command_threads, scope, receive,
                        send)
            return
        await super().__call__(scope, receive, send)


def _terminal(rt: Runtime) -> Credential | None:
    """The terminal this server is, whose key co-signs the pages' sign-ins (none: no sign-in
    from a browser, the API still works)."""
    try:
        return configured(rt.settings, "terminal")
    except LedgerError:
        return None


def served_trust(settings: LedgerSettings) -> TrustFile | None:
    """The trust file the settings name (LEDGER_TRUST_FILE), for the floor's word on a seal
    that waits for its witnesses; none named, none read."""
    return load_trust(settings.trust_file) if settings.trust_file is not None else None


def _challenges(terminal: Credential | None, window: float,  # money-safe: seconds
                store: SignInStore | None) -> Challenges:
    """The sign-in challenges, under a secret the server's terminal key makes (the same in each
    worker that holds it), or a random one without it; answered once in `store` (every
    worker's), or in this process's memory without one."""
    spend = store.spend if store is not None else None
    if terminal is None:
        return Challenges.random(window, spend)
    return Challenges(terminal.sign(LABEL).encode("ascii"), window, spend)


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's schema, with the signed envelope the commands and sign-in bodies are (read by
    hand, so that a body with duplicate keys or a float amount is refused as ingest refuses it)."""
    if app.openapi_schema is None:
        schema = get_openapi(title=app.title, version=app.version, description=app.description,
                             routes=app.routes)
        envelope = SignedCommand.model_json_schema(ref_template="#/components/schemas/{model}")
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        components.update(envelope.pop("$defs", {}))
        envelope["properties"]["command"]["description"] = (
            "the command's body: one of the commands `ledger schema` prints (or sign_in), "
            "always with its own `command_id` and `at`, which are signed with it")
        components["SignedCommand"] = envelope
        app.openapi_schema = schema
    return app.openapi_schema


