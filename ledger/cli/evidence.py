"""`ledger export round` and `ledger verify-bundle`: dispute evidence out, and checked offline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from ledger.application.config import LedgerSettings
from ledger.audit.bundle_verify import EXIT, UNTRUSTED, check, given_witnesses, trusted_verdict
from ledger.audit.log.trust import load_trust
from ledger.audit.replay.bundle import export_round
from ledger.audit.replay.sealed_events import SealTrust, events_of
from ledger.cli.common import reading
from ledger.cli.console import console, err_console
from ledger.cli.replay import which_round
from ledger.core.errors import InvalidInput
from ledger.core.formatting import counted
from ledger.pages.replay import to_html
from ledger.presentation.render import safe
from ledger.runtime.bootstrap import trusted_seal_keys
from ledger.runtime.credentials import configured

export = typer.Typer(help="Evidence for a dispute, as one file anyone can check.",
                     no_args_is_help=True)


@export.command("round")
def export_round_command(
    ref: Annotated[list[str], typer.Argument(help="ROUND (an id), or TABLE ROUND_NUMBER.")],
    out: Annotated[Path, typer.Option("--out", help="The bundle file to write (never one that "
                                                    "exists, unless --force).")],
    force: Annotated[bool, typer.Option(
        "--force", help="Replace the file --out names if it exists.")] = False,
) -> None:
    """The round's events with their proofs against a signed checkpoint, the checkpoint, the
    replay (JSON and HTML), signed by you (LEDGER_STAFF_CREDENTIAL)."""
    _check_writable(out, force)
    with reading() as rt, rt.database.connect() as conn:
        exporter = configured(rt.settings, "staff")
        seal = SealTrust.of(None, trusted_seal_keys(rt.settings))
        bundle = export_round(conn, which_round(conn, ref, None, None), exporter,
                              page=lambda replay: to_html(replay, rt.settings.property_name),
                              seal=seal, warn=_warn)
    _write(out, json.dumps(bundle, indent=1, sort_keys=True) + "\n", force)
    console.print(f"wrote {out}: {said_of(bundle['content'])}, signed by {exporter.id}",
                  highlight=False, soft_wrap=True)


def said_of(content: dict[str, Any]) -> str:
    """What the bundle holds, counted as `ledger replay` counts it: the events the replay used
    (the round's, its shoe's, its pool's), the exporter's key events apart, and the checkpoint
    they are proven under, which is the replay's where it has one."""
    replay = content["replay"]
    used = events_of(len(replay["evidence"]), [e["stream"] for e in replay["evidence"]])
    keys = len(content["events"]) - len(replay["evidence"])
    size = content["checkpoint"]["statement"]["size"]
    proved = (replay.get("seal") or {}).get("checkpoint")
    which = ("the newest a trusted key signed, as the replay says" if proved
             and proved["size"] == size else "the first that covers them")
    return (f"{content['round']['table']} round {content['round']['number']}, {used} (every "
            f"event its replay used) and {counted(keys, 'event')} of the exporter's key, proven "
            f"under checkpoint {size:,} events ({which}; "
            f"{counted(len(content['cosignatures']), 'witness cosignature')}), replay "
            f"{replay['check']['verdict']}")


def _warn(line: str) -> None:
    err_console.print(f"[yellow]warning:[/] {safe(line)}", highlight=False, soft_wrap=True)


def _check_writable(out: Path, force: bool) -> None:
    """Refused before anything is read: a folder, or a file that exists without --force (an
    evidence file is never replaced without being asked to)."""
    if out.is_dir():
        raise InvalidInput(f"{out} is a folder: --out names the bundle file to write.")
    if out.exists() and out.is_file() and not force:
        raise InvalidInput(f"{out} already exists: an evidence file is not replaced; choose "
                           "another --out, or add --force to replace it.")


def _write(out: Path, text: str, force: bool) -> None:
    """The bundle written whole: a new file created only if none has appeared meanwhile;
    with --force, a complete file put in the old one's place (never half of one)."""
    try:
        if force and out.is_file():
            partial = out.with_name(f".{out.name}.partial")
            partial.write_text(text, encoding="utf-8")
            partial.replace(out)
            return
        special = out.exists() and not out.is_file()  # /dev/stdout, a pipe: written to
        with out.open("w" if special else "x", encoding="utf-8") as file:
            file.write(text)
    except FileExistsError:
        raise InvalidInput(f"{out} appeared while the bundle was made: an evidence file is not "
                           "replaced; choose another --out, or add --force.") from None
    except OSError as error:
        raise InvalidInput(f"cannot write {out}: {error.strerror or error}.") from None


def verify_bundle(
    path: Annotated[Path, typer.Argument(help="A bundle `ledger export round` wrote.")],
    seal_public_key: Annotated[str | None, typer.Option(
        "--seal-public-key", help="The sealing public key you trust (default: the trust "
        "file's, else LEDGER_SEAL_PUBLIC_KEY).")] = None,
    trust: Annotated[Path | None, typer.Option(
        "--trust", envvar="LEDGER_TRUST_FILE", help="The ledger's trust file: its sealing key, "
        "witnesses and quorum; the checkpoint must carry the quorum's cosignatures.")] = None,
    witness: Annotated[list[str] | None, typer.Option(
        "--witness", help="A witness you trust, NAME=VKEY; repeatable (with or instead of "
        "--trust).")] = None,
    quorum: Annotated[int | None, typer.Option(
        "--quorum", min=0, help="How many trusted witnesses must have cosigned (default: the "
        "trust file's, else every --witness).")] = None,
) -> None:
    """Check a bundle with no database: MATCH (exit 0), DISCREPANCY (1), TAMPERED (2), or
    UNTRUSTED (3): it matched, but only under the sealing key it carries itself.

    Given witnesses, a checkpoint short of their quorum is TAMPERED (unwitnessed)."""
    try:
        bundle = json.loads(path.read_bytes())
    except OSError as error:
        raise InvalidInput(f"cannot read {path}: {error.strerror or error}.") from None
    except ValueError:
        bundle = None
    trusted = load_trust(trust) if trust is not None else None
    try:
        witnesses = given_witnesses(trusted.model_dump(mode="json") if trusted else None,
                                    witness or [], quorum)
    except ValueError as error:
        raise InvalidInput(f"{error}.") from None
    keys = ([seal_public_key] if seal_public_key else [trusted.seal_public_key] if trusted
            else trusted_seal_keys(LedgerSettings()))
    key = keys[0] if keys else None
    verdict, said = check(bundle, key, witnesses) \
        if isinstance(bundle, dict) else ("TAMPERED", [f"{path} is not JSON"])
    verdict = trusted_verdict(verdict, key)
    for line in said:
        console.print(f"  {line}", highlight=False)
    colour = {"MATCH": "green", "DISCREPANCY": "yellow", "UNTRUSTED": "yellow"}.get(verdict, "red")
    console.print(f"[bold {colour}]{verdict}[/]"
                  + (f" {safe(UNTRUSTED)}" if verdict == "UNTRUSTED" else ""), highlight=False,
                  soft_wrap=True)
    raise typer.Exit(EXIT.get(verdict, 2))
