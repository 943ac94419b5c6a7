"""The players at a simulated table and their chips, moving as a floor's money moves.

A player arrives and buys in with cash (now and then a marker) for some table minimums, or
sits down with chips bought at another table; bets from the stack; when it runs short, buys
in again or leaves; and in time walks away with what is left, coloured up. The table's tray
follows only the chips that cross it: it gives chips for cash and markers, keeps what the
house wins and pays what it loses. Chips walked away or brought from elsewhere never cross it,
so the accounting win (closing - opening + credits - fills + drop) is the rounds' win whatever
the players did, and the hold on the drop is what their play makes it.

The players' choices come from a random stream of their own: the cards, boxes and stakes the
same seed gives do not move when the money model does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from random import Random
from typing import Protocol

from ledger.simulation.strategy import stake

ZERO = Decimal("0.00")
HUNDRED = Decimal(100)

BUY_IN_SHARES = (Decimal("0.5"), Decimal("0.75"), Decimal(1), Decimal("1.5"), Decimal(2),
                 Decimal(4))
BUY_IN_WEIGHTS = (15, 20, 25, 18, 14, 8)
"""A buy-in as a share of the game's typical one (`TablePlan.buy_in`): skewed, as floors see."""
MARKER_SHARE = 0.08  # money-safe: a probability; of buy-ins signed for rather than paid
BRINGS_CHIPS = 0.1  # money-safe: a probability; of arrivals who bought their chips elsewhere
BUYS_AGAIN = 0.75  # money-safe: a probability; of players short of chips who buy in again
LEAVES = 0.005  # money-safe: a probability per round; sessions of a few hours
ARRIVES = 0.0067  # money-safe: per empty seat and round; four of seven seats taken, on average
STRETCH = 2  # a player bets from half to twice their usual stake
SHORT = 2  # a stack under this many usual stakes is short: buy in again, or leave


class Bet(Protocol):
    """A settled bet, as the round records it (`ledger.domain.round.SettledBet`)."""

    box: int
    spot: str
    player: str | None
    stake: Decimal

    @property
    def house_win(self) -> Decimal: ...


@dataclass
class Purse:
    """Where one table's players' money went over a shift: the tray's side of it, the drop's
    and what walked past both."""

    rack: Decimal = ZERO  # the chips in the tray now
    cash: Decimal = ZERO  # the drop box: cash
    markers: Decimal = ZERO  # the drop box: markers signed
    buy_ins: int = 0
    brought: Decimal = ZERO  # chips players sat down with, bought at another table
    walked: Decimal = ZERO  # chips players took away when they left


@dataclass
class Player:
    usual: Decimal  # the stake this player mostly bets: their level, drawn when they arrive
    stack: Decimal = ZERO
    at_stake: Decimal = ZERO  # chips on the layout this round

    @property
    def free(self) -> Decimal:
        return self.stack - self.at_stake


