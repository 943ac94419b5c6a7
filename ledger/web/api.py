"""The terminal API, /v1: commands in (signed, one or an ordered batch), the floor read out.

Writes carry their own proof (each command is a signed envelope, verified at the ledger's door
exactly as the CLI's and ingest's are), so `POST /v1/commands` needs no session. Reads need a
signed-in member of staff whose roles may see what is asked (`ledger.identity.sign_in`).
Every refusal is a JSON error with a stable code (`ledger.web.errors`). A command is signed for
one ledger: `GET /v1/ledger` says which this is. A sign-in answers a challenge
(`POST /v1/sessions/challenge`), once (`ledger.identity.challenge`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from anyio import to_thread
from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel

from ledger.audit.replay.recall import Recall
from ledger.domain.table import check_table_code
from ledger.identity.envelope import PROTOCOL, SignedCommand
from ledger.identity.sign_in import FLOOR, REPLAY, REPORTS
from ledger.reports.floor import TableView
from ledger.web import reads
from ledger.web.commands import answer, read_envelopes
from ledger.web.errors import SIGN_IN_FIRST, ApiError, ErrorOut
from ledger.web.sessions import COOKIE
from ledger.web.state import command_threads, runtime, sessions
from projections.queries import TableState

router = APIRouter(prefix="/v1")
REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": what} for status, what in (
        (400, "not JSON, or refused"), (401, "a signature or sign-in refused"),
        (403, "not allowed to this role or device"), (404, "not found"),
        (409, "the ledger's state refuses it (wrong state, conflict)"),
        (413, "the request is over 2 MB"),
        (422, "invalid input, or the game's rules refuse it"),
        (503, "the database cannot be reached"))}


class EventOut(BaseModel):
    stream: str
    version: int
    type: str


class RecordedOut(BaseModel):
    status: Literal["recorded", "already_recorded"]
    command_id: str
    summary: str
    details: list[str]
    events: list[EventOut]



class LedgerOut(BaseModel):
    ledger: str
    protocol: str
    property_name: str
    version: str


class ChallengeOut(BaseModel):
    challenge: str
    expires: str
    window_seconds: int


class SessionOut(BaseModel):
    token: str
    staff_id: str
    roles: list[str]
    expires_in_seconds: int


Bearer = Annotated[str | None, Header(alias="Authorization", include_in_schema=False)]


def _token(authorization: str | None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, *SIGN_IN_FIRST)
    return token.strip()


def reader(what: str) -> Any:
    """A read's guard: a bearer token (a terminal, a client) or the pages' session cookie."""
    def check(request: Request, authorization: Bearer = None) -> None:
        cookie = request.cookies.get(COOKIE)
        token = cookie if cookie and not authorization else _token(authorization)
        sessions(request).reader(token, what)
    return Depends(check)


async def _envelopes(request: Request) -> SignedCommand | list[SignedCommand]:
    return read_envelopes(await _body(request))


async def _body(request: Request) -> bytes:
    """The request's body, which the application's `BodyLimit` reads only up to the limit (a body
    declared larger is refused unread, one streamed past it cut off there)."""
    return await request.body()


ENVELOPE_SCHEMA = SignedCommand.model_json_schema(ref_template="#/components/schemas/{model}")
BODY = {"requestBody": {"required": True, "content": {"application/json": {"schema": {
    "oneOf": [{"$ref": "#/components/schemas/SignedCommand"},
              {"type": "array", "items": {"$ref": "#/components/schemas/SignedCommand"}}]}}}}}


@router.get("/ledger", response_model=LedgerOut)
def which_ledger(request: Request) -> LedgerOut:
    """Which ledger this is: every command is signed for its id (the envelope's `ledger`),
    and refused by any other ledger."""
    from ledger import software_version

    rt = runtime(request)
    return LedgerOut(ledger=rt.ledger.ledger_id, protocol=PROTOCOL,
                     property_name=rt.settings.property_name, version=software_version())


@router.post("/commands", response_model=RecordedOut | list[RecordedOut],
             responses=REFUSALS, openapi_extra=BODY)
async def commands(request: Request) -> Response:
    """Record one signed command (a JSON object) or an ordered batch (an array), all of the
    batch or none of it. A command already recorded (its `command_id`) answers
    "already_recorded" and records nothing new."""
    # the served application answers this route before the framework (`ledger.web.commands`);
    # here is what the schema documents, and what the router alone would run: the same answer
    status, body = await answer(runtime(request).ledger, command_threads(request),
                                await _body(request))
    return Response(body, status_code=status, media_type="application/json")


@router.post("/sessions/challenge", response_model=ChallengeOut, status_code=201)
def challenge(request: Request) -> ChallengeOut:
    """A challenge for one sign-in: sign it in the `sign_in`'s `challenge` before it expires;
    it is accepted once."""
    challenges = sessions(request).challenges
    issued = challenges.issue()
    return ChallengeOut(challenge=issued.nonce, expires=issued.expires.isoformat(),
                        window_seconds=int(challenges.window))


@router.post("/sessions", response_model=SessionOut, responses=REFUSALS,
             openapi_extra={"requestBody": {"required": True, "content": {"application/json": {
                 "schema": {"$ref": "#/components/schemas/SignedCommand"}}}}})
async def sign_in(request: Request) -> Any:
    """Sign in to read: a signed `sign_in` (`{"command": "sign_in", "command_id", "at",
    "challenge"}`, the challenge from `POST /v1/sessions/challenge`), answered with a bearer
    token for the reads. The same sign-in posted again is refused."""
    sent = await _envelopes(request)
    if isinstance(sent, list):
        raise ApiError(400, "invalid_json", "sign in with one signed sign_in, not an array.")
    session, member = await to_thread.run_sync(sessions(request).sign_in, sent)
    return JSONResponse(SessionOut(
        token=session.token, staff_id=member.staff_id, roles=[r.value for r in member.roles],
        expires_in_seconds=int(sessions(request).lifetime)).model_dump(), status_code=201)


@router.delete("/sessions", status_code=204)
def sign_out(request: Request, authorization: Bearer = None) -> Response:
    sessions(request).sign_out(_token(authorization))
    return Response(status_code=204)


def _json(text: str) -> Response:
    return Response(text, media_type="application/json")


@router.get("/tables", response_model=list[TableState], responses=REFUSALS,
            dependencies=[reader(FLOOR)])
def tables(request: Request) -> Any:
    """Every table as the table-state projection has it, brought up to date first."""
    from ledger.reports.floor import floor_tables

    return _json("[" + ",".join(t.model_dump_json() for t in
                                floor_tables(runtime(request).database)) + "]")


@router.get("/tables/{code}", response_model=TableView, responses=REFUSALS,
            dependencies=[reader(FLOOR)])
def table(request: Request, code: str) -> Any:
    from ledger.reports.floor import table_view

    return _json(table_view(runtime(request).ledger, code).model_dump_json())


@router.get("/tables/{code}/round", responses=REFUSALS, dependencies=[reader(FLOOR)])
def current_round(request: Request, code: str,
                  number: Annotated[int | None, Query(ge=1)] = None) -> Any:
    """A round of the table as its events say it stands (default: the latest)."""
    from ledger.domain.round import Round, round_id
    from ledger.domain.table import Table, table_id
    from ledger.reports.round import round_view

    ledger, code = runtime(request).ledger, check_table_code(code)
    n = number or ledger.load(Table, table_id(code), f"table {code}").round_count
    round_ = ledger.load(Round, round_id(table_id(code), n), f"round {n} of {code}")
    return _json(json.dumps(round_view(round_), default=str))


class ForkAlarmOut(BaseModel):
    witness: str
    size: int
    kind: Literal["root", "beyond", "proof"]
    said: str
    raised_at: str | None
    refusals: int


class TableAlertsOut(BaseModel):
    table: str
    alerts: list[str]


class AlertsOut(BaseModel):
    gaming_day: str
    shift: str
    figures_of: str
    """Empty when the tables' figures are the shift in force's; else what they are of, in
    words (`no round recorded in the day shift yet; figures of the swing shift of ...`)."""
    alerts: list[str]
    tables: list[TableAlertsOut]
    fork_alarms: list[ForkAlarmOut]


@router.get("/alerts", response_model=AlertsOut, responses=REFUSALS,
            dependencies=[reader(FLOOR)])
def alerts(request: Request) -> Any:
    """The alerts in words, as the floor page shows them, for the shift in force by the
    ledger's clock: the floor's own (a witness that refused a checkpoint of the seal, a seal
    waiting for its witnesses, projections lagging, a standby's lag), each table's (every
    irregularity of its shift with round and dealer, every void with its reason, what its shift
    report flags), and each witness's newest refusal as a record."""
    from ledger.audit.witnesses.alarms import standing
    from ledger.core.formatting import iso
    from ledger.web.floor import floor_view

    rt = runtime(request)
    with rt.database.connect() as conn:
        feed = request.app.state.feed
        view = floor_view(conn, rt.settings.shift_schedule, rt.ledger.clock.now(),
                          trust=feed.trust, protection=feed.protection)
        alarms = [ForkAlarmOut(witness=a.witness, size=a.size, kind=a.kind, said=a.said,
                               raised_at=iso(a.raised_at), refusals=n)
                  for a, n in standing(conn)]
    return AlertsOut(gaming_day=str(view.gaming_day), shift=view.shift,
                     figures_of=view.figures_of, alerts=view.alerts,
                     tables=[TableAlertsOut(table=t.state.code, alerts=t.alerts)
                             for t in view.tables if t.alerts], fork_alarms=alarms)


@router.get("/tables/{code}/recall", response_model=Recall, responses=REFUSALS,
            dependencies=[reader(FLOOR)])
def recall(request: Request, code: str, last: Annotated[int, Query(ge=1, le=200)] = 10) -> Any:
    """The table's last rounds, newest first, as `ledger recall` gives them."""
    from ledger.audit.replay.recall import recall as recalled

    with runtime(request).database.connect() as conn:
        return _json(recalled(conn, code, last).model_dump_json())


@router.get("/tables/{code}/rounds/{number}/replay", responses=REFUSALS,
            dependencies=[reader(REPLAY)])
def replay(request: Request, code: str, number: int,
           format: Literal["json", "html"] = "json", dispute: str | None = None) -> Any:
    """A round replayed from its events, with its evidence (JSON, or the printable page)."""
    rt = runtime(request)
    replay_ = reads.replayed(rt, code, number)
    if format == "html":
        from ledger.pages.replay import to_html

        return HTMLResponse(to_html(replay_, rt.settings.property_name, dispute))
    return _json(replay_.model_dump_json())


@router.get("/reports/shift/{gaming_day}/{shift}", responses=REFUSALS,
            dependencies=[reader(REPORTS)])
def shift_report(request: Request, gaming_day: str, shift: str, table: str | None = None) -> Any:
    """A shift's report (ledger win, accounting win, variance, hold), brought up to date."""
    from ledger.reports.shift import to_json

    return _json(to_json(reads.shift_view(runtime(request), gaming_day, shift, table,
                                          catch_up=True)))


@router.get("/reports/day/{gaming_day}", responses=REFUSALS, dependencies=[reader(REPORTS)])
def day_report(request: Request, gaming_day: str) -> Any:
    from ledger.reports.period import to_json

    return _json(to_json(reads.day_view(runtime(request), gaming_day, catch_up=True)))



