"""`ledger demo`: the whole ledger on real data, in under two minutes.

A floor of twelve tables (three of each game) plays one day shift through the same commands
a dealer terminal sends; the projections catch up; the floor's shift report is printed and
reconciled; a jackpot round and a voided round are replayed from the events alone; every
hash chain and every figure is verified. Each run plays the gaming day after the last one the
ledger holds, so the demo can run again on the same database.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any
from uuid import UUID

from rich.console import Console

from ledger.application.administration import (
    bootstrap_registry,
    is_bootstrapped,
    registry_summary,
)
from ledger.application.config import LedgerSettings
from ledger.audit.seal.sealer import Cadence, Sealer, seal_status
from ledger.audit.seal.state import checkpoint_count
from ledger.cli.demo_next import DEMO_ADMIN, DEMO_CONSOLE, DEMO_VERIFIER, after_the_demo
from ledger.cli.report import Format, shift_file
from ledger.cli.simulate import new_seed, simulate_floor
from ledger.core.errors import InvalidInput
from ledger.core.formatting import counted, money
from ledger.domain.registry import StaffMember, TerminalDevice
from ledger.domain.round import Round
from ledger.domain.shift_schedule import ShiftSlot
from ledger.domain.table import table_id
from ledger.identity.keyring import Keyring
from ledger.identity.keys import Credential
from ledger.infrastructure.event_log import (
    first_round_with,
    ids_created_by,
    irregularities_in,
    receipts_signed,
)
from ledger.presentation.wording import term, void_reason
from ledger.reports.shift import to_rich
from ledger.runtime.bootstrap import init_database, open_ledger, resolve_database, sealer_for
from ledger.runtime.credentials import acting
from ledger.simulation.floor import floor_plan
from ledger.simulation.preflight import label
from projections.engine.runner import ProjectionRunner
from projections.registry import select
from projections.shifts.read import shift_report

TABLES, ROUNDS, SEED = 12, 15, 2  # seed 2 shows a jackpot, voids and a shuffler failure
IRREGULARITY_RATE = 0.05  # money-safe: a probability; high, so the short demo shows some
OUTPUT = Path("demo-output")
DEMO_SEAL = "DEMO-SEAL"
DEMO_WITNESSES = ("DEMO-W1", "DEMO-W2")


def _catch_up(database: Any) -> None:
    with ProjectionRunner(database, select()) as runner:
        runner.catch_up()


def _find_round(conn: Any, event_type: str, slot: ShiftSlot) -> UUID | None:
    return first_round_with(conn, event_type, slot.gaming_day, slot.shift)


def _irregularities(conn: Any, slot: ShiftSlot) -> dict[str, int]:
    """Irregularities of the shift's rounds by kind, as the ledger recorded them."""
    return irregularities_in(conn, slot.gaming_day, slot.shift)


def demo_operator(settings: LedgerSettings, ledger: Any,
                  console: Console) -> tuple[Credential, Credential]:
    """The administrator the demo acts as: yours, if the settings name your credentials;
    otherwise the demo's own, made on first run and kept beside the simulator's keys. The first
    run on an empty ledger bootstraps the registry with them, as `ledger db init` would."""
    if settings.staff_credential or settings.staff_key:
        admin, terminal = acting(settings)
    else:
        keyring = Keyring(settings.simulator_keys_dir.parent / "demo-operator")
        admin = keyring.credential("staff", DEMO_ADMIN)
        terminal = keyring.credential("terminal", DEMO_CONSOLE)
    if not is_bootstrapped(ledger):
        bootstrap_registry(ledger, admin, terminal, "Demo Administrator")
        console.print(f"registry bootstrapped: administrator {admin.id} ({admin.fingerprint}) "
                      f"at console {terminal.id}", highlight=False)
    elif ledger.staff(admin.id) is None:
        raise InvalidInput(f"this ledger's registry has no administrator {admin.id}: "
                           f"{registry_summary(ledger)} Run the demo with that administrator's "
                           "LEDGER_STAFF_CREDENTIAL and LEDGER_TERMINAL_CREDENTIAL.")
    return admin, terminal


