"""`ledger demo`: the ledger working end to end on whatever database is configured.

For now (the first slice) it opens one table of every game, signs dealers in, shows the
floor and the events, verifies every hash chain, and closes the tables again.
"""

from __future__ import annotations

from decimal import Decimal

from rich.console import Console
from rich.table import Table as RichTable

from ledger.bootstrap import init_database, open_ledger, resolve_database
from ledger.commands import CloseTable, OpenTable, SignInDealer
from ledger.config import LedgerSettings
from ledger.domain.base import Actor, Role
from ledger.queries import list_tables
from ledger.verify import verify_chains

FLOOR = (
    ("SP-01", "stud-poker", "stud-poker/2004", "D-101"),
    ("SP-02", "stud-poker", "stud-poker/2003", "D-102"),
    ("QP-01", "q-poker", None, "D-103"),
    ("F8-01", "fortune-8", None, "D-104"),
    ("BAC-01", "baccarat", None, "D-105"),
)
PIT_BOSS = Actor(staff_id="PB-1", role=Role.PIT_BOSS)


def run_demo(console: Console) -> bool:
    settings = LedgerSettings()
    database = resolve_database(settings)
    console.rule("[bold]round ledger demo")
    console.print(f"database: {database.describe()}", highlight=False)
    init_database(settings, database)
    with open_ledger(settings) as rt:
        ledger = rt.ledger
        for code, *_ in FLOOR:  # a previous demo may have left its tables open
            open_now = [v for v in list_tables(ledger) if v.code == code and v.is_open]
            if open_now:
                ledger.execute(CloseTable(table=code, actor=PIT_BOSS, terminal="demo"))
        for code, game, rules, dealer in FLOOR:
            ledger.execute(OpenTable(
                table=code, game=game, rule_set=rules, min_bet=Decimal("100"),
                max_bet=Decimal("20000"), actor=PIT_BOSS, terminal="demo",
            ))
            ledger.execute(SignInDealer(table=code, dealer_id=dealer, actor=PIT_BOSS,
                                        terminal="demo"))
        _print_floor(console, list_tables(ledger))
        for code, *_ in FLOOR:
            ledger.execute(CloseTable(table=code, actor=PIT_BOSS, terminal="demo"))
        with database.connect() as conn:
            report = verify_chains(conn)
    verdict = "[green]every hash chain holds[/]" if report.ok else "[red]BROKEN CHAINS[/]"
    console.print(f"ledger verify: {report.streams} streams, {report.events} events, {verdict}")
    console.print("the tables were opened, staffed and closed again; see `ledger events tail`.")
    return report.ok


def _print_floor(console: Console, views: list) -> None:
    grid = RichTable("table", "game", "rule set", "limits", "dealer", "state", title="the floor")
    for v in views:
        grid.add_row(v.code, v.game, v.rule_set, f"{v.min_bet} - {v.max_bet}", v.dealer or "-",
                     "open" if v.is_open else "closed")
    console.print(grid)
