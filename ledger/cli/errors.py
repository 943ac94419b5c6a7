"""The error edge: every expected failure becomes one red line and exit code 1."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from ledger.core.errors import LedgerError, PrivilegeMissing, describe_validation_error, first_line


def one_line(error: BaseException) -> str | None:
    """The sentence for an expected error, or None for a bug (which should show its trace)."""
    # here, not at the top: `ledger --help` never meets a database error
    from eventsourcing.persistence import OperationalError as LibraryOperationalError
    from pydantic import ValidationError

    if isinstance(error, PrivilegeMissing):
        return _denied_sentence(error.message)
    if isinstance(error, LedgerError):
        return error.message
    if isinstance(error, ValidationError):
        return describe_validation_error(error)
    denied = _permission_denied(error)
    if denied is not None:
        return denied
    if isinstance(error, LibraryOperationalError):
        return f"the database refused the operation: {first_line(error)}"
    return None


def _permission_denied(error: BaseException) -> str | None:
    """The server's 'permission denied', raw or wrapped by the event store library, as one
    sentence naming what was refused and the group role that may do it."""
    import psycopg
    from eventsourcing.persistence import ProgrammingError as LibraryProgrammingError

    seen: list[BaseException] = [error]
    while seen:
        link = seen.pop()
        if isinstance(link, psycopg.errors.InsufficientPrivilege) or (
                isinstance(link, LibraryProgrammingError) and "permission denied" in str(link)):
            return _denied_sentence(first_line(link, "permission denied"))
        seen += [e for e in (link.__cause__, link.__context__) if e is not None]
    return None


def _denied_sentence(server_says: str) -> str:
    from ledger.application.config import LedgerSettings
    from ledger.infrastructure.roles import GroupRoles

    roles = GroupRoles.named(LedgerSettings().db_role_prefix)
    what = server_says.split("permission denied", 1)[-1].strip(" :").removeprefix("for ")
    return (f"the database refused this login on {what or 'this'} ({server_says}): record with a "
            f"login granted {roles.writer}; read with one granted {roles.reader} (README, "
            "'Database roles').")


def run_guarded(func: Callable[[], Any]) -> Any:
    try:
        return func()
    except Exception as error:  # the edge: anything we can name becomes one line
        message = one_line(error)
        if message is None:
            raise
        refuse(message)


def refuse(message: str) -> NoReturn:
    """The one red line on standard error, and exit code 1."""
    from ledger.cli.console import err_console
    from ledger.presentation.render import safe

    err_console.print(f"[bold red]error:[/] {safe(message)}", highlight=False, soft_wrap=True)
    raise SystemExit(1)


def usage_guarded(app: Callable[..., Any]) -> Any:
    """The Typer app run so that a usage error (a missing argument, an unknown option, a word
    where a number goes) is one red line naming the command, with exit code 1, like every other
    refusal; Typer's own box exits 2. Returns the exit code a command asked for."""
    import typer

    # Click's base error, whether Typer carries Click within (0.2x) or depends on it
    click_error: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")
    try:
        return app(standalone_mode=False, prog_name="ledger")  # as typed, however started
    except typer.Abort:
        refuse("stopped before anything was sent.")
    except click_error as error:
        if type(error).__name__ == "NoArgsIsHelpError":  # `ledger db`: its help, shown above
            return 0
        context = getattr(error, "ctx", None)
        where = context.command_path if context is not None else "ledger"
        said = getattr(error, "format_message", error.__str__)()
        choice = _choice_said(error)
        if choice is not None:  # what the option takes is the whole answer
            refuse(f"{where}: {choice}.")
        value = _value_said(error)
        if value is not None:  # Typer checks an option's value with pydantic: never its words
            said = f"Invalid value for {_named(error)}: {value}"
        refuse(f"{where}: {said} (`{where} --help` lists what it takes)")


def _choice_said(error: BaseException) -> str | None:
    """A word that is not one of an option's choices, as one sentence naming the option, what
    it takes and the word given ("--period takes day, month or ytd, not 'week'"); None for
    another error. Typer words it "Value error, 'week' is not one of 'day', 'month', 'ytd'."."""
    import re

    from pydantic import ValidationError

    cause = error.__cause__
    if not isinstance(cause, ValidationError):
        return None
    said = re.fullmatch(r"(?s)Value error, (.*) is not one of (.*)\.", str(cause.errors()[0]["msg"]))
    if said is None:
        return None
    given, listed = said.groups()
    choices = [choice.strip().strip("'") for choice in listed.split(",")]
    words = choices[0] if len(choices) == 1 else f"{', '.join(choices[:-1])} or {choices[-1]}"
    param = getattr(error, "param", None)
    option = " / ".join(getattr(param, "opts", None) or ["the option"])
    return f"{option} takes {words}, not {given}"


def _value_said(error: BaseException) -> str | None:
    from pydantic import ValidationError

    from ledger.core.errors import describe_value_error

    cause = error.__cause__
    return describe_value_error(cause) if isinstance(cause, ValidationError) else None


def _named(error: Any) -> str:
    """The option as Click names it in its own errors ("'--last'")."""
    param = getattr(error, "param", None)
    opts = getattr(param, "opts", None)
    return " / ".join(f"'{name}'" for name in opts) if opts else "an option"
