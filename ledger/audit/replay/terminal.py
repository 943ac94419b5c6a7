"""A replay and a recall in the terminal (rich): the cards drawn, the timeline, the verdict."""

from __future__ import annotations

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from ledger.audit.replay.check import BetLine
from ledger.audit.replay.recall import Recall, RecalledRound
from ledger.audit.replay.round import CardView, HandView, RoundReplay, Verdict
from ledger.audit.replay.sealed_events import events_of
from ledger.core.cards import SUIT_FACES, faces
from ledger.core.formatting import (
    CURRENCY,
    TIME_LABEL,
    amount,
    clock,
    counted,
    heading,
    macau,
    money,
    when,
)
from ledger.presentation.columns import Grid, figure, text
from ledger.presentation.render import safe
from ledger.presentation.wording import (
    NO_CARDS,
    describe_outcome,
    pool_name,
    rule_set,
    term,
    void_reason,
)
from ledger.reports.round_win import Prize, outcome_words, paid, prize_words, win_sentence

SUITS = SUIT_FACES
RED = frozenset("HD")


def card_lines(cards: list[CardView]) -> Text:
    """Cards side by side, three lines high: face down dimmed, exposed in yellow."""
    top, middle, bottom = Text(), Text(), Text()
    for card in cards:
        rank = "10" if card.card[0] == "T" else card.card[0]
        suit = card.card[-1]
        frame = "yellow" if card.exposed else ("white" if card.face_up else "grey50")
        ink = "bold red" if suit in RED else "bold white"
        if not card.face_up and not card.exposed:
            ink = ("red" if suit in RED else "white") + " dim"
        top.append("╭───╮", style=frame)
        middle.append("│", style=frame).append(f"{rank:>2}{SUITS[suit]}", style=ink)
        middle.append("│", style=frame)
        bottom.append("╰───╯" if card.face_up or card.exposed else "╰─▾─╯", style=frame)
        for line in (top, middle, bottom):
            line.append(" ")
    return Text("\n").join([top, middle, bottom])


def hand_block(hand: HandView) -> RenderableType:
    title = Text(f"{hand.label}", style="bold")
    if hand.name or hand.value:
        title.append(f"  {hand.name or hand.value}", style="cyan")
    if hand.qualifies is not None:
        title.append("  qualifies" if hand.qualifies else "  does not qualify",
                     style="green" if hand.qualifies else "yellow")
    if hand.notes:
        title.append("  (" + ", ".join(hand.notes) + ")", style="dim")
    return Group(title, card_lines(hand.cards))


def results_table(title: str, lines: list[BetLine], prizes: list[Prize] | None = None) -> Grid:
    """Each bet's result; a jackpot bet's says what became of it (a prize won, which hand). The
    figures that make a bet's win stay together: too narrow a terminal leaves out only one that
    is empty for every bet (commission at Stud Poker)."""
    table = Grid(text("bet"), figure(heading("stake"), together="win"),
                 text("outcome", wraps=True), figure(heading("returned"), 2, together="win"),
                 figure(heading("paid"), together="win"),
                 figure(heading("commission"), 1, together="win"), title=title,
                 title_justify="left")
    for line in lines:
        said = outcome_words(line.spot, line.box, line.outcome, prizes or [])
        table.add_row(line.name, amount(line.stake), said + (" (capped)" if line.capped else ""),
                      amount(line.returned),
                      amount(paid(line.spot, line.box, line.payout, prizes or [])),
                      amount(line.commission))
    return table


