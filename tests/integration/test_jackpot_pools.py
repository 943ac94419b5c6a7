"""Stud Poker progressive jackpot pools (art. 10) on PostgreSQL: contributions, prizes, resets,
adjustments, and several tables hitting one linked pool at the same moment.

The cards are rigged: each test chooses the hands dealt, so it knows which hits must appear.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal
from typing import Any
from uuid import UUID

import pytest

from ledger.application.ledger import Ledger, Recorded
from ledger.commands import Command
from ledger.commands.jackpot import AdjustPool, CreatePool, LinkTable
from ledger.commands.round import PlaceBet, SettleRound
from ledger.core.errors import InvalidInput, LedgerError, NotAllowed, RuleViolation, WrongState
from ledger.domain.jackpot_pool import JackpotPool, pool_id
from ledger.domain.round import Round, round_id
from ledger.domain.table import table_id
from ledger.games.jackpot import pay_jackpot
from ledger.games.registry import procedure_for
from tests.integration.helpers import open_table
from tests.integration.stud_builders import (
    DEALER,
    NON_QUALIFYING_DEALER,
    SUPERVISOR,
    Bets,
    bets,
    create_pool,
    event_count,
    money,
    recorded,
    settled_bets,
    shuffle_and_open,
    stud_round,
    stud_table,
)
from tests.signing import open_ledger

POOL = "STUD-POOL"
CODE = "SP-01"
ROYAL = "AS KS QS JS TS"
STRAIGHT_FLUSH = "9H 8H 7H 6H 5H"
FOUR = "QC QD QH QS 3C"
FULL_HOUSE = "JC JD JS 4D 4H"
FLUSH = "2C 5C 8C TC KC"
NOTHING = "2H 3H 7S 9D JH"
DEALER_HAND = "AC KD 8S 3D 2S"  # A-K high: qualifies; clashes with none of the hands above


@pytest.fixture
def ledger(settings) -> Iterator[Ledger]:
    with open_ledger(settings) as rt:
        yield rt.ledger


def run(ledger: Ledger, commands: Iterable[Command]) -> list[Recorded]:
    return [ledger.execute(command) for command in commands]


def one_table(ledger: Ledger, rule_set: str = "stud-poker/2004", **pool: str) -> None:
    run(ledger, [create_pool(POOL, **pool), *stud_table(CODE, rule_set, pool=POOL)])


def with_jackpot(hands: Mapping[int, str], ante: str = "100", jackpot: str = "10") -> Bets:
    return {box: (ante, jackpot) for box in hands}


def hits(conn) -> list[tuple[int, int, str, str, str, str, str, str]]:
    """(sequence, box, category, prize, pool before, by pool, by house, pool after)."""
    return [(h["sequence"], h["box"], h["category"], h["prize"], h["pool_before"],
             h["paid_by_pool"], h["paid_by_house"], h["pool_after"])
            for h in recorded(conn, "JackpotPool.JackpotHit")]


def pool_amount(ledger: Ledger) -> Decimal:
    pool: JackpotPool = ledger.load(JackpotPool, pool_id(POOL), "pool")
    return pool.amount


def refused(ledger: Ledger, conn, command: Command, error: type[LedgerError],
            sentence: str) -> None:
    before = event_count(conn)
    with pytest.raises(error) as caught:
        ledger.execute(command)
    assert sentence in str(caught.value) and "\n" not in str(caught.value)
    assert event_count(conn) == before


# -- art. 10 at one table -------------------------------------------------------------------


def test_stud_art10_2_1_a_royal_flush_wins_the_whole_pool_which_restarts_at_the_seed(
    ledger, superuser
):
    one_table(ledger, royal_flush="50000.00")
    run(ledger, stud_round(CODE, with_jackpot({1: ROYAL}), {1: ROYAL}, DEALER_HAND))
    [contribution] = recorded(superuser, "JackpotPool.ContributionReceived")
    assert (contribution["stakes"], contribution["to_pool"], contribution["pool_after"]) == (
        "10.00", "5.00", "100005.00")
    assert hits(superuser) == [
        (1, 1, "royal_flush", "100005.00", "100005.00", "100005.00", "0.00", "0.00")]
    [reduced] = recorded(superuser, "JackpotPool.JackpotReduced")
    assert (reduced["amount"], reduced["pool_after"]) == ("100005.00", "0.00")
    [reset] = recorded(superuser, "JackpotPool.ResetToSeed")
    assert (reset["seed"], reset["pool_after"]) == ("100000.00", "100000.00")
    assert pool_amount(ledger) == Decimal("100000.00")
    [award] = recorded(superuser, "Round.JackpotPrizeAwarded")
    assert (award["box"], award["category"], award["amount"], award["paid_by_pool"]) == (
        1, "royal_flush", "100005.00", "100005.00")


def test_stud_art10_2_1_a_fixed_sum_above_the_pool_is_paid_partly_by_the_house(
    ledger, superuser
):
    one_table(ledger, royal_flush="200000.00")
    run(ledger, stud_round(CODE, with_jackpot({1: ROYAL}), {1: ROYAL}, DEALER_HAND))
    assert hits(superuser) == [
        (1, 1, "royal_flush", "200000.00", "100005.00", "100005.00", "99995.00", "0.00")]
    [award] = recorded(superuser, "Round.JackpotPrizeAwarded")
    assert (award["paid_by_pool"], award["paid_by_house"]) == ("100005.00", "99995.00")


def test_stud_art10_2_2_a_straight_flush_wins_10_percent_of_the_pool_when_above_the_fixed_sum(
    ledger, superuser
):
    one_table(ledger, seed="500000.00")
    run(ledger, stud_round(CODE, with_jackpot({1: STRAIGHT_FLUSH}), {1: STRAIGHT_FLUSH},
                           DEALER_HAND))
    # 10% of 500005.00 is 50000.50, more than the posted 20000.00
    assert hits(superuser) == [
        (1, 1, "straight_flush", "50000.50", "500005.00", "50000.50", "0.00", "450004.50")]
    assert pool_amount(ledger) == Decimal("450004.50")
    assert recorded(superuser, "JackpotPool.ResetToSeed") == []


def test_stud_art10_2_3_to_5_and_10_4_fixed_prizes_are_paid_left_to_right(ledger, superuser):
    one_table(ledger)
    hands = {1: FLUSH, 2: FOUR, 3: FULL_HOUSE, 5: NOTHING}
    run(ledger, stud_round(CODE, with_jackpot(hands), hands, DEALER_HAND))
    assert [(s, box, category, prize) for s, box, category, prize, *_ in hits(superuser)] == [
        (1, 1, "flush", "1000.00"), (2, 2, "four_of_a_kind", "5000.00"),
        (3, 3, "full_house", "1500.00")]
    # 4 jackpot bets of 10.00 at 50% feed 20.00; the three prizes take 7500.00
    assert pool_amount(ledger) == Decimal("100000.00") + Decimal("20.00") - Decimal("7500.00")


def test_stud_art10_5_two_royal_flushes_in_one_round_share_the_pool(ledger, superuser):
    one_table(ledger, royal_flush="50000.00")
    hands = {2: ROYAL, 6: "AH KH QH JH TH"}
    run(ledger, stud_round(CODE, with_jackpot(hands), hands, DEALER_HAND))
    assert hits(superuser) == [
        (1, 2, "royal_flush", "50005.00", "100010.00", "50005.00", "0.00", "50005.00"),
        (2, 6, "royal_flush", "50005.00", "50005.00", "50005.00", "0.00", "0.00")]
    assert pool_amount(ledger) == Decimal("100000.00")


def test_stud_art10_7_the_straight_flush_is_paid_first_and_the_royal_takes_what_remains(
    ledger, superuser
):
    one_table(ledger, royal_flush="50000.00")
    hands = {1: ROYAL, 2: STRAIGHT_FLUSH}
    run(ledger, stud_round(CODE, with_jackpot(hands), hands, DEALER_HAND))
    assert hits(superuser) == [
        (1, 2, "straight_flush", "20000.00", "100010.00", "20000.00", "0.00", "80010.00"),
        (2, 1, "royal_flush", "80010.00", "80010.00", "80010.00", "0.00", "0.00")]
    assert len(recorded(superuser, "JackpotPool.ResetToSeed")) == 1


def test_stud_art10_1_a_folded_box_and_a_box_without_a_jackpot_bet_win_nothing(
    ledger, superuser
):
    one_table(ledger)
    hands = {1: ROYAL, 2: STRAIGHT_FLUSH}
    placed = {1: ("100", "10"), 2: ("100", None)}
    run(ledger, stud_round(CODE, placed, hands, DEALER_HAND, decisions={1: "fold"}))
    assert hits(superuser) == []
    # the folded box's jackpot bet was in play: it is collected and feeds the pool
    assert ((1, "jackpot", "10.00", "lost", "0.00", "0.00")
            in settled_bets(superuser, round_id(table_id(CODE), 1)))
    assert pool_amount(ledger) == Decimal("100005.00")


def test_stud_art10_2_the_jackpot_is_won_whatever_the_dealer_holds(ledger, superuser):
    one_table(ledger, "stud-poker/2003")
    hands = {1: FLUSH}
    run(ledger, stud_round(CODE, with_jackpot(hands), hands, NON_QUALIFYING_DEALER))
    assert [(box, category, prize) for _, box, category, prize, *_ in hits(superuser)] == [
        (1, "flush", "1000.00")]
    assert ((1, "raise", "200.00", "returned", "200.00", "0.00")
            in settled_bets(superuser, round_id(table_id(CODE), 1)))


def test_stud_jackpot_bets_feed_the_pool_at_its_rate_the_reserve_and_the_cap(ledger, superuser):
    one_table(ledger, reserve_rate="0.2", cap="100010.00")
    placed = {1: ("100", "10"), 2: ("100", "20")}
    run(ledger, stud_round(CODE, placed, {1: NOTHING, 2: "3S 4S 6D 8D TH"}, DEALER_HAND))
    # 30.00 at 50% is 15.00: 3.00 kept for the next seed, 12.00 to the pool, of which 2.00
    # would pass the cap of 100010.00 and goes to the reserve too
    [contribution] = recorded(superuser, "JackpotPool.ContributionReceived")
    assert (contribution["stakes"], contribution["to_pool"], contribution["to_reserve"],
            contribution["pool_after"]) == ("30.00", "10.00", "5.00", "100010.00")
    pool: JackpotPool = ledger.load(JackpotPool, pool_id(POOL), "pool")
    assert (pool.amount, pool.reserve) == (Decimal("100010.00"), Decimal("5.00"))


def test_stud_a_pool_adjustment_needs_a_supervisor_and_a_reason(ledger, superuser):
    one_table(ledger)
    adjustment = AdjustPool(pool=POOL, amount=money("2500.00"),
                            reason="meter reconciliation 2024-03-01", actor=DEALER)
    refused(ledger, superuser, adjustment, NotAllowed,
            "adjusting a jackpot pool needs a supervisor or pit boss: dealer D-101 cannot.")
    refused(ledger, superuser, adjustment.model_copy(update={"actor": SUPERVISOR, "reason": " "}),
            InvalidInput, "adjust_pool: reason: text cannot be empty")
    refused(ledger, superuser,
            adjustment.model_copy(update={"actor": SUPERVISOR, "amount": money("-100000.01")}),
            RuleViolation, "would leave pool STUD-POOL below zero (it holds 100000.00)")
    ledger.execute(adjustment.model_copy(update={"actor": SUPERVISOR}))
    [adjusted] = recorded(superuser, "JackpotPool.Adjusted")
    assert (adjusted["amount"], adjusted["pool_after"], adjusted["reason"]) == (
        "2500.00", "102500.00", "meter reconciliation 2024-03-01")
    assert pool_amount(ledger) == Decimal("102500.00")


def test_stud_pools_are_created_and_linked_by_a_supervisor_to_stud_poker_tables_only(
    ledger, superuser
):
    refused(ledger, superuser, create_pool(POOL).model_copy(update={"actor": DEALER}), NotAllowed,
            "creating a jackpot pool needs a supervisor or pit boss")
    run(ledger, [create_pool(POOL), *stud_table(CODE, "stud-poker/2004"),
                 open_table("BAC-01", game="baccarat")])
    refused(ledger, superuser, create_pool(POOL), WrongState,
            "jackpot pool STUD-POOL already exists.")
    refused(ledger, superuser, LinkTable(pool=POOL, table=CODE, actor=DEALER), NotAllowed,
            "linking a table to a jackpot pool needs a supervisor or pit boss")
    refused(ledger, superuser, LinkTable(pool=POOL, table="BAC-01", actor=SUPERVISOR),
            RuleViolation, "table BAC-01 plays baccarat, which has no jackpot.")
    refused(ledger, superuser,
            CreatePool(pool="BAD", settings={"seed": "100.00"}, actor=SUPERVISOR),
            LedgerError, "pool settings:")
    # before the link, a jackpot bet has no pool to go to
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, {1: ("100", None)})])
    refused(ledger, superuser,
            PlaceBet(table=CODE, box=1, spot="jackpot", amount=money(10), actor=DEALER),
            RuleViolation, "box 1 jackpot: this table is linked to no jackpot pool.")


# -- a pool linked to several tables, hits at the same moment -------------------------------

TABLES = {"SP-11": "stud-poker/2003", "SP-12": "stud-poker/2004",
          "SP-13": "stud-poker/2003", "SP-14": "stud-poker/2004"}
Deal = dict[int, str]


def linked_tables(ledger: Ledger, **pool: str) -> None:
    run(ledger, [create_pool(POOL, **pool)])
    for code, rule_set in TABLES.items():
        run(ledger, stud_table(code, rule_set, pool=POOL))


def settle_at_the_same_moment(settings, deals: Mapping[str, Deal]) -> None:
    """Each table's terminal (its own thread and ledger) plays its round up to the reveal,
    waits for the others, then all settle at once and race for the pool's next version."""
    barrier = threading.Barrier(len(deals))
    failures: list[str] = []

    def terminal(code: str, hands: Deal) -> None:
        try:
            with open_ledger(settings) as rt:
                *play, settle = stud_round(code, with_jackpot(hands), hands, DEALER_HAND)
                assert isinstance(settle, SettleRound)
                run(rt.ledger, play)
                barrier.wait(timeout=120)
                rt.ledger.execute(settle)
        except BaseException as error:  # noqa: BLE001 - reported below, in the test's thread
            failures.append(f"{code}: {error!r}")
            barrier.abort()

    threads = [threading.Thread(target=terminal, args=item) for item in deals.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def pool_events(ledger: Ledger) -> list[Any]:
    return list(ledger.stream_events(pool_id(POOL)))


def walk(ledger: Ledger) -> dict[str, Any]:
    """Replay the pool's events by hand, checking each against the pool as it then stood,
    and recompute every round's prizes with the rules engine on that pool."""
    events = pool_events(ledger)
    created, rest = events[0], events[1:]
    seed, amount = created.amount, created.amount
    contributed = paid = reseeded = Decimal("0.00")
    hit_events, before_round, rounds_seen = [], {}, []
    for event in rest:
        kind = type(event).__name__
        if kind == "ContributionReceived":
            assert event.pool_after == amount + event.to_pool
            amount, contributed = event.pool_after, contributed + event.to_pool
        elif kind == "JackpotHit":
            if event.round_id not in before_round:
                before_round[event.round_id] = amount
                rounds_seen.append(event.round_id)
            assert rounds_seen[-1] == event.round_id, "one round's hits are never interleaved"
            assert event.pool_before == amount
            assert event.paid_by_pool == min(event.prize, amount)
            assert event.paid_by_pool + event.paid_by_house == event.prize
            assert event.pool_after == amount - event.paid_by_pool
            amount, paid = event.pool_after, paid + event.paid_by_pool
            hit_events.append(event)
        elif kind == "JackpotReduced":
            assert event.pool_after == amount
        elif kind == "ResetToSeed":
            assert amount == 0
            amount, reseeded = event.pool_after, reseeded + seed
        else:
            assert kind in ("TableLinked", "Adjusted"), kind
    pool: JackpotPool = ledger.load(JackpotPool, pool_id(POOL), "pool")
    assert amount == pool.amount == seed + contributed - paid + reseeded
    settings = pool.settings
    for rid in rounds_seen:
        round_: Round = ledger.load(Round, rid, "round")
        claims = procedure_for("stud-poker").jackpot_claims(round_.facts())
        payout = pay_jackpot(before_round[rid], claims, settings)
        assert [(p.box, str(p.category), p.amount, p.paid_by_pool, p.paid_by_house)
                for p in payout.prizes] == [
            (h.box, h.category, h.prize, h.paid_by_pool, h.paid_by_house)
            for h in hit_events if h.round_id == rid]
    return {"seed": seed, "contributed": contributed, "paid": paid, "reseeded": reseeded,
            "amount": amount, "hits": hit_events}


def assert_hits_in_version_order(hit_events: list[Any]) -> None:
    assert [h.sequence for h in hit_events] == list(range(1, len(hit_events) + 1))
    versions = [h.originator_version for h in hit_events]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)


