"""One simulated table: its dealer terminal sending a shift's rounds, one command at a time."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from random import Random
from typing import Any
from uuid import NAMESPACE_URL, uuid5

from ledger.application.ledger import Ledger
from ledger.commands import Command, command_class
from ledger.commands.round import OpenRound, PlaceBet, RecordIrregularity, SettleRound
from ledger.commands.shoe import BurnCards, CloseShoe, CutShoe, ShuffleShoe
from ledger.commands.table import SignInDealer, SignOutDealer
from ledger.core.cards import DECK, Card
from ledger.core.errors import DatabaseUnavailable
from ledger.core.formatting import counted
from ledger.domain.base import Actor, Role
from ledger.domain.round import Phase, Round, round_id
from ledger.domain.shoe import Shoe, commitment_of
from ledger.domain.table import Table, table_id
from ledger.games import registry
from ledger.games.simulated import Plant
from ledger.simulation.bias import MISDEALER, PLANTED_BOX, STREAK, Bias
from ledger.simulation.players import Crowd, Player, Purse
from ledger.simulation.staffing import FloorStaff, dealer_id, pit_supervisor
from ledger.simulation.strategy import stake

SIM_NAMESPACE = uuid5(NAMESPACE_URL, "https://round-ledger/simulation")
RESENDS = 10


@dataclass
class TableSpec:
    code: str
    game: str
    pit: str
    min_bet: Decimal
    max_bet: Decimal
    seats: int = 7
    shuffler: bool = False  # Stud and Q Poker: dealt by a shuffler rather than a shoe
    settings: dict[str, Any] = field(default_factory=dict)  # house options beyond the limits


@dataclass
class Tally(Purse):
    """What one table's simulation did, for the progress bar and the shift's accounting."""

    rounds: int = 0
    voids: int = 0
    demonstrations: int = 0  # baccarat's demonstration coups (art. 2(2)): no bets
    commands: int = 0
    events: int = 0
    opening: Decimal = Decimal("0.00")  # the tray at the shift's start
    fills: Decimal = Decimal("0.00")
    credits: Decimal = Decimal("0.00")
    won: Decimal = Decimal("0.00")  # the rounds' house win, jackpot bets apart
    shuffler_failures: int = 0
    resent: int = 0  # commands sent again after the database did not answer by the deadline
    latencies: list[float] = field(default_factory=list)  # money-safe: seconds per command
    recorded_at: list[tuple[float, int]] = field(default_factory=list)
    """When each command was answered (`time.perf_counter`) and the events it recorded: the
    floor's rate over any stretch of its run (`bench-floor`)."""

    @property
    def drop(self) -> Decimal:
        return self.cash + self.markers

    @property
    def accounting_win(self) -> Decimal:
        """As the shift report counts it, from the tray (its count now as the closing)."""
        return self.rack - self.opening + self.credits - self.fills + self.drop


