"""The one rule for a table too wide for its terminal (`ledger.presentation.columns`): figures
are never cut; the columns ranked highest are left out first and named under the table."""

from __future__ import annotations

import io

from rich.console import Console

from ledger.presentation.columns import Grid, figure, text


def _grid() -> Grid:
    grid = Grid(text("table"), figure("handle"), figure("win"), figure("drop", 1),
                figure("hold%", 2), text("note", 3, wraps=True))
    grid.add_row("BAC-01", "1,250,712.00", "-134,680.00", "1,000,000.00", "12.50",
                 "a note long enough to wrap over more than one line")
    return grid


def _printed(width: int, wide: bool = False) -> tuple[str, list[str]]:
    out = io.StringIO()
    left_out = _grid().print(Console(file=out, width=width), wide=wide)
    return out.getvalue(), left_out


def test_the_highest_ranked_columns_are_left_out_first_and_named():
    out, left_out = _printed(50)
    assert left_out == ["drop", "hold%", "note"]
    assert "1,250,712.00" in out and "-134,680.00" in out and "…" not in out
    assert "left out to fit 50 columns: drop, hold%, note; `--wide` or `--json` shows them." \
        in " ".join(out.split())


def test_a_column_headed_on_two_lines_is_named_on_one_in_the_line_under_the_table():
    grid = Grid(text("table"), figure("handle"), figure("hold %\non drop", 1))
    grid.add_row("QP-01 " * 10, "1,250,712.00", "12.50")  # too wide for the note's 80
    out = io.StringIO()
    assert grid.print(Console(file=out, width=80)) == ["hold %\non drop"]
    assert ("left out to fit 80 columns: hold % on drop; `--wide` or `--json` shows it."
            in out.getvalue().splitlines()), out.getvalue()


def test_a_table_that_fits_leaves_nothing_out():
    out, left_out = _printed(200)
    assert left_out == [] and "left out" not in out and "1,000,000.00" in out


def test_wide_prints_every_column_past_the_terminal_edge():
    out, left_out = _printed(40, wide=True)
    assert left_out == [] and "1,000,000.00" in out and "12.50" in out and "…" not in out


def test_too_narrow_for_even_the_kept_columns_a_figure_folds_and_keeps_every_digit():
    out, _ = _printed(24)
    assert "…" not in out
    rows = [line.split("│") for line in out.splitlines() if line.startswith("│")]
    assert "".join(row[2].strip() for row in rows) == "1,250,712.00", out


def test_the_group_report_keeps_each_property_game_and_its_money_whole_at_80_columns():
    from datetime import date
    from decimal import Decimal

    from ledger.reports.group import GroupDay, GroupLine, to_rich

    view = GroupDay(gaming_day=date(2026, 11, 2), properties=["EAST", "WEST"], lines=[
        GroupLine(property=code, game=game, pit="PIT-NORTH-1", tables=12, rounds_played=1_234,
                  handle=Decimal("12345678.00"), ledger_win=Decimal("-1234567.50"),
                  drop=Decimal("9876543.25"))
        for code in ("EAST", "WEST") for game in ("stud_poker_2004", "baccarat")])
    out = io.StringIO()
    to_rich(view, Console(file=out, width=80))
    said = out.getvalue()
    assert "…" not in said, said
    assert said.count("12,345,678.00") == said.count("-1,234,567.50") == 4, said
    assert said.count("9,876,543.25") == 4, said
    assert "left out to fit 80 columns:" in " ".join(said.split()), said


def test_a_column_with_nothing_in_it_is_left_out_before_one_that_says_something():
    grid = Grid(text("bet"), figure("stake"), figure("returned", 2), figure("commission", 1))
    grid.add_row("box 5 ante " * 4, "2,500.00", "100.00", "0.00")
    grid.add_row("box 6 ante", "300.00", "-", "0.00")
    out = io.StringIO()
    assert grid.print(Console(file=out, width=70)) == ["commission"], out.getvalue()
    assert "100.00" in out.getvalue()


def test_columns_that_make_one_sum_are_left_out_together_or_not_at_all():
    def grid() -> Grid:
        grid = Grid(text("round"), figure("stakes", 2, together="win"),
                    figure("paid", 1, together="win"), figure("win", 3, together="win"),
                    text("note", 4))
        grid.add_row("15", "2,500.00", "300.00", "2,200.00", "a note")
        return grid

    out = io.StringIO()
    assert grid().print(Console(file=out, width=42)) == ["note"], out.getvalue()
    assert grid().print(Console(file=io.StringIO(), width=30)) == ["stakes", "paid", "win",
                                                                     "note"]


def test_a_sum_with_a_column_ranked_0_is_never_split():
    grid = Grid(text("round " * 6), figure("stakes", 2, together="win"),
                figure("paid", 1, together="win"), figure("win", together="win"))
    grid.add_row("15", "2,500.00", "300.00", "2,200.00")
    out = io.StringIO()
    assert grid.print(Console(file=out, width=40)) == []
    assert "…" not in out.getvalue()
