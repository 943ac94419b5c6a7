"""Replay for dispute resolution, on PostgreSQL: a round of every game rebuilt from the event
store alone, re-settled by the rules engine under the settings it recorded, and compared.

Each round is recorded through `Ledger.execute` as a dealer terminal sends it
(`tests/integration/replay_rounds.py`); the forged ones are written with SQL behind the
application's back, as an insider with psql would.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal

import pytest
from rich.console import Console

from ledger.application.ledger import Ledger
from ledger.audit.replay.recall import recall
from ledger.audit.replay.round import FORMAT, RoundReplay, Verdict, find_round, replay_round
from ledger.audit.replay.terminal import render_recall, render_replay
from ledger.commands.round import OpenRound, PlaceBet, VoidRound
from ledger.commands.shoe import ShuffleShoe
from ledger.core import clock as ledger_clock
from ledger.core.errors import NotFound
from ledger.domain.round import Round, SettledBet
from ledger.domain.shift_schedule import MACAU
from ledger.domain.shoe import Shoe
from ledger.pages.replay import results, to_html
from tests.integration import replay_rounds as rounds
from tests.signing import open_ledger

D = Decimal


@pytest.fixture
def ledger(settings) -> Iterator[Ledger]:
    with open_ledger(settings) as rt:
        yield rt.ledger


def recorded_results(conn, rid) -> list[tuple[int, str, str | None, str, str, str]]:
    """(box, spot, player, outcome, returned, payout) of each BetSettled, straight from SQL."""
    rows = conn.execute(
        "SELECT body FROM ledger_event_log WHERE stream_id = %s AND event_type = "
        "'Round.BetSettled' ORDER BY version", (rid,)).fetchall()
    return [(b["bet"]["box"], b["bet"]["spot"], b["bet"]["player"], b["bet"]["outcome"],
             b["bet"]["returned"], b["bet"]["payout"]) for (b,) in rows]


def as_rows(replay: RoundReplay) -> list[tuple[int, str, str | None, str, str, str]]:
    return [(r.box, r.spot, r.player, r.outcome, str(r.returned), str(r.payout))
            for r in replay.results]


def in_the_terminal(render, view) -> str:
    """What `ledger replay` (or `ledger recall`) prints for it, as plain text."""
    console = Console(record=True, width=400, color_system=None)
    render(view, console)
    return console.export_text()


def hand(replay: RoundReplay, target: str):
    return next(h for h in replay.hands if h.target == target)


def assert_reproduced(conn, replay: RoundReplay) -> None:
    """MATCH, and the replay shows exactly what the store holds, bet for bet."""
    assert replay.check.verdict is Verdict.MATCH, [str(d) for d in replay.check.differences]
    assert replay.check.differences == []
    assert as_rows(replay) == recorded_results(conn, replay.round_id)
    assert replay.check.recomputed == replay.results
    assert all(evidence.holds for evidence in replay.evidence)
    for step in replay.steps:  # every step says when, who and from where
        assert step.at is not None and step.staff_id and step.terminal and step.text


# -- a round of every game reproduced ---------------------------------------------------------


def test_replay_of_a_baccarat_coup_shows_the_shoe_its_proof_every_card_and_says_match(
    ledger, superuser
):
    replay = replay_round(superuser, rounds.baccarat_round(ledger))
    assert_reproduced(superuser, replay)
    shoe = replay.shoe
    assert (shoe.decks, shoe.method, shoe.cut_by, shoe.cut_card_position, shoe.burned) == (
        8, "hand", "player at box 3", 404, 8)
    assert (shoe.proof.status.value, shoe.proof.cards_checked, shoe.proof.hash_holds) == (
        "holds", 5, True)
    assert [c.card for c in hand(replay, "player").cards] == ["4H", "KD", "5D"]
    assert [c.shoe_position for c in hand(replay, "banker").cards] == [9, 11]
    assert (hand(replay, "player").value, hand(replay, "banker").value) == ("9", "6 with a pair")
    assert replay.outcome["winner"] == "player"
    pair = next(r for r in replay.results if r.spot == "banker_pair")
    assert (pair.outcome, pair.payout) == ("won", D("1100.00"))  # art. 13: 11:1
    events = [step.event for step in replay.steps]
    assert events[:3] == ["Shoe.Shuffled", "Shoe.CutMade", "Shoe.CardsBurned"]
    assert events[-1] == "Shoe.Closed"
    deal = [s for s in replay.steps if s.event == "Round.CardDealt"]
    assert {(s.staff_id, s.role, s.terminal) for s in deal} == {
        ("D-101", "dealer", "BAC-01-DEALER")}
    assert len(deal) == 5


def test_replay_of_a_fortune8_round_shows_the_burn_and_each_space_card(ledger, superuser):
    replay = replay_round(superuser, rounds.fortune8_round(ledger))
    assert_reproduced(superuser, replay)
    assert [(h.target, [c.card for c in h.cards], h.value) for h in replay.hands] == [
        ("space:1", ["8S"], "8 wins"), ("space:4", ["KH"], "H wins"),
        ("space:6", ["9D"], "H wins"), ("burn", ["2C"], None)]
    assert hand(replay, "burn").cards[0].face_up is False
    assert any(step.text == "announced: dealt only to the spaces with bets" for step in replay.steps)
    line = {(r.box, r.spot, r.player): r for r in replay.results}
    assert line[(1, "8", "P-1")].payout == D("1100.00")  # art. 8: the 8 box pays 11:1


def test_replay_of_a_q_poker_round_with_a_surrender_says_match(ledger, superuser):
    replay = replay_round(superuser, rounds.q_poker_surrender_round(ledger))
    assert_reproduced(superuser, replay)
    surrendered = next(r for r in replay.results if r.player == "P-2")
    assert (surrendered.outcome, surrendered.returned, surrendered.payout) == (
        "surrendered", D("150.00"), D("0.00"))
    dealer = hand(replay, "dealer")
    assert dealer.qualifies is True and dealer.value.startswith("high_card")
    assert hand(replay, "box:1").notes == ["P-1 play", "P-2 surrender"]
    assert replay.shoe.proof.status.value == "holds"


def test_replay_of_a_stud_jackpot_round_with_two_winning_boxes_recomputes_the_pool(
    ledger, superuser
):
    replay = replay_round(superuser, rounds.stud_jackpot_round(ledger))
    assert_reproduced(superuser, replay)
    assert hand(replay, "dealer").qualifies is True
    assert hand(replay, "box:1").value.startswith("straight_flush")
    assert hand(replay, "box:5").notes == ["fold"]
    assert [c.face_up for c in hand(replay, "dealer").cards] == [False] * 4 + [True]
    jackpot = replay.jackpot
    assert jackpot.recorded == jackpot.recomputed == replay.check.jackpot
    figures = jackpot.recorded
    assert (figures.pool_before, figures.stakes, figures.to_pool) == (
        D("100000.00"), D("30.00"), D("15.00"))
    assert [(p.box, p.category, p.amount, p.pool_before) for p in figures.prizes] == [
        (1, "straight_flush", D("20000.00"), D("100015.00")),
        (2, "four_of_a_kind", D("5000.00"), D("80015.00"))]
    assert figures.pool_after == D("75015.00")
    assert [s.event for s in replay.steps if s.stream == "pool"] == [
        "JackpotPool.ContributionReceived", "JackpotPool.JackpotHit", "JackpotPool.JackpotHit",
        "JackpotPool.JackpotReduced"]


def test_replay_takes_the_pool_as_it_stood_before_the_round_not_as_it_stands_now(
    ledger, superuser
):
    first = rounds.stud_jackpot_round(ledger)
    rounds.stud_void_then_carried(ledger)  # later rounds at another table move the same pool
    replay = replay_round(superuser, first)
    assert replay.check.verdict is Verdict.MATCH
    assert replay.jackpot.recomputed.pool_before == D("100000.00")


def test_replay_of_a_voided_round_returns_the_stakes_carries_the_jackpot_bets_and_says_match(
    ledger, superuser
):
    voided, following = rounds.stud_void_then_carried(ledger)
    replay = replay_round(superuser, voided)
    assert_reproduced(superuser, replay)
    assert (replay.status, replay.void_reason) == ("void", "the shoe jammed: cards out of order")
    assert sorted((r.box, r.spot, r.outcome) for r in replay.results) == [
        (1, "ante", "returned"), (1, "jackpot", "carried"),
        (3, "ante", "returned"), (3, "jackpot", "carried")]
    assert replay.jackpot.recorded is None and replay.jackpot.differences == []
    after = replay_round(superuser, following)
    assert_reproduced(superuser, after)
    assert [(b.box, b.amount, b.carried_from) for b in after.bets if b.carried_from] == [
        (1, D("10.00"), str(voided)), (3, D("20.00"), str(voided))]
    assert after.jackpot.recorded.stakes == D("30.00")  # the carried bets feed the pool once


def test_adjustments_recorded_later_are_shown_after_the_round_and_leave_the_verdict(
    ledger, superuser
):
    rid = rounds.stud_jackpot_round(ledger)
    rounds.adjust(ledger, "SP-01", 1, 4, "ante", "100.00", "camera: box 4 was paid short")
    replay = replay_round(superuser, rid)
    assert replay.check.verdict is Verdict.MATCH
    [adjustment] = replay.adjustments
    assert (adjustment.box, adjustment.amount, adjustment.reason, adjustment.step.role) == (
        4, D("100.00"), "camera: box 4 was paid short", "supervisor")
    assert adjustment.step.position > max(step.position for step in replay.steps
                                          if step.stream == "round")
    assert "Round.Adjusted" not in [step.event for step in replay.steps]


# -- the discrepancies ------------------------------------------------------------------------


def test_a_payout_forged_with_sql_is_a_discrepancy_naming_the_bet_and_both_amounts(
    ledger, superuser
):
    rounds.baccarat_dealt(ledger)
    rid = rounds.forge_settlement(ledger, superuser, "BAC-09", 1,
                                  {(1, "player"): {"payout": "1500.00"}})
    replay = replay_round(superuser, rid)
    assert replay.check.verdict is Verdict.DISCREPANCY
    assert [str(d) for d in replay.check.differences] == [
        "box 1 player: payout recorded 1500.00, re-computed 1000.00",
        "round: house_win recorded 500.00, re-computed 1000.00"]
    assert all(evidence.holds for evidence in replay.evidence)  # the chain itself holds


def test_a_bet_settled_twice_by_forgery_is_named_as_a_result_nothing_was_due_for(
    ledger, superuser
):
    rounds.baccarat_dealt(ledger)
    rid = rounds.forge_settlement(ledger, superuser, "BAC-09", 1, {})
    replayed = replay_round(superuser, rid)
    assert replayed.check.verdict is Verdict.MATCH
    version = superuser.execute("SELECT max(originator_version) FROM ledger_events "
                                "WHERE originator_id = %s", (rid,)).fetchone()[0]
    again = SettledBet(**replayed.results[0].model_dump())
    rounds.insert_events(superuser, [Round.BetSettled(
        originator_id=rid, originator_version=version + 1, timestamp=ledger_clock.now(),
        bet=again, by=rounds.forge_provenance())])
    differences = replay_round(superuser, rid).check.differences
    assert ("box 1 player", "result", "won: stake 1000.00, returned 1000.00, paid 1000.00",
            None) in {(d.subject, d.field, d.recorded, d.recomputed) for d in differences}


def test_a_shoe_closed_with_an_order_that_is_not_its_commitment_is_a_discrepancy(
    ledger, superuser
):
    rid = rounds.q_poker_surrender_round(ledger, close=False)
    shoe = ledger.load(Shoe, ledger.load(Round, rid, "round").shoe_id, "shoe")
    assert replay_round(superuser, rid).shoe.proof.status.value == "not_revealed"
    order = [str(card) for card in rounds.shoe_order(1, rounds.three_card_deal(
        {"box:1": "AS KS QS", "box:3": "9D 9C 4C", "dealer": "QH 5D 2C"}))]
    order[0], order[1] = order[1], order[0]  # box 1's first card and box 3's, swapped
    rounds.insert_events(superuser, [Shoe.Closed(
        originator_id=shoe.id, originator_version=shoe.version + 1, timestamp=ledger_clock.now(),
        revealed_order=order, secret=rounds.SECRET, commitment_holds=True, mismatches=[],
        by=rounds.forge_provenance())])
    replay = replay_round(superuser, rid)
    assert replay.check.verdict is Verdict.DISCREPANCY
    assert replay.shoe.proof.status.value == "broken"
    named = [str(d) for d in replay.check.differences]
    assert "shoe: commitment_holds recorded True, re-computed False" in named
    assert ("shoe: card order recorded this round's card AS came from position 0, where the "
            "order has 9D, re-computed as committed") in named


def test_a_round_still_in_play_is_replayed_as_not_settled(ledger, superuser):
    dealer = rounds.baccarat_dealt(ledger)
    replay = replay_round(superuser, dealer.round_id(1))
    assert (replay.status, replay.check.verdict) == ("dealing", Verdict.NOT_SETTLED)
    assert replay.results == [] and replay.check.differences == []
    assert [c.card for c in hand(replay, "player").cards] == ["4H", "KD", "5D"]


def test_a_row_altered_behind_the_triggers_breaks_the_chain_evidence_and_the_payout(
    ledger, superuser
):
    rid = rounds.fortune8_round(ledger)
    superuser.execute("ALTER TABLE ledger_events DISABLE TRIGGER ledger_events_no_update_delete")
    superuser.execute(
        "UPDATE ledger_events SET state = convert_to(replace(convert_from(state, 'UTF8'), "
        "'\"payout\":\"1100.00\"', '\"payout\":\"2200.00\"'), 'UTF8') "
        "WHERE originator_id = %s AND topic LIKE '%%BetSettled'", (rid,))
    superuser.execute(
        "ALTER TABLE ledger_events ENABLE ALWAYS TRIGGER ledger_events_no_update_delete")
    replay = replay_round(superuser, rid)
    assert replay.check.verdict is Verdict.DISCREPANCY
    named = {(d.subject, d.field, d.recorded, d.recomputed) for d in replay.check.differences}
    assert ("box 1 (P-1) 8", "payout", "2200.00", "1100.00") in named
    assert [e.event for e in replay.evidence if not e.holds] == ["Round.BetSettled"]


# -- finding a round, the JSON form, recall ---------------------------------------------------


def test_a_round_is_found_by_table_and_number_and_by_table_and_time(ledger, superuser):
    _voided, following = rounds.stud_void_then_carried(ledger)
    assert find_round(superuser, "sp-02", number=2) == following
    assert find_round(superuser, "SP-02", at=ledger_clock.now()) == following
    with pytest.raises(NotFound, match="table SP-02 has no round 3"):
        find_round(superuser, "SP-02", number=3)
    with pytest.raises(NotFound, match="had no round open at or before"):
        find_round(superuser, "SP-02", at=ledger_clock.now() - timedelta(days=1))


def test_a_time_without_an_offset_is_macau_time_not_the_machines_zone(ledger, superuser):
    """Surveillance matches CCTV, which runs on Macau time: `--at 14:06` is 14:06 in Macau."""
    _voided, following = rounds.stud_void_then_carried(ledger)
    soon = ledger_clock.now() + timedelta(minutes=1)
    macau_wall_clock = soon.astimezone(MACAU).replace(tzinfo=None)
    assert find_round(superuser, "SP-02", at=macau_wall_clock) == following
    utc_wall_clock = soon.replace(tzinfo=None)  # eight hours before, read as Macau time
    with pytest.raises(NotFound, match=r"had no round open at or before .* Macau time"):
        find_round(superuser, "SP-02", at=utc_wall_clock)


def test_the_json_form_is_stable_exact_decimals_and_a_documented_schema(ledger, superuser):
    replay = replay_round(superuser, rounds.q_poker_surrender_round(ledger))
    data = json.loads(replay.model_dump_json())
    assert data["format"] == FORMAT == "round-ledger/replay/1"
    assert data["check"]["verdict"] == "MATCH"
    assert data["results"][0]["stake"] == "100.00"  # money as exact decimal strings
    assert RoundReplay.model_validate_json(replay.model_dump_json()) == replay
    schema = RoundReplay.model_json_schema()
    assert {"check", "steps", "hands", "evidence", "shoe", "jackpot"} <= set(schema["properties"])
    assert schema["$defs"]["Difference"]["properties"]["recorded"]["description"]


def test_recall_shows_the_last_rounds_of_a_table_newest_first_with_results_and_payouts(
    ledger, superuser
):
    rounds.stud_void_then_carried(ledger)
    recalled = recall(superuser, "SP-02", last=10)
    assert [(r.number, r.status) for r in recalled.rounds] == [(2, "settled"), (1, "void")]
    latest = recalled.rounds[0]
    assert (latest.stakes, latest.returned, latest.payouts) == (
        sum((r.stake for r in latest.results), D(0)),
        sum((r.returned for r in latest.results), D(0)),
        sum((r.payout for r in latest.results), D(0)))
    assert latest.house_win == latest.stakes - latest.returned - latest.payouts + latest.commission
    assert [h.target for h in latest.hands] == ["box:1", "box:3", "dealer"]
    assert [r.number for r in recall(superuser, "SP-02", last=1).rounds] == [2]
    with pytest.raises(NotFound, match="table NOPE-1 does not exist: `ledger table list`"):
        recall(superuser, "NOPE-1")


# -- the round's win: the table's, the jackpot's apart ----------------------------------------


def test_a_jackpot_rounds_replay_shows_its_table_win_jackpot_stakes_and_prizes_apart(
    ledger, superuser
):
    """The settlement's house win counts the jackpot bets in (they go to the pool, not the
    rack); the replay says the table win, the jackpot stakes and each prize, each named."""
    replay = replay_round(superuser, rounds.stud_jackpot_round(ledger))
    table = sum((line.house_win for line in replay.results if line.spot != "jackpot"), D(0))
    assert replay.house_win == table + D("30.00")  # what the complaint summed
    win = replay.win
    assert (win.table_win, win.jackpot_stakes, win.jackpot_prizes) == (
        table, D("30.00"), D("25000.00"))
    assert replay.check.recomputed_win == win
    said = (f"table win MOP {table:,.2f}; jackpot stakes MOP 30.00 (to the pool); "
            "jackpot prize paid MOP 20,000.00 to box 1, straight flush (from the pool); "
            "jackpot prize paid MOP 5,000.00 to box 2, four of a kind (from the pool)")
    assert f"Win as recorded: {said}" in in_the_terminal(render_replay, replay)
    page = to_html(replay)
    assert f"Win as recorded: {said}." in page and f"Re-computed: {said}." in page
    assert "House win" not in page and "house win" not in in_the_terminal(render_replay, replay)
    [settled] = [step for step in replay.steps if step.event == "Round.Settled"]
    assert settled.text == f"round settled: {said}"


def test_a_box_that_won_a_jackpot_prize_is_not_shown_as_lost(ledger, superuser):
    replay = replay_round(superuser, rounds.stud_jackpot_round(ledger))
    printed = in_the_terminal(render_replay, replay).splitlines()
    row = {box: next(line for line in printed if line.startswith(f"│ box {box} jackpot "))
           for box in (1, 2, 4)}
    assert "won the jackpot: straight flush, prize MOP 20,000.00 (from the pool)" in row[1]
    assert "won the jackpot: four of a kind, prize MOP 5,000.00 (from the pool)" in row[2]
    assert "to the pool, no prize" in row[4]
    assert not any("lost" in line for line in row.values())
    on_the_page = {(r["line"].box, r["line"].spot): r["outcome"] for r in results(replay)}
    assert on_the_page[(1, "jackpot")] == (
        "won the jackpot: straight flush, prize MOP 20,000.00 (from the pool)")
    assert on_the_page[(4, "jackpot")] == "to the pool, no prize"
    assert "box 1 won straight flush, prize MOP 20,000.00" in in_the_terminal(
        render_recall, recall(superuser, "SP-01"))


def test_a_voided_rounds_replay_says_void_and_no_win_and_names_no_dealer_qualification(
    ledger, superuser
):
    """Every card dealt, the dealer's hand complete, then the supervisor voids the round: every
    bet goes back, nobody played the dealer, so the dealer neither qualifies nor fails to."""
    dealer = rounds.stud_table(ledger, "SP-03")
    dealer.send(ShuffleShoe)
    dealer.send(OpenRound)
    dealer.send(PlaceBet, box=1, spot="ante", amount=D("100.00"))
    dealer.send(PlaceBet, box=1, spot="jackpot", amount=D("10.00"))
    dealer.deal(rounds.stud_deal({1: "KH KS 9D 9C 3H"}, "QC JD 8S 4D 2S"))  # would not qualify
    dealer.send(VoidRound, actor=rounds.SUPERVISOR, reason="the shoe jammed")
    replay = replay_round(superuser, dealer.round_id(1))
    assert replay.check.verdict is Verdict.MATCH
    assert hand(replay, "dealer").qualifies is None and hand(replay, "dealer").name
    assert (replay.win.status, replay.win.table_win) == ("void", D("0.00"))
    said = ("void: every bet returned, no win; table win MOP 0.00; jackpot bets MOP 10.00 "
            "carried to the next round")
    printed = in_the_terminal(render_replay, replay)
    assert f"Win as recorded: {said}" in printed
    page = to_html(replay)
    assert f"Win as recorded: {said}." in page and f"Re-computed: {said}." in page
    for text in (printed, page):
        assert "qualif" not in text
    assert "House win" not in page and ": -;" not in page
    [voided] = recall(superuser, "SP-03").rounds
    assert voided.win == replay.win



@pytest.mark.parametrize("columns", [80, 120])
def test_a_jackpot_winner_is_shown_the_prize_paid_never_paid_0_00(ledger, superuser, columns):
    """The prize is paid by the pool, apart from the jackpot bet (whose own payout is nil):
    the results say the prize in the paid column, the timeline says the prize won."""
    replay = replay_round(superuser, rounds.stud_jackpot_round(ledger))
    console = Console(record=True, width=columns, color_system=None)
    render_replay(replay, console)
    printed = console.export_text()
    results_table = printed[printed.index("Results as recorded"):]
    row = next(line for line in results_table.splitlines() if "box 1 jackpot" in line)
    assert "20,000.00" in row, results_table
    assert "Jackpot pool Replay Pool:" in printed and "REPLAY-POOL" not in printed  # in words
    [settled] = [step.text for step in replay.steps if step.event == "Round.BetSettled"
                 and step.detail["bet"]["box"] == 1 and step.detail["bet"]["spot"] == "jackpot"]
    assert settled == ("box 1 jackpot: stake MOP 10.00, won the jackpot: straight flush, prize "
                       "MOP 20,000.00 (from the pool)"), settled
    assert "paid MOP 0.00" not in settled
    [on_the_page] = [r for r in results(replay)
                     if (r["line"].box, r["line"].spot) == (1, "jackpot")]
    assert on_the_page["paid"] == D("20000.00")
    assert "won the jackpot: straight flush" in on_the_page["due"]