def run_demo(console: Console, seed: int | None = None) -> bool:
    """The demo on a practice ledger: the shift in force, up to now, by the first floor of
    twelve tables that has not played it (seed `SEED` the first time, a new one after,
    unless given)."""
    settings = LedgerSettings()
    database = resolve_database(settings)
    console.rule("[bold]round ledger demo")
    console.print(f"database: {database.describe()}", highlight=False)
    init_database(settings, database, practice=True)
    with open_ledger(settings) as rt:
        operator = demo_operator(settings, rt.ledger, console)
        _catch_up(rt.database)
        first = floor_plan(TABLES)[0].code
        seed = seed if seed is not None else (
            SEED if not rt.ledger.exists(table_id(first)) else new_seed())
    sealer = demo_sealer(settings, database)
    with demo_witnesses(settings, sealer, console) as trust, sealing_live(sealer) as sealed:
        result = simulate_floor(TABLES, ROUNDS, seed, irregularity_rate=IRREGULARITY_RATE,
                                operator=operator, another_floor=True)
    console.print(sealed.summary(), highlight=False)
    slot = result.slot
    assert slot is not None  # the simulator chose it by the clock
    day = slot.gaming_day
    with open_ledger(settings) as rt:
        _catch_up(rt.database)
        with rt.database.connect() as conn:
            view = shift_report(conn, day, slot.shift,
                                day_starts=settings.shift_schedule.day_starts)
            jackpot = _find_round(conn, Round.JackpotPrizeAwarded.event_type, slot)
            voided = _find_round(conn, Round.Voided.event_type, slot)
            kinds = _irregularities(conn, slot)
            signed = _signatures(conn)
            statistics = month_statistics(conn, day, rt.settings.property_name)
        to_rich(view, console)
        OUTPUT.mkdir(exist_ok=True)
        files = []
        for fmt in (Format.HTML, Format.CSV, Format.JSON):  # marked as `report shift` marks
            path = OUTPUT / f"shift-{day}-{slot.shift}.{fmt}"
            path.write_text(shift_file(fmt, view, rt.settings, rt.practice), encoding="utf-8")
            files.append(path)
        files.append(OUTPUT / f"statistics-month-{day}.html")
        files[-1].write_text(statistics_page(statistics), encoding="utf-8")
        replays = [_replay(rt, console, round_, what, trust) for round_, what in
                   ((jackpot, "a jackpot round"), (voided, "a voided round"))]
        replays_done = [ref for _, _, ref in replays if ref is not None]
        verified = _verify(rt, console, sealer, trust) and not sealed.error
    _summary(console, view, kinds, files, replays, verified, label(slot))
    console.print(_statistics_said(statistics), highlight=False)
    console.print(signed, highlight=False)
    after_the_demo(console, settings, slot, replays_done, trust.path, trust.exported, TABLES,
                   ROUNDS)
    return verified and not result.errors and all(ok for _, ok, _ in replays if ok is not None)


Replayed = tuple[Path | None, bool | None, tuple[str, int] | None]
"""The page written, whether it matched, and which round (table, number)."""


def _replay(rt: Any, console: Console, round_: UUID | None, what: str,
            trust: DemoTrust) -> Replayed:
    if round_ is None:
        console.print(f"no {what} in this shift to replay.")
        return None, None, None
    from ledger.audit.replay.round import replay_round
    from ledger.audit.replay.sealed_events import SealTrust
    from ledger.pages.replay import to_html as replay_page

    with rt.database.connect() as conn:
        replay = replay_round(conn, round_, SealTrust.of(trust.file, ()))
    path = OUTPUT / f"replay-{replay.table}-{replay.number}.html"
    path.write_text(replay_page(replay, rt.settings.property_name), encoding="utf-8")
    verdict = replay.check.verdict
    status = replay.status + (f", {void_reason(replay.void_reason)}" if replay.void_reason
                              else "")
    console.print(f"replayed {what} from the events alone: {replay.table} round {replay.number}"
                  f" ({status}): [bold]{verdict}[/]"
                  + (f"; {replay.seal.sentence}" if replay.seal is not None else ""),
                  highlight=False)
    return path, verdict == "MATCH", (replay.table, replay.number)


def _signatures(conn: Any) -> str:
    """The receipts' signers beside everyone the registry holds."""
    total, signed, people, devices = receipts_signed(conn)
    enrolled = len(set(ids_created_by(conn, StaffMember.Enrolled.event_type, "staff_id")))
    registered = len(set(ids_created_by(conn, TerminalDevice.Registered.event_type, "terminal_id")))
    return who_acted(total, signed, people, enrolled, devices, registered)


def who_acted(total: int, signed: int, signers: int, enrolled: int, devices: int,
              registered: int) -> str:
    """Who signed the commands, counted apart from everyone the registry holds (what `ledger
    staff list` lists): staff who never signed one (an administrator, the count team) are
    among the enrolled, not the signers."""
    return (f"Who acted, proven: {signed:,} of {total:,} commands arrived signed and verified, "
            f"signed by {signers:,} of the {enrolled:,} enrolled staff at {devices:,} of the "
            f"{registered:,} registered terminals (`ledger staff list`, `ledger terminal list`).")