class TableSimulator:
    """Sends a table's rounds through `Ledger.execute`, as its dealer terminal would."""

    def __init__(self, ledger: Ledger, staff: FloorStaff, spec: TableSpec, seed: int,
                 start: datetime, irregularity_rate: float = 0.01,  # money-safe: a probability
                 bias: Bias | None = None) -> None:
        self.ledger, self.staff, self.spec, self.seed = ledger, staff, spec, seed
        self.rng = Random(f"{seed}/{spec.code}")
        self.now = start
        self.sent = 0
        self.tally = Tally()
        self.crowd = Crowd(Random(f"{seed}/{spec.code}/players"), (spec.min_bet, spec.max_bet),
                           registry.game(spec.game).table_plan.buy_in, spec.seats, self.tally)
        self.bias = bias
        self.staying: dict[str, list[Player]] | None = None  # players kept for the next shift
        self.gaming_day = start.date()
        self.shift = "day"
        self.first_round = 0  # rounds the table played on earlier days
        plan = registry.game(spec.game).table_plan
        self.round_seconds: float = plan.round_seconds  # money-safe: a duration
        self.step = 1.0  # money-safe: seconds between two commands at the table
        self.latest: datetime | None = None  # nothing is dated after it (the ledger's now)
        self.base_rate = irregularity_rate
        self.plant_rng = Random(f"{seed}/{spec.code}/planted")
        self.dealer = Actor(staff_id=dealer_id(spec.code, 1), role=Role.DEALER)
        self.supervisor = pit_supervisor(spec.pit)
        self.order: list[Card] = []
        self.position = 0
        self.secret = ""
        self.cut_at: int | None = None
        self.players = 0  # seated by the crowd before each round
        self.carried: set[int] = set()  # Stud Poker boxes whose jackpot bets a void carried
        self.shuffler_unit = 1  # a failed shuffler is replaced by the next unit
        self.tie_bets: list[tuple[int, str, Decimal, str | None]] = []  # kept for the next coup
        self._jackpot_boxes: list[int] = []

    def last_jackpot_boxes(self) -> list[int]:
        return self._jackpot_boxes

    @property
    def _shift_key(self) -> str:
        """Part of each command id: a shift's commands never take another shift's ids (the
        day shift's ids are those of a one-shift day, as they always were)."""
        return "" if self.shift == "day" else f"{self.shift}/"

    # -- sending ------------------------------------------------------------------------
    def act(self, action: str, *, actor: Actor | None = None, **fields: Any) -> None:
        """A game's action by its wire name (`ledger.games.simulated.Dealing.act`)."""
        self.send(command_class(action), actor=actor, **fields)

    def send(self, command_class: type[Command], *, actor: Actor | None = None,
             **fields: Any) -> None:
        import time

        self.sent += 1
        sender = actor or self.dealer
        command = command_class(
            command_id=uuid5(SIM_NAMESPACE,
                             f"{self.seed}/{self.gaming_day}/{self._shift_key}{self.spec.code}/"
                             f"{self.sent}"),
            actor=sender, terminal=self.staff.terminal_for(sender, self.spec.code, self.spec.pit),
            at=min(self.now, self.latest) if self.latest is not None else self.now, **fields,
        )
        started = time.perf_counter()
        signed = self.staff.sign(command)
        for resend in range(RESENDS):  # a terminal keeps its command, and its id, until recorded
            try:
                recorded = self.ledger.execute(signed)
                break
            except DatabaseUnavailable:
                if resend == RESENDS - 1:
                    raise
                self.tally.resent += 1
        answered = time.perf_counter()
        self.tally.latencies.append(answered - started)
        self.tally.recorded_at.append((answered, len(recorded.events)))
        self.tally.commands += 1
        self.tally.events += len(recorded.events)
        self.now += timedelta(seconds=self.step)

    def table_fields(self) -> dict[str, Any]:
        return {"table": self.spec.code}

    def knows_the_cards(self) -> bool:
        """Whether a player at this table knows the next cards this round: a biased table's
        marked cards, on the bias's share of rounds (a fair table draws nothing for it)."""
        if self.bias is None or self.bias.kind != "marked-cards":
            return False
        return self.crowd.rng.random() < self.bias.share

    @property
    def irregularity_rate(self) -> float:  # money-safe: a probability
        """The table's rate, three times it while a planted misdealer deals."""
        misdealing = (self.bias is not None and self.bias.kind == "misdealer"
                      and self.dealer.staff_id == dealer_id(self.spec.code, MISDEALER))
        return self.base_rate * 3 if misdealing else self.base_rate

    def dealer_turn(self, turn: int) -> int:
        """Which of the table's dealers takes the `turn`-th turn of the rotation: the next one,
        except that a planted misdealer comes back every other turn."""
        if self.bias is not None and self.bias.kind == "misdealer" and turn % 2 == 0:
            return MISDEALER
        return turn

    def planted(self) -> Plant | None:
        """The bettor a protection case plants at this table, for this round."""
        if self.bias is None or self.bias.kind not in ("informed-bettor", "lucky-streak"):
            return None
        number = self.tally.rounds + self.tally.voids + 1
        name = "INFORMED" if self.bias.kind == "informed-bettor" else "LUCKY"
        return Plant(self.bias.kind, PLANTED_BOX, f"{name}-{self.spec.code}",
                     knows=self.plant_rng.random() < self.bias.share,
                     streak=(self.bias.kind == "lucky-streak" and self.bias.streak
                             and number in STREAK),
                     rng=self.plant_rng)

    def peek(self, ahead: int) -> Card:
        """The card `ahead` places after the next one to come, without dealing it."""
        return self.order[self.position + ahead]

    # -- the shoe -----------------------------------------------------------------------
    def new_shoe(self) -> None:
        decks = registry.game(self.spec.game).table_plan.decks
        self.order = [card for _ in range(decks) for card in DECK]
        self.rng.shuffle(self.order)
        self.secret = f"{self.rng.getrandbits(128):032x}"
        self.position = 0
        commitment = commitment_of(self.order, self.secret)
        if self.spec.shuffler:
            self.send(ShuffleShoe, table=self.spec.code, method="shuffler",
                      shuffler_serial=self.shuffler_serial, commitment=commitment)
        else:
            self.send(ShuffleShoe, table=self.spec.code, commitment=commitment)
        self.cut_at = None
        plan = registry.game(self.spec.game)
        if plan.table_plan.cut_card_behind is not None:
            self.cut_at = len(self.order) - plan.table_plan.cut_card_behind
            self.send(CutShoe, table=self.spec.code, cut_by=f"player on box {self.rng.randint(1, 7)}",
                      cut_card_position=self.cut_at)
        elif not self.spec.shuffler:  # one deck by hand: the dealer cuts, blank card to the bottom
            self.send(CutShoe, table=self.spec.code, cut_by="dealer",
                      cut_card_position=len(self.order))
        if plan.shoe.burns_at_shoe_start:
            self.send(BurnCards, table=self.spec.code, count=decks)
            self.position += decks
        # what the game plays before the shoe's first round: baccarat's demonstration coups
        self.tally.demonstrations += plan.simulated_shoe_start(self)

    def resume(self) -> None:
        """A table taken up again in a later shift: the jackpot bets a void carried from its
        last round stand on their boxes (art. 11, 4)), and a shuffler that failed is out of
        service."""
        if self.ledger.exists(tid := table_id(self.spec.code)):
            table = self.ledger.load(Table, tid, "table")
            self.carried = {int(bet["box"]) for bet in table.carried_jackpot_bets}
        self.resume_shuffler()

    def resume_shuffler(self) -> None:
        """A shuffler that failed in the table's last round (at the end of an earlier shift)
        is out of service: this shift deals by the next unit, as the ledger asks (art. 11)."""
        if not self.spec.shuffler or not self.first_round:
            return
        last = self.ledger.load(Round, round_id(table_id(self.spec.code), self.first_round),
                                "round")
        if last.phase is not Phase.VOID or last.shoe_id is None or not any(
                fact.kind == "shuffler_failure" for fact in last.irregularities):
            return
        if self.ledger.load(Shoe, last.shoe_id, "shoe").shuffler_serial == self.shuffler_serial:
            self.shuffler_unit += 1

    @property
    def shuffler_serial(self) -> str:
        return f"SHF-{self.spec.code}-{self.shuffler_unit}"

    def shuffler_stops_at(self, cards: int) -> int | None:
        """Where in a deal of `cards` cards the shuffler fails this round, if it does."""
        if not self.spec.shuffler or self.rng.random() >= self.irregularity_rate / 2:
            return None
        return self.rng.randrange(cards)

    def shuffler_failure(self, dealt: int) -> None:
        """The supervisor records the failure (the round is void) and the shuffler is
        replaced: the next round's shuffle is by another unit."""
        self.send(RecordIrregularity, table=self.spec.code, kind="shuffler_failure",
                  note=f"{shuffler_stopped(self.shuffler_serial, dealt)}; replaced",
                  actor=self.supervisor)
        self.tally.shuffler_failures += 1
        self.shuffler_unit += 1

    def draw(self) -> Card:
        card = self.order[self.position]
        self.position += 1
        return card

    def close_shoe(self) -> None:
        self.send(CloseShoe, table=self.spec.code,
                  revealed_order=[str(card) for card in self.order], secret=self.secret)
        self.order = []

    def shoe_finished(self) -> bool:
        if not self.order:
            return True
        if registry.game(self.spec.game).table_plan.fresh_shoe_each_round:
            return True  # one deck, freshly shuffled for every round
        return self.cut_at is not None and self.position >= self.cut_at

    # -- a round ------------------------------------------------------------------------
    def play_round(self, settle_turn: Any = None) -> None:
        if self.shoe_finished():
            if self.order:
                self.close_shoe()
            self.new_shoe()
        self.players = self.crowd.next_round()
        self.send(OpenRound, table=self.spec.code)
        self._jackpot_boxes = []
        number = (self.first_round + self.tally.rounds + self.tally.voids
                  + self.tally.demonstrations + 1)
        play = registry.game(self.spec.game).simulated_round
        voided = play(self, settle_turn)
        if voided:
            self.tally.voids += 1
        else:
            self.tally.rounds += 1
            self._book(number)
        self.now += timedelta(seconds=self.round_seconds)

    def bet(self, box: int, spot: str, amount: Decimal | None = None,
            player: str | None = None, covering: int = 1) -> Decimal:
        drawn = not amount
        amount = Decimal(amount) if amount else stake(self.rng, self.spec.min_bet, self.spec.max_bet)
        amount = self.crowd.stake(box, player, amount, drawn, covering)
        if spot == "jackpot":
            self._jackpot_boxes.append(box)
        self.send(PlaceBet, table=self.spec.code, box=box, spot=spot, amount=amount, player=player)
        return amount

    def add_stake(self, box: int, amount: Decimal, player: str | None = None) -> None:
        self.crowd.add_stake(box, player, amount)

    def settle(self, settle_turn: Any = None) -> None:
        if settle_turn is None:
            self.send(SettleRound, table=self.spec.code)
            return
        with settle_turn:
            self.send(SettleRound, table=self.spec.code)

    def _book(self, number: int) -> None:
        """The rack follows the round: what the house won stays, what it paid leaves; the
        players' stacks follow their bets."""
        round_ = self.ledger.load(Round, round_id(table_id(self.spec.code), number), "round")
        won = sum((r.house_win for r in round_.results if r.spot != "jackpot"), Decimal("0.00"))
        self.tally.rack += won
        self.tally.won += won
        self.crowd.settle(round_.results)
        if self.spec.settings.get("tie_handling") == "kept":  # the chips stay on the layout
            self.tie_bets = [(r.box, r.spot, r.stake, r.player) for r in round_.results
                             if r.outcome == "pushed"]

    def change_dealer(self, number: int) -> None:
        out = self.dealer
        self.send(SignOutDealer, table=self.spec.code, dealer_id=out.staff_id,
                  actor=self.supervisor)
        self.dealer = Actor(staff_id=dealer_id(self.spec.code, number), role=Role.DEALER)
        self.send(SignInDealer, table=self.spec.code, dealer_id=self.dealer.staff_id,
                  actor=self.supervisor)


def shuffler_stopped(serial: str, dealt: int) -> str:
    """How far a failed shuffler got, in words.

    >>> shuffler_stopped("SHF-QP-01-1", 0)
    'the shuffler SHF-QP-01-1 stopped before any card was dealt'
    >>> shuffler_stopped("SHF-QP-01-1", 1)
    'the shuffler SHF-QP-01-1 stopped after 1 card'
    """
    if not dealt:
        return f"the shuffler {serial} stopped before any card was dealt"
    return f"the shuffler {serial} stopped after {counted(dealt, 'card')}"
