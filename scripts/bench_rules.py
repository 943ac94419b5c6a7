"""Rules-engine throughput, a measurement and not a test.

1. Five-card evaluations per second over all 2,598,960 hands of one deck: our Stud Poker
   evaluator (art. 8 order, suit tie-breaks included), then the published evaluator `treys`
   (no suit tie-breaks). treys is not a project dependency: when missing it is installed into
   the running interpreter's environment, with a note.
2. Baccarat coups per second: `ledger.games.baccarat.play_coup` over shuffled 8-deck shoes
   (fixed seed), with the outcome frequencies next to RULES.md's reference figures.

Run: scripts/bench-rules [--coups N] [--seed S]
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path
from random import Random

ROOT = Path(__file__).resolve().parent.parent

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(ROOT))
from ledger.core.cards import DECK
from ledger.games.stud_poker.rules import evaluate

HANDS = 2_598_960
REFERENCE = {"banker": 0.458597, "player": 0.446247, "tie": 0.095156}  # money-safe: frequencies
console = Console()


def timed(run) -> tuple[int, float]:  # money-safe: seconds
    start = time.perf_counter()
    count = run()
    return count, time.perf_counter() - start


def ours() -> int:
    count = 0
    for hand in combinations(DECK, 5):
        evaluate(hand)
        count += 1
    return count


def load_treys():
    try:
        return importlib.import_module("treys")
    except ImportError:
        console.print("[yellow]note:[/] treys is missing; installing it into "
                      f"{sys.prefix} for this benchmark only (not a project dependency).")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                           "--disable-pip-version-check", "treys"], check=False)
    if done.returncode != 0:
        console.print("[yellow]note:[/] could not install treys; its row is left out.")
        return None
    importlib.invalidate_caches()
    return importlib.import_module("treys")


def treys_run(treys) -> int:
    evaluator = treys.Evaluator()
    deck = [treys.Card.new(str(card)[0] + str(card)[1].lower()) for card in DECK]
    count = 0
    for hand in combinations(deck, 5):
        evaluator.evaluate((), hand)  # public API: no hole cards, a five-card board
        count += 1
    return count


def bare_loop() -> int:
    return sum(1 for _ in combinations(DECK, 5))


def baccarat(coups: int, seed: int) -> tuple[int, float, Counter]:  # money-safe: seconds
    from ledger.games.baccarat.rules import play_coup

    rng, winners, played, seconds = Random(seed), Counter(), 0, 0.0  # money-safe: seconds
    while played < coups:
        shoe = list(DECK) * 8
        rng.shuffle(shoe)  # outside the timing: only play_coup is measured
        last = len(shoe) - 12  # the blank card about 12 cards from the end
        position = 0
        start = time.perf_counter()
        while position < last and played < coups:
            coup = play_coup(shoe[position:position + 6])
            position += coup.cards_used
            winners[str(coup.winner)] += 1
            played += 1
        seconds += time.perf_counter() - start
    return played, seconds, winners


def add_evaluator_rows(table: Table) -> None:
    _, loop_seconds = timed(bare_loop)
    count, seconds = timed(ours)
    table.add_row("stud_poker.evaluate", f"{count:,}", f"{seconds:.2f}",
                  f"{count / seconds:,.0f}", "art. 8 order, suit tie-breaks, checks input")
    treys = load_treys()
    if treys is not None:
        treys_count, treys_seconds = timed(lambda: treys_run(treys))
        table.add_row("treys Evaluator", f"{treys_count:,}", f"{treys_seconds:.2f}",
                      f"{treys_count / treys_seconds:,.0f}", "rank classes only, no suits")
        table.add_row("ratio ours / treys", "", "", f"{treys_seconds / seconds:.2f}x",
                      "above 1: ours is faster")
    table.add_row("(iterating the hands)", f"{HANDS:,}", f"{loop_seconds:.2f}", "",
                  "included in the figures above")


def add_baccarat_rows(table: Table, coups: int, seed: int) -> Table | None:
    """The coups row; and a table of outcome frequencies against RULES.md's figures."""
    try:
        played, seconds, winners = baccarat(coups, seed)
    except ImportError:
        table.add_row("baccarat.play_coup", "", "", "", "ledger.games.baccarat.rules is not there yet")
        return None
    table.add_row("baccarat.play_coup", f"{played:,}", f"{seconds:.2f}",
                  f"{played / seconds:,.0f}", f"8-deck shoes, seed {seed}")
    shares = Table(title=f"Baccarat outcomes over {played:,} coups")
    for column in ("winner", "share", "RULES.md (fresh shoe)"):
        shares.add_column(column, justify="left" if column == "winner" else "right")
    for side, expected in REFERENCE.items():
        shares.add_row(side, f"{winners[side] / played:.6f}", f"{expected:.6f}")
    return shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coups", type=int, default=1_000_000, help="baccarat coups to play")
    parser.add_argument("--seed", type=int, default=20040512, help="seed of the shoe shuffles")
    args = parser.parse_args()
    table = Table(title=f"Rules engines ({sys.implementation.name} {sys.version.split()[0]})")
    for column in ("what", "count", "seconds", "per second", "note"):
        table.add_column(column, justify="left" if column in ("what", "note") else "right")
    add_evaluator_rows(table)
    shares = add_baccarat_rows(table, args.coups, args.seed)
    console.print(table)
    if shares is not None:
        console.print(shares)


if __name__ == "__main__":
    main()