def demo_sealer(settings: LedgerSettings, database: Any) -> Sealer:
    """Your sealing key if the settings name one; otherwise the demo's own, kept beside the
    demo operator's keys (outside the database, as a sealing key must be)."""
    if settings.seal_key is not None:
        return sealer_for(settings, database)
    keyring = Keyring(settings.simulator_keys_dir.parent / "demo-operator")
    return Sealer(database, keyring.credential("seal", DEMO_SEAL), settings.witness_root,
                  Cadence(settings.seal_every_events, settings.seal_every_seconds))


class _LiveSeal:
    def __init__(self, sealer: Sealer) -> None:
        self.sealer, self.stop = sealer, threading.Event()
        self.error: BaseException | None = None
        self.behind = 0
        self.thread = threading.Thread(target=self._run, name="seal", daemon=True)

    def _run(self) -> None:
        try:
            self.sealer.follow(self.stop, poll_seconds=0.5)
        except BaseException as error:  # noqa: BLE001 - reported, never swallowed
            self.error = error

    def summary(self) -> str:
        if self.error is not None:
            return f"[red]the seal failed[/]: {self.error}"
        with self.sealer.database.connect() as conn:
            state = seal_status(conn, last=1)
            checkpoints = checkpoint_count(conn)
        witness = self.sealer.witness_of(state.ledger_id).directory
        return (f"sealed live beside the floor ({self.behind:,} events behind when the last "
                f"table finished): {state.checkpointed:,} of {state.recorded:,} events under "
                f"{counted(checkpoints, 'signed checkpoint')}, witnessed in {witness}")


@contextmanager
def sealing_live(sealer: Sealer) -> Iterator[_LiveSeal]:
    """The sealing follower in a thread while the floor plays; a last checkpoint at the end."""
    live = _LiveSeal(sealer)
    live.thread.start()
    try:
        yield live
    finally:
        with sealer.database.connect() as conn:
            state = seal_status(conn, last=0)
        live.behind = state.recorded - state.sealed  # when the floor stopped
        live.stop.set()
        live.thread.join()


def _verify(rt: Any, console: Console, sealer: Sealer, trust: Any) -> bool:
    """`ledger verify --trust --key` as a regulator runs it each day: every event proven by its
    signed command, the seal and its witnesses' memory, chains, versions, shoes, money, pools
    (and projections, in full); from the demo's first run on, only what came after the last
    verification, which its signed record (beside the trust file) names."""
    from ledger.audit.verification.incremental import verify

    folder = rt.settings.simulator_keys_dir.parent / "demo-operator"
    verifier = Keyring(folder).credential("verifier", DEMO_VERIFIER)
    with rt.database.connect(long=True) as conn:
        done = verify(conn, trust=trust.file, trust_path=trust.path, verifier=verifier,
                      seal_keys=[sealer.key.public_key], witness_root=rt.settings.witness_root,
                      witness_state=trust.exported)
    report = done.report
    if done.since is not None:
        console.print(f"since the last verification (checkpoint at "
                      f"{done.since.reached.size:,} events): only the events after it checked; "
                      "`--full` checks everything again", highlight=False)
    for failure in report.failures:
        console.print(f"[red]FAIL[/] {failure.check}: {failure}", highlight=False)
    for problem in report.seal.problems if report.seal else ():
        console.print(f"[red]SEAL[/] {problem}", highlight=False)
    seal = report.seal
    if seal is not None and seal.witnessed is not None:
        console.print(witnessed_said(seal, trust.file), highlight=False)
    checked = ", ".join(f"{count:,} {what.removesuffix('s') if count == 1 else what}"
                        for what, count in report.checked.items())
    console.print(f"ledger verify: {report.chains.streams:,} streams, {report.chains.events:,} "
                  f"events; checked {checked}: "
                  + ("[green]all hold[/]" if report.ok else "[red]FAILURES[/]"), highlight=False)
    if done.written is not None:
        console.print(f"recorded for the next verification: verified up to the checkpoint at "
                      f"{done.written.reached.size:,} events ({done.record}, signed by the "
                      "verifier's key)", highlight=False, soft_wrap=True)
    return report.ok


@dataclass
class DemoTrust:
    file: Any  # the TrustFile verify is given
    path: Path
    exported: list[Path] = field(default_factory=list)


