"""Each kind of `LedgerError` and its HTTP status and stable code: what the server sends and
what a client (the CLI sending over the API) turns back into the same kind of error. Only
`ledger.core.errors` is imported, so a client loads nothing of the server."""

from __future__ import annotations

from ledger.core.errors import (
    ConcurrencyConflict,
    CredentialRefused,
    DamagedStream,
    DatabaseUnavailable,
    IdempotencyConflict,
    InvalidInput,
    LedgerError,
    NotAllowed,
    NotFound,
    PrivilegeMissing,
    ProjectionStalled,
    RuleViolation,
    WrongState,
)

KINDS: tuple[tuple[type[LedgerError], int, str], ...] = (
    (CredentialRefused, 401, "credential_refused"),
    (NotAllowed, 403, "not_allowed"),
    (NotFound, 404, "not_found"),
    (IdempotencyConflict, 409, "idempotency_conflict"),
    (ConcurrencyConflict, 409, "concurrency_conflict"),
    (WrongState, 409, "wrong_state"),
    (InvalidInput, 422, "invalid_input"),
    (RuleViolation, 422, "rule_violation"),
    (DamagedStream, 500, "damaged_stream"),
    (ProjectionStalled, 503, "projection_stalled"),
    (PrivilegeMissing, 503, "privilege_missing"),
    (DatabaseUnavailable, 503, "database_unavailable"),
    (LedgerError, 400, "refused"),
)
"""Most specific first: the first kind an error is decides its status and code."""


def kind_of(code: str) -> type[LedgerError]:
    """The kind of error a code names (a code this client does not know: `LedgerError`)."""
    return next((kind for kind, _, named in KINDS if named == code), LedgerError)
