"""The top-level commands of `ledger` that are not a group: verify, schema, ingest, demo.

Loaded only when one of them runs (`ledger.cli.main` lists them without importing this).
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated

import typer

from ledger.audit.verification.seal_check import SealReport
from ledger.cli.common import console, reading, runtime
from ledger.commands import all_commands, sent_schema
from ledger.core.formatting import PRACTICE_MARK, count, counted, minute
from ledger.identity.keys import fingerprint
from ledger.presentation.render import safe
from ledger.presentation.wording import term
from ledger.runtime.bootstrap import trusted_seal_keys


def verify(
    projections: Annotated[bool, typer.Option(
        "--projections/--no-projections",
        help="Also compare each projection with a rebuild from the events.")] = True,
    trust: Annotated[Path | None, typer.Option(
        "--trust", envvar="LEDGER_TRUST_FILE",
        help="The trust file written at deployment (`ledger trust init`): the ledger, the "
        "sealing key, the first administrator and the witnesses, given from outside the "
        "database.")] = None,
    witness_state: Annotated[list[Path] | None, typer.Option(
        "--witness-state", help="A witness's exported memory (`ledger witness export`), used "
        "instead of asking that witness live; repeatable.")] = None,
    offline: Annotated[bool, typer.Option(
        "--offline", help="Ask no witness over the network: only --witness-state files.")] = False,
    key: Annotated[Path | None, typer.Option(
        "--key", envvar="LEDGER_VERIFIER_KEY",
        help="The verifier's own key (`ledger key new verifier ID`): signs the record of a "
        "verification that held, and checks the last one, so the next verification checks "
        "only what came after it.")] = None,
    record: Annotated[Path | None, typer.Option(
        "--record", envvar="LEDGER_VERIFICATION_RECORD",
        help="Where the verification record is kept (default: beside the trust file, its "
        "name ending .verified.json).")] = None,
    full: Annotated[bool, typer.Option(
        "--full", help="Check everything again from the first event, whatever the record "
        "says; the projections are compared only in full.")] = False,
    sample: Annotated[int, typer.Option(
        "--sample", min=0, max=100_000, help="When only what is new is checked: how many "
        "events of the history verified before are drawn at random and proven again against "
        "the seal.")] = 200,
    workers: Annotated[int, typer.Option(
        "--workers", min=1, help="Processes the proof of every event by its signed command "
        "is spread over when the log is checked from its start (default 1: this process "
        "alone).")] = 1,
) -> None:
    """Check the ledger: every event proven by its signed command, and the seal.

    Also the witnesses, hash chains, shoes, money, pools and projections. With a trust file
    and the verifier's key, only what came after the last verification that held is checked
    (--full: everything). Exit 0 when everything holds against the trust file, 1 on any
    failure (each one named), 3 when nothing failed but no trust file was given (UNTRUSTED:
    checked against what the database itself holds, which proves nothing against its keeper)."""
    from ledger.audit.log.trust import load_trust
    from ledger.audit.verification.incremental import verify as verify_since
    from ledger.identity.keys import Credential

    trusted = load_trust(trust) if trust is not None else None
    verifier = Credential.load(key, "verifier") if key is not None else None
    with reading() as rt, rt.database.connect(long=True) as conn:
        done = verify_since(conn, trust=trusted, trust_path=trust, verifier=verifier,
                            record_path=record, full=full, projections=projections,
                            seal_keys=trusted_seal_keys(rt.settings),
                            witness_root=rt.settings.witness_root,
                            witness_state=witness_state or [], ask_witnesses=not offline,
                            sample=sample, workers=workers,
                            ahead=timedelta(minutes=rt.settings.clock_ahead_minutes))
    report = done.report
    if report.practice:
        console.print(f"[bold red]{PRACTICE_MARK}[/] (made by `ledger db init --practice`)",
                      highlight=False, soft_wrap=True)
    if trusted is None:
        console.print(f"[yellow]UNTRUSTED[/] {safe(report.notes.pop(0))}", highlight=False,
                      soft_wrap=True)
    else:
        console.print(f"trust: ledger {trusted.ledger} ({trusted.origin}), sealing key "
                      f"{fingerprint(trusted.seal_public_key)}, first administrator "
                      f"{trusted.administrator}, {counted(len(trusted.witnesses), 'witness', 'witnesses')}, quorum "
                      f"{trusted.quorum}", highlight=False, soft_wrap=True)
    for note in done.notes:
        console.print(f"[yellow]note[/] {safe(note)}", highlight=False, soft_wrap=True)
    if done.since is not None:
        console.print(
            f"since the last verification ({minute(done.since.when)}, checkpoint at "
            f"{done.since.reached.size:,} events; in full {minute(datetime.fromisoformat(done.since.full_at))}): only "
            "what came after it is checked (--full: everything)", highlight=False,
            soft_wrap=True)
    print_seal(report.seal)
    chains = report.chains
    for chain_break in chains.breaks:
        console.print(f"[red]BREAK[/] {safe(chain_break)}", highlight=False)
    verdict = "[green]all chains hold[/]" if chains.ok else f"[red]{counted(len(chains.breaks), 'break')}[/]"
    if done.since is not None and chains.ok and not chains.streams:
        console.print("no stream changed since the signed record of the last verification: "
                      "no chain is new to check", highlight=False, soft_wrap=True)
    else:
        console.print(f"{counted(chains.streams, 'stream')}, {counted(chains.events, 'event')}: "
                      f"{verdict}", highlight=False)
    for failure in report.failures:
        console.print(f"[red]FAIL[/] {safe(term(failure.check))}: {safe(failure)}", highlight=False,
                      soft_wrap=True)
    for note in report.notes:
        console.print(f"[yellow]note[/] {safe(note)}", highlight=False, soft_wrap=True)
    checked = ", ".join(counted(number, what.removesuffix("s"), what)
                        for what, number in report.checked.items())
    outcome = ("[green]all hold[/]" if not report.failures
               else f"[red]{counted(len(report.failures), 'failure')}[/]")
    console.print(f"checked {checked}: {outcome}", highlight=False)
    if done.written is not None:
        console.print(f"recorded: verified up to the checkpoint at "
                      f"{done.written.reached.size:,} events, in {safe(done.record)} (signed by "
                      f"{verifier.fingerprint if verifier else '?'})", highlight=False,
                      soft_wrap=True)
    elif report.ok and done.record is not None and verifier is not None:
        console.print("not recorded: no signed checkpoint covers the events yet (run the "
                      "sealer)", highlight=False, soft_wrap=True)
    if not report.ok:
        raise typer.Exit(1)
    if trusted is None:
        raise typer.Exit(UNTRUSTED_EXIT)


UNTRUSTED_EXIT = 3
"""`ledger verify`'s exit code when nothing failed but no trust file was given: a script that
reads only the exit code never takes an untrusted verification for a proof."""


def print_seal(seal: SealReport | None) -> None:
    if seal is None:
        return
    for problem in seal.problems:
        console.print(f"[red]SEAL[/] {safe(problem)}", highlight=False, soft_wrap=True)
    for note in seal.notes:
        console.print(f"[yellow]note[/] {safe(note)}", highlight=False, soft_wrap=True)
    verdict = "[green]holds[/]" if not seal.problems else f"[red]{counted(len(seal.problems), 'problem')}[/]"
    witnessed = ("" if seal.witnessed is None else
                 f", {seal.witnessed:,} under a checkpoint its witnesses' quorum cosigned, "
                 f"{counted(seal.witnesses, 'witness', 'witnesses')} consulted")
    console.print(f"seal: {counted(seal.checkpoints, 'signed checkpoint')}, {seal.sealed:,} events "
                  f"verified under {'it' if seal.checkpoints == 1 else 'them'}{witnessed}, {seal.unsealed:,} events not yet sealed: "
                  f"{verdict}", highlight=False, soft_wrap=True)


def schema(
    output: Annotated[Path | None, typer.Option(help="Write to this file.")] = None,
) -> None:
    """Print the JSON Schema of every command a terminal can send."""
    schemas = {
        cls.model_fields["command"].default: sent_schema(cls) for cls in all_commands()
    }
    text = json.dumps(schemas, indent=2)
    if output:
        output.write_text(text + "\n")
    else:
        sys.stdout.write(text + "\n")


def ingest(
    file: Annotated[Path, typer.Argument(help="JSON lines, one command each.", exists=True,
                                         dir_okay=False, readable=True)],
    vouch: Annotated[bool, typer.Option(
        "--vouch", help="Sign unsigned lines under your and this terminal's credentials; they "
        "are recorded as vouched for by you, never as whoever the line names.")] = False,
) -> None:
    """Record the signed commands of a JSON-lines file; report each line accepted or rejected."""
    from ledger.application.bus import EVERY_AREA
    from ledger.application.ingest import LineStatus, Voucher, ingest_lines
    from ledger.runtime.credentials import acting

    counts = {status: 0 for status in LineStatus}
    with runtime(writing=True, areas=EVERY_AREA) as rt, file.open("rb") as lines:
        voucher = None
        if vouch:
            staff_key, terminal_key = acting(rt.settings)
            voucher = Voucher(terminal_key, staff_key, file.name, rt.settings.shift_schedule)
        for result in ingest_lines(rt.ledger, lines, voucher):
            counts[result.status] += 1
            if result.status is LineStatus.BLANK:
                continue
            colour = {"accepted": "green", "duplicate": "yellow", "rejected": "red"}[result.status]
            console.print(f"line {result.number}: [{colour}]{result.status}[/]: {safe(result.detail)}",
                          highlight=False, soft_wrap=True)
    console.print(
        f"{count(counts[LineStatus.ACCEPTED])} accepted, "
        f"{count(counts[LineStatus.DUPLICATE])} already recorded, "
        f"{count(counts[LineStatus.REJECTED])} rejected", highlight=False)
    if counts[LineStatus.REJECTED]:
        raise typer.Exit(1)


def demo(seed: Annotated[int | None, typer.Option(
        help="The floor's seed (printed by every run): the same seed plays the same rounds. "
        "Default: the demo's own the first time, a new one after.")] = None) -> None:
    """Run the ledger end to end on the configured (or embedded) database, a practice ledger."""
    from ledger.cli.demo import run_demo

    if not run_demo(console, seed):
        raise typer.Exit(1)
