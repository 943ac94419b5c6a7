"""Settings, read once from the environment by the composition root (`ledger.runtime.bootstrap`).

`LEDGER_<FIELD>` (any case) sets a field; values given in code override the environment's.
pydantic checks them as it checks everything else. This takes the place of pydantic-settings,
whose import (about 55 ms of its own on the reference machine, with loaders for AWS, Azure,
YAML and TOML the ledger never uses) was the largest single part of a command's start.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, get_args

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, SecretStr

from ledger.core.errors import InvalidInput
from ledger.domain.shift_schedule import DEFAULT_SCHEDULE, ShiftSchedule
from ledger.infrastructure.server_account import ROOT_HOME, as_root


def default_data_dir() -> Path:
    """Where the embedded PostgreSQL keeps its data: `$XDG_DATA_HOME/round-ledger/postgres`;
    as root, `/var/lib/round-ledger/postgres`, where its system user reaches it without the
    home's folders being opened to it (`ledger.infrastructure.server_account`)."""
    if as_root():
        return ROOT_HOME / "postgres"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "round-ledger" / "postgres"


PREFIX = "LEDGER_"
RENAMED = {"property_code": "LEDGER_PROPERTY"}
"""Fields whose variable is not `LEDGER_` followed by the field's name."""


def from_environment(fields: Any, environ: dict[str, str] | None = None) -> dict[str, str]:
    """The values the environment gives the named fields, as text for pydantic to check."""
    source: Mapping[str, str] = os.environ if environ is None else environ
    given = {key.upper(): value for key, value in source.items()
             if key[:len(PREFIX)].upper() == PREFIX}
    found = {}
    for name in fields:
        variable = RENAMED.get(name, PREFIX + name.upper())
        if variable in given:
            found[name] = given[variable]
    return found


def _refuse_empty(fields: dict[str, Any], given: dict[str, str]) -> None:
    """A path or a key set to nothing (`LEDGER_STAFF_CREDENTIAL=`) is refused, naming the
    variable: read as a path it would be the current folder, as a key nothing at all."""
    for name, value in given.items():
        annotation = fields[name].annotation
        if value.strip() or not ({Path, SecretStr} & set(get_args(annotation) or (annotation,))):
            continue
        variable = RENAMED.get(name, PREFIX + name.upper())
        what = "a key file's contents" if SecretStr in get_args(annotation) else "a path"
        raise InvalidInput(f"{variable} is empty: set it to {what}, or unset it.")


