"""The independent check of a replayed round: pure, over facts and figures read from the store.

The rules engine re-settles the round from its recorded facts under the rule set and house
settings the round recorded; the jackpot is re-computed from the pool as it stood just before
the round's contribution; the shoe's revealed order is hashed again against its commitment.
Every figure is compared with what was recorded, and each difference is named.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from decimal import Decimal
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ledger.core.cards import Card
from ledger.core.formatting import counted
from ledger.domain.round import SettledBet
from ledger.domain.shoe import commitment_of
from ledger.games import registry
from ledger.games.common import ZERO, BetResult, Consequence
from ledger.games.facts import RoundFacts
from ledger.games.jackpot import JackpotPoolSettings, contribute, pay_jackpot
from ledger.games.registry import procedure_for
from ledger.presentation.wording import bet_name

BET_FIELDS = ("stake", "outcome", "returned", "payout", "commission", "capped")


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BetLine(Frozen):
    """One bet's result: what was staked, returned, paid on top and kept as commission."""

    box: int
    spot: str
    player: str | None = None
    stake: Decimal
    outcome: str
    returned: Decimal
    payout: Decimal
    commission: Decimal
    capped: bool = False

    @classmethod
    def of(cls, bet: BetResult | SettledBet) -> BetLine:
        return cls(box=bet.box, spot=str(bet.spot), player=bet.player, stake=bet.stake,
                   outcome=str(bet.outcome), returned=bet.returned, payout=bet.payout,
                   commission=bet.commission, capped=bet.capped)

    @property
    def house_win(self) -> Decimal:
        return self.stake - self.returned - self.payout + self.commission

    @property
    def name(self) -> str:
        return bet_name(self.box, self.spot, self.player)


class Difference(Frozen):
    """One figure the record and the re-computation disagree on."""

    subject: str = Field(description="what: 'box 3 raise', 'jackpot prize 1', 'shoe', 'round'")
    field: str = Field(description="which figure: payout, returned, outcome, pool_after, ...")
    recorded: str | None = Field(description="as recorded (None: nothing was recorded)")
    recomputed: str | None = Field(description="as re-computed (None: nothing is due)")

    def __str__(self) -> str:
        return (f"{self.subject}: {self.field} recorded {self.recorded or 'nothing'}, "
                f"re-computed {self.recomputed or 'nothing'}")


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


# -- bets -------------------------------------------------------------------------------------


def void_carries_jackpot(facts: RoundFacts) -> bool:
    """Whether a void carries jackpot bets: as the voiding irregularity says, else (a
    supervisor's void) as the game does (Stud Poker art. 11)."""
    for fact in reversed(facts.irregularities):
        if fact.consequence is Consequence.ROUND_VOID_JACKPOT_CARRIED:
            return True
        if fact.consequence is Consequence.ROUND_VOID:
            return False
    return registry.game(facts.game).void_carries_jackpot


def resettle(facts: RoundFacts, *, void: bool) -> list[BetLine]:
    """Every bet's result as the rules engine computes it from the recorded facts."""
    procedure = procedure_for(facts.game)
    results = (procedure.settle_void(facts, carry_jackpot=void_carries_jackpot(facts)) if void
               else procedure.settle(facts))
    return [BetLine.of(result) for result in results]


def compare_bets(recorded: list[BetLine], recomputed: list[BetLine]) -> list[Difference]:
    """Bet by bet (box, spot, player), each figure; a bet on one side only is named too."""
    mine: dict[tuple[int, str, str | None], list[BetLine]] = defaultdict(list)
    theirs: dict[tuple[int, str, str | None], list[BetLine]] = defaultdict(list)
    for line in recorded:
        theirs[(line.box, line.spot, line.player)].append(line)
    for line in recomputed:
        mine[(line.box, line.spot, line.player)].append(line)
    differences = []
    for key in sorted(set(mine) | set(theirs), key=lambda k: (k[0], k[1], k[2] or "")):
        ours, recorded_lines = mine.get(key, []), theirs.get(key, [])
        for index in range(max(len(ours), len(recorded_lines))):
            was = recorded_lines[index] if index < len(recorded_lines) else None
            due = ours[index] if index < len(ours) else None
            either = was or due
            assert either is not None  # one of the two lists reaches this index
            name = either.name
            if was is None or due is None:
                differences.append(Difference(
                    subject=name, field="result",
                    recorded=_bet_summary(was), recomputed=_bet_summary(due)))
                continue
            differences += [
                Difference(subject=name, field=field, recorded=_text(getattr(was, field)),
                           recomputed=_text(getattr(due, field)))
                for field in BET_FIELDS if getattr(was, field) != getattr(due, field)
            ]
    return differences


