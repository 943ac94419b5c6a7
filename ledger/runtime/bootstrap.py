"""The composition root: settings in, a ready ledger out. Nothing connects at import time."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, TypeVar

from ledger.application.bus import EVERY_AREA, Area, Bus
from ledger.application.config import LedgerSettings
from ledger.application.ledger import Ledger, LedgerApplication
from ledger.commands import build_command_classes
from ledger.core.clock import Clock, current, running, started_at
from ledger.core.errors import DatabaseUnavailable, WrongState
from ledger.core.formatting import PRACTICE_MARK
from ledger.domain.base import build_event_classes
from ledger.identity.door import ClockWindow
from ledger.infrastructure import schema
from ledger.infrastructure.database import EVENTS_TABLE, SNAPSHOTS_TABLE, Database
from ledger.infrastructure.embedded import embedded_server_url
from ledger.infrastructure.session import SessionLimits

T = TypeVar("T")

if TYPE_CHECKING:
    from ledger.application.group_commit import GroupWriter
    from ledger.audit.seal.sealer import Sealer


def resolve_database(settings: LedgerSettings) -> Database:
    """The server named by `LEDGER_DATABASE_URL`, or the embedded one (started if need be)."""
    limits = SessionLimits(settings.statement_timeout_seconds, settings.lock_timeout_seconds,
                           settings.idle_in_transaction_seconds, settings.property_code)
    if settings.database_url:
        return Database(settings.database_url, connect_timeout=settings.connect_timeout_seconds,
                        limits=limits)
    url = embedded_server_url(settings.data_dir)
    return Database(url, embedded_dir=settings.data_dir.expanduser().resolve(), limits=limits)


def build_application(
    settings: LedgerSettings, database: Database, *, create_tables: bool = False
) -> LedgerApplication:
    env = database.library_env(
        pool_size=settings.pool_size, lock_timeout=settings.lock_timeout_seconds
    )
    if create_tables:
        env["CREATE_TABLE"] = "y"
    return LedgerApplication(env=env)


def init_database(settings: LedgerSettings, database: Database, *,
                  practice: bool = False) -> str | None:
    """Create every table, trigger and view, and the owner, writer and reader group roles.
    Idempotent: running it twice changes nothing. Returns why the roles were not made, if
    the login may not make them. `practice`: a new ledger is made a practice ledger
    (`ledger.infrastructure.practice`), which simulated play may be recorded in."""
    from ledger.audit.seal.sealer import create_seal_tables
    from ledger.infrastructure.practice import (
        PRACTICE_TABLE,
        create_practice_table,
        mark_practice,
    )
    from ledger.infrastructure.roles import GroupRoles, install_roles
    from ledger.infrastructure.sign_ins import create_sign_in_tables
    from projections.engine.tracking import create_tracking_table
    from projections.registry import create_projection_tables

    with database.connect() as conn:
        schema.open_schema(conn, database.limits.schema)
    build_application(settings, database, create_tables=True).close()
    with database.connect(autocommit=False) as conn, conn.transaction():
        schema.install(conn, EVENTS_TABLE, SNAPSHOTS_TABLE, settings.partition_events)
        create_tracking_table(conn)
        create_sign_in_tables(conn)
        create_projection_tables(conn)
        first_time = create_practice_table(conn)
        for table in [*create_seal_tables(conn), PRACTICE_TABLE]:
            schema.install_append_only(conn, table)
        if practice:
            mark_practice(conn, EVENTS_TABLE, first_time)
    with database.connect(autocommit=False) as conn:
        return install_roles(conn, GroupRoles.named(settings.db_role_prefix))


def is_initialised(database: Database) -> bool:
    """Whether `ledger db init` (of this version) made the events table's triggers: the hash
    chain and the serialiser that orders appends; a ledger made before the serialiser is
    brought up to date by running `ledger db init` again."""
    with database.connect() as conn:
        return schema.chain_installed(conn, EVENTS_TABLE)


def initialised_ledger_id(database: Database) -> str | None:
    """The ledger's id (drawn by `ledger db init`, kept in `ledger_seal_state`), or None when
    the database is not initialised (by this version): one connection, read once as the ledger
    opens, for the door to refuse an envelope signed for another ledger."""
    with database.connect() as conn:
        return schema.installed_ledger_id(conn, EVENTS_TABLE)


def identity(database: Database) -> tuple[str | None, bool]:
    """The ledger's id (None: not initialised) and whether it is a practice ledger, on one
    connection."""
    from ledger.infrastructure.practice import is_practice

    with database.connect() as conn:
        ledger_id = schema.installed_ledger_id(conn, EVENTS_TABLE)
        return ledger_id, ledger_id is not None and is_practice(conn)


def clock_of(settings: LedgerSettings, practice: bool) -> Clock:
    """The process's clock (the host's, unless a test gives another); on a practice ledger,
    the one that started at the moment LEDGER_CLOCK_AT names, if any."""
    if settings.clock_at is None:
        return current()
    if not practice:
        raise WrongState("LEDGER_CLOCK_AT sets the clock of a practice ledger only: a "
                         "property's real ledger keeps the host's clock. Unset it.")
    return started_at(settings.clock_at)


def marked(settings: LedgerSettings, practice: bool) -> LedgerSettings:
    """The settings a practice ledger gives out under: its property named as practice, so
    every page, report and export that names the property says so."""
    if not practice or settings.property_name.startswith(PRACTICE_MARK):
        return settings
    return settings.model_copy(
        update={"property_name": f"{PRACTICE_MARK}: {settings.property_name}"})


def sealer_for(settings: LedgerSettings, database: Database) -> Sealer:
    """The sealing follower, with the key LEDGER_SEAL_KEY names (there is no default key)."""
    from ledger.audit.seal.sealer import Cadence, Sealer
    from ledger.identity.keys import Credential

    if settings.seal_key is None:
        raise WrongState("no sealing key: set LEDGER_SEAL_KEY to the file `ledger key new seal "
                         "ID --out FILE` wrote, on the host that seals.")
    key = Credential.load(settings.seal_key, "seal")
    sealer = Sealer(database, key, settings.witness_root,
                    Cadence(settings.seal_every_events, settings.seal_every_seconds))
    if settings.trust_file is not None:
        from ledger.audit.log.trust import load_trust
        from ledger.audit.witnesses.cosigning import Cosigning

        trust = load_trust(settings.trust_file)
        if trust.seal_public_key != key.public_key:
            raise WrongState(f"the sealing key {key.fingerprint} is not the one the trust file "
                             f"{settings.trust_file} names: seal with the ledger's own key.")
        sealer.cosigning = Cosigning(trust, key)
        sealer.trusted_ledger = str(trust.ledger)
    return sealer


def trusted_seal_keys(settings: LedgerSettings) -> list[str]:
    """The sealing public keys `ledger verify` trusts: from the settings, never the database."""
    from ledger.identity.keys import Credential

    if settings.seal_public_key:
        return [settings.seal_public_key.strip()]
    if settings.seal_key is not None:
        return [Credential.load(settings.seal_key, "seal").public_key]
    return []


@dataclass
class Runtime:
    settings: LedgerSettings
    database: Database
    ledger: Ledger
    practice: bool = False
    """Made by `ledger db init --practice`: simulated play may be recorded in it, and its
    settings' property name carries `PRACTICE_MARK`."""


