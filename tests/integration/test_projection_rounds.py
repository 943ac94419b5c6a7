"""The three projections over a recorded shift of every game, on a real PostgreSQL.

What they must hold: kept live while the shift is written (caught up every few commands, in
batches that cut through commands), every table of every projection equals a rebuild from the
first event, row for row; the jackpot pool shows the JackpotPool aggregate's own figures, every
hit and every adjustment; table state shows, mid-round, the round, its phase, its bets, the
cards shown and the shoe's remaining cards as the Round and Shoe aggregates have them; and the
last results of every table, newest first.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any, TypeVar
from uuid import UUID

import pytest

from ledger.application.ledger import Ledger
from ledger.commands import Command
from ledger.commands.round import OpenRound
from ledger.commands.shift import OpenShift
from ledger.commands.shoe import BurnCards, CutShoe, ShuffleShoe
from ledger.commands.table import ChangeTableSettings, OpenTable, SignInDealer
from ledger.domain.base import Aggregate
from ledger.domain.jackpot_pool import JackpotPool, pool_id
from ledger.domain.round import Phase, Round, round_id
from ledger.domain.shoe import Shoe
from ledger.domain.table import Table, table_id
from ledger.infrastructure.database import Database
from projections.engine.rebuild import rebuild
from projections.engine.runner import ProjectionRunner
from projections.queries import (
    TableState as TableStateView,
)
from projections.queries import (
    jackpot_pool,
    jackpot_pools,
    table_state,
)
from projections.registry import PROJECTIONS
from projections.tables.state import TableState
from tests.integration.floor_driver import (
    CHECKPOINTS,
    DEALER_HAND,
    DEALER_HAND_2,
    FLUSH,
    POOL,
    POOL_ADJUSTMENT,
    ROUND_ADJUSTMENT,
    SUPERVISOR,
    TABLES,
    FloorDriver,
)
from tests.integration.helpers import OPENING_CHIPS
from tests.integration.projection_helpers import last_position, position
from tests.signing import open_ledger, playing_other_days

K = TypeVar("K", bound=Aggregate)
ZERO = Decimal("0.00")


def catch_up(database: Database, batch_size: int = 1000) -> None:
    with ProjectionRunner(database, PROJECTIONS, batch_size=batch_size) as runner:
        runner.catch_up()


@dataclass(frozen=True)
class Seen:
    """The floor screen and the aggregates at one moment of the shift."""

    state: TableStateView
    table: Table
    round: Round
    shoe: Shoe


@dataclass
class RecordedFloor:
    ledger: Ledger
    database: Database
    seen: dict[str, Seen] = field(default_factory=dict)

    def load(self, kind: type[K], stream: UUID | None) -> K:
        assert stream is not None, "the floor has no such stream"
        return self.ledger.load(kind, stream, "a stream of the floor")

    def round(self, code: str, number: int) -> Round:
        return self.load(Round, round_id(table_id(code), number))

    def state(self, code: str) -> TableStateView:
        with self.database.connect() as conn:
            return table_state(conn, code)


@pytest.fixture
def floor(settings, database) -> Iterator[RecordedFloor]:
    """The shift recorded while the projections follow it: caught up every five commands in
    batches of seven events, and at each checkpoint, where the floor is looked at."""
    with open_ledger(settings) as rt:
        recorded = RecordedFloor(rt.ledger, database)

        def keep_live() -> None:
            if driver.sent % 5 == 0:
                catch_up(database, batch_size=7)

        def look(name: str) -> None:
            catch_up(database, batch_size=7)
            code = name.split()[0]
            table = recorded.load(Table, table_id(code))
            recorded.seen[name] = Seen(
                recorded.state(code), table, recorded.round(code, table.round_count),
                recorded.load(Shoe, table.current_shoe),
            )

        driver = FloorDriver(rt.ledger, after_command=keep_live)
        driver.record_shift(look)
        catch_up(database, batch_size=7)
        yield recorded


def every_row(conn: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of every projection, in a stable order."""
    return {
        table: sorted(conn.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)
        for projection in PROJECTIONS for table in projection.tables
    }


def layout(round_: Round) -> list[tuple[Any, ...]]:
    """The stakes on the layout as the Round aggregate has them: bets, then raises."""
    bets = [(b.box, b.spot, b.amount, b.player, b.carried_from) for b in round_.bets]
    raises = [(d.box, d.decision, d.amount, d.player, None) for d in round_.decisions if d.amount]
    return bets + raises


def shown(state: TableStateView) -> list[tuple[Any, ...]]:
    return [(b.box, b.spot, b.amount, b.player, b.carried_from) for b in state.bets or []]