class Crowd:
    """The players seated at one table: who is there, what each holds, who bets what.

    Everyone seated bets every round (the games ask for as many boxes as there are players);
    the names a round's bets carry are given to the seated players in turn, so a name beyond
    them (a second space, a bet behind a box) is one of them betting again.
    """

    def __init__(self, rng: Random, limits: tuple[Decimal, Decimal], buy_in: int, seats: int,
                 purse: Purse) -> None:
        self.rng, self.purse, self.seats = rng, purse, seats
        self.minimum, self.maximum = limits
        self.typical = buy_in
        self.present: list[Player] = []
        self.betting: dict[str, Player] = {}  # this round's: by the name its bets carry
        self.opened = False

    @staticmethod
    def key(box: int, player: str | None) -> str:
        return player or f"box {box}"

    def next_round(self) -> int:
        """Between rounds: short stacks buy in again or leave, some players call it a day,
        newcomers take empty seats (the first round: a few at once). How many are seated."""
        self.betting = {}
        staying = []
        for player in self.present:
            player.at_stake = ZERO
            short = player.stack < max(self.minimum, player.usual * SHORT)
            if (short and self.rng.random() >= BUYS_AGAIN) or self.rng.random() < LEAVES:
                self.walk(player)
                continue
            if short:
                self.buy_in(player)
            staying.append(player)
        self.present = staying
        if not self.opened:  # the shift starts: a few players at once
            self.opened = True
            for _ in range(self.rng.randint(2, self.seats)):
                self.arrive()
        empty = self.seats - len(self.present)
        arriving = sum(1 for _ in range(empty) if self.rng.random() < ARRIVES)
        for _ in range(max(arriving, 0 if self.present else 1)):
            self.arrive()
        return len(self.present)

    def stake(self, box: int, player: str | None, amount: Decimal, drawn: bool,
              covering: int = 1) -> Decimal:
        """What the bettor puts down: a drawn stake brought within half and twice their usual
        one, no more than the chips they have free (a `covering`-th of them), in whole
        hundreds, at least the minimum; a stake the game names in full, the bettor buying in
        for it if short."""
        bettor = self.bettor(box, player)
        if drawn:
            kept = self.minimum if covering > 1 else ZERO  # and a minimum for a side bet
            while bettor.free < self.minimum * covering + kept:
                self.buy_in(bettor)
            free = ((bettor.free - kept) / covering / HUNDRED).to_integral_value(
                rounding="ROUND_FLOOR")
            amount = max(bettor.usual / STRETCH, min(amount, bettor.usual * STRETCH))
            amount = max(self.minimum, min(_hundreds(amount), free * HUNDRED))
        self.cover(bettor, amount)
        return amount

    def add_stake(self, box: int, player: str | None, amount: Decimal) -> None:
        """More chips on the layout for a bet already placed (a Stud Poker raise)."""
        self.cover(self.bettor(box, player), amount)

    def cover(self, bettor: Player, amount: Decimal) -> None:
        while bettor.free < amount:
            self.buy_in(bettor)
        bettor.at_stake += amount

    def bettor(self, box: int, player: str | None) -> Player:
        key = self.key(box, player)
        if key not in self.betting:
            if not self.present:
                self.arrive()
            self.betting[key] = self.present[len(self.betting) % len(self.present)]
        return self.betting[key]

    def settle(self, results: Iterable[Bet]) -> None:
        """Each bet's chips back to its bettor, less what the house won (a jackpot bet's chip
        goes to the pool; a prize is paid by the cage, not from the tray)."""
        for bet in results:
            bettor = self.bettor(bet.box, bet.player)
            bettor.stack -= bet.stake if bet.spot == "jackpot" else bet.house_win
        for bettor in self.present:
            bettor.at_stake = ZERO

    def arrive(self) -> Player:
        player = Player(stake(self.rng, self.minimum, self.maximum))
        if self.rng.random() < BRINGS_CHIPS:
            player.stack = self.buy_in_amount(player)
            self.purse.brought += player.stack
        else:
            self.buy_in(player)
        self.present.append(player)
        return player

    def buy_in_amount(self, player: Player) -> Decimal:
        """So many of the player's usual stakes, in whole table minimums."""
        share = self.rng.choices(BUY_IN_SHARES, weights=BUY_IN_WEIGHTS)[0]
        minimums = max(1, int(player.usual * self.typical * share / self.minimum))
        return self.minimum * minimums

    def buy_in(self, player: Player) -> None:
        """Cash (or a marker) into the drop box, the same in chips out of the tray."""
        amount = self.buy_in_amount(player)
        if self.rng.random() < MARKER_SHARE:
            self.purse.markers += amount
        else:
            self.purse.cash += amount
        self.purse.rack -= amount
        self.purse.buy_ins += 1
        player.stack += amount

    def walk(self, player: Player) -> None:
        self.purse.walked += player.stack
        player.stack = ZERO

    def leave_all(self) -> None:
        """The shift ends: the players still there walk away with their chips."""
        for player in self.present:
            self.walk(player)
        self.present = []

    def stay_on(self) -> list[Player]:
        """The shift ends and the players still there stay for the next: their chips leave
        this shift's books (as if walked) and are brought into the next's (`seat`)."""
        staying = self.present
        for player in staying:
            self.purse.walked += player.stack
        self.present = []
        return staying

    def seat(self, players: list[Player]) -> None:
        """The players who stayed from the last shift, with their chips, before its first round."""
        for player in players:
            player.at_stake = ZERO
            self.purse.brought += player.stack
        self.present = list(players)
        self.opened = bool(players)


def _hundreds(amount: Decimal) -> Decimal:
    return (amount / HUNDRED).to_integral_value(rounding="ROUND_FLOOR") * HUNDRED