def assert_rounds_award_what_the_pool_paid(superuser, hit_events: list[Any]) -> None:
    awarded = {(UUID(str(row[0])), row[1]["box"], row[1]["category"], row[1]["amount"])
               for row in superuser.execute(
                   "SELECT stream_id, body FROM ledger_event_log "
                   "WHERE event_type = 'Round.JackpotPrizeAwarded'").fetchall()}
    assert awarded == {(h.round_id, h.box, h.category, f"{h.prize:.2f}") for h in hit_events}


def test_stud_art10_linked_pool_hits_at_four_tables_at_once_are_applied_one_after_the_other(
    settings, ledger, superuser
):
    # The straight flush's fixed sum is above 10% of anything this pool holds, so every prize
    # is known in advance whatever order the tables win the race in.
    linked_tables(ledger, seed="500000.00", straight_flush="60000.00")
    hands = {1: STRAIGHT_FLUSH, 2: FOUR, 3: FULL_HOUSE, 4: FLUSH, 5: NOTHING}
    settle_at_the_same_moment(settings, {code: hands for code in TABLES})

    walked = walk(ledger)
    # 4 tables x 5 jackpot bets of 10.00 at 50%; 4 x (60000 + 5000 + 1500 + 1000) in prizes
    assert walked["contributed"] == Decimal("100.00")
    assert walked["paid"] == Decimal("270000.00") and walked["reseeded"] == 0
    assert pool_amount(ledger) == Decimal("500000.00") + Decimal("100.00") - Decimal("270000.00")
    hit_events = walked["hits"]
    assert_hits_in_version_order(hit_events)
    expected = {(round_id(table_id(code), 1), box, category)
                for code in TABLES
                for box, category in ((1, "straight_flush"), (2, "four_of_a_kind"),
                                      (3, "full_house"), (4, "flush"))}
    assert len(hit_events) == 16
    assert {(h.round_id, h.box, h.category) for h in hit_events} == expected
    assert {h.table for h in hit_events} == set(TABLES)
    assert all(h.paid_by_house == 0 for h in hit_events)
    assert_rounds_award_what_the_pool_paid(superuser, hit_events)
    assert len(recorded(superuser, "JackpotPool.ContributionReceived")) == 4


