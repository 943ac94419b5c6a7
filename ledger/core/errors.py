"""One error tree for the whole ledger.

Every error carries a sentence a pit boss can read; the CLI prints it as one red line.
"""

from __future__ import annotations

from typing import Any

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


class WrongKind(NotFound):
    """A stream read as one kind that holds another (a table's id read as a round's): named
    in a sentence with both kinds, never a bare type error further on."""


class WrongState(LedgerError):
    """The thing exists but is not in a state that allows the action (closing a closed table)."""


class ConcurrencyConflict(LedgerError):
    """Another terminal changed the same stream first; the command was not recorded."""


class DatabaseUnavailable(LedgerError):
    """The PostgreSQL server cannot be reached or refused the connection."""


def first_line(error: BaseException, default: str = "no answer") -> str:
    """The first line of an error's message (a server's reply often has several)."""
    lines = str(error).strip().splitlines()
    return lines[0] if lines else default


def describe_validation_error(error: ValidationError, skip: int = 0) -> str:
    """pydantic's report as one sentence: every field and what is wrong with it (`skip`
    leading parts of its location, such as the command name of a tagged union), separated by
    `; ` (a line's problems are few, and whoever fixes it fixes them all at once); every field
    missing in one phrase when that is all that is wrong; where in the text JSON that does not
    parse broke."""
    problems = error.errors()
    missing = [".".join(str(part) for part in problem["loc"][skip:]) for problem in problems
               if problem["type"] == "missing"]
    if len(missing) == len(problems) > 1 and all(missing):
        return _listed([f"'{name}'" for name in missing]) + " are missing"
    said: list[str] = []
    for problem in problems:
        if problem["type"] == "json_invalid":  # never the model's class name
            return _not_json(str(problem.get("ctx", {}).get("error", problem["msg"])))
        phrase = _problem(problem, skip)
        if phrase.rstrip(".") not in said:
            said.append(phrase.rstrip("."))
    return "; ".join(said) + ("." if phrase.endswith(".") else "")


def _where(loc: tuple[Any, ...]) -> str:
    """A field's place in words: `chips.100` is "chips, the count of 100" and a mapping's key
    (pydantic's `[key]`) "chips, the denomination 1E+999", never pydantic's `Decimal('100')`."""
    said: list[str] = []
    parts = [_unquoted(part) for part in loc]
    for n, part in enumerate(parts):
        if part == "[key]":
            continue
        if said and n + 1 < len(parts) and parts[n + 1] == "[key]":
            said[-1] += f", the {_KEY_WORDS.get(said[-1], 'key')} {part}"
        elif said and (not isinstance(part, str) or said[-1] in _VALUE_WORDS):
            said[-1] += f", the {_VALUE_WORDS.get(said[-1], 'value for')} {part}"
        else:
            said.append(str(part))
    return ".".join(said)


def _unquoted(part: Any) -> Any:
    """pydantic writes a mapping's decimal key as `Decimal('100')` in a location: `100`."""
    if isinstance(part, str) and part.startswith("Decimal('") and part.endswith("')"):
        return part[len("Decimal('"):-2]
    return part


_KEY_WORDS = {"chips": "denomination"}
_VALUE_WORDS = {"chips": "count of"}


def _problem(problem: Any, skip: int) -> str:
    """One field's problem: "'spot' is missing", "amount: 'abc' is not a number"."""
    where = _where(tuple(problem["loc"][skip:]))
    kind = problem["type"]
    if kind in _SAID_OF_THE_FIELD:  # "'ledger' is missing", never pydantic's "Field required"
        return f"'{where}' {_SAID_OF_THE_FIELD[kind]}" if where else \
            f"a field {_SAID_OF_THE_FIELD[kind]}"
    message = str(problem["msg"]).removeprefix("Value error, ")
    if kind in _SAID_OF_THE_VALUE:  # "-5 is below 0, the least it takes", not pydantic's words
        message = f"{problem.get('input')} " + _value_said(problem)
    return f"{where}: {message}" if where else message


_SAID_OF_THE_VALUE = {
    "int_parsing": "is not a whole number", "int_from_float": "is not a whole number",
    "float_parsing": "is not a number", "decimal_parsing": "is not a number",
    "bool_parsing": "is neither true nor false",
    "greater_than_equal": "is below {ge}, the least it takes",
    "greater_than": "is not above {gt}", "less_than_equal": "is above {le}, the most it takes",
    "less_than": "is not below {lt}",
}


def describe_value_error(error: ValidationError) -> str | None:
    """A value that is not what an option takes, in words with the value given ("'abc' is not
    a whole number"); None for a problem of another kind."""
    first = error.errors()[0]
    if first["type"] not in _SAID_OF_THE_VALUE:
        return None
    return f"'{first.get('input')}' " + _value_said(first)


def _value_said(problem: Any) -> str:
    """What is wrong with a value, its bounds filled in: "is below 0, the least it takes"."""
    bounds = {key: f"{value:g}" if isinstance(value, float) else value
              for key, value in problem.get("ctx", {}).items()}
    return _SAID_OF_THE_VALUE[problem["type"]].format(**bounds)


def _listed(names: list[str]) -> str:
    """`'a', 'b' and 'c'`."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _not_json(said: str) -> str:
    """The JSON parser's complaint, its place first as an editor reads it: `not JSON at line 1,
    column 2: key must be a string`."""
    import re

    place = re.fullmatch(r"(?s)(.*) at line (\d+) column (\d+)", said)
    if place is None:
        return f"not JSON ({said})"
    what, line, column = place.groups()
    return f"not JSON at line {line}, column {column}: {what}"


_SAID_OF_THE_FIELD = {"missing": "is missing", "extra_forbidden": "is not a field it takes"}
"""pydantic's words for a field missing or one too many, as a sentence says them."""


class PrivilegeMissing(LedgerError):
    """This login may not do what the command needs (a reader recording): the edge names the
    group role that may (`ledger.cli.errors`)."""

    def __init__(self, table: str, privileges: list[str]) -> None:
        super().__init__(f"permission denied for table {table} (this login lacks "
                         f"{' and '.join(privileges)} on it)")
        self.table = table


class ProjectionStalled(LedgerError):
    """A projection met an event it cannot apply: it stops there, named, rather than skip it."""


class CredentialRefused(NotAllowed):
    """A signature that does not verify, an unknown or revoked key, a suspended person."""


class IdempotencyConflict(LedgerError):
    """A command id sent again with different content: one id names one command."""


class DamagedStream(LedgerError):
    """A stream whose recorded events do not apply in order: evidence of tampering, named as a
    DISCREPANCY (which stream, which version, what is wrong), never a traceback."""
