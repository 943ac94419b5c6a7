"""`ledger round ...`: a round as a dealer terminal records it, one action per command."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated

import typer

from ledger.application.bus import ROUND
from ledger.cli.common import runtime, sender
from ledger.cli.console import JsonOption, WideOption, console, print_json
from ledger.commands.round import (
    AdjustRound,
    AnnounceDealMode,
    CloseBetting,
    DealCard,
    Decide,
    ExposeCard,
    OpenRound,
    PlaceBet,
    RecordIrregularity,
    RevealDealer,
    SettleRound,
    VoidRound,
)
from ledger.core.formatting import amount, heading, money
from ledger.presentation.render import safe

send = sender(ROUND)
"""Sends a command of the round area (its handlers alone are loaded)."""

app = typer.Typer(help="Record a round: bets, cards, decisions, settlement.", no_args_is_help=True)
Code = Annotated[str, typer.Argument(help="Table code, e.g. BAC-01.")]
RoundNumber = Annotated[int | None, typer.Option("--round", help="The round you mean (checked).")]


@app.command("open")
def open_(table: Code, demonstration: Annotated[bool, typer.Option(
        "--demonstration", help="A baccarat demonstration coup (art. 2(2)): no bets, only at "
        "a shoe's start, as many as the house settings allow.")] = False) -> None:
    """Open the table's next round."""
    send(OpenRound(table=table, demonstration=demonstration))


@app.command()
def bet(
    table: Code, box: Annotated[int, typer.Argument(help="Box (Fortune 8: space).")],
    spot: Annotated[str, typer.Argument(help="ante, jackpot, bonus, play, L, 8, H, player, ...")],
    amount: Annotated[Decimal, typer.Argument(help="Patacas.")],
    player: Annotated[str | None, typer.Option(help="Player id, where several share a box.")] = None,
    round_: RoundNumber = None,
    standing: Annotated[bool, typer.Option(
        "--standing", help="The player stands (baccarat art. 15: not in a seated box).")] = False,
) -> None:
    """Place a bet."""
    send(PlaceBet(table=table, box=box, spot=spot, amount=amount, player=player, round=round_,
                  standing=standing))


@app.command("close-betting")
def close_betting(table: Code, round_: RoundNumber = None) -> None:
    """No more bets."""
    send(CloseBetting(table=table, round=round_))


@app.command()
def announce(table: Code, mode: Annotated[str, typer.Argument(help="all_spaces or spaces_with_bets.")],
             round_: RoundNumber = None) -> None:
    """Fortune 8: announce the deal mode (ends the betting)."""
    send(AnnounceDealMode(table=table, mode=mode, round=round_))


@app.command()
def deal(
    table: Code,
    to: Annotated[str, typer.Argument(help="box:3, space:3, dealer, player, banker or burn.")],
    card: Annotated[str, typer.Argument(help="The card, e.g. AS (10H is fine).")],
    face_up: Annotated[bool, typer.Option("--face-up", help="Dealt face up.")] = False,
    round_: RoundNumber = None,
) -> None:
    """Record one card dealt from the shoe."""
    send(DealCard(table=table, to=to, card=card, face_up=face_up, round=round_))


@app.command()
def expose(table: Code, to: Annotated[str, typer.Argument(help="Whose card.")],
           card: Annotated[str, typer.Argument(help="The card shown by mistake.")],
           round_: RoundNumber = None) -> None:
    """Record a card exposed by mistake; the regulation decides what follows."""
    send(ExposeCard(table=table, to=to, card=card, round=round_))


@app.command()
def decide(
    table: Code, box: Annotated[int, typer.Argument(help="Box.")],
    decision: Annotated[str, typer.Argument(help="raise/fold (Stud), play/surrender (Q Poker).")],
    amount: Annotated[Decimal | None, typer.Option(help="The raise (twice the ante).")] = None,
    player: Annotated[str | None, typer.Option(help="Player id (Q Poker).")] = None,
    round_: RoundNumber = None,
) -> None:
    """Record a player's decision."""
    send(Decide(table=table, box=box, decision=decision, amount=amount, player=player,
                round=round_))


@app.command()
def reveal(table: Code, round_: RoundNumber = None) -> None:
    """The dealer shows their hand."""
    send(RevealDealer(table=table, round=round_))


@app.command()
def irregularity(
    table: Code, kind: Annotated[str, typer.Argument(help="As the game's regulation names it.")],
    box: Annotated[int | None, typer.Option(help="The box concerned.")] = None,
    cards: Annotated[list[str] | None, typer.Option("--card", help="A card concerned.")] = None,
    not_correctable: Annotated[bool, typer.Option(help="The error cannot be corrected.")] = False,
    note: Annotated[str, typer.Option(help="What happened.")] = "",
    round_: RoundNumber = None,
) -> None:
    """Record an irregularity; the ledger applies the regulation's consequence."""
    send(RecordIrregularity(table=table, kind=kind, box=box, cards=cards or [],
                            correctable=not not_correctable, note=note, round=round_))


