"""`ledger seal run|status`: keep the seal over the global order, and see how far it reaches."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table as RichTable

from ledger.audit.seal import Witness
from ledger.audit.sealer import SealStatus, Sealer, seal_status
from ledger.bootstrap import open_ledger, sealer_for
from ledger.cli.common import JsonOption, console, print_json, reading, stop_on_signals
from ledger.formatting import TIME_LABEL, clock, iso

app = typer.Typer(help="Seal the global order: signed checkpoints, and their witness.",
                  no_args_is_help=True)


@app.command()
def run(
    once: Annotated[bool, typer.Option(
        "--once", help="Seal what is recorded so far, sign a checkpoint over it, and exit.")
    ] = False,
) -> None:
    """Seal every event in global order; sign a checkpoint every N events or S seconds
    (LEDGER_SEAL_EVERY_EVENTS, LEDGER_SEAL_EVERY_SECONDS) with the key LEDGER_SEAL_KEY names,
    and write each to the witness directory. Ctrl-C signs a last checkpoint and stops."""
    with open_ledger() as rt:
        sealer: Sealer = sealer_for(rt.settings, rt.database)
        if once:
            with rt.database.connect() as conn:
                done = sealer.catch_up(conn, checkpoint_at_end=True)
            sealed = sum(batch.events for batch in done)
            last = next((b.checkpoint for b in reversed(done) if b.checkpoint), None)
            console.print(f"sealed {sealed:,} new events; "
                          + (f"checkpoint at {last.size:,} events, written to "
                             f"{sealer.witness_of(last.ledger).path(last.size)}" if last
                             else "nothing new to checkpoint"), highlight=False)
            return
        console.print(f"sealing; checkpoints witnessed in {sealer.witness_root}; Ctrl-C to stop",
                      highlight=False)
        with stop_on_signals() as stop:
            sealer.follow(stop)


@app.command()
def status(as_json: JsonOption = False) -> None:
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
        table = RichTable("events", "position", "root", f"sealed at ({TIME_LABEL})", "key")
        for checkpoint in state.checkpoints:
            table.add_row(f"{checkpoint.size:,}", str(checkpoint.position),
                          checkpoint.root.hex()[:16] + "…",
                          clock(checkpoint.when),
                          checkpoint.key)
        console.print(table)


def _view(state: SealStatus, witness: Witness) -> dict[str, Any]:
    """`seal status --json`: the counts, the witness directory, the last checkpoints with their
    whole root (hex) and the moment each was sealed, in Macau time."""
    return {
        "ledger_id": state.ledger_id, "recorded": state.recorded, "sealed": state.sealed,
        "checkpointed": state.checkpointed, "not_checkpointed": state.recorded - state.checkpointed,
        "witness": str(witness.directory),
        "checkpoints": [{"size": c.size, "position": c.position, "root": c.root.hex(),
                         "sealed_at": iso(c.when), "key": c.key} for c in state.checkpoints],
    }
