"""`ledger jackpot ...`: progressive pools."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated

import typer

from ledger.application.bus import JACKPOT
from ledger.cli.common import JsonOption, console, print_json, runtime, sender
from ledger.cli.console import WideOption
from ledger.commands.jackpot import AdjustPool, CreatePool, LinkTable
from ledger.core.formatting import amount, count, counted, heading, money
from ledger.domain.jackpot_pool import JackpotPool, pool_id
from ledger.presentation.columns import Grid, figure, text
from ledger.presentation.wording import pool_code, pool_name
from ledger.reports.floor import floor_pools

send = sender(JACKPOT)
"""Sends a command of the jackpot area (its handlers alone are loaded)."""

app = typer.Typer(help="Progressive jackpot pools.", no_args_is_help=True)
Name = Annotated[str, typer.Argument(
    help="Pool: its code (MAIN-PROGRESSIVE) or its name as `jackpot list` shows it "
         "(\"Main Progressive\").", parser=pool_code)]


@app.command()
def create(
    name: Name,
    seed: Annotated[Decimal, typer.Option(help="Where the pool starts and restarts.")],
    royal: Annotated[Decimal, typer.Option(help="Fixed sum for a royal flush.")],
    straight_flush: Annotated[Decimal, typer.Option(help="Fixed sum for a straight flush.")],
    four: Annotated[Decimal, typer.Option(help="Fixed sum for four of a kind.")],
    full_house: Annotated[Decimal, typer.Option(help="Fixed sum for a full house.")],
    flush: Annotated[Decimal, typer.Option(help="Fixed sum for a flush.")],
    rate: Annotated[Decimal, typer.Option(help="Share of each jackpot bet into the pool.")],
    reserve_rate: Annotated[Decimal, typer.Option(help="Share kept for the next seed.")] = Decimal(0),
) -> None:
    """Create a pool (a supervisor)."""
    settings = {"seed": seed, "royal_flush": royal, "straight_flush": straight_flush,
                "four_of_a_kind": four, "full_house": full_house, "flush": flush,
                "contribution_rate": rate, "reserve_rate": reserve_rate}
    send(CreatePool(pool=name, settings={k: str(v) for k, v in settings.items()}))


@app.command()
def link(name: Name, table: Annotated[str, typer.Argument(help="Stud Poker table code.")]) -> None:
    """Link a Stud Poker table to the pool."""
    send(LinkTable(pool=name, table=table))


@app.command()
def adjust(name: Name, amount: Annotated[Decimal, typer.Argument(help="Added (negative: removed).")],
           reason: Annotated[str, typer.Option(help="Why.")]) -> None:
    """A manual adjustment (a supervisor, with a reason)."""
    send(AdjustPool(pool=name, amount=amount, reason=reason))


@app.command()
def show(name: Name, as_json: JsonOption = False) -> None:
    """The pool as its events say it stands."""
    with runtime() as rt:
        pool = rt.ledger.load(JackpotPool, pool_id(name), f"jackpot pool {name}")
    settings = pool.settings
    if as_json:  # the keys of `jackpot list --json` where the two say the same
        print_json({"pool_id": pool.id, "name": pool.name, "said": {"name": pool_name(pool.name)},
                    "amount": pool.amount,
                    "seed": settings.seed, "liability": pool.amount - settings.seed,
                    "contributions": pool.contributions, "reserve": pool.reserve,
                    "hits": pool.hits, "tables": list(pool.tables)})
        return
    console.print(
        f"pool {pool_name(pool.name)}: {money(pool.amount)} (seed {money(settings.seed)}, liability "
        f"{money(pool.amount - settings.seed)}), contributions {money(pool.contributions)}, "
        f"reserve {money(pool.reserve)}, {counted(pool.hits, 'hit')}, tables {', '.join(pool.tables) or '-'}",
        highlight=False,
    )


@app.command("list")
def list_(as_json: JsonOption = False, wide: WideOption = False) -> None:
    """Every pool: the jackpot-pools projection, brought up to date first. Too narrow a
    terminal leaves out the tables first, then the seed, the hits and the contributions."""
    with runtime() as rt:
        pools = floor_pools(rt.database)
    if as_json:  # the pool's code, and its name in words beside it
        print_json([p.model_dump(mode="json") | {"said": {"name": pool_name(p.name)}} for p in pools])
        return
    grid = Grid(text("pool"), figure(heading("amount")), figure(heading("seed"), 3),
                figure(heading("liability")), figure(heading("contributions"), 1),
                figure("hits", 2), text("tables", 4, wraps=True))
    for p in pools:
        grid.add_row(pool_name(p.name), amount(p.amount), amount(p.seed), amount(p.liability),
                     amount(p.contributions),
                     count(p.hits), ", ".join(p.tables) or "-")
    grid.print(console, wide=wide)
