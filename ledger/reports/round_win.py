"""A round's win: one definition, the one the shift report's ledger win adds up.

The shift report (`projections.shifts.report`) adds to the shift a round opened in, for every
bet settled on the layout (every spot but the jackpot), stake - returned - paid + commission,
and takes away what later adjustments paid the players: that is its ledger win. A round's
table win is those same figures of that one round, so a table's rounds in a shift add up to
the shift's ledger win to the avo. A round opened outside every shift (or a demonstration
coup) has a table win of its own but is in no shift's figures.

Jackpot bets are not table win. Their stakes go to the pool (and its seed reserve), and a
prize is paid from the pool (the house making up what the pool lacks): both are kept apart
and named. A voided round returns every bet: it has no win, its table win is MOP 0.00, and
its jackpot bets are carried to the table's next round, where they count as that round's
jackpot stakes.

`round_win` is what replay, recall, `round show` and the floor's table page give for a round;
`win_sentence` says it in the words the pit uses.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from ledger.core.formatting import money
from ledger.domain.round import Round
from ledger.games.words import in_sentence
from ledger.presentation.wording import bet_name

ZERO = Decimal("0.00")
JACKPOT = "jackpot"  # the spot whose stake goes to the pool, not the rack


class SettledFigures(Protocol):
    """A bet's result as recorded: a `SettledBet`, a `BetResult` or a replay's `BetLine`."""

    @property
    def box(self) -> int: ...
    @property
    def spot(self) -> Any: ...
    @property
    def stake(self) -> Decimal: ...
    @property
    def outcome(self) -> Any: ...
    @property
    def returned(self) -> Decimal: ...
    @property
    def payout(self) -> Decimal: ...
    @property
    def commission(self) -> Decimal: ...


class Prize(BaseModel):
    """A jackpot prize a box won: its hand, the prize, and who paid it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    box: int
    category: str
    amount: Decimal
    paid_by_house: Decimal | None = Field(default=None, description="what the house made up "
                                          "where the pool fell short (None: not known here)")

    @classmethod
    def of(cls, line: Any) -> Prize:
        """A prize as a replay's or a recall's line has it (with who paid it)."""
        return cls(box=line.box, category=line.category, amount=line.amount,
                   paid_by_house=line.paid_by_house)


class RoundWin(BaseModel):
    """A round's win, with the jackpot's money beside it, never in it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    status: str = Field(description="betting, dealing, revealed, settled or void")
    table_win: Decimal = Field(description="the layout's bets as settled, less later "
                               "adjustments: what the shift report's ledger win adds up")
    as_settled: Decimal = Field(description="the layout's bets: stakes - returned - paid + "
                                "commission, jackpot bets left out")
    adjustments: Decimal = Field(description="paid to players by later adjustments")
    jackpot_stakes: Decimal = Field(description="jackpot bets settled: to the pool")
    jackpot_carried: Decimal = Field(description="jackpot bets a void carried to the next round")
    jackpot_prizes: Decimal = Field(description="prizes paid, from the pool (the house making "
                                    "up what it lacks)")
    prizes: list[Prize] = []

    @property
    def finished(self) -> bool:
        """Settled or voided: until then a round has no win."""
        return self.status in ("settled", "void")

    @property
    def said(self) -> str:
        """`win_sentence`: the win in the pit's words."""
        return win_sentence(self)

    @property
    def jackpot_said(self) -> str:
        """The jackpot's money alone, for a column beside the table win: `stakes MOP 400.00 to
        the pool; box 1 won flush, prize MOP 1,000.00 (from the pool)`; empty for none."""
        said = [f"stakes {money(self.jackpot_stakes)} to the pool"] if self.jackpot_stakes else []
        said += ([f"bets {money(self.jackpot_carried)} carried to the next round"]
                 if self.jackpot_carried else [])
        return "; ".join(said + [f"box {p.box} won {prize_words(p)}" for p in self.prizes])


def on_layout(spot: Any) -> bool:
    """Whether a bet's stake is the table's (every spot but the jackpot)."""
    return str(spot) != JACKPOT


def bet_win(bet: SettledFigures) -> Decimal:
    """What one settled bet leaves the house: stake - returned - paid + commission."""
    return bet.stake - bet.returned - bet.payout + bet.commission


def _outcome(bet: SettledFigures) -> str:
    return str(getattr(bet.outcome, "value", bet.outcome))


def win_of(status: str, results: Iterable[SettledFigures], adjustments: Iterable[Decimal] = (),
           prizes: Iterable[Prize] = ()) -> RoundWin:
    """The round's win from its settled bets, its adjustments and its prizes."""
    results, prizes = list(results), list(prizes)
    jackpot = [bet for bet in results if not on_layout(bet.spot)]
    as_settled = sum((bet_win(bet) for bet in results if on_layout(bet.spot)), ZERO)
    adjusted = sum(adjustments, ZERO)
    return RoundWin(
        status=status, table_win=as_settled - adjusted, as_settled=as_settled,
        adjustments=adjusted,
        jackpot_stakes=sum((bet.stake for bet in jackpot if _outcome(bet) != "carried"), ZERO),
        jackpot_carried=sum((bet.stake for bet in jackpot if _outcome(bet) == "carried"), ZERO),
        jackpot_prizes=sum((prize.amount for prize in prizes), ZERO), prizes=prizes)


