"""`ledger witness serve|export|vkey`: a witness that cosigns the seal's checkpoints, run by
someone other than the ledger's keepers (a regulator, another site), and what it holds.

    ledger key new witness W-1 --out w1.key
    ledger witness serve --key w1.key --store w1.sqlite \\
        --log round-ledger/<ledger id>=<seal public key> --port 7380
    ledger witness export --store w1.sqlite > w1-state.json

The witness needs no database and no ledger settings: its key, its memory and the logs it
witnesses are all it knows.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ledger.cli.console import console
from ledger.core.errors import InvalidInput

if TYPE_CHECKING:  # the server (FastAPI, cryptography) is imported by the command that runs it
    from ledger.audit.witnesses.server import Witness

app = typer.Typer(help="Run a witness that cosigns the seal's checkpoints; export its memory.",
                  no_args_is_help=True)

StoreOption = Annotated[Path, typer.Option(
    "--store", help="The witness's memory, a SQLite file (made on first use).")]
KeyOption = Annotated[Path, typer.Option(
    "--key", help="The witness's key file (`ledger key new witness W-1 --out FILE`).")]
NameOption = Annotated[str | None, typer.Option(
    "--name", help="The name its cosignatures carry (default: the key's id).")]


@app.command()
def serve(
    key: KeyOption, store: StoreOption,
    log: Annotated[list[str] | None, typer.Option(
        "--log", help="A log to witness: ORIGIN=PUBLIC_KEY (the sealing key's public half, "
                      "base64; ORIGIN is round-ledger/<ledger id>) or the log's vkey. Repeat "
                      "for each.")] = None,
    logs: Annotated[Path | None, typer.Option(
        "--logs", help="A file of logs to witness, one a line as --log takes them "
                       "('#' starts a comment).")] = None,
    name: NameOption = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 7380,
) -> None:
    """Cosign each log's checkpoints that extend the last one cosigned (tlog-witness)."""
    import uvicorn

    from ledger.audit.witnesses.server import create_app

    witness = _witness(key, store, name, _logs(log or [], logs))
    console.print(f"witness {witness.name} ({witness.vkey}) witnessing "
                  f"{', '.join(sorted(witness.logs))} at http://{host}:{port}; Ctrl-C stops.",
                  highlight=False)
    uvicorn.run(create_app(witness), host=host, port=port, log_level="warning",
                access_log=False)


@app.command()
def export(store: StoreOption) -> None:
    """Print, as JSON, the newest cosigned checkpoint of every log the store holds."""
    from ledger.audit.witnesses.store import StoreError, WitnessStore, exported

    if not store.expanduser().is_file():
        raise InvalidInput(f"there is no witness store at {store}.")
    try:
        memory = exported(WitnessStore(store))
    except StoreError as error:
        raise InvalidInput(str(error)) from None
    sys.stdout.write(json.dumps(memory, indent=2, ensure_ascii=False) + "\n")


@app.command()
def vkey(key: KeyOption, name: NameOption = None) -> None:
    """Print the witness's public key as a vkey, for the verifiers' trust file."""
    from ledger.audit.log.note import COSIGNATURE_V1, VerifierKey
    from ledger.identity.keys import Credential

    credential = Credential.load(key, "witness")
    public = credential.private_key.public_key().public_bytes_raw()
    # written whole, never wrapped to the terminal's width: it is copied into the trust file
    sys.stdout.write(f"{VerifierKey(_name(name, credential.id), public, COSIGNATURE_V1)}\n")


def _logs(given: list[str], path: Path | None) -> dict[str, bytes]:
    from ledger.audit.log.note import NoteError
    from ledger.audit.witnesses.server import parse_log

    lines = [(f"--log {text}", text) for text in given]
    if path is not None:
        try:
            text = path.expanduser().read_text(encoding="utf-8")
        except OSError as error:
            raise InvalidInput(f"cannot read the logs file {path}: "
                               f"{error.strerror or error}.") from None
        lines += [(f"{path} line {number}", line.split("#", 1)[0])
                  for number, line in enumerate(text.splitlines(), 1)
                  if line.split("#", 1)[0].strip()]
    if not lines:
        raise InvalidInput("a witness needs at least one log to witness: --log ORIGIN=KEY or "
                           "--logs FILE.")
    found: dict[str, bytes] = {}
    for where, text in lines:
        try:
            origin, public_key = parse_log(text)
        except NoteError as error:
            raise InvalidInput(f"{where}: {error}.") from None
        if found.get(origin, public_key) != public_key:
            raise InvalidInput(f"{where}: {origin} is given two different keys.")
        found[origin] = public_key
    return found


def _witness(key: Path, store: Path, name: str | None, logs: dict[str, bytes]) -> Witness:
    from ledger.audit.log.note import NoteError
    from ledger.audit.witnesses.server import Witness
    from ledger.audit.witnesses.store import StoreError, WitnessStore
    from ledger.identity.keys import Credential

    credential = Credential.load(key, "witness")
    try:
        witness = Witness(_name(name, credential.id), credential.private_key, logs,
                          WitnessStore(store))
        witness.store.bind(str(witness.vkey))
    except (StoreError, NoteError) as error:
        raise InvalidInput(str(error)) from None
    return witness


def _name(name: str | None, key_id: str) -> str:
    chosen = name or key_id
    if not chosen or any(c.isspace() or c == "+" for c in chosen):
        raise InvalidInput(f"'{chosen}' is not a witness name: no spaces and no '+'.")
    return chosen