def _bet_summary(line: BetLine | None) -> str | None:
    if line is None:
        return None
    return f"{line.outcome}: stake {line.stake}, returned {line.returned}, paid {line.payout}"


def conservation(lines: list[BetLine], house_win: Decimal | None) -> list[Difference]:
    """Stakes = returned + payouts - commission + house win, over the recorded bets."""
    if house_win is None:
        return []
    stakes = sum((line.stake for line in lines), ZERO)
    back = sum((line.returned + line.payout - line.commission for line in lines), ZERO)
    if stakes == back + house_win:
        return []
    return [Difference(subject="round", field="money (stakes = returned + payouts - commission"
                       " + house win)", recorded=f"{stakes} staked, {back} paid back, house "
                       f"win {house_win}", recomputed=f"house win {stakes - back}")]


def compare_mapping(subject: str, recorded: dict[str, Any],
                    recomputed: dict[str, Any]) -> list[Difference]:
    """Key by key, for the settlement's outcome summary (hands, totals, qualification)."""
    return [Difference(subject=subject, field=key, recorded=_text(recorded.get(key)),
                       recomputed=_text(recomputed.get(key)))
            for key in sorted(set(recorded) | set(recomputed))
            if recorded.get(key) != recomputed.get(key)]


# -- the jackpot ------------------------------------------------------------------------------


class PrizeLine(Frozen):
    box: int
    category: str
    amount: Decimal
    paid_by_pool: Decimal
    paid_by_house: Decimal
    pool_before: Decimal | None = None
    pool_after: Decimal | None = None


class JackpotFigures(Frozen):
    """A round's part in its pool: the contribution, then the prizes, then the pool left."""

    pool_before: Decimal | None = Field(description="the pool just before the contribution")
    stakes: Decimal = ZERO
    to_pool: Decimal = ZERO
    to_reserve: Decimal = ZERO
    prizes: list[PrizeLine] = []
    reset_to_seed: bool = False
    pool_after: Decimal | None = Field(default=None, description="after prizes and any reset")


def recompute_jackpot(facts: RoundFacts, settings: JackpotPoolSettings,
                      pool_before: Decimal) -> JackpotFigures:
    """Art. 10 over the recorded hands, on the pool as it stood before this round."""
    procedure: Any = procedure_for(facts.game)
    stakes = procedure.jackpot_stakes(facts)
    share = contribute(pool_before, stakes, settings) if stakes else None
    amount = pool_before + (share.to_pool if share else ZERO)
    payout = pay_jackpot(amount, procedure.jackpot_claims(facts), settings)
    return JackpotFigures(
        pool_before=pool_before,
        stakes=share.stakes if share else ZERO, to_pool=share.to_pool if share else ZERO,
        to_reserve=share.to_reserve if share else ZERO,
        prizes=[PrizeLine(box=p.box, category=str(p.category), amount=p.amount,
                          paid_by_pool=p.paid_by_pool, paid_by_house=p.paid_by_house,
                          pool_before=p.pool_before, pool_after=p.pool_after)
                for p in payout.prizes],
        reset_to_seed=payout.reset_to_seed,
        pool_after=payout.pool_after if (share or payout.prizes) else pool_before,
    )


def compare_jackpot(recorded: JackpotFigures, recomputed: JackpotFigures) -> list[Difference]:
    differences = [
        Difference(subject="jackpot contribution", field=field,
                   recorded=_text(getattr(recorded, field)),
                   recomputed=_text(getattr(recomputed, field)))
        for field in ("stakes", "to_pool", "to_reserve")
        if getattr(recorded, field) != getattr(recomputed, field)
    ]
    for index in range(max(len(recorded.prizes), len(recomputed.prizes))):
        was = recorded.prizes[index] if index < len(recorded.prizes) else None
        due = recomputed.prizes[index] if index < len(recomputed.prizes) else None
        either = was or due
        subject = f"jackpot prize {index + 1}" + (f" (box {either.box})" if either else "")
        if was is None or due is None:
            differences.append(Difference(subject=subject, field="prize",
                                          recorded=_prize_summary(was),
                                          recomputed=_prize_summary(due)))
            continue
        differences += [
            Difference(subject=subject, field=field, recorded=_text(getattr(was, field)),
                       recomputed=_text(getattr(due, field)))
            for field in PrizeLine.model_fields
            if getattr(was, field) is not None and getattr(was, field) != getattr(due, field)
        ]
    differences += [
        Difference(subject="jackpot pool", field=field, recorded=_text(getattr(recorded, field)),
                   recomputed=_text(getattr(recomputed, field)))
        for field in ("reset_to_seed", "pool_after")
        if getattr(recorded, field) != getattr(recomputed, field)
    ]
    return differences


