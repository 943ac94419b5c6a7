"""A shift on a floor of every game, recorded command by command with cards chosen in advance.

Six tables: two Stud Poker tables linked to one progressive pool (a straight flush, four of a
kind, a full house and a flush hit it; a round voided with its jackpot bets carried to the
next; a card exposed by mistake), a Q Poker table (three rounds, one void), a Fortune 8 table
(two rounds), two baccarat tables (a player win, a banker win, a tie, a void coup, and a
settled coup adjusted later). Each table's shift is opened with its inventory, gets a fill and
a credit, its drop, and is closed. The pool gets one adjustment.

`record_shift(checkpoint)` calls `checkpoint(name)` at the moments named in `CHECKPOINTS`, in
the middle of a round, so a test can look at the floor then; `after_command` runs after every
command, so a test can keep its projections live while the shift is written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from ledger.application.ledger import Ledger, Recorded
from ledger.commands import Command
from ledger.commands.jackpot import AdjustPool, CreatePool, LinkTable
from ledger.commands.round import (
    AdjustRound,
    AnnounceDealMode,
    DealCard,
    Decide,
    ExposeCard,
    OpenRound,
    PlaceBet,
    RevealDealer,
    SettleRound,
    VoidRound,
)
from ledger.commands.shift import (
    CloseShift,
    EnterDrop,
    NoteInvestigation,
    OpenShift,
    RecordCredit,
    RecordFill,
)
from ledger.commands.shoe import BurnCards, CutShoe, ShuffleShoe
from ledger.commands.table import OpenTable, SignInDealer
from ledger.domain.base import Actor, Role
from tests.signing import GAMING_DAY

DAY = GAMING_DAY  # the commands are stamped now: a shift opens on its gaming day
SHIFT = "day"
DEALER = Actor(staff_id="D-11", role=Role.DEALER)
SUPERVISOR = Actor(staff_id="SV-3", role=Role.SUPERVISOR)
PIT_BOSS = Actor(staff_id="PB-2", role=Role.PIT_BOSS)
COUNT = Actor(staff_id="C-1", role=Role.COUNT_TEAM)

POOL = "FLOOR-POOL"
POOL_SETTINGS = {
    "seed": "100000.00", "royal_flush": "200000.00", "straight_flush": "20000.00",
    "four_of_a_kind": "5000.00", "full_house": "1500.00", "flush": "1000.00",
    "contribution_rate": "0.5", "reserve_rate": "0.2",
}
ROUND_ADJUSTMENT = (Decimal("100.00"), "dispute: the box 2 banker bet was misread")
POOL_ADJUSTMENT = (Decimal("-250.00"), "meter test prize refunded to the pool account")

TABLES = {
    "SP-01": ("stud-poker", "stud-poker/2004"), "SP-02": ("stud-poker", "stud-poker/2003"),
    "QP-01": ("q-poker", None), "F8-01": ("fortune-8", None),
    "BAC-01": ("baccarat", None), "BAC-02": ("baccarat", None),
}
DECKS = {"stud-poker": 1, "q-poker": 1, "fortune-8": 6, "baccarat": 8}

# The Stud Poker hands (one deck: no card twice in a round).
STRAIGHT_FLUSH = "9H 8H 7H 6H 5H"
FOUR = "QC QD QH QS 3C"
NOTHING = "2H 3H 7S 9D JH"
FULL_HOUSE = "JC JD JS 4D 4H"
FLUSH = "2C 5C 8C TC KC"
DEALER_HAND = "AC KD 8S 3D 2S"  # A-K high: the dealer qualifies
DEALER_HAND_2 = "AD KH 7S 4S 2D"

CHECKPOINTS = (
    "BAC-02 mid-coup",  # three of the coup's cards out, face up
    "SP-01 dealing",  # two of five cards to every box, the dealer's all face down
    "SP-01 void",  # the round just voided, its jackpot bets waiting for the next round
    "SP-01 carried",  # the next round open: the carried jackpot bets are its bets
    "SP-02 exposed",  # dealt, a box card exposed by mistake
    "QP-01 decisions",  # dealt, one player decided
    "F8-01 announced",  # bets placed and the deal mode announced, only the burn out
)

Checkpoint = Callable[[str], None]
Bet = tuple[int, str, str, str | None]  # box, spot, amount, player


class FloorDriver:
    """Sends the floor's commands: dealers by default, supervisors where the rules say so."""

    def __init__(self, ledger: Ledger, after_command: Callable[[], None] | None = None) -> None:
        self.ledger = ledger
        self.after_command = after_command
        self.sent = 0

    def send(self, command_type: type[Command], /, actor: Actor = DEALER,
             **fields: Any) -> Recorded:
        terminal = f"{fields.get('table', 'pit')}-{actor.role.value.replace('_', '-')}"
        recorded = self.ledger.execute(command_type(actor=actor, terminal=terminal, **fields))
        self.sent += 1
        if self.after_command is not None:
            self.after_command()
        return recorded

    # -- tables, the pool, shifts ---------------------------------------------------------
    def open_floor(self) -> None:
        self.send(CreatePool, actor=SUPERVISOR, pool=POOL, settings=POOL_SETTINGS)
        for code, (game, rule_set) in TABLES.items():
            self.send(OpenTable, actor=PIT_BOSS, table=code, game=game, rule_set=rule_set,
                      min_bet=Decimal(100), max_bet=Decimal(20000), pit=_pit(game))
            self.send(OpenShift, actor=SUPERVISOR, **_shift(code), chips={"1000": 50, "100": 100},
                      dealer_id=DEALER.staff_id, supervisor=SUPERVISOR)
            self.send(SignInDealer, actor=PIT_BOSS, table=code, dealer_id=DEALER.staff_id)
            if game == "stud-poker":
                self.send(LinkTable, actor=SUPERVISOR, pool=POOL, table=code)

    def close_floor(self) -> None:
        for n, code in enumerate(TABLES):
            slips = dict(_shift(code), runner_id="R-1", supervisor=SUPERVISOR)
            self.send(RecordFill, actor=SUPERVISOR, slip=100 + 2 * n, chips={"1000": 10}, **slips)
            self.send(RecordCredit, actor=SUPERVISOR, slip=101 + 2 * n, chips={"1000": 5}, **slips)
            self.send(EnterDrop, actor=COUNT, **_shift(code), cash=Decimal(4000),
                      markers=Decimal(0), counted_by=("C-1", "C-2"))
            self.send(CloseShift, actor=SUPERVISOR, **_shift(code), chips={"1000": 55, "100": 90},
                      dealer_id=DEALER.staff_id, supervisor=SUPERVISOR)
        day = _shift(next(iter(TABLES)))["gaming_day"]
        self.send(NoteInvestigation, actor=PIT_BOSS, first_day=day, last_day=day, scope="floor",
                  subject="the shift's win against its band", finding="within it; nothing found")

    def adjust_pool(self) -> None:
        amount, reason = POOL_ADJUSTMENT
        self.send(AdjustPool, actor=SUPERVISOR, pool=POOL, amount=amount, reason=reason)

    # -- one step of a round --------------------------------------------------------------
    def new_shoe(self, code: str) -> None:
        """Shuffle; the multi-deck games also cut (and baccarat burns one card per deck)."""
        game = TABLES[code][0]
        self.send(ShuffleShoe, table=code)
        if game in ("baccarat", "fortune-8"):
            cut = 52 * DECKS[game] - (12 if game == "fortune-8" else 14)
            self.send(CutShoe, table=code, cut_by="player P-1", cut_card_position=cut)
        if game == "baccarat":
            self.send(BurnCards, table=code, count=DECKS[game])

    def open_round(self, code: str, bets: Sequence[Bet] = ()) -> None:
        self.send(OpenRound, table=code)
        for box, spot, amount, player in bets:
            self.send(PlaceBet, table=code, box=box, spot=spot, amount=Decimal(amount),
                      player=player)

    def deal(self, code: str, cards: Sequence[tuple[str, str]], face_up: bool = False) -> None:
        for to, card in cards:
            self.send(DealCard, table=code, to=to, card=card, face_up=face_up)

    def decide(self, code: str, box: int, decision: str, amount: str | None = None,
               player: str | None = None) -> None:
        self.send(Decide, table=code, box=box, decision=decision, player=player,
                  amount=Decimal(amount) if amount else None)

    def finish(self, code: str, reveal: bool = False) -> None:
        if reveal:
            self.send(RevealDealer, table=code)
        self.send(SettleRound, table=code)

    def void(self, code: str, reason: str) -> None:
        self.send(VoidRound, actor=SUPERVISOR, table=code, reason=reason)

    # -- whole rounds ---------------------------------------------------------------------
    def baccarat_coup(self, code: str, bets: Sequence[Bet], cards: str) -> None:
        """A coup where neither side draws a third card."""
        self.open_round(code, bets)
        self.deal(code, _baccarat_order(cards), face_up=True)
        self.finish(code)

    def stud_bets(self, placed: Mapping[int, tuple[str, str | None]]) -> list[Bet]:
        bets: list[Bet] = []
        for box, (ante, jackpot) in sorted(placed.items()):
            bets.append((box, "ante", ante, None))
            if jackpot is not None:
                bets.append((box, "jackpot", jackpot, None))
        return bets

    def stud_deal(self, code: str, hands: Mapping[int, str], dealer: str,
                  cards: range = range(5)) -> None:
        """Art. 7, 1): card n to every box left to right, then to the dealer."""
        seats = [(f"box:{box}", hands[box].split()) for box in sorted(hands)]
        seats.append(("dealer", dealer.split()))
        self.deal(code, [(to, hand[n]) for n in cards for to, hand in seats])

    def stud_decide(self, code: str, antes: Mapping[int, str],
                    folds: Sequence[int] = ()) -> None:
        for box, ante in sorted(antes.items()):
            if box in folds:
                self.decide(code, box, "fold")
            else:
                self.decide(code, box, "raise", str(Decimal(ante) * 2))

    def q_poker_deal(self, code: str, hands: Mapping[int, str], dealer: str) -> None:
        seats = [(f"box:{box}", hands[box].split()) for box in sorted(hands)]
        seats.append(("dealer", dealer.split()))
        self.deal(code, [(to, hand[n]) for n in range(3) for to, hand in seats])

    # -- the shift ------------------------------------------------------------------------
    def record_shift(self, checkpoint: Checkpoint = lambda name: None,
                     before_close: Callable[[], None] = lambda: None) -> None:
        self.open_floor()
        self._baccarat(checkpoint)
        self._stud(checkpoint)
        self._q_poker(checkpoint)
        self._fortune8(checkpoint)
        self.adjust_pool()
        before_close()
        self.close_floor()

    def _baccarat(self, checkpoint: Checkpoint) -> None:
        self.new_shoe("BAC-01")
        # player natural 9 against banker 7: the player wins
        self.baccarat_coup("BAC-01", [(1, "player", "1000", "P-1"), (2, "banker", "2000", "P-2")],
                           "9H 2C KD 5S")
        # banker natural 8 against player 5: the banker wins, 5% commission
        self.baccarat_coup("BAC-01", [(1, "banker", "1000", "P-1")], "2C 4H 3D 4S")
        # 7 against 7: a tie; player and banker bets pushed, the tie paid
        self.baccarat_coup("BAC-01", [(1, "player", "500", "P-1"), (3, "tie", "100", "P-3")],
                           "7S 7D KS KH")
        self.new_shoe("BAC-02")
        self.open_round("BAC-02", [(1, "banker", "1000", "P-4"), (2, "player", "500", "P-5"),
                                   (2, "tie", "100", "P-5")])
        self.deal("BAC-02", [("player", "2S"), ("banker", "4H"), ("player", "2D")], face_up=True)
        checkpoint("BAC-02 mid-coup")
        self.deal("BAC-02", [("banker", "KC"), ("player", "9S")], face_up=True)
        self.finish("BAC-02")  # player 4 draws 9 (3); banker 4 stands on a 9: the banker wins
        self.open_round("BAC-02", [(1, "player", "300", "P-4")])
        self.deal("BAC-02", [("player", "5C"), ("banker", "6D")], face_up=True)
        self.void("BAC-02", "card dropped on the floor before the second banker card")
        amount, reason = ROUND_ADJUSTMENT
        self.send(AdjustRound, actor=SUPERVISOR, table="BAC-01", round=1, box=2, spot="banker",
                  player="P-2", amount=amount, reason=reason, dispute="DSP-BAC-01-1")

    def _stud(self, checkpoint: Checkpoint) -> None:
        placed = {1: ("200", "10"), 2: ("100", "10"), 3: ("100", None)}
        hands = {1: STRAIGHT_FLUSH, 2: FOUR, 3: NOTHING}
        self.new_shoe("SP-01")
        self.open_round("SP-01", self.stud_bets(placed))
        self.stud_deal("SP-01", hands, DEALER_HAND, range(2))
        checkpoint("SP-01 dealing")
        self.stud_deal("SP-01", hands, DEALER_HAND, range(2, 5))
        self.stud_decide("SP-01", {box: ante for box, (ante, _) in placed.items()}, folds=[3])
        self.finish("SP-01", reveal=True)
        # a void round: its jackpot bets are carried to the same boxes of the next round
        self.new_shoe("SP-01")
        self.open_round("SP-01", self.stud_bets({1: ("100", "20"), 4: ("100", "10")}))
        self.stud_deal("SP-01", {1: FLUSH, 4: FULL_HOUSE}, DEALER_HAND_2, range(1))
        self.void("SP-01", "shuffler jammed, deck incomplete")
        checkpoint("SP-01 void")
        self.new_shoe("SP-01")
        self.open_round("SP-01", [(1, "ante", "100", None)])  # box 4 places no ante: returned
        checkpoint("SP-01 carried")
        self.stud_deal("SP-01", {1: FLUSH}, DEALER_HAND_2)
        self.stud_decide("SP-01", {1: "100"})
        self.finish("SP-01", reveal=True)
        # the second table on the same pool: a full house, and a box that folds after one of
        # its cards is exposed by mistake
        self.new_shoe("SP-02")
        self.open_round("SP-02", self.stud_bets({1: ("100", "10"), 2: ("100", "10")}))
        self.stud_deal("SP-02", {1: FULL_HOUSE, 2: NOTHING}, DEALER_HAND)
        self.send(ExposeCard, table="SP-02", to="box:2", card="2H")  # one card: play goes on
        checkpoint("SP-02 exposed")
        self.stud_decide("SP-02", {1: "100", 2: "100"}, folds=[2])
        self.finish("SP-02", reveal=True)

    def _q_poker(self, checkpoint: Checkpoint) -> None:
        self.new_shoe("QP-01")
        self.open_round("QP-01", [(1, "bonus", "100", "P-1"), (1, "play", "200", "P-1"),
                                  (1, "play", "300", "P-2"), (3, "play", "500", "P-3")])
        self.q_poker_deal("QP-01", {1: "AS KS QS", 3: "9D 9C 4C"}, "QH 5D 2C")
        self.decide("QP-01", 1, "play", player="P-1")
        checkpoint("QP-01 decisions")
        self.decide("QP-01", 1, "surrender", player="P-2")
        self.decide("QP-01", 3, "play", player="P-3")
        self.finish("QP-01", reveal=True)
        self.new_shoe("QP-01")
        self.open_round("QP-01", [(2, "play", "1000", "P-6"), (2, "bonus", "200", "P-6")])
        self.q_poker_deal("QP-01", {2: "7H 7D 7S"}, "KC 8D 3H")
        self.decide("QP-01", 2, "play", player="P-6")
        self.finish("QP-01", reveal=True)
        self.new_shoe("QP-01")
        self.open_round("QP-01", [(4, "play", "400", "P-7")])
        self.deal("QP-01", [("box:4", "6C")])
        self.void("QP-01", "two cards stuck together in the deal")

    def _fortune8(self, checkpoint: Checkpoint) -> None:
        self.new_shoe("F8-01")
        self.open_round("F8-01", [(1, "8", "100", "P-1"), (1, "L", "100", "P-3"),
                                  (4, "H", "300", "P-1"), (6, "L", "500", "P-4")])
        self.send(AnnounceDealMode, table="F8-01", mode="spaces_with_bets")
        self.deal("F8-01", [("burn", "5C")])
        checkpoint("F8-01 announced")
        self.deal("F8-01", [("space:1", "8H"), ("space:4", "KD"), ("space:6", "3S")])
        self.finish("F8-01")
        self.open_round("F8-01", [(2, "H", "500", "P-2"), (5, "8", "200", "P-5")])
        self.send(AnnounceDealMode, table="F8-01", mode="all_spaces")
        self.deal("F8-01", [("burn", "9D"), *[(f"space:{n}", card) for n, card in
                                            enumerate(["AH", "QC", "8D", "2S", "8S", "7C", "TD"], start=1)]])
        self.finish("F8-01")


def _baccarat_order(cards: str) -> list[tuple[str, str]]:
    """`9H 2C KD 5S`: a coup of four cards (both sides stand), player first, alternating."""
    return list(zip(("player", "banker", "player", "banker"), cards.split(), strict=True))


def _shift(code: str) -> dict[str, Any]:
    return {"table": code, "gaming_day": DAY, "shift": SHIFT}


def _pit(game: str) -> str:
    return "east" if game in ("stud-poker", "q-poker") else "west"