@app.command()
def settle(table: Code, round_: RoundNumber = None) -> None:
    """Settle the round: the ledger computes every bet's result."""
    send(SettleRound(table=table, round=round_))


@app.command()
def void(table: Code, reason: Annotated[str, typer.Option(help="Why.")],
         round_: RoundNumber = None) -> None:
    """Void the round in play (a supervisor's decision): every bet returned."""
    send(VoidRound(table=table, reason=reason, round=round_))


@app.command()
def adjust(
    table: Code, round_number: Annotated[int, typer.Argument(help="The settled round.")],
    box: Annotated[int, typer.Argument()], spot: Annotated[str, typer.Argument()],
    amount: Annotated[Decimal, typer.Argument(help="Paid to the player (negative: collected).")],
    reason: Annotated[str, typer.Option(help="Why (recorded with the event).")],
    dispute: Annotated[str, typer.Option(help="The dispute's reference: one adjustment per "
                                         "dispute per round.")],
    player: Annotated[str | None, typer.Option()] = None,
) -> None:
    """Record a correction to a settled round (never an edit)."""
    send(AdjustRound(table=table, round=round_number, box=box, spot=spot, amount=amount,
                     player=player, reason=reason, dispute=dispute))


@app.command()
def show(table: Code, number: Annotated[int | None, typer.Argument(help="Round number.")] = None,
         as_json: JsonOption = False, wide: WideOption = False) -> None:
    """A round as its events say it stands (default: the latest)."""
    from ledger.domain.round import Round, round_id
    from ledger.domain.table import Table, check_table_code, table_id

    code = check_table_code(table)
    with runtime() as rt:
        owner = rt.ledger.load(Table, table_id(code), f"table {code}")
        n = number or owner.round_count
        round_ = rt.ledger.load(Round, round_id(table_id(code), n), f"round {n} of {code}")
    from ledger.presentation.columns import Grid, figure, text
    from ledger.reports.round import round_view
    from ledger.reports.round_win import Prize, outcome_words, paid, prize_words

    view = round_view(round_)
    if as_json:
        print_json(view)
        return
    from ledger.core.cards import face
    from ledger.presentation.wording import DEMONSTRATION, NO_CARDS, bet_name, rule_set, term

    console.print(f"[bold]{round_.label}[/]: {rule_set(round_.rule_set)}; "
                  f"{term(round_.phase)}", highlight=False)
    if round_.demonstration:
        console.print(DEMONSTRATION, highlight=False)
    if view["result"]:
        console.print(f"result: {safe(view['result'])}", highlight=False)
    cards = Grid(text("to"), text("card"), text("face"), figure("shoe position"), title="cards")
    for c in view["cards"]:
        cards.add_row(term(c["to"]).replace(":", " "), face(c["card"]),
                      "up" if c["face_up"] else "down", str(c["shoe_position"]))
    if view["cards"]:
        cards.print(console, wide=wide)
    else:
        console.print(NO_CARDS, highlight=False)
    # a bet named with its player beside its box: two players on one box (Q Poker) stay apart
    # stake - returned - paid + commission is the bet's win: those figures stay together, and
    # only one empty in every bet (commission at Stud Poker) is left out for width
    results = Grid(text("bet"), figure(heading("stake"), together="win"),
                   text("outcome", wraps=True),
                   figure(heading("returned"), 2, together="win"),
                   figure(heading("paid"), together="win"),
                   figure(heading("commission"), 1, together="win"), title="bets")
    prizes = [Prize(box=j["box"], category=j["category"], amount=j["prize"])
              for j in view["jackpots"]]
    for b in view["bets"]:
        said = outcome_words(b["spot"], b["box"], b["outcome"], prizes) if b["outcome"] else "-"
        results.add_row(bet_name(b["box"], b["spot"], b["player"]), amount(b["stake"]),
                        said, amount(b["returned"]),
                        amount(None if b["payout"] is None else
                               paid(b["spot"], b["box"], Decimal(b["payout"]), prizes)),
                        amount(b["commission"]))
    if view["bets"] or not round_.demonstration:
        results.print(console, wide=wide)
    for prize in prizes:
        console.print(f"jackpot: box {prize.box} won {prize_words(prize)}", highlight=False)
    for adj in view["adjustments"]:
        console.print(f"adjustment: box {adj['box']} {safe(adj['spot'])} {money(adj['amount'])} "
                      f"({safe(adj['reason'])})", highlight=False)
    console.print(f"win: {view['win_said']}", highlight=False)