def render_replay(replay: RoundReplay, console: Console, *, wide: bool = False) -> None:
    console.print(Panel(
        f"[bold]{replay.table} {'demonstration coup' if replay.demonstration else 'round'} "
        f"{replay.number}[/]: {rule_set(replay.rule_set)}, "
        f"dealt from a {term(replay.dealing)}; {replay.status}"
        + (f" ({safe(void_reason(replay.void_reason))})" if replay.void_reason else "")
        + f"\nround {replay.round_id}", title="replay", title_align="left"), highlight=False)
    if replay.shoe is not None:
        shoe = replay.shoe
        console.print(
            f"[bold]Shoe[/] {shoe.shoe_id}: {counted(shoe.decks, 'deck')} shuffled by "
            f"{term(shoe.method)}"
            + (f" (serial {safe(shoe.shuffler_serial)})" if shoe.shuffler_serial else "")
            + (f", cut by {safe(shoe.cut_by)}" if shoe.cut_by else "")
            + (f", cut card after card {shoe.cut_card_position}" if shoe.cut_card_position
               else "")
            + (f", {shoe.burned} burned" if shoe.burned else "")
            + f".\n  proof: {shoe.proof.sentence}", highlight=False, soft_wrap=True)
    # a key's fingerprint is never cut or folded (it is checked by eye against another copy):
    # the columns that hold one do not wrap, each fingerprint on a line of its own
    timeline = Grid(figure("#"), text(f"when ({TIME_LABEL})"), text("who (verified key)"),
                    text("terminal (verified key)", 2), text("stream", 1),
                    text("what", wraps=True), title="Timeline", title_justify="left")
    for step in replay.steps:
        timeline.add_row(
            f"#{step.position}", clock(step.at),
            f"{term(step.role) if step.role else ''} {safe(step.staff_id)}"
            + (f"\n[dim]{safe(step.staff_key)}[/]" if step.staff_key else ""),
            safe(step.terminal) + (f"\n[dim]{safe(step.terminal_key)}[/]" if step.terminal_key
                                   else "")
            + (f"\n[yellow]vouched: {safe(step.vouched)}[/]" if step.vouched else ""),
            step.stream, safe(faces(step.text)))
    timeline.print(console, wide=wide)
    console.print(Text("Hands", style="bold underline"))
    for hand in replay.hands:
        console.print(hand_block(hand))
    if not replay.hands:
        console.print(NO_CARDS, highlight=False)
    win = replay.win
    results_table("Results as recorded", replay.results,
                  win.prizes if win else None).print(console, wide=wide)
    if win is not None:
        console.print(f"[bold]Win[/] as recorded: {win_sentence(win)}", highlight=False,
                      soft_wrap=True)
    _render_jackpot(replay, console)
    for adjustment in replay.adjustments:
        step = adjustment.step
        console.print(f"[bold]Adjustment[/] {when(step.at)} by {term(step.role) if step.role else ''} "
                      f"{step.staff_id}: {step.text}", highlight=False, soft_wrap=True)
    _render_verdict(replay, console)


def _render_jackpot(replay: RoundReplay, console: Console) -> None:
    jackpot = replay.jackpot
    if jackpot is None or jackpot.recorded is None:
        return
    figures = jackpot.recorded
    console.print(
        f"[bold]Jackpot[/] pool {pool_name(jackpot.pool)}: {money(figures.pool_before)} before the round; "
        f"{money(figures.to_pool)} of {money(figures.stakes)} contributed; "
        + ("; ".join(f"box {p.box} won {prize_words(Prize.of(p))}" for p in figures.prizes)
           or "no prize")
        + f"; pool after {money(figures.pool_after)}"
        + (" (restarted at the seed)" if figures.reset_to_seed else ""),
        highlight=False, soft_wrap=True)


def _render_verdict(replay: RoundReplay, console: Console) -> None:
    check = replay.check
    broken = sum(1 for evidence in replay.evidence if not evidence.holds)
    used = events_of(len(replay.evidence), [evidence.stream for evidence in replay.evidence])
    chain = (f"hash chain holds for all {used} (every event the replay used)" if not broken
             else f"hash chain BROKEN at {broken:,} of {used}")
    style = {Verdict.MATCH: "bold green", Verdict.DISCREPANCY: "bold red",
             Verdict.NOT_SETTLED: "bold yellow"}[check.verdict]
    body = Text(check.verdict.value, style=style)
    body.append(f"\n{check.method}\n{chain}", style="default")
    for difference in check.differences:
        body.append(f"\n- {difference}", style="red")
    console.print(Panel(body, title="independent check", title_align="left"))


