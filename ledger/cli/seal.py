"""`ledger seal run|status|repair`: keep the seal over the global order, and see how far it
reaches.

Run the sealer (`run`, `repair`) as a login granted `<prefix>_sealer` (`ledger_sealer` by
default): only that role may write the seal's tables and move its position; the writer and the
reader only read them (README, 'Database roles')."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import psycopg
import typer

from ledger.application.config import LedgerSettings
from ledger.audit.log.formats import Witness
from ledger.audit.log.tile_store import repair_tiles
from ledger.audit.seal.sealer import Sealer, SealStatus, ledger_id, seal_status
from ledger.audit.seal.state import lock, store
from ledger.audit.seal.state import repair as repair_state
from ledger.cli.common import (
    JsonOption,
    WideOption,
    console,
    err_console,
    print_json,
    reading,
    stop_on_signals,
)
from ledger.core.errors import WrongState, first_line
from ledger.core.formatting import TIME_LABEL, clock, counted, iso
from ledger.infrastructure.roles import GroupRoles
from ledger.presentation.columns import Grid, figure, text
from ledger.presentation.render import safe
from ledger.runtime.bootstrap import open_ledger, sealer_for

app = typer.Typer(help="Seal the global order: signed checkpoints, and their witnesses.",
                  no_args_is_help=True)


@app.command()
def run(
    once: Annotated[bool, typer.Option(
        "--once", help="Seal what is recorded so far, sign a checkpoint over it, have the "
        "witnesses cosign it, and exit (1 when a witness refused it: a fork alarm).")
    ] = False,
    trust: Annotated[Path | None, typer.Option(
        "--trust", envvar="LEDGER_TRUST_FILE", help="The trust file (`ledger trust init`): "
        "each checkpoint is sent to the witnesses it names, and a database whose ledger id is "
        "not its own is not sealed.")] = None,
) -> None:
    """Seal every event in global order; sign a checkpoint every N events or S seconds
    (LEDGER_SEAL_EVERY_EVENTS, LEDGER_SEAL_EVERY_SECONDS) with the key LEDGER_SEAL_KEY names,
    write each to the sealing host's witness folder (LEDGER_WITNESS_DIR) and, with a trust
    file, send it to the witnesses it names for their cosignatures. A witness that is down is
    a warning; one that refuses the checkpoint (another root at its size, a size above it
    the log does not extend, a consistency proof it rejects) is a fork alarm: an error line,
    kept for the floor page and `ledger verify`. Ctrl-C signs a last checkpoint and stops.
    Run it as a login granted `<prefix>_sealer` (LEDGER_DB_ROLE_PREFIX, `ledger` by default):
    the only role that may write the seal. A damaged seal state is named in one line and
    rebuilt from the stored leaves when the newest checkpoint vouches for them."""
    with open_ledger() as rt, _as_sealer(rt.settings):
        settings = rt.settings.model_copy(update={"trust_file": trust or rt.settings.trust_file})
        sealer: Sealer = sealer_for(settings, rt.database)
        sealer.on_rebuild = _note
        if sealer.cosigning is not None:
            sealer.cosigning.warn, sealer.cosigning.alarm = _warn, _alarm
        if once:
            with rt.database.connect() as conn:
                done = sealer.catch_up(conn, checkpoint_at_end=True)
            sealed = sum(batch.events for batch in done)
            if sealer.cosigning is not None and sealer.cosigning.last.cosigned:
                console.print(f"cosigned by {', '.join(sealer.cosigning.last.cosigned)}: the "
                              f"checkpoint at {sealer.cosigning.last.size:,} events",
                              highlight=False)
            last = next((b.checkpoint for b in reversed(done) if b.checkpoint), None)
            console.print(f"sealed {sealed:,} new events; "
                          + (f"checkpoint at {last.size:,} events, written to "
                             f"{sealer.witness_of(last.ledger).path(last.size)}" if last
                             else "nothing new to checkpoint"), highlight=False)
            if sealer.cosigning is not None and sealer.cosigning.last.alarms:
                raise typer.Exit(1)
            return
        console.print(f"sealing; checkpoints written to {sealer.witness_root}"
                      + (f", sent to {counted(len(sealer.cosigning.trust.witnesses), 'witness', 'witnesses')}"
                         if sealer.cosigning is not None else "") + "; Ctrl-C to stop",
                      highlight=False)
        with stop_on_signals() as stop:
            sealer.follow(stop)


@app.command()
def status(as_json: JsonOption = False, wide: WideOption = False) -> None:
    """How many events are sealed, the last checkpoints, and the witness directory."""
    with reading() as rt, rt.database.connect() as conn:
        state = seal_status(conn)
        witness = Witness(rt.settings.witness_root / state.ledger_id)
    if as_json:
        print_json(_view(state, witness))
        return
    console.print(f"ledger {state.ledger_id}: {state.sealed:,} events sealed, "
                  f"{state.checkpointed:,} under a signed checkpoint, "
                  f"{state.recorded - state.checkpointed:,} not yet; witness: {witness.directory}",
                  highlight=False)
    if state.checkpoints:
        console.print(f"the newest {len(state.checkpoints)} of its "
                      f"{counted(state.signed, 'signed checkpoint')}:", highlight=False)
        table = Grid(figure("events"), figure("position", 3), text("root", 2),
                     text(f"sealed at ({TIME_LABEL})"), text("key", 1))
        for checkpoint in state.checkpoints:
            table.add_row(f"{checkpoint.size:,}", f"{checkpoint.position:,}",
                          checkpoint.root.hex()[:16] + "…",
                          clock(checkpoint.when),
                          checkpoint.key)
        table.print(console, wide=wide)


@app.command()
def repair() -> None:
    """Rebuild the seal's state (size, frontier, position) from its stored leaves, each checked
    against the event it names, when `seal run` refused to (its newest checkpoint did not
    vouch for them): after `ledger verify` has shown what changed. Refused when the leaves are
    incomplete or are not the events. Builds every stored tile missing and names each one the
    leaves do not give. Run it as a login granted `<prefix>_sealer`."""
    with (open_ledger() as rt, _as_sealer(rt.settings), rt.database.connect() as conn,
          conn.transaction()):
        lock(conn)
        state, note = repair_state(conn, ledger_id(conn))
        store(conn, state)
        tiles = repair_tiles(conn, state.frontier.size)
    console.print(f"repaired: the seal's state is {state.frontier.size:,} leaves up to position "
                  f"{state.position:,}, {state.checkpointed_size:,} under a checkpoint; "
                  f"{counted(tiles.built, 'missing tile')} built", highlight=False)
    for line in ([note] if note else []) + tiles.damaged:
        _note(line)


def _warn(line: str) -> None:
    err_console.print(f"[yellow]warning:[/] {safe(line)}", highlight=False, soft_wrap=True)


def _alarm(line: str) -> None:
    err_console.print(f"[red]error:[/] {safe(line)}", highlight=False, soft_wrap=True)


def _note(line: str) -> None:
    err_console.print(f"[yellow]note:[/] {safe(line)}", highlight=False, soft_wrap=True)


@contextmanager
def _as_sealer(settings: LedgerSettings) -> Iterator[None]:
    """A refusal for lack of privilege names the role that may seal, not the writer."""
    try:
        yield
    except psycopg.errors.InsufficientPrivilege as error:
        role = GroupRoles.named(settings.db_role_prefix).sealer
        raise WrongState(f"the database refused this login ({first_line(error)}): seal with a "
                         f"login granted {role} (README, 'Database roles').") from None


def _view(state: SealStatus, witness: Witness) -> dict[str, Any]:
    """`seal status --json`: the counts, the witness directory, the last checkpoints with their
    whole root (hex) and the moment each was sealed, in Macau time."""
    return {
        "ledger_id": state.ledger_id, "recorded": state.recorded, "sealed": state.sealed,
        "checkpointed": state.checkpointed, "not_checkpointed": state.recorded - state.checkpointed,
        "witness": str(witness.directory),
        "signed_checkpoints": state.signed,
        "checkpoints": [{"size": c.size, "position": c.position, "root": c.root.hex(),
                         "sealed_at": iso(c.when), "key": c.key} for c in state.checkpoints],
    }