def _prize_summary(prize: PrizeLine | None) -> str | None:
    if prize is None:
        return None
    return f"box {prize.box} {prize.category} {prize.amount}"


# -- the shoe ---------------------------------------------------------------------------------


class ProofStatus(StrEnum):
    HOLDS = "holds"  # the revealed order hashes to the commitment and every card matches it
    BROKEN = "broken"
    NOT_REVEALED = "not_revealed"  # the shoe is still open: the proof comes when it closes
    NO_COMMITMENT = "no_commitment"  # shuffled by hand or machine without a known order


class ShoeProof(Frozen):
    status: ProofStatus
    commitment: str | None = None
    recomputed_commitment: str | None = None
    hash_holds: bool | None = Field(default=None, description="the revealed order and secret "
                                                              "hash to the commitment")
    recorded_holds: bool | None = Field(default=None, description="what the close recorded")
    cards_checked: int = Field(default=0, description="this round's cards checked against "
                                                       "the revealed order")
    mismatches: list[str] = []

    @property
    def _checked(self) -> str:
        """This round's cards against the order: none drawn is said, not counted as 0."""
        n = self.cards_checked
        if not n:
            return "; this round drew no card from it"
        return (f" and this round's {counted(n, 'card')} {'is' if n == 1 else 'are'} where "
                "it says")

    @property
    def sentence(self) -> str:
        return {
            ProofStatus.HOLDS: "the revealed order hashes to the commitment" + self._checked,
            ProofStatus.BROKEN: "the shoe does not match its commitment: "
                                + "; ".join(self.mismatches),
            ProofStatus.NOT_REVEALED: "the shoe is still open: its order is revealed, and the "
                                      "proof made, when it closes",
            ProofStatus.NO_COMMITMENT: "the shoe was shuffled without a commitment: there is "
                                       "no advance order to prove",
        }[self.status]


def order_problems(decks: int, automatic: bool, order: list[Card],
                   drawn: list[tuple[int, Card]]) -> list[str]:
    """What is wrong with a revealed order: not the shoe's cards, or not the cards drawn.

    `drawn` is every (position, card) the shoe's events record leaving it, burns included.
    With an automatic shuffler-dealer the cards go back each coup, so only the draws count.
    """
    problems = []
    if not automatic:
        if len(order) != 52 * decks:
            problems.append(f"the revealed order holds {len(order)} cards, not the shoe's "
                            f"{52 * decks}")
        counts = Counter(order)
        problems += [f"{card} appears {times} times in the revealed order, not {decks}"
                     for card, times in sorted(counts.items(), key=lambda item: item[0].index)
                     if times != decks]
    problems += [
        f"position {position}: drawn {card}, the order says "
        f"{order[position] if position < len(order) else 'nothing'}"
        for position, card in drawn if position >= len(order) or order[position] != card
    ]
    return problems


def prove_shoe(commitment: str | None, revealed: list[Card] | None, secret: str | None,
               recorded_holds: bool | None, shoe_problems: list[str],
               round_cards: list[tuple[int, Card]]) -> ShoeProof:
    """Hash the revealed order and secret again, and check this round's cards against it.

    `shoe_problems` are `order_problems` over every card the shoe's events record drawn,
    re-run now (not the close's recorded verdict).
    """
    if commitment is None:
        return ShoeProof(status=ProofStatus.NO_COMMITMENT)
    if revealed is None or secret is None:
        return ShoeProof(status=ProofStatus.NOT_REVEALED, commitment=commitment)
    recomputed = commitment_of(revealed, secret)
    mismatches = [] if recomputed == commitment else [
        (f"the revealed order and secret hash to {recomputed[:16]}..., the shuffle committed to "
        f"{commitment[:16]}...")]
    mismatches += shoe_problems
    mismatches += [
        f"this round's card {card} came from position {position}, where the order has "
        f"{revealed[position] if position < len(revealed) else 'nothing'}"
        for position, card in round_cards
        if position >= len(revealed) or revealed[position] != card
    ]
    status = ProofStatus.BROKEN if mismatches else ProofStatus.HOLDS
    return ShoeProof(status=status, commitment=commitment, recomputed_commitment=recomputed,
                     hash_holds=recomputed == commitment, recorded_holds=recorded_holds,
                     cards_checked=len(round_cards), mismatches=mismatches)


def proof_differences(proof: ShoeProof) -> list[Difference]:
    differences = [Difference(subject="shoe", field="card order", recorded=problem,
                              recomputed="as committed") for problem in proof.mismatches]
    if proof.recorded_holds is not None and proof.recorded_holds != proof.hash_holds:
        differences.append(Difference(subject="shoe", field="commitment_holds",
                                      recorded=str(proof.recorded_holds),
                                      recomputed=str(proof.hash_holds)))
    return differences
