"""`verify_ledger` over a real ledger: what holds on an honest one, and each kind of tampering
named on its own: an altered row, a missing version, a pool that does not add up, a shoe that
does not match its commitment, a round whose money is not conserved, a projection that is not
what the events say.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

import pytest

from ledger.application.ledger import Ledger
from ledger.audit.verification.verify import UNTRUSTED, verify_ledger
from ledger.core import clock as ledger_clock
from ledger.domain.jackpot_pool import JackpotPool, pool_id
from ledger.domain.shoe import Shoe
from ledger.domain.table import Table
from projections.engine.runner import ProjectionRunner
from projections.registry import PROJECTIONS
from tests.integration import replay_rounds as rounds
from tests.signing import open_ledger


@pytest.fixture
def ledger(settings) -> Iterator[Ledger]:
    with open_ledger(settings) as rt:
        yield rt.ledger


@pytest.fixture
def floor(ledger) -> Ledger:
    """A round of every game, a voided Stud Poker round and the round that carried its bets."""
    rounds.baccarat_round(ledger)
    rounds.fortune8_round(ledger)
    rounds.q_poker_surrender_round(ledger)
    rounds.stud_jackpot_round(ledger)
    rounds.stud_void_then_carried(ledger)
    return ledger


def behind_the_triggers(conn, statement: str, params: tuple = ()) -> None:
    conn.execute("ALTER TABLE ledger_events DISABLE TRIGGER ledger_events_no_update_delete")
    conn.execute(statement, params)
    conn.execute("ALTER TABLE ledger_events ENABLE ALWAYS TRIGGER ledger_events_no_update_delete")


def failures(report, check: str) -> list[str]:
    return [str(failure) for failure in report.failures if failure.check == check]


def test_verify_holds_on_an_honest_ledger_of_every_game(floor, database, superuser):
    with ProjectionRunner(database, PROJECTIONS) as runner:
        runner.catch_up()
    report = verify_ledger(superuser)
    assert report.ok, [str(f) for f in report.failures] + report.notes
    commands = report.checked.pop("commands")
    assert report.checked == {"shoes": 6, "rounds": 6, "pools": 1,
                              "projections": len(PROJECTIONS)}
    assert commands > 50  # every command proven: its events are what it records
    # without a trust file, the only notes say so: nothing here is anchored outside
    assert report.notes[0] == UNTRUSTED
    assert [note for note in report.notes[1:] if "not anchored" not in note] == []


def test_verify_names_a_payout_altered_behind_the_triggers(floor, superuser):
    behind_the_triggers(
        superuser,
        "UPDATE ledger_events SET state = convert_to(replace(convert_from(state, 'UTF8'), "
        "'\"payout\":\"1100.00\"', '\"payout\":\"9100.00\"'), 'UTF8') "
        "WHERE topic LIKE '%%Round.BetSettled' AND convert_from(state, 'UTF8') LIKE '%%P-1%%'")
    report = verify_ledger(superuser, projections=False)
    [chain_break] = report.chains.breaks
    assert (chain_break.label, chain_break.reason) == (
        "Round F8-01", "hash does not match its contents: row altered")
    [money] = failures(report, "money")
    assert "(F8-01 round 1): money not conserved" in money
    assert "house win -1050.00 does not hold (the bets give a house win of -9050.00)" in money


def test_verify_finds_a_missing_version(floor, superuser):
    behind_the_triggers(
        superuser,
        "DELETE FROM ledger_events WHERE topic LIKE '%%Round.BetPlaced' "
        "AND convert_from(state, 'UTF8') LIKE '%%\"spot\":\"tie\"%%'")
    report = verify_ledger(superuser, projections=False)
    rid = rounds.round_id(rounds.table_id("BAC-01"), 1)
    assert next((b.stream_id, b.version, b.reason) for b in report.chains.breaks) == (
        rid, 5, "version 4 is missing")
    [money] = failures(report, "money")  # the bet is gone but was settled: named too
    assert "(BAC-01 round 1): bets placed 3600.00" in money and "bets settled 3700.00" in money


def test_verify_finds_a_pool_that_does_not_add_up(floor, superuser):
    pool = pool_id(rounds.POOL)
    version = superuser.execute("SELECT max(originator_version) FROM ledger_events "
                                "WHERE originator_id = %s", (pool,)).fetchone()[0]
    rounds.insert_events(superuser, [JackpotPool.Adjusted(
        originator_id=pool, originator_version=version + 1, timestamp=ledger_clock.now(),
        amount=Decimal("500.00"), reason="top-up", pool_after=Decimal("80530.00"),
        by=rounds.forge_provenance())])
    report = verify_ledger(superuser, projections=False)
    assert report.chains.ok  # inserted rows are chained by the database like any other
    assert failures(report, "pool") == [
        (f"pool REPLAY-POOL ({pool}): version {version + 1} (JackpotPool.Adjusted): pool after "
        "80530.00, but the pool held 75030.00 and this event makes it 75530.00"),
        (f"pool REPLAY-POOL ({pool}): does not add up: it holds 80530.00, but seed 100000.00 + "
        "contributions 30.00 - prizes paid by the pool 25000.00 + seeds added at resets 0.00 + "
        "adjustments 500.00 = 75530.00")]
    assert not report.ok


def test_verify_names_a_closed_shoe_whose_revealed_order_is_not_its_commitment(ledger, superuser):
    rid = rounds.fortune8_round(ledger)  # a shoe shuffled by hand: no commitment
    order = rounds.shoe_order(1, ["AS"])
    dealer = rounds.open_table(ledger, "SP-07", "stud-poker", rule_set="stud-poker/2004",
                               settings={"royal_odds": 80, "max_payout": "100000.00"},
                               authorisation="DICJ-AUTH-2004-013")
    rounds.shuffle_committed(dealer, order)
    table = ledger.load(Table, rounds.table_id("SP-07"), "table")
    shoe = ledger.load(Shoe, table.current_shoe, "shoe")
    swapped = [order[1], order[0], *order[2:]]  # the first two cards swapped after the fact
    rounds.insert_events(superuser, [Shoe.Closed(
        originator_id=shoe.id, originator_version=shoe.version + 1, timestamp=ledger_clock.now(),
        revealed_order=swapped, secret=rounds.SECRET, commitment_holds=True, mismatches=[],
        by=rounds.forge_provenance())])
    report = verify_ledger(superuser, projections=False)
    assert failures(report, "shoe") == [
        (f"shoe {shoe.id} (table SP-07): the revealed order and secret do not hash to the "
        f"commitment {shoe.commitment[:16]}... recorded at the shuffle"),
        f"shoe {shoe.id} (table SP-07): the close recorded commitment_holds True, it is False"]
    assert rid  # the Fortune 8 shoe, never committed, is not named


def test_verify_names_a_round_whose_house_win_does_not_conserve_money(ledger, superuser):
    rounds.baccarat_dealt(ledger)
    rid = rounds.forge_settlement(ledger, superuser, "BAC-09", 1, {})
    behind_the_triggers(
        superuser,
        "UPDATE ledger_events SET state = convert_to(replace(convert_from(state, 'UTF8'), "
        "'\"house_win\":\"1000.00\"', '\"house_win\":\"900.00\"'), 'UTF8') "
        "WHERE originator_id = %s AND topic LIKE '%%Round.Settled'", (rid,))
    [money] = failures(verify_ledger(superuser, projections=False), "money")
    assert money == (
        f"round {rid} (BAC-09 round 1): money not conserved: stakes 3000.00 = returned 1000.00 + "
        "payouts 1000.00 - commission 0.00 + house win 900.00 does not hold (the bets give a "
        "house win of 1000.00)")


def test_verify_names_a_projection_that_is_not_what_the_events_say_and_writes_nothing(
    floor, database, superuser
):
    with ProjectionRunner(database, PROJECTIONS) as runner:
        runner.catch_up()
    superuser.execute("UPDATE jackpot_pools SET amount = amount + 1")
    positions = superuser.execute("SELECT * FROM ledger_tracking ORDER BY projection").fetchall()
    report = verify_ledger(superuser)
    [failure] = failures(report, "projection")
    assert failure.startswith("projection jackpot-pools: table jackpot_pools differs from a "
                              "rebuild from the events up to its position")
    assert "1 row the events give is missing or different, 1 row is not" in failure
    assert superuser.execute(
        "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'ledger_verify%'").fetchone()[0] == 0
    assert superuser.execute("SELECT * FROM ledger_tracking ORDER BY projection").fetchall() == (
        positions)


def test_verify_compares_a_lagging_projection_at_its_own_position(floor, database, superuser):
    with ProjectionRunner(database, PROJECTIONS, batch_size=7) as runner:
        runner.catch_up()
    rounds.fortune8_round(floor, "F8-02")  # recorded after the projections caught up
    assert failures(verify_ledger(superuser), "projection") == []


def _delete(superuser, event_type: str) -> tuple[object, int]:
    stream, version = superuser.execute(
        "SELECT stream_id, version FROM ledger_event_log WHERE event_type = %s "
        "ORDER BY position LIMIT 1", (event_type,)).fetchone()
    behind_the_triggers(superuser, "DELETE FROM ledger_events WHERE originator_id = %s AND "
                        "originator_version = %s", (stream, version))
    return stream, version


def test_a_deleted_round_ending_is_named_by_its_table_where_no_seal_reaches(floor, superuser):
    """The last event of a round's stream leaves no gap in its versions: its table, which
    recorded the round finished, says what is missing."""
    stream, _ = _delete(superuser, "Round.Settled")
    assert any(f"says round {stream} finished, but its stream is neither settled nor voided"
               in failure for failure in failures(verify_ledger(superuser), "streams"))


def test_a_deleted_jackpot_prize_is_named_by_the_pools_hit(floor, superuser):
    stream, _ = _delete(superuser, "Round.JackpotPrizeAwarded")
    named = failures(verify_ledger(superuser), "streams")
    assert any(f"of round {stream}, which that round's stream does not award" in failure
               for failure in named), named