def cards_shown(round_: Round) -> dict[str, list[str]]:
    """Face-up and exposed cards; every card once the dealer is revealed or the round settled."""
    everything = round_.phase in (Phase.REVEALED, Phase.SETTLED)
    exposed = {(card.to, card.card) for card in round_.exposed}
    cards: dict[str, list[str]] = {}
    for card in round_.cards:
        if everything or card.face_up or (card.to, card.card) in exposed:
            cards.setdefault(card.to, []).append(str(card.card))
    return cards


def house_win(round_: Round) -> Decimal:
    """What the round's results say the house won, less later adjustments; a void wins none."""
    settled = sum((r.house_win for r in round_.results), ZERO) if round_.phase is Phase.SETTLED \
        else ZERO
    return settled - sum((a["amount"] for a in round_.adjustments), ZERO)


# -- live equals rebuilt ----------------------------------------------------------------------


def test_live_projections_of_a_shift_of_every_game_equal_a_rebuild_row_for_row(
    floor, superuser
):
    live = every_row(superuser)
    waiting = live.pop("report_round_stakes")  # the stakes of rounds not settled yet: none are
    assert waiting == [] and all(live.values()), [t for t, rows in live.items() if not rows]
    live["report_round_stakes"] = waiting
    assert len(live["table_state"]) == len(TABLES) and len(live["table_rounds"]) == 14
    assert len(live["jackpot_hits"]) == 4 and len(live["report_shifts"]) == len(TABLES)
    for projection in PROJECTIONS:
        rebuild(floor.database, projection, batch_size=50)
    assert every_row(superuser) == live
    assert {position(superuser, p.name) for p in PROJECTIONS} == {last_position(superuser)}


def test_every_table_round_and_shoe_event_is_applied_exactly_once(floor, superuser):
    handled = dict(superuser.execute(
        "SELECT originator_id, count(*) FROM ledger_events "
        "WHERE split_part(topic, ':', 2) = ANY(%s) GROUP BY originator_id",
        (TableState.handled_types(),),
    ).fetchall())
    applied = dict(superuser.execute(
        "SELECT stream_id, events_applied FROM table_state UNION ALL "
        "SELECT round_id, events_applied FROM table_rounds UNION ALL "
        "SELECT shoe_id, events_applied FROM table_shoes"
    ).fetchall())
    assert applied == handled


# -- jackpot pools ----------------------------------------------------------------------------


def test_the_pool_shows_its_aggregates_figures_every_hit_and_the_adjustment_with_who_and_why(
    floor, superuser
):
    pool = floor.load(JackpotPool, pool_id(POOL))
    with floor.database.connect() as conn:
        view, [listed] = jackpot_pool(conn, POOL), jackpot_pools(conn)
    seed = pool.settings.seed
    assert (view.amount, view.seed, view.liability, view.contributions, view.reserve) == (
        pool.amount, seed, pool.amount - seed, pool.contributions, pool.reserve)
    assert (view.hits, view.tables) == (pool.hits, ["SP-01", "SP-02"])
    assert listed.model_dump() == {k: v for k, v in view.model_dump().items()
                                   if k not in ("hit_log", "adjustment_log")}
    # every hit: where, which round and box, what, and the pool before and after
    assert [(h.table, h.round_id, h.box, h.category, h.prize) for h in view.hit_log] == [
        ("SP-01", round_id(table_id("SP-01"), 1), 1, "straight_flush", Decimal("20000.00")),
        ("SP-01", round_id(table_id("SP-01"), 1), 2, "four_of_a_kind", Decimal("5000.00")),
        ("SP-01", round_id(table_id("SP-01"), 3), 1, "flush", Decimal("1000.00")),
        ("SP-02", round_id(table_id("SP-02"), 1), 1, "full_house", Decimal("1500.00")),
    ]
    recorded = [row[0] for row in superuser.execute(
        "SELECT body FROM ledger_event_log WHERE event_type = 'JackpotPool.JackpotHit' "
        "ORDER BY position").fetchall()]
    assert [(h.sequence, h.pool_before, h.paid_by_pool, h.paid_by_house, h.pool_after)
            for h in view.hit_log] == [
        (b["sequence"], Decimal(b["pool_before"]), Decimal(b["paid_by_pool"]),
         Decimal(b["paid_by_house"]), Decimal(b["pool_after"])) for b in recorded]
    assert all(h.pool_after == h.pool_before - h.paid_by_pool for h in view.hit_log)
    assert view.prizes == sum((h.prize for h in view.hit_log), ZERO)
    # the adjustment: how much, why, who
    amount, reason = POOL_ADJUSTMENT
    [adjustment] = view.adjustment_log
    assert (adjustment.amount, adjustment.reason, adjustment.staff_id, adjustment.role) == (
        amount, reason, SUPERVISOR.staff_id, SUPERVISOR.role.value)
    assert adjustment.pool_after == pool.amount  # the last thing that happened to the pool


