"""The pages, under /floor: sign-in, the live floor and its server-sent events, a table's
rounds, a round's replay, the shift and gaming-day reports. A page asks for a sign-in (the
session cookie) and the role its contents need, as the API does; a person not signed in is sent
to the sign-in page, one whose role may not see a page is told so on it. The sign-in page
carries the ledger's id and a challenge (`ledger.identity.challenge`) for the browser to sign;
a page left open past the challenge's expiry asks for a new one."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from anyio import to_thread
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict

from ledger.core.errors import CredentialRefused, LedgerError, NotAllowed
from ledger.identity.envelope import PROTOCOL, Signature, SignedCommand, signed_bytes
from ledger.identity.keys import fingerprint
from ledger.identity.sign_in import FLOOR, REPLAY, REPORTS, may_read
from ledger.pages import render
from ledger.web import reads
from ledger.web.errors import refusal
from ledger.web.feed import FloorFeed
from ledger.web.sessions import COOKIE
from ledger.web.state import runtime, sessions

router = APIRouter(prefix="/floor", include_in_schema=False)
HEARTBEAT_SECONDS = 15.0  # money-safe: a comment line that keeps proxies from closing the stream


class BrowserSignIn(BaseModel):
    """What the sign-in page sends: who, the sign-in body, and their signature over the
    envelope this server completes with its own terminal id (and signature)."""

    model_config = ConfigDict(extra="forbid")

    staff: str
    command: dict[str, Any]
    signature: str


def _page(request: Request, what: str) -> tuple[Any, Any]:
    """(the runtime, the signed-in member of staff) for a page of `what`; raises the refusal."""
    member = sessions(request).reader(request.cookies.get(COOKIE), what)
    return runtime(request), member


def refused_page(request: Request, error: LedgerError) -> HTMLResponse | RedirectResponse:
    if isinstance(error, CredentialRefused):
        return RedirectResponse("/floor/sign-in", status_code=303)
    status, body = refusal(error)
    rt = runtime(request)
    return HTMLResponse(render("refused.html", title=f"{rt.settings.property_name}: refused",
                               message=body["error"]["message"]), status_code=status)


@router.get("/sign-in", response_class=HTMLResponse)
def sign_in_page(request: Request) -> HTMLResponse:
    rt, terminal = runtime(request), request.app.state.terminal
    issued = sessions(request).challenges.issue()
    return HTMLResponse(render("sign_in.html", title=f"{rt.settings.property_name}: sign in",
                               terminal=terminal.id if terminal else None, protocol=PROTOCOL,
                               ledger=rt.ledger.ledger_id, challenge=issued.nonce,
                               expires=issued.expires.isoformat(),
                               demo_keys=_as_typed(rt.settings.simulator_keys_dir)
                               if rt.practice else None, generated_at=rt.ledger.clock.now()),
                        headers={"Cache-Control": "no-store"})


def _as_typed(folder: Path) -> str:
    """A folder as a person types it: `~/...` under their home."""
    try:
        return f"~/{folder.relative_to(Path.home())}"
    except ValueError:
        return str(folder)


@router.post("/sign-in")
async def sign_in(request: Request, sent: BrowserSignIn) -> JSONResponse:
    terminal = request.app.state.terminal
    if terminal is None:
        raise NotAllowed("this server has no terminal credential: no one can sign in here.")
    ledger = runtime(request).ledger
    member = await to_thread.run_sync(ledger.staff, sent.staff)
    message = signed_bytes(sent.command, terminal.id, sent.staff, ledger=ledger.ledger_id)
    signed = SignedCommand(command=sent.command, terminal=terminal.id, staff=sent.staff,
                           ledger=ledger.ledger_id, signatures=[
        Signature(signer="terminal", id=terminal.id, key=terminal.fingerprint,
                  value=terminal.sign(message)),
        Signature(signer="staff", id=sent.staff, value=sent.signature,
                  key=fingerprint(member.public_key) if member else "not-enrolled")])
    session, _ = await to_thread.run_sync(sessions(request).sign_in, signed)
    answer = JSONResponse({"next": "/floor"})
    answer.set_cookie(COOKIE, session.token, max_age=int(sessions(request).lifetime),
                      httponly=True, samesite="strict", secure=request.url.scheme == "https")
    return answer


@router.post("/sign-out")
def sign_out(request: Request) -> RedirectResponse:
    sessions(request).sign_out(request.cookies.get(COOKIE) or "")
    answer = RedirectResponse("/floor/sign-in", status_code=303)
    answer.delete_cookie(COOKIE)
    return answer


@router.get("", response_class=HTMLResponse)
def floor(request: Request) -> Any:
    try:
        rt, member = _page(request, FLOOR)
    except LedgerError as error:
        return refused_page(request, error)
    feed: FloorFeed = request.app.state.feed
    feed.wait_ready(10)
    from ledger.pages.floor import floor_page
    from ledger.web.floor import floor_view

    view = feed.view
    if view is None:  # the feed has not read the floor yet (the database is slow to answer)
        with rt.database.connect() as conn:
            view = floor_view(conn, rt.settings.shift_schedule, rt.ledger.clock.now(),
                              trust=feed.trust, protection=feed.protection)
    roles = ", ".join(role.value.replace("_", " ") for role in member.roles)
    return HTMLResponse(floor_page(view, rt.settings.property_name,
                                   f"{member.staff_id} ({roles})"))


@router.get("/events")
async def events(request: Request) -> Any:
    try:
        _page(request, FLOOR)
    except LedgerError as error:
        status, body = refusal(error)
        return JSONResponse(body, status_code=status)
    feed: FloorFeed = request.app.state.feed
    viewer = feed.subscribe(asyncio.get_running_loop())

    async def stream() -> AsyncIterator[bytes]:
        try:
            yield b"retry: 1000\n\n"
            while True:
                messages = await viewer.next(HEARTBEAT_SECONDS)
                if not messages:
                    yield b": still here\n\n"
                sent = b"".join(m.encoded for m in messages if m is not None)
                if sent:  # what is pending, in one write
                    yield sent
                if None in messages:
                    return  # the server stops: the browser reconnects elsewhere or later
        finally:
            feed.unsubscribe(viewer)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@router.get("/tables/{code}", response_class=HTMLResponse)
def table_page(request: Request, code: str) -> Any:
    from ledger.audit.replay.recall import recall
    from ledger.presentation.wording import describe_outcome

    try:
        rt, member = _page(request, FLOOR)
        with rt.database.connect() as conn:
            recalled = recall(conn, code, 20)
    except LedgerError as error:
        return refused_page(request, error)
    return HTMLResponse(render("table_rounds.html", title=f"Table {recalled.table}",
                               recall=recalled, describe=describe_outcome,
                               may_replay=may_read(member.roles, REPLAY)))


@router.get("/tables/{code}/rounds/{number}/replay", response_class=HTMLResponse)
def replay_page(request: Request, code: str, number: int, dispute: str | None = None) -> Any:
    from ledger.pages.replay import to_html

    try:
        rt, _ = _page(request, REPLAY)
        replayed = reads.replayed(rt, code, number)
    except LedgerError as error:
        return refused_page(request, error)
    return HTMLResponse(to_html(replayed, rt.settings.property_name, dispute))


@router.get("/reports/shift/{gaming_day}/{shift}", response_class=HTMLResponse)
def shift_report_page(request: Request, gaming_day: str, shift: str) -> Any:
    from ledger.pages.shift_report import to_html

    try:
        rt, _ = _page(request, REPORTS)
        view = reads.shift_view(rt, gaming_day, shift, catch_up=False)
    except LedgerError as error:
        return refused_page(request, error)
    return HTMLResponse(to_html(view, rt.settings.property_name))


@router.get("/reports/day/{gaming_day}", response_class=HTMLResponse)
def day_report_page(request: Request, gaming_day: str) -> Any:
    from ledger.pages.period import to_html

    try:
        rt, _ = _page(request, REPORTS)
        view = reads.day_view(rt, gaming_day, catch_up=False)
    except LedgerError as error:
        return refused_page(request, error)
    return HTMLResponse(to_html(view, rt.settings.property_name))
