"""Builders of Stud Poker command sequences: what a dealer terminal would send.

The builders are pure: a round is written the way a dealer reads it (the bets per box, the
five cards of each hand and the dealer's, each box's decision) and they put the cards in the
order of art. 7 (shoe: one card at a time, box 1 first, the dealer last, five rounds), so a
test only says which cards it rigs. At the end, three read-only SQL helpers over the auditors'
view `ledger_event_log`, for the tests to read back what was recorded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from ledger.commands import Command
from ledger.commands.jackpot import CreatePool, LinkTable
from ledger.commands.round import DealCard, Decide, OpenRound, PlaceBet, RevealDealer, SettleRound
from ledger.commands.shoe import ShuffleShoe
from ledger.commands.table import OpenTable, SignInDealer
from ledger.domain.base import Actor, Role
from tests.integration.helpers import open_shift
from tests.signing import event_count as table_events

DEALER = Actor(staff_id="D-101", role=Role.DEALER)
SUPERVISOR = Actor(staff_id="SV-7", role=Role.SUPERVISOR)
PIT_BOSS = Actor(staff_id="PB-7", role=Role.PIT_BOSS)

RULE_SETS = ("stud-poker/2003", "stud-poker/2004")
ROYAL_ODDS = {"stud-poker/2003": 50, "stud-poker/2004": 80}  # 2004: the house's choice, art. 13

# A dealer hand for each case of art. 9: A-K high qualifies, A-Q high does not.
QUALIFYING_DEALER = "AD KC 7H 4S 2D"
NON_QUALIFYING_DEALER = "AC QD 9S 6H 3C"

POOL_SETTINGS: dict[str, str] = {
    "seed": "100000.00", "royal_flush": "200000.00", "straight_flush": "20000.00",
    "four_of_a_kind": "5000.00", "full_house": "1500.00", "flush": "1000.00",
    "contribution_rate": "0.5",
}

Bets = Mapping[int, tuple[str, str | None]]  # box: (ante, jackpot bet or None)


def money(amount: str | int | Decimal) -> Decimal:
    return Decimal(amount).quantize(Decimal("0.01"))


def open_stud_table(code: str, rule_set: str, *, royal_odds: int | None = None,
                    max_payout: str = "100000.00", min_bet: str = "100.00",
                    max_bet: str = "10000.00") -> OpenTable:
    odds = ROYAL_ODDS[rule_set] if royal_odds is None else royal_odds
    return OpenTable(
        table=code, game="stud-poker", rule_set=rule_set, min_bet=money(min_bet),
        max_bet=money(max_bet), settings={"royal_odds": odds, "max_payout": max_payout},
        authorisation="DICJ-AUTH-2004-013" if odds != 50 else None,
        actor=PIT_BOSS, terminal="pit-1",
    )


def create_pool(name: str = "STUD-POOL", **settings: str) -> CreatePool:
    return CreatePool(pool=name, settings={**POOL_SETTINGS, **settings}, actor=SUPERVISOR,
                      terminal="pit-1")


def stud_table(code: str, rule_set: str, *, pool: str | None = None,
               **table_options: Any) -> list[Command]:
    """A table opened, its shift open, its dealer signed in, and (optionally) linked to a
    pool."""
    commands: list[Command] = [
        open_stud_table(code, rule_set, **table_options), open_shift(code),
        SignInDealer(table=code, dealer_id=DEALER.staff_id, actor=DEALER, terminal=code),
    ]
    if pool is not None:
        commands.append(LinkTable(pool=pool, table=code, actor=SUPERVISOR, terminal="pit-1"))
    return commands


def shuffle_and_open(code: str) -> list[Command]:
    """A freshly shuffled deck (Stud Poker: before every round) and the round opened."""
    return [ShuffleShoe(table=code, actor=DEALER, terminal=code),
            OpenRound(table=code, actor=DEALER, terminal=code)]


def bets(code: str, placed: Bets) -> list[Command]:
    commands: list[Command] = []
    for box, (ante, jackpot) in sorted(placed.items()):
        commands.append(PlaceBet(table=code, box=box, spot="ante", amount=money(ante),
                                 actor=DEALER, terminal=code))
        if jackpot is not None:
            commands.append(PlaceBet(table=code, box=box, spot="jackpot", amount=money(jackpot),
                                     actor=DEALER, terminal=code))
    return commands


def deal_order(hands: Mapping[int, str], dealer: str) -> list[tuple[str, str]]:
    """(to, card) in the order of art. 7, 1): card n to every box left to right, then the dealer."""
    seats = [(f"box:{box}", hands[box].split()) for box in sorted(hands)]
    seats.append(("dealer", dealer.split()))
    return [(to, cards[n]) for n in range(5) for to, cards in seats]


def deal(code: str, hands: Mapping[int, str], dealer: str) -> list[DealCard]:
    return [DealCard(table=code, to=to, card=card, actor=DEALER, terminal=code)
            for to, card in deal_order(hands, dealer)]


def decide(code: str, placed: Bets, decisions: Mapping[int, str] | None = None) -> list[Decide]:
    """Each box's decision (default: raise); a raise is exactly twice the ante (art. 6, 6))."""
    chosen = decisions or {}
    commands = []
    for box, (ante, _) in sorted(placed.items()):
        decision = chosen.get(box, "raise")
        amount = money(ante) * 2 if decision == "raise" else None
        commands.append(Decide(table=code, box=box, decision=decision, amount=amount,
                               actor=DEALER, terminal=code))
    return commands


