"""`ledger trust init|show`: the trust file `ledger verify --trust` is given from outside the
database (`ledger.audit.log.trust`)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer

from ledger.cli.common import reading
from ledger.cli.console import console
from ledger.core.errors import InvalidInput
from ledger.core.formatting import counted, when
from ledger.presentation.render import safe

app = typer.Typer(help="Write and read the trust file verify is given from outside the "
                  "database.", no_args_is_help=True)


def _witness(text: str) -> tuple[str, str, str | None]:
    """NAME=VKEY or NAME=VKEY@URL, NAME the one the vkey carries."""
    from ledger.audit.log.note import NoteError, parse_vkey

    name, equals, rest = text.partition("=")
    vkey, at, url = rest.partition("@")
    if not equals or not name or not vkey or (at and not url):
        raise InvalidInput(f"--witness '{text[:80]}' is not NAME=VKEY or NAME=VKEY@URL (the "
                           "vkey `ledger witness serve` prints).")
    try:
        named = parse_vkey(vkey).name
    except NoteError as error:
        raise InvalidInput(f"--witness {safe(name)}: its vkey is not one ({error}).") from None
    if named != name:
        raise InvalidInput(f"--witness {safe(name)}: the vkey is {safe(named)}'s; a witness "
                           "signs under the name its vkey carries, so give it that name.")
    return name, vkey, url or None


@app.command()
def init(
    out: Annotated[Path, typer.Option("--out", help="Where to write it (never overwritten).")],
    witness: Annotated[list[str] | None, typer.Option(
        "--witness", help="A witness, NAME=VKEY@URL (its vkey as `ledger witness serve` "
        "prints it); repeatable.")] = None,
    quorum: Annotated[int | None, typer.Option(
        "--quorum", min=0, help="How many witnesses must cosign a checkpoint (default: all).")
    ] = None,
    seal_public_key: Annotated[str | None, typer.Option(
        "--seal-public-key", help="The sealing public key (base64); default: LEDGER_SEAL_KEY's "
        "or LEDGER_SEAL_PUBLIC_KEY.")] = None,
) -> None:
    """Write the trust file at deployment, right after `ledger db init`, while the database is
    known good: the ledger's id and origin, the sealing public key, the first administrator's
    public key (read from the registry's bootstrap), the witnesses and the quorum. Keep it off
    the database host; give it to the regulator."""
    from ledger.audit.log.trust import TrustedWitness, trust_of, write_trust
    from ledger.runtime.bootstrap import trusted_seal_keys

    witnesses = [TrustedWitness(name=n, vkey=v, url=u) for n, v, u in map(_witness, witness or [])]
    with reading() as rt, rt.database.connect() as conn:
        keys = [seal_public_key] if seal_public_key else trusted_seal_keys(rt.settings)
        if not keys:
            raise InvalidInput("no sealing key: give --seal-public-key, or set LEDGER_SEAL_KEY "
                               "or LEDGER_SEAL_PUBLIC_KEY.")
        trust = trust_of(conn, keys[0], witnesses, quorum)
    write_trust(out, trust)
    console.print(f"wrote {out}: ledger {trust.ledger}, first administrator {trust.administrator}, "
                  f"{counted(len(witnesses), 'witness', 'witnesses')}, quorum {trust.quorum}", highlight=False)


@app.command()
def show(file: Annotated[Path, typer.Argument(help="The trust file.")]) -> None:
    """What a trust file says."""
    from ledger.audit.log.trust import load_trust
    from ledger.identity.keys import fingerprint

    trust = load_trust(file)
    console.print(f"ledger {trust.ledger} ({safe(trust.origin)}), written {_written(trust.written_at)}\n"
                  f"sealing key {fingerprint(trust.seal_public_key)}\n"
                  f"first administrator {safe(trust.administrator)} "
                  f"({fingerprint(trust.administrator_public_key)})\n"
                  f"witnesses: quorum {trust.quorum} of {len(trust.witnesses)}", highlight=False)
    for w in trust.witnesses:
        console.print(f"  {safe(w.name)} {safe(w.url or 'no address')}", highlight=False)


def _written(at: str) -> str:
    """When the file was written, as every time is shown: Macau time, labelled (the file keeps
    the moment as written, in UTC)."""
    try:
        return when(datetime.fromisoformat(at))
    except ValueError:
        return safe(at)