def render_recall(recall: Recall, console: Console, *, wide: bool = False) -> None:
    """The rounds in a table of a column each for the figures that make the table win, where
    the terminal holds it (or `--wide`); where it does not, a narrower one with a round's
    status and hands in one column and its figures one under the other in another, so no
    column is squeezed and no word is broken (`--wide` shows the first)."""
    count = len(recall.rounds)
    which = ("no round recorded" if count == 0 else "the latest round" if count == 1 else
             f"the {count} latest rounds by number, newest first")
    title = f"Table {recall.table}: {which} (amounts in {CURRENCY}, times {TIME_LABEL})"
    table = _recall_across(recall, title)
    if wide or table.fits(console):
        table.print(console, wide=wide)
    else:
        _recall_stacked(recall, title).print(console)
    if closed := recall.closed_said():
        console.print(f"{recall.table}: {closed}.", highlight=False)


def _hands(played: RecalledRound) -> str:
    return "\n".join(hand.said for hand in played.hands)


def _status(played: RecalledRound) -> str:
    said = describe_outcome(played.outcome)
    return played.status + (f"\n{safe(said)}" if said else "")


def _table_win(played: RecalledRound) -> str:
    return amount(played.win.table_win) if played.win and played.win.finished else "-"


def _recall_across(recall: Recall, title: str) -> Grid:
    """The figures that make the table win (stakes, returned, paid, commission, the jackpot's
    stakes) stay beside it so they add up: only those empty in every round shown are left out
    (no commission at Stud Poker, no jackpot at baccarat)."""
    figures = [figure("stakes", 2, together="win"), figure("returned", 4, together="win"),
               figure("paid", 1, together="win"), figure("commission", 3, together="win"),
               figure("table win", together="win")]
    table = Grid(text("round, opened"), text("status", wraps=True), text("hands", wraps=True),
                 *figures,
                 text("jackpot", 5, wraps=True, together="win"),
                 title=title, title_justify="left", show_lines=True)
    for played in recall.rounds:
        opened = clock(played.opened_at) if played.opened_at else ""
        table.add_row(
            f"{played.number}\n{opened}", _status(played), _hands(played) or "-",
            amount(played.stakes), amount(played.returned), amount(played.payouts),
            amount(played.commission), _table_win(played),
            (played.win.jackpot_said if played.win else "") or "-")
    return table


def _recall_stacked(recall: Recall, title: str) -> Grid:
    """A round's figures one under the other, named, adding up to its table win (commission
    named only where a round shown took some); its status, hands and jackpot wrap at whole
    words in one column."""
    commission = any(played.commission for played in recall.rounds)
    names = ("stakes", "returned", "paid", *(("commission",) if commission else ()), "table win")
    widest = max((len(amount(value)) for played in recall.rounds for value in (
        played.stakes, played.returned, played.payouts, played.commission)), default=0)
    widest = max([widest, *(len(_table_win(played)) for played in recall.rounds)])
    table = Grid(text("round, opened"), text("status, hands", wraps=True),
                 figure("amounts"), title=title, title_justify="left", show_lines=True)
    for played in recall.rounds:
        opened = (f"\n{macau(played.opened_at):%Y-%m-%d}\n{macau(played.opened_at):%H:%M:%S}"
                  if played.opened_at else "")
        jackpot = played.win.jackpot_said if played.win else ""
        said = "\n".join(part for part in (_status(played), _hands(played),
                                            f"jackpot: {jackpot}" if jackpot else "") if part)
        sums = RichTable.grid(padding=(0, 1))  # the same widths in every round: aligned
        sums.add_column(justify="left", min_width=max(map(len, names)))
        sums.add_column(justify="right", no_wrap=True, min_width=widest)
        figures = (amount(played.stakes), amount(played.returned), amount(played.payouts),
                   *((amount(played.commission),) if commission else ()), _table_win(played))
        for name, shown in zip(names, figures, strict=True):
            sums.add_row(name, shown)
        table.add_row(f"{played.number}{opened}", said, sums)
    return table