def wait_for_database(database: Database, deadline: float,  # money-safe: seconds
                      on_wait: Callable[[str], None], ask: Callable[[Database], T]) -> T:
    """What `ask` finds (whether the ledger is initialised, its id), asking again while the
    server cannot be reached, up to `deadline` seconds (telling `on_wait` once);
    `DatabaseUnavailable` after that."""
    started = time.monotonic()
    told = False
    while True:
        try:
            return ask(database)
        except DatabaseUnavailable as error:
            waited = time.monotonic() - started
            if waited >= deadline:
                raise DatabaseUnavailable(f"{error} (waited {waited:.0f} s, the deadline)") from None
            if not told:
                told = True
                on_wait(f"{error}; waiting up to {deadline:.0f} s...")
            time.sleep(1.0)


@contextmanager
def open_ledger(settings: LedgerSettings | None = None,
                on_wait: Callable[[str], None] | None = None,
                warm: bool = True,
                areas: Iterable[Area] = EVERY_AREA,
                clock: Clock | None = None) -> Iterator[Runtime]:
    """The ledger on the configured database; refuses a database `ledger db init` never saw.
    With `on_wait`, an unreachable server is waited for up to the command deadline. `areas`
    are the command areas whose handlers the ledger's bus is built with (`ledger.application.bus`): every
    one unless the caller names fewer (a CLI command names its own). `warm` builds every
    event and command class and makes what each game prepares ahead (`Game.prepare`: the Stud
    Poker hand values) first, for a process that records from many threads; a single command
    (the CLI) loads only what it meets. `clock` is
    the ledger's one clock (`ledger.core.clock`): the system's unless a test gives another."""
    settings = settings or LedgerSettings()
    bus = Bus(areas)
    if warm:
        build_event_classes()
        build_command_classes()
        from ledger.games.registry import prepare  # a single command may never value a hand

        prepare()
    database = resolve_database(settings)
    ledger_id, practice = (wait_for_database(database, settings.command_deadline_seconds,
                                             on_wait, identity)
                           if on_wait is not None else identity(database))
    if ledger_id is None:
        raise WrongState(
            f"the database at {database.describe()} is not initialised, or was by an older "
            "version: run `ledger db init` (it changes nothing already there)."
        )
    clock = clock or clock_of(settings, practice)
    with running(clock):  # every reading of the time in the process is this clock's
        app = build_application(settings, database)
        writer: GroupWriter | None = None
        try:
            window = ClockWindow(timedelta(minutes=settings.clock_past_minutes),
                                 timedelta(minutes=settings.clock_ahead_minutes), clock)
            ledger = Ledger(app, window, settings.command_deadline_seconds, ledger_id, bus)
            if on_wait is not None:
                ledger.on_wait = on_wait
            if settings.group_commit:  # a process that records from many threads
                from ledger.application.group_commit import GroupWriter

                ledger.writer = writer = GroupWriter(ledger)
            yield Runtime(marked(settings, practice), database, ledger, practice)
        finally:
            if writer is not None:
                writer.close()
            app.close()