def reveal_and_settle(code: str) -> list[Command]:
    return [RevealDealer(table=code, actor=DEALER, terminal=code),
            SettleRound(table=code, actor=DEALER, terminal=code)]


def stud_round(code: str, placed: Bets, hands: Mapping[int, str],
               dealer: str = QUALIFYING_DEALER,
               decisions: Mapping[int, str] | None = None) -> list[Command]:
    """A complete round, from the shuffle to the settlement."""
    return [*shuffle_and_open(code), *bets(code, placed), *deal(code, hands, dealer),
            *decide(code, placed, decisions), *reveal_and_settle(code)]


def until_decisions(code: str, placed: Bets, hands: Mapping[int, str],
                    dealer: str = QUALIFYING_DEALER) -> list[Command]:
    """A round shuffled, bet and fully dealt: every box is about to raise or fold."""
    return [*shuffle_and_open(code), *bets(code, placed), *deal(code, hands, dealer)]


def with_ids(commands: Iterable[Command], namespace: str) -> list[Command]:
    """The same commands with command ids derived from `namespace` and their place, so a file
    built twice is the same file (and ingesting it twice records it once)."""
    base = uuid5(NAMESPACE_URL, f"https://round-ledger/tests/{namespace}")
    return [command.model_copy(update={"command_id": uuid5(base, str(n))})
            for n, command in enumerate(commands, start=1)]


def json_lines(commands: Sequence[Command]) -> list[str]:
    """One JSON object per command, as `ledger ingest` reads them (no `at`: the ledger's now)."""
    return [command.model_dump_json(exclude={"at"}, exclude_none=True) for command in commands]


# -- reading what was recorded (SQL over the auditors' view, nothing written) ----------------


def event_count(conn: Any) -> int:
    return table_events(conn)


def recorded(conn: Any, event_type: str, stream: UUID | None = None) -> list[dict[str, Any]]:
    """The bodies of every event of a type (`Round.BetSettled`), oldest first."""
    query = "SELECT body FROM ledger_event_log WHERE event_type = %s"
    params: tuple[Any, ...] = (event_type,)
    if stream is not None:
        query += " AND stream_id = %s"
        params += (stream,)
    return [row[0] for row in conn.execute(query + " ORDER BY position", params).fetchall()]


def settled_bets(conn: Any, stream: UUID) -> set[tuple[int, str, str, str, str, str]]:
    """(box, spot, stake, outcome, returned, payout) of each BetSettled of one round."""
    return {
        (b["bet"]["box"], b["bet"]["spot"], b["bet"]["stake"], b["bet"]["outcome"],
         b["bet"]["returned"], b["bet"]["payout"])
        for b in recorded(conn, "Round.BetSettled", stream)
    }