@contextmanager
def demo_witnesses(settings: LedgerSettings, sealer: Sealer,
                   console: Console) -> Iterator[DemoTrust]:
    """Your trust file if the settings name one (its witnesses already running); otherwise two
    witnesses of the demo's own, each `ledger witness serve` in a process of its own with its
    own key and memory (beside the demo operator's keys), and a trust file for this ledger
    written on its first run. Their memory is exported at the end, for `ledger verify`."""
    from ledger.audit.log.trust import load_trust
    from ledger.audit.witnesses.cosigning import Cosigning

    if settings.trust_file is not None:
        trust = load_trust(settings.trust_file)
        sealer.cosigning = Cosigning(trust, sealer.key, warn=_warned(console))
        yield DemoTrust(trust, settings.trust_file)
        return
    from ledger.simulation.witnesses import running_witnesses

    folder = settings.simulator_keys_dir.parent / "demo-operator"
    with running_witnesses(folder, DEMO_WITNESSES, sealer) as (trust, path, export):
        sealer.cosigning = Cosigning(trust, sealer.key, warn=_warned(console))
        found = DemoTrust(trust, path)
        yield found
        found.exported = export()


def _warned(console: Console) -> Any:
    return lambda line: console.print(f"[yellow]warning:[/] {line}", highlight=False)


def _flagged(count: int) -> str:
    """"No table is flagged for review", "1 table is", "3 tables are": a sentence."""
    tables = "No table is" if count == 0 else "1 table is" if count == 1 else f"{count} tables are"
    return f"{tables} flagged for review"


def _won(amount: Decimal) -> str:
    return f"won {money(amount)}" if amount >= 0 else f"lost {money(-amount)}"


def witnessed_said(seal: Any, trust: Any) -> str:
    """How much of the whole ledger its witnesses have cosigned: the events under their newest
    cosigned checkpoint, of every event recorded (sealed or not yet), however few this run
    verified."""
    recorded = seal.sealed + seal.unsealed
    return (f"witnessed: {seal.witnessed:,} of the ledger's {recorded:,} events are under a "
            f"checkpoint {trust.quorum} of {len(trust.witnesses)} witnesses cosigned "
            f"({seal.witnesses} consulted)")


def _by_kind(kinds: dict[str, int]) -> str:
    """' (card face up 2, shuffler failure 1)': each kind of irregularity and how often."""
    if not kinds:
        return ""
    return " (" + ", ".join(f"{term(kind)} {n}" for kind, n in kinds.items()) + ")"


def month_statistics(conn: Any, day: Any, property_name: str) -> Any:
    from ledger.reports.statistics import statistics

    return statistics(conn, "month", day, property_name=property_name)


def statistics_page(report: Any) -> str:
    from ledger.pages.statistics import to_html as statistics_html

    return statistics_html(report)


def _statistics_said(report: Any) -> str:
    floor = next(line for line in report.lines if line.level == "floor")
    f = floor.figures
    flagged = sum(1 for line in report.lines if line.flags and line.level == "table")
    inside = "outside" if f.expectation.outside(f.actual_win) else "within"
    return (f"Month to date, on a handle of {money(f.handle)}: theoretical win "
            f"{money(f.theoretical_win)} ({f.theoretical_hold_pct}% of the handle), actual win "
            f"{money(f.actual_win)} ({f.actual_hold_pct}% of the handle), {inside} the 95% band "
            f"{money(floor.band_low)} to {money(floor.band_high)}. {_flagged(flagged)}.")


def _by_the_chips(floor: Any) -> str:
    if floor.accounting_win is None:
        return "has no accounting win yet (a shift open or a drop box not counted)"
    return (f"{_won(floor.accounting_win)} by the chips and the drop, a variance of "
            f"{money(floor.variance)}")


def _summary(console: Console, view: Any, kinds: dict[str, int], files: list[Path],
             replays: list[Replayed], verified: bool, played: str) -> None:
    floor = view.floor
    console.rule("[bold]for the pit boss")
    console.print(
        f"{floor.tables} tables played {played}: "
        f"{floor.rounds_played} rounds settled, {floor.rounds_voided} voided, "
        f"{counted(floor.irregularities, 'irregularity', 'irregularities')} recorded"
        f"{_by_kind(kinds)}.\n"
        f"The house {_won(floor.ledger_win)} by the events and {_by_the_chips(floor)}. "
        f"{_flagged(floor.flagged)}.\n"
        f"Jackpot: {money(floor.jackpot_contributions)} contributed, "
        f"{money(floor.jackpot_prizes)} "
        f"paid in prizes.\n"
        f"Every event proven by its signed command, hash-chained, sealed and witnessed: "
        f"{'yes' if verified else 'NO'}.",
        highlight=False,
    )
    console.print("written: " + ", ".join(str(p) for p in files + [p for p, _, _ in replays if p]),
                  highlight=False)
