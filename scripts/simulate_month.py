"""A month of a simulated floor on an in-memory ledger, with game protection's planted cases
(an informed bettor, a lucky streak, a dealer misdealing at three times the rate) beside fair
players: per game, the share of table-days outside the statistics report's 95% band; the
month's game-protection report and what it made of each case (`ledger.simulation.month`).

Run: scripts/simulate-month [--tables N] [--days N] [--rounds N] [--seed N]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console

from ledger.core.errors import LedgerError
from ledger.simulation.month import MonthPlan, judge, play_month, progress, show


def main(argv: Sequence[str] | None = None, console: Console | None = None) -> int:
    default = MonthPlan()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=default.tables,
                        help="tables on the floor, spread over the games in turn")
    parser.add_argument("--days", type=int, default=default.days, help="gaming days")
    parser.add_argument("--rounds", type=int, default=default.rounds,
                        help="rounds a table plays a gaming day")
    parser.add_argument("--seed", type=int, default=default.seed)
    parser.add_argument("--first-day", type=date.fromisoformat, default=default.first_day,
                        help="the month's first gaming day (YYYY-MM-DD)")
    args = parser.parse_args(argv)
    console = console or Console()
    plan = MonthPlan(args.tables, args.days, args.rounds, args.seed, args.first_day)
    try:
        month = play_month(plan, lambda day, so_far: console.print(
            progress(day, so_far), highlight=False))
    except LedgerError as error:
        console.print(f"[red]error:[/] {error}", highlight=False)
        return 1
    show(month, judge(month), console)
    return 1 if month.errors else 0


if __name__ == "__main__":
    sys.exit(main())
