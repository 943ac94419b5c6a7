"""The CPU of one command, stage by stage: where the ledger's own Python goes between a
terminal's request and its answer.

The simulator's floor (baccarat, Q Poker and Fortune 8 tables) plays once and its signed
commands are kept as the terminals sent them; they are then sent again on a fresh database,
one after another in one thread, each through the stages the HTTP API takes it through, timed
by that thread's CPU clock (the database's own work is not in it):

- request: the body's bytes read into an envelope, as `POST /v1/commands` reads them;
- signatures: the envelope's Ed25519 signatures checked (the door's `verify`);
- door: the rest of the door (the ledger id, the registry, the roles, the clock);
- record: the rules, the events, the receipt, the insert and its commit, split by where the
  time goes (a profile of that stage, its shares scaled to the stage's measured CPU);
- answer: the recorded command written out as the API answers it.

The HTTP server itself (the request line, the headers, the framework's routing, the hop to a
worker thread) is not here: `bench-http` prints the server's whole CPU a command.

`--against REF` runs the same measurement on the code of a git commit (in a worktree beside
this one) in the same run, and prints both with their ratio.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import time
from collections import defaultdict
from datetime import date
from pathlib import Path
from typing import Any

from benchlib import BENCH_ADMIN, BENCH_CONSOLE, console, signer, throwaway_database, worktree
from rich.table import Table

STAGES = ("request", "signatures", "handing over", "answer", "writer", "process")
PARTS = (  # where a function's own time is counted, by its module: first match wins
    ("the door", ("ledger.identity",)),
    ("the rules and the handlers", ("ledger.games", "ledger.application.handlers",
                                    "ledger.domain", "ledger.commands")),
    ("the database driver", ("psycopg", "psycopg_pool")),
    ("events and their mapper", ("eventsourcing", "pydantic", "pydantic_core", "ledger.core")),
    ("the group writer, the receipt, the service layer", ("ledger",)),
)
OTHER = "the standard library and built-ins"
TOP = [0]  # `--top N`: the writer profile's N functions of most time of their own, printed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=3, help="rounds per table")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--against", metavar="REF",
                        help="also measure the code of this git commit, in the same run")
    parser.add_argument("--top", type=int, default=0, metavar="N",
                        help="also print the group writer's N functions of most time of their own")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    TOP[0] = args.top
    now = measure(args.tables, args.rounds, args.seed)
    if args.json:
        print(json.dumps(now))
        return
    before = _measure_at(args.against, args) if args.against else None
    _print(now, before, args.against)


def measure(tables: int, rounds: int, seed: int) -> dict[str, Any]:
    from bench_floor import Script

    script = Script(None)
    with throwaway_database("ledger_bench_stages") as (settings, _):
        _play(settings, tables, rounds, seed, script)
    with throwaway_database("ledger_bench_stages_again") as (settings, _):
        return _stages(settings, tables, rounds, script)


def _play(settings: Any, tables: int, rounds: int, seed: int, script: Any) -> None:
    from ledger.runtime.bootstrap import open_ledger
    from ledger.simulation.floor import floor_plan, run_floor

    with open_ledger(settings.model_copy(update={"group_commit": False})) as rt:
        plan = floor_plan(tables, ("baccarat", "q-poker", "fortune-8"))
        staff = signer(rt).floor_staff()
        staff.enrol(plan, rounds)
        script.inner, script.keyring = rt.ledger, staff.keyring
        result = run_floor(script, staff, plan, rounds=rounds, seed=seed, day=date(2026, 11, 22))
    if result.errors:
        raise SystemExit(f"the floor failed: {result.errors[0]}")


def _stages(settings: Any, tables: int, rounds: int, script: Any) -> dict[str, Any]:
    import ledger as ledger_module
    from ledger.application.administration import Administrator
    from ledger.application.ledger import Sent
    from ledger.identity.keys import verify
    from ledger.runtime.bootstrap import open_ledger, resolve_database
    from ledger.simulation.floor import floor_plan
    from ledger.simulation.staffing import FloorStaff

    read, answer = _api()
    with resolve_database(settings).connect() as conn:  # signed for the first run's ledger
        conn.execute("UPDATE ledger_seal_state SET ledger_id = %s", (script.inner.ledger_id,))
    spent: dict[str, float] = defaultdict(float)  # money-safe: CPU seconds
    profile = cProfile.Profile(time.thread_time)  # CPU, as the stages are timed
    with open_ledger(settings.model_copy(update={"group_commit": True})) as rt:
        signer(rt)
        plan = floor_plan(tables, ("baccarat", "q-poker", "fortune-8"))
        FloorStaff(Administrator(rt.ledger, script.keyring, BENCH_ADMIN, BENCH_CONSOLE)
                   ).enrol(plan, rounds)
        ledger, writer = rt.ledger, rt.ledger.writer
        for signed in script.sent["MainThread"]:
            ledger.execute(signed)
        sent = [(signed.model_dump_json().encode(), _keys(ledger, signed)) for spec in plan
                for signed in script.sent[spec.code]]
        verify.cache_clear()  # the first play's checks are not this one's
        _profile_every_other(writer, profile)
        writer_clock = time.pthread_getcpuclockid(writer._thread.ident)
        writer_from, process_from = time.clock_gettime(writer_clock), time.process_time()
        for body, keys in sent:
            clock = time.thread_time()
            envelope = read(body)
            mark = _mark(spent, "request", clock)
            message = envelope.message()
            for signature in envelope.signatures:
                verify(keys[signature.signer, signature.id], signature.value, message)
            mark = _mark(spent, "signatures", mark)
            recorded = writer.execute(envelope, Sent())
            mark = _mark(spent, "handing over", mark)
            answer(recorded)
            _mark(spent, "answer", mark)
        every = time.clock_gettime(writer_clock) - writer_from
        spent["process"] = time.process_time() - process_from
        unprofiled, counted = writer.unprofiled
        spent["writer"] = unprofiled / counted * len(sent)  # without the profiler's cost
        spent["process"] -= every - spent["writer"]
        batches = writer.batches
    commands = len(sent)
    return {"commands": commands, "batches": batches,
            "stages": {stage: spent[stage] * 1000 / commands for stage in STAGES},
            "writer_parts": _shares(profile), "code": str(Path(ledger_module.__file__).parent)}


def _profile_every_other(writer: Any, profile: cProfile.Profile) -> None:
    """The writer's batches profiled in its own thread, every other one: the profile gives the
    shares of the writer's time; its clock, the time (the profiler's own cost is in both)."""
    record, taken = writer._record, [0]

    def profiled(batch: Any) -> None:
        taken[0] += 1
        if taken[0] % 2:
            clock = time.thread_time()
            record(batch)
            writer.unprofiled[0] += time.thread_time() - clock
            writer.unprofiled[1] += len(batch)
            return
        profile.enable()
        try:
            record(batch)
        finally:
            profile.disable()

    writer._record, writer.unprofiled = profiled, [0.0, 0]


def _mark(spent: dict[str, float], stage: str, since: float) -> float:  # money-safe: CPU s
    now = time.thread_time()
    spent[stage] += now - since
    return now


def _keys(ledger: Any, envelope: Any) -> dict[tuple[str, str], str]:
    """Each signer's registered public key, as the door reads it (not timed as a stage)."""
    keys = {}
    for signature in envelope.signatures:
        holder = (ledger.terminal(signature.id) if signature.signer == "terminal"
                  else ledger.staff(signature.id))
        keys[signature.signer, signature.id] = holder.public_key
    return keys