class LedgerSettings(BaseModel):
    """Everything configurable, from `LEDGER_*` environment variables."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    def __init__(self, **values: Any) -> None:
        given = from_environment(type(self).model_fields)
        _refuse_empty(type(self).model_fields, given)
        super().__init__(**{**given, **values})

    database_url: str | None = Field(
        default=None,
        description="PostgreSQL URL; unset means an embedded server in data_dir",
    )
    data_dir: Path = Field(default_factory=default_data_dir)
    pool_size: int = Field(default=4, ge=1, le=64)
    lock_timeout_seconds: int = Field(default=5, ge=0)
    connect_timeout_seconds: int = Field(default=5, ge=1)
    command_deadline_seconds: int = Field(
        default=60, ge=1, le=3600, description="how long a command waits for an unreachable "
        "or frozen database (saying so) before it fails")
    group_commit: bool = Field(
        default=True, description="one writer records every thread's commands, a batch per "
        "insert (off: each command records its own insert)")
    statement_timeout_seconds: int = Field(
        default=30, ge=1, le=3600, description="the longest a statement may run (verify and "
        "rebuilds read without it); the client gives up on a frozen server 5 s later")
    idle_in_transaction_seconds: int = Field(
        default=30, ge=1, description="a transaction left idle this long is ended by the server")
    clock_past_minutes: int = Field(
        default=36 * 60, ge=1, le=366 * 24 * 60,
        description="how long after its time a command may still be recorded (a late feed)")
    clock_ahead_minutes: int = Field(
        default=5, ge=0, le=24 * 60,
        description="how far ahead of the ledger's clock a terminal's time may run")
    clock_at: AwareDatetime | None = Field(
        default=None, description="a practice ledger's clock starts at this time (ISO 8601 "
        "with its offset) as each `ledger` process starts, and runs on from there, for a test "
        "or a rehearsal of another day; refused on a "
        "property's real ledger, whose clock is the host's")
    sign_in_window_seconds: int = Field(
        default=120, ge=10, le=3600,
        description="a sign-in's challenge expires this long after it is issued, and a "
        "sign-in dated further than this from the server's clock is refused")
    property_name: str = Field(
        default="Round Ledger demonstration property", min_length=1, max_length=120,
        description="the casino's name, printed at the head of every report and page",
    )
    shift_schedule: ShiftSchedule = Field(
        default=ShiftSchedule.parse(DEFAULT_SCHEDULE),
        description="the gaming day's shifts and their start times (Macau time), in order",
    )

    property_code: str | None = Field(
        default=None, pattern=r"^[a-z][a-z0-9_]{0,40}$",
        description="`LEDGER_PROPERTY`: the property's code: its ledger lives in the "
        "PostgreSQL schema of that name (made by `ledger db init`), so that properties never "
        "share a table")
    api_url: str | None = Field(
        default=None, pattern=r"^https?://[^\s/]+(/[^\s]*)?$",
        description="the ledger's terminal API (`ledger serve`): the table, shoe, round, "
        "jackpot, staff and terminal commands are signed here and sent there, so this machine "
        "needs no database login (reads and the shift's slips still use the database)")
    db_role_prefix: str = Field(
        default="ledger", pattern=r"^[a-z_][a-z0-9_]{0,40}$",
        description="`ledger db init` makes the group roles <prefix>_owner, _writer, _reader")
    staff_credential: Path | None = Field(
        default=None, description="your staff key file (`ledger key new staff ID`)")
    staff_key: SecretStr | None = Field(
        default=None, description="your staff key file's contents, for where a file will not do")
    terminal_credential: Path | None = Field(
        default=None, description="this terminal's key file (`ledger key new terminal ID`)")
    terminal_key: SecretStr | None = Field(
        default=None, description="this terminal's key file's contents")
    simulator_keys: Path | None = Field(
        default=None, description="where the simulator keeps its floor's keys "
        "(default: beside data_dir, `simulator-keys`)")

    seal_key: Path | None = Field(
        default=None, description="the sealing key file (`ledger key new seal ID`), on the "
        "host that runs `ledger seal run` only")
    seal_public_key: str | None = Field(
        default=None, description="the sealing key's public half (base64), which `ledger "
        "verify` trusts; kept outside the database")
    trust_file: Path | None = Field(
        default=None, description="the trust file (`ledger trust init`): `ledger verify` checks "
        "against it, and `ledger seal run` sends each checkpoint to the witnesses it names")
    witness_dir: Path | None = Field(
        default=None, description="where checkpoints are witnessed, one folder per ledger "
        "(default: beside data_dir, `witness`)")
    partition_events: int = Field(
        default=4_194_304, ge=1, description="positions per partition of the events table "
        "(`ledger db init` makes the next one ahead; `ledger archive` moves closed ones)")
    archive_after_days: int = Field(
        default=90, ge=0, description="events younger than this many days stay on the "
        "primary: `ledger archive` refuses them")
    seal_every_events: int = Field(default=1000, ge=1,
                                   description="sign a checkpoint every N events ...")
    seal_every_seconds: float = Field(  # money-safe: a wait
        default=60.0, gt=0, description="... or every S seconds, whichever comes first")

    @property
    def witness_root(self) -> Path:
        return (self.witness_dir or self.data_dir.expanduser().parent / "witness").expanduser()

    @property
    def simulator_keys_dir(self) -> Path:
        return self.simulator_keys or self.data_dir.expanduser().parent / "simulator-keys"

    @property
    def uses_embedded_server(self) -> bool:
        return not self.database_url
