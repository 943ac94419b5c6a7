"""One error tree for the whole ledger.

Every error carries a sentence a pit boss can read; the CLI prints it as one red line.
"""

from __future__ import annotations

from pydantic import ValidationError


class LedgerError(Exception):
    """Base of every error the ledger raises on purpose."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class InvalidInput(LedgerError, ValueError):
    """Input that cannot be understood: a malformed card, an unknown game, a bad amount."""


class InvalidCard(InvalidInput):
    """A card code that is not rank then suit (`AS`, `TD`, `10H`)."""


class RuleViolation(LedgerError):
    """An action the regulation does not allow at this point of the game."""


class SettingOutsideRegulation(RuleViolation):
    """A house setting the regulation does not permit (names the article)."""


class NotAllowed(LedgerError):
    """The actor lacks the role the action needs (a void needs a supervisor)."""


class NotFound(LedgerError):
    """A table, round, shoe, pool or shift that does not exist."""


class WrongState(LedgerError):
    """The thing exists but is not in a state that allows the action (closing a closed table)."""


class ConcurrencyConflict(LedgerError):
    """Another terminal changed the same stream first; the command was not recorded."""


class DatabaseUnavailable(LedgerError):
    """The PostgreSQL server cannot be reached or refused the connection."""


def describe_validation_error(error: ValidationError) -> str:
    """pydantic's report as one sentence: the first field and what is wrong with it."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or error.title
    more = len(error.errors()) - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return f"{where}: {first['msg']}{tail}"


class CredentialRefused(NotAllowed):
    """A signature that does not verify, an unknown or revoked key, a suspended person."""


class IdempotencyConflict(LedgerError):
    """A command id sent again with different content: one id names one command."""


class DamagedStream(LedgerError):
    """A stream whose recorded events do not apply in order: evidence of tampering, named as a
    DISCREPANCY (which stream, which version, what is wrong), never a traceback."""