def _api() -> tuple[Any, Any]:
    """How the API reads a body and writes an answer, in the code being measured."""
    from ledger.web import api

    if hasattr(api, "read_envelopes"):
        return api.read_envelopes, api.answer_body
    from fastapi.responses import JSONResponse

    from ledger.application.ingest import parse_json
    from ledger.identity.envelope import SignedCommand

    def read(body: bytes) -> Any:
        return SignedCommand.model_validate(parse_json(body.decode("utf-8")))

    def answer(recorded: Any) -> bytes:
        return JSONResponse(api.RecordedOut.of(recorded).model_dump()).body

    return read, answer


def _shares(profile: cProfile.Profile) -> dict[str, float]:
    """Each part's share of the writer's own time, by the module of each function; a
    built-in's time goes to the functions that called it."""
    stats = pstats.Stats(profile)
    if TOP[0]:
        stats.sort_stats("tottime").print_stats(TOP[0])
    parts: dict[str, float] = defaultdict(float)  # money-safe: seconds
    for (path, _line, _name), (_cc, _nc, own, _cum, callers) in stats.stats.items():  # type: ignore[attr-defined]
        if path != "~" or not callers:
            parts[_part(path)] += own
            continue
        for (caller, _l, _n), (_c, _ncalls, inside, _ci) in callers.items():
            parts[_part(caller)] += inside
    total = sum(parts.values()) or 1.0
    return {part: own / total for part, own in parts.items()}