# -- table state mid-round ---------------------------------------------------------------------


def test_mid_round_the_table_shows_the_round_its_phase_bets_cards_and_the_shoe_as_recorded(
    floor
):
    assert tuple(floor.seen) == CHECKPOINTS
    for name, seen in floor.seen.items():
        state, round_ = seen.state, seen.round
        assert (state.round_id, state.round_number, state.round_phase) == (
            round_.id, round_.number, round_.phase.value), name
        assert shown(state) == layout(round_), name
        assert state.cards_shown == cards_shown(round_), name
        assert state.shoe_id == seen.shoe.id, name
        assert state.shoe_cards_remaining == seen.shoe.cards_remaining, name
        assert state.carried_jackpot_bets == (seen.table.carried_jackpot_bets or None), name


def test_mid_coup_a_baccarat_table_shows_three_cards_out_of_a_burned_eight_deck_shoe(floor):
    state = floor.seen["BAC-02 mid-coup"].state
    assert (state.round_number, state.round_phase) == (1, "dealing")
    assert [(b.box, b.spot, b.amount, b.player) for b in state.bets or []] == [
        (1, "banker", Decimal("1000.00"), "P-4"), (2, "player", Decimal("500.00"), "P-5"),
        (2, "tie", Decimal("100.00"), "P-5")]
    assert state.cards_shown == {"player": ["2S", "2D"], "banker": ["4H"]}
    assert state.shoe_cards_remaining == 416 - 8 - 3


def test_stud_cards_dealt_face_down_are_not_shown_until_the_dealer_reveals(floor):
    dealing = floor.seen["SP-01 dealing"].state
    assert (dealing.round_phase, dealing.cards_shown) == ("dealing", {})
    assert dealing.shoe_cards_remaining == 52 - 2 * 4  # two cards to three boxes and the dealer
    assert [b.spot for b in dealing.bets or []] == ["ante", "jackpot", "ante", "jackpot", "ante"]
    exposed = floor.seen["SP-02 exposed"].state
    assert exposed.cards_shown == {"box:2": ["2H"], "dealer": ["2S"]}  # and the dealer's up card
    after = floor.state("SP-01")  # round 3, settled: every card
    assert (after.round_number, after.round_phase) == (3, "settled")
    assert after.cards_shown == {"box:1": FLUSH.split(), "dealer": DEALER_HAND_2.split()}


def test_a_void_stud_round_carries_its_jackpot_bets_onto_the_next_rounds_layout(floor):
    void = floor.seen["SP-01 void"]
    voided = round_id(table_id("SP-01"), 2)
    assert (void.state.round_number, void.state.round_phase) == (2, "void")
    assert void.state.carried_jackpot_bets == [
        {"box": 1, "amount": "20.00", "from_round": str(voided)},
        {"box": 4, "amount": "10.00", "from_round": str(voided)}]
    carried = floor.seen["SP-01 carried"].state
    assert carried.carried_jackpot_bets is None
    assert [(b.box, b.spot, b.amount, b.carried_from) for b in carried.bets or []] == [
        (1, "jackpot", Decimal("20.00"), str(voided)),
        (4, "jackpot", Decimal("10.00"), str(voided)),
        (1, "ante", Decimal("100.00"), None)]
    assert carried.shoe_cards_remaining == 52


# -- after the shift ---------------------------------------------------------------------------


def test_each_table_lists_its_rounds_newest_first_with_outcome_and_house_win(floor):
    for code in TABLES:
        table = floor.load(Table, table_id(code))
        state = floor.state(code)
        rounds = [floor.round(code, n) for n in range(table.round_count, 0, -1)]
        assert [(r.number, r.status, r.house_win) for r in state.last_results or []] == [
            (r.number, "void" if r.phase is Phase.VOID else "settled", house_win(r))
            for r in rounds], code
        assert state.shoe_cards_remaining == floor.load(Shoe, table.current_shoe) \
            .cards_remaining, code
        assert state.jackpot_pool == (POOL if code.startswith("SP") else None)


