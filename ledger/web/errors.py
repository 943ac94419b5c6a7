"""Refusals over HTTP: each kind of `LedgerError` has one status and one stable code, and the
body carries the same sentence the CLI prints.

    {"error": {"code": "rule_violation", "message": "...", "command": "place_bet", "index": 2}}

`command` names the refused command and `index` (from 0) its place in a batch, when there is
one. Clients branch on `code`, never on the message, whose words may improve.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from ledger.application.batch import BatchRefused
from ledger.core.errors import describe_validation_error
from ledger.web.codes import KINDS

SIGN_IN_FIRST = ("unauthenticated", ("sign in first: POST /v1/sessions with a signed sign_in, "
                                     "then send its token as 'Authorization: Bearer <token>'."))


class ErrorBody(BaseModel):
    code: str
    message: str
    command: str | None = None
    index: int | None = None


class ErrorOut(BaseModel):
    error: ErrorBody


class ApiError(Exception):
    """A refusal made by the HTTP layer itself (a body that is not JSON, no sign-in)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def refusal(error: Exception) -> tuple[int, dict[str, Any]]:
    """The HTTP status and JSON body for a refusal."""
    if isinstance(error, ApiError):
        return error.status, _body(error.code, error.message)
    if isinstance(error, ValidationError):
        return 422, _body("invalid_input", describe_validation_error(error) + "; nothing "
                          "recorded.")
    cause = error.cause if isinstance(error, BatchRefused) else error
    status, code = next((s, c) for kind, s, c in KINDS if isinstance(cause, kind))
    if isinstance(error, BatchRefused):
        return status, _body(code, str(error), command=error.name, index=error.index)
    return status, _body(code, str(error))


def internal_error(error: Exception) -> dict[str, Any]:
    """The body of a failure of the server's own (500): what failed, and what to do."""
    return _body("internal_error", f"the server failed ({type(error).__name__}); nothing was "
                 "recorded unless a resend with the same command_id says 'already_recorded'.")


def _body(code: str, message: str, **more: Any) -> dict[str, Any]:
    return ErrorOut(error=ErrorBody(code=code, message=message, **more)).model_dump(
        exclude_none=True)


HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large",
              415: "unsupported_media_type"}
"""The codes of the refusals the HTTP layer makes before any route runs."""


def http_refusal(status: int, method: str, path: str,
                 headers: Mapping[str, str] | None) -> tuple[int, str, str]:
    """(status, code, message) for an error of the routing itself: no such route, a method
    the route does not take."""
    shown = path if len(path) <= 80 else path[:77] + "..."
    if status == 404:
        return status, "not_found", (f"no such route: {shown} (the API is under /v1, "
                                     "OpenAPI at /docs).")
    if status == 405:
        allowed = (headers or {}).get("allow") or (headers or {}).get("Allow") or ""
        return status, "method_not_allowed", (f"{shown} does not take {method}"
                                              + (f": use {allowed}" if allowed else "") + ".")
    return status, HTTP_CODES.get(status, "refused"), f"the request was refused ({status})."
