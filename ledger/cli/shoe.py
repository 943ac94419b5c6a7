"""`ledger shoe ...`: shuffles, cuts, burns, closing a shoe."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.application.bus import SHOE
from ledger.cli.common import JsonOption, console, print_json, runtime, sender
from ledger.commands.shoe import BurnCards, CloseShoe, CutShoe, ShuffleShoe
from ledger.core.errors import WrongState
from ledger.core.formatting import count, counted
from ledger.domain.shoe import Shoe, ShuffleMethod
from ledger.domain.table import Table, check_table_code, table_id

send = sender(SHOE)
"""Sends a command of the shoe area (its handlers alone are loaded)."""

app = typer.Typer(help="Shuffle, cut, burn and close shoes.", no_args_is_help=True)
Code = Annotated[str, typer.Argument(help="Table code.")]


@app.command()
def shuffle(
    table: Code,
    method: Annotated[ShuffleMethod, typer.Option(help="hand, shuffler or automatic_shuffler_dealer.")] = ShuffleMethod.HAND,
    serial: Annotated[str | None, typer.Option(help="The shuffler's serial number.")] = None,
    commitment: Annotated[str | None, typer.Option(help="SHA-256 of 'order|secret'.")] = None,
) -> None:
    """Start a new shoe (closing the old one)."""
    send(ShuffleShoe(table=table, method=method, shuffler_serial=serial, commitment=commitment))


@app.command()
def cut(table: Code, by_whom: Annotated[str, typer.Option("--by", help="Who cut.")],
        at: Annotated[int | None, typer.Option(metavar="CARDS",
                                                help="Cards before the cut card.")] = None) -> None:
    """Record the cut and where the cut card sits."""
    send(CutShoe(table=table, cut_by=by_whom, cut_card_position=at))


@app.command()
def burn(table: Code, count: Annotated[int | None, typer.Option(help="How many.")] = None,
         cards: Annotated[list[str] | None, typer.Option("--card", help="A burned card, if shown.")] = None) -> None:
    """Burn cards from the shoe."""
    send(BurnCards(table=table, count=count, cards=cards or []))


@app.command()
def close(table: Code,
          order: Annotated[str | None, typer.Option(help="The revealed order, 'AS KH ...'.")] = None,
          secret: Annotated[str | None, typer.Option(help="The revealed secret.")] = None) -> None:
    """Close the shoe; with a commitment, reveal its order and secret."""
    send(CloseShoe(table=table, revealed_order=order.split() if order else None, secret=secret))


@app.command()
def show(table: Code, as_json: JsonOption = False) -> None:
    """The table's current shoe."""
    code = check_table_code(table)
    with runtime() as rt:
        owner = rt.ledger.load(Table, table_id(code), f"table {code}")
        if owner.current_shoe is None:
            raise WrongState(f"table {code} has no shoe yet.")
        shoe = rt.ledger.load(Shoe, owner.current_shoe, "the shoe")
    if as_json:
        print_json({
            "shoe_id": shoe.id, "table": code, "game": shoe.game, "decks": shoe.decks,
            "method": shoe.method.value, "shuffler_serial": shoe.shuffler_serial,
            "cards_out": shoe.position, "cards_remaining": shoe.cards_remaining,
            "is_closed": shoe.is_closed, "cut_card_reached": shoe.cut_card_reached,
            "cut_by": shoe.cut_by, "cut_at": shoe.cut_at, "commitment": shoe.commitment,
        })
        return
    console.print(
        f"shoe {shoe.id} of {code}: {counted(shoe.decks, 'deck')}, "
        f"{'shuffled by hand' if shoe.method is ShuffleMethod.HAND else 'from a shuffler'}, "
        f"{count(shoe.position)} out, {count(shoe.cards_remaining)} left, "
        f"{'closed' if shoe.is_closed else 'open'}"
        f"{', cut card reached' if shoe.cut_card_reached else ''}"
        f"{', committed order' if shoe.commitment else ''}", highlight=False,
    )