def test_last_results_say_who_won_what_the_dealer_held_and_which_jackpots_were_paid(floor):
    baccarat = floor.state("BAC-01").last_results or []
    assert [r.outcome["winner"] for r in baccarat] == ["tie", "banker", "player"]
    first = baccarat[-1]  # player 1,000 paid, banker 2,000 lost; then 100 paid on a dispute
    assert (first.house_win, first.adjustments) == (
        Decimal("1000.00") - ROUND_ADJUSTMENT[0], ROUND_ADJUSTMENT[0])
    void, played = floor.state("BAC-02").last_results or []
    assert (void.status, void.reason, void.house_win) == (
        "void", "card dropped on the floor before the second banker card", ZERO)
    assert played.outcome["winner"] == "banker"
    third, second, first = floor.state("SP-01").last_results or []
    assert (third.dealer_cards, [(p.box, p.category, p.amount) for p in third.jackpot]) == (
        DEALER_HAND_2.split(), [(1, "flush", Decimal("1000.00"))])
    assert (second.status, second.jackpot_carried) == ("void", True)
    assert first.dealer_cards == DEALER_HAND.split()
    assert [(p.box, p.category) for p in first.jackpot] == [
        (1, "straight_flush"), (2, "four_of_a_kind")]
    q_poker = floor.state("QP-01").last_results or []
    assert [r.status for r in q_poker] == ["void", "settled", "settled"]
    assert q_poker[1].dealer_cards == ["KC", "8D", "3H"]
    for code in ("QP-01", "F8-01"):  # each game's outcome, exactly as its round recorded it
        assert [r.outcome for r in floor.state(code).last_results or [] if r.status == "settled"] \
            == [floor.round(code, r.number).outcome for r in floor.state(code).last_results or []
                if r.status == "settled"]
    ended = floor.state("BAC-02")  # the last round stays on the screen, void, as it was left
    assert (ended.round_number, ended.round_phase, ended.cards_shown) == (
        2, "void", {"player": ["5C"], "banker": ["6D"]})


# -- limits -----------------------------------------------------------------------------------

DAY = date(2026, 3, 2)


def at(day: date, hour: int) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=UTC)


def test_limits_change_on_their_effective_date_and_a_later_change_waits_for_its_first_round(
    settings, database
):
    tomorrow = DAY + timedelta(days=1)
    with open_ledger(settings) as rt:
        playing_other_days(rt.ledger)
        def send(command_type: type[Command], when: datetime, **fields: Any) -> None:
            actor = SUPERVISOR
            rt.ledger.execute(command_type(table="BAC-L1", actor=actor, at=when, **fields))

        def limits() -> tuple[Any, ...]:
            catch_up(database, batch_size=3)
            with database.connect() as conn:
                state = table_state(conn, "BAC-L1")
            upcoming = [(u.effective_from, u.min_bet, u.max_bet)
                        for u in state.upcoming_limits or []]
            return state.min_bet, state.max_bet, state.limits_from, upcoming

        send(OpenTable, at(DAY, 2), game="baccarat", min_bet=Decimal(100),
             max_bet=Decimal(20000))
        send(ChangeTableSettings, at(DAY, 3), settings={"min_bet": "200", "max_bet": "30000"},
             effective_from=DAY, authorisation="DICJ-L-1")
        assert limits() == (Decimal("200.00"), Decimal("30000.00"), DAY, [])
        send(ChangeTableSettings, at(DAY, 4), settings={"min_bet": "500", "max_bet": "50000"},
             effective_from=tomorrow, authorisation="DICJ-L-2")
        assert limits() == (Decimal("200.00"), Decimal("30000.00"), DAY,
                            [(tomorrow, Decimal("500.00"), Decimal("50000.00"))])
        send(OpenShift, at(tomorrow, 1), gaming_day=tomorrow, shift="day",
             chips=OPENING_CHIPS, dealer_id="D-1", supervisor=SUPERVISOR)
        send(SignInDealer, at(tomorrow, 1), dealer_id="D-1")
        send(ShuffleShoe, at(tomorrow, 1))
        send(CutShoe, at(tomorrow, 1), cut_by="dealer", cut_card_position=400)
        send(BurnCards, at(tomorrow, 1), count=8)
        assert limits()[:2] == (Decimal("200.00"), Decimal("30000.00"))  # no round yet
        send(OpenRound, at(tomorrow, 2))
        assert limits() == (Decimal("500.00"), Decimal("50000.00"), tomorrow, [])
        opened = rt.ledger.load(Round, round_id(table_id("BAC-L1"), 1), "round")
    assert Decimal(opened.settings_data["min_bet"]) == Decimal(500)  # what the round plays