def round_win(round_: Any, prizes: Iterable[Prize] | None = None) -> RoundWin:
    """A `ledger.domain.round.Round`'s win; its prizes as the round recorded them unless the
    caller has them with who paid them."""
    if prizes is None:  # the round's log keeps ("jackpot", (box, category, prize))
        prizes = [Prize(box=fact[0], category=fact[1], amount=fact[2])
                  for kind, fact in round_.log if kind == "jackpot"]
    return win_of(str(round_.phase), round_.results,
                  (adjustment["amount"] for adjustment in round_.adjustments), prizes)


def hand_name(category: str) -> str:
    """`straight_flush` as a pit says it inside a sentence: straight flush (`in_sentence`)."""
    from ledger.presentation.wording import term

    return in_sentence(term(category))


def prize_words(prize: Prize) -> str:
    """`flush, prize MOP 1,000.00 (from the pool)`."""
    return f"{hand_name(prize.category)}, prize {money(prize.amount)} ({_paid_by(prize)})"


def jackpot_bet_words(box: int, outcome: str, prizes: Iterable[Prize]) -> str:
    """What became of a box's jackpot bet: it won a prize (which hand, what prize), went to the
    pool without one, or was carried to the next round by a void."""
    if outcome == "carried":
        return "carried to the next round"
    won = [prize for prize in prizes if prize.box == box]
    if won:
        return "won the jackpot: " + "; ".join(prize_words(prize) for prize in won)
    return "to the pool, no prize"


def paid(spot: str, box: int, payout: Decimal, prizes: Iterable[Prize]) -> Decimal:
    """What a bet paid its player, as a results table shows it: its payout; a jackpot bet's,
    the prizes its box won, paid by the pool apart from the bet (whose own payout is nil)."""
    won = [prize.amount for prize in prizes if prize.box == box and not on_layout(spot)]
    return sum(won, payout)


def step_words(event: str, body: dict[str, Any], win: RoundWin) -> str | None:
    """A settlement step in words once the round's win is known (None: the step's own words
    stand): the settlement says the table win, the jackpot apart, not the house win that
    counts the jackpot bets in; a jackpot bet says the prize its box won, or that its stake
    went to the pool, never "lost, paid MOP 0.00" beside a prize."""
    if event == Round.Settled.event_type:
        as_settled = win.model_copy(update={"table_win": win.as_settled, "adjustments": ZERO})
        return f"round settled: {win_sentence(as_settled)}"
    bet = body.get("bet") or {}
    if event != Round.BetSettled.event_type or on_layout(str(bet.get("spot"))):
        return None
    return (f"{bet_name(bet['box'], JACKPOT, bet.get('player'))}: stake {money(bet['stake'])}, "
            f"{jackpot_bet_words(int(bet['box']), str(bet['outcome']), win.prizes)}")


def outcome_words(spot: str, box: int, outcome: str, prizes: Iterable[Prize]) -> str:
    """A bet's outcome in a results table: a jackpot bet's as `jackpot_bet_words`, any other
    as recorded."""
    return outcome if on_layout(spot) else jackpot_bet_words(box, outcome, prizes)


def win_sentence(win: RoundWin) -> str:
    """The round's win as the pit says it: `table win MOP 1,100.00; jackpot stakes MOP 400.00
    (to the pool); jackpot prize paid MOP 1,000.00 to box 1, flush (from the pool)`."""
    if win.status == "void":
        said = "void: every bet returned, no win; table win " + (
            money(ZERO) if not win.adjustments else
            f"{money(win.table_win)} ({money(win.adjustments)} paid by later adjustments)")
        if win.jackpot_carried:
            said += f"; jackpot bets {money(win.jackpot_carried)} carried to the next round"
        return said
    if not win.finished:
        return f"in play ({win.status}): no win until it is settled"
    said = f"table win {money(win.table_win)}"
    if win.adjustments:
        said += (f" ({money(win.as_settled)} as settled, less {money(win.adjustments)} "
                 "paid by later adjustments)")
    if win.jackpot_stakes:
        said += f"; jackpot stakes {money(win.jackpot_stakes)} (to the pool)"
    for prize in win.prizes:
        said += (f"; jackpot prize paid {money(prize.amount)} to box {prize.box}, "
                 f"{hand_name(prize.category)} ({_paid_by(prize)})")
    return said


def _paid_by(prize: Prize) -> str:
    if prize.paid_by_house:
        return (f"{money(prize.amount - prize.paid_by_house)} from the pool, "
                f"{money(prize.paid_by_house)} made up by the house")
    return "from the pool"
