"""The demo's witnesses: each `ledger witness serve` in a process of its own, with its own key
and its own memory, on a free port of this machine, for as long as the demo plays.

Their keys and memory live beside the demo operator's keys, so a second demo on the same
ledger meets witnesses that remember the first one's checkpoints. The trust file for the
ledger is written on the demo's first run on it, while the ledger is known good, and kept
there too (`trust-<ledger id>.json`); later runs give the witnesses' addresses of this run.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from ledger.audit.log.note import COSIGNATURE_V1, VerifierKey, origin_of
from ledger.audit.log.trust import (
    TrustedWitness,
    TrustFile,
    load_trust,
    trust_of,
    write_trust,
)
from ledger.audit.seal.sealer import Sealer, ledger_id
from ledger.core.errors import WrongState
from ledger.identity.keyring import Keyring

START_SECONDS = 30.0  # money-safe: how long a witness may take to answer after it starts
SERVE = "from ledger.cli.main import main; main()"


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def _serving(key: Path, store: Path, log: str) -> Iterator[str]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE, "witness", "serve", "--key", str(key), "--store",
         str(store), "--port", str(port), "--log", log],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            if process.poll() is not None:
                said = process.communicate()[1].decode(errors="replace").strip()
                raise WrongState(f"a demo witness did not start: {said[-300:]}")
            try:
                with urllib.request.urlopen(url + "/vkey", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise WrongState(f"a demo witness did not answer at {url}") from None
                time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@contextmanager
def running_witnesses(folder: Path, names: tuple[str, ...], sealer: Sealer
                      ) -> Iterator[tuple[TrustFile, Path, Callable[[], list[Path]]]]:
    """(the trust file with this run's addresses, where it is kept, a function that exports
    every witness's memory to a file and returns the files)."""
    keyring = Keyring(folder)
    with sealer.database.connect() as conn:
        ledger = ledger_id(conn)
    origin = origin_of(ledger)
    log = f"{origin}={sealer.key.public_key}"
    stores = folder / "witnesses"
    stores.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        witnesses = []
        for name in names:
            credential = keyring.credential("witness", name)  # kept as witness-<name>.key
            key = folder / f"witness-{name}.key"
            url = stack.enter_context(_serving(key, stores / f"{name}.sqlite", log))
            public = credential.private_key.public_key().public_bytes_raw()
            witnesses.append(TrustedWitness(
                name=name, vkey=str(VerifierKey(name, public, COSIGNATURE_V1)), url=url))
        path = folder / f"trust-{ledger}.json"
        if not path.exists():
            with sealer.database.connect() as conn:
                write_trust(path, trust_of(conn, sealer.key.public_key, witnesses))
        kept = load_trust(path)
        here = {w.vkey: w.url for w in witnesses}
        trust = kept.model_copy(update={"witnesses": [
            w.model_copy(update={"url": here.get(w.vkey, w.url)}) for w in kept.witnesses]})

        def export() -> list[Path]:
            return [_export(stores / f"{name}.sqlite", folder / f"witness-{name}-state.json")
                    for name in names]

        yield trust, path, export


def _export(store: Path, out: Path) -> Path:
    """What `ledger witness export` prints, written to a file."""
    from ledger.audit.witnesses.store import WitnessStore, exported

    out.write_text(json.dumps(exported(WitnessStore(store)), indent=1) + "\n",
                   encoding="utf-8")
    return out