def test_stud_art10_royal_flushes_at_two_tables_at_once_each_take_the_pool_as_it_then_stood(
    settings, ledger, superuser
):
    linked_tables(ledger, seed="150000.00", royal_flush="200000.00")
    settle_at_the_same_moment(settings, {
        "SP-11": {1: ROYAL, 2: STRAIGHT_FLUSH},
        "SP-12": {3: ROYAL},
        "SP-13": {1: FOUR, 2: NOTHING},
        "SP-14": {1: STRAIGHT_FLUSH, 2: FLUSH},
    })
    walked = walk(ledger)  # each prize recomputed on the pool as its round found it
    hit_events = walked["hits"]
    assert_hits_in_version_order(hit_events)
    assert sorted((h.table, h.box, h.category) for h in hit_events) == [
        ("SP-11", 1, "royal_flush"), ("SP-11", 2, "straight_flush"), ("SP-12", 3, "royal_flush"),
        ("SP-13", 1, "four_of_a_kind"), ("SP-14", 1, "straight_flush"), ("SP-14", 2, "flush")]
    # each royal empties the pool, which restarts at the seed: two resets
    assert walked["reseeded"] == Decimal("300000.00")
    assert len(recorded(superuser, "JackpotPool.ResetToSeed")) == 2
    # a royal never gets less than the posted 200000.00: what the pool lacks, the house pays
    royals = [h for h in hit_events if h.category == "royal_flush"]
    assert all(h.prize >= Decimal("200000.00") and h.pool_after == 0 for h in royals)
    assert all(h.paid_by_house == h.prize - h.pool_before for h in royals)
    assert_rounds_award_what_the_pool_paid(superuser, hit_events)


def test_stud_pool_amounts_given_without_avos_are_recorded_with_two_places(ledger, superuser):
    ledger.execute(CreatePool(pool=POOL, settings={
        "seed": "100000", "royal_flush": 200000, "straight_flush": "20000.5",
        "four_of_a_kind": "5000", "full_house": "1500", "flush": "1000",
        "contribution_rate": "0.5", "cap": "900000"}, actor=SUPERVISOR))
    [created] = recorded(superuser, "JackpotPool.Created")
    assert created["amount"] == "100000.00"
    amounts = ("seed", "royal_flush", "straight_flush", "cap")
    assert {k: created["settings"][k] for k in amounts} == {
        "seed": "100000.00", "royal_flush": "200000.00", "straight_flush": "20000.50",
        "cap": "900000.00"}