def _part(path: str) -> str:
    module = _module(path)
    for part, prefixes in PARTS:
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return part
    return OTHER


def _module(path: str) -> str:
    if path == "~" or path.startswith("<"):
        return "builtins"
    parts = Path(path).with_suffix("").parts
    for anchor in ("site-packages", "scripts"):
        if anchor in parts:
            return ".".join(parts[parts.index(anchor) + 1:])
    for top in ("ledger", "projections"):
        if top in parts:
            return ".".join(parts[len(parts) - 1 - parts[::-1].index(top):])
    return "stdlib"


def _measure_at(ref: str, args: Any) -> dict[str, Any]:
    scripts = Path(__file__).resolve().parent
    with worktree(ref) as tree:
        console.print(f"[dim]measuring {ref} in {tree}[/]")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), str(scripts)])}
        out = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--json",
             "--tables", str(args.tables), "--rounds", str(args.rounds),
             "--seed", str(args.seed)], cwd=tree, env=env, check=True,
            capture_output=True, text=True).stdout
    then = json.loads(out.strip().splitlines()[-1])
    console.print(f"[dim]{ref}: measured the code in {then['code']}[/]")
    return then


def _print(now: dict[str, Any], before: dict[str, Any] | None, ref: str | None) -> None:
    table = Table(title=f"CPU a command, by stage ({now['commands']:,} commands)")
    table.add_column("stage")
    if before:
        table.add_column(f"{ref} ms", justify="right")
    table.add_column("ms", justify="right")
    if before:
        table.add_column("now / then", justify="right")

    def row(name: str, of: Any) -> None:
        ms = of(now)
        cells = [name] + ([f"{of(before):.3f}"] if before else []) + [f"{ms:.3f}"]
        if before:
            cells.append(f"{ms / of(before):.2f}x" if of(before) else "")
        table.add_row(*cells)

    for stage, name in (("request", "the terminal's thread: the body read into an envelope"),
                        ("signatures", "  its signatures checked ahead"),
                        ("handing over", "  handing it to the writer, waiting"),
                        ("answer", "  the answer written"),
                        ("writer", "the group writer's thread")):
        row(name, lambda run, stage=stage: run["stages"][stage])
    for part in [p for p, _ in PARTS] + [OTHER]:
        row("  " + part, lambda run, part=part: run["stages"]["writer"]
            * run["writer_parts"].get(part, 0.0))
    row("the whole process, every thread", lambda run: run["stages"]["process"])
    console.print(table)
    console.print(f"CPU milliseconds a command; one terminal thread sends the floor's "
                  f"commands one after another (batches of one: "
                  f"{now['batches']:,} batches), so each stage's CPU is its own. The group "
                  "writer's parts are its profile's shares of its measured CPU (a built-in's "
                  "time counted to its caller). The HTTP server's own work (the request line, "
                  "the headers, routing, the hop to a worker thread) is not in these: "
                  "bench-http prints the server's whole CPU a command.")


if __name__ == "__main__":
    main()
