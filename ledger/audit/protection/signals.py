"""The protection signals over a period's coups, each test with its chance under fair play,
and Holm's correction over every test of the period.

(a) result: a player's (a box's, a dealer's, a table's) result against its distribution under
fair play, the mean and variance of its bets from their exact odds; the chance of a result at
least as good for the players (normal tail). A player's or a box's result is said as the
player's, a dealer's or a table's as the house's, as every other report says it.
(b) informed betting: whether a player's (a box's) stake follows the value of the coming coup.
With a closed shoe's order known, the coming cards are the ones the coup was dealt, so a coup's
value to the bettor is what its bets won, standardised by their own mean and deviation. The
stakes placed before the cards are shuffled among the bettor's coups: the chance that the rank
correlation of stake and value is at least the one seen (permutation test).
(c) irregularities: a dealer's rounds with an exposed card, a misdeal or a void, against the
other dealers of the same game (conditional binomial test of two rates).
(d) voids that returned bets the cards had already decided: findings, not chances.
(e) jackpot hits: a box's (a player's) prizes against the chance of a prize per bet (binomial).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal

from pydantic import BaseModel

from ledger.audit.protection.chance import (
    binomial_upper,
    holm,
    normal_upper,
    ranks,
    rate_test,
    stratified_test,
)
from ledger.audit.protection.coups import JACKPOT, Coup, Wager, round_moments
from ledger.core.formatting import counted, money
from ledger.games.registry import game
from ledger.games.settings import HouseSettings

ALPHA = 0.01  # money-safe: a probability; the chance of any false flag in a period's report
MIN_BETS = 20  # a result is tested over at least this many bets
MIN_COUPS = 20  # stakes against values: over at least this many coups
SIGNALS = {
    "result": "a result in the players' favour beyond chance",
    "informed": "stakes follow the coming cards",
    "irregularity": "irregularities more often than the floor",
    "jackpot": "jackpot prizes more often than their odds",
}
IRREGULARITIES: dict[str, Callable[[Coup], bool]] = {
    "exposed card": lambda c: c.exposed, "misdeal": lambda c: c.misdealt,
    "void": lambda c: c.voided}
ANY = "any"
HOUSE_SIDE = ("dealer", "table")  # subjects whose result is the house's

Moments = Callable[[str, HouseSettings | None, Sequence[Wager]], tuple[Decimal, Decimal]]
"""A round's bets to the player's mean result and its variance (`round_moments`)."""


class Signal(BaseModel):
    """One test of one signal on one subject over the period."""

    signal: str  # result, informed, irregularity, jackpot
    subject: str  # "player P-7", "box 3 at BAC-01", "dealer D-SP-01-2", "table BAC-01"
    seen: str  # what was seen, in words
    count: int  # the bets, coups or rounds the test read
    probability: float  # money-safe: the chance of at least this much under fair play
    adjusted: float = 1.0  # money-safe: Holm's adjusted chance over every test of the period
    flagged: bool = False


class Finding(BaseModel):
    """A void that returned bets the cards dealt before it had already decided."""

    round: str
    dealer: str
    voided_by: str
    reason: str
    lost: int  # bets the cards had lost, returned to the players
    lost_stakes: Decimal
    won: int  # bets the cards had won, returned without their winnings
    won_stakes: Decimal


def _subjects(coup: Coup, box: int, player: str | None) -> list[str]:
    names = [f"box {box} at {coup.table}"]
    if player:
        names.insert(0, f"player {player}")
    return names


def results(coups: Iterable[Coup], moments: Moments = round_moments) -> list[Signal]:
    """(a): each subject's result against its mean and variance under fair play."""
    won: dict[str, Decimal] = defaultdict(Decimal)
    mean: dict[str, Decimal] = defaultdict(Decimal)
    variance: dict[str, Decimal] = defaultdict(Decimal)
    bets: dict[str, int] = defaultdict(int)
    for coup in coups:
        grouped: dict[str, list[Wager]] = defaultdict(list)
        for wager in coup.wagers:
            if wager.spot == JACKPOT:
                continue
            for name in (*_subjects(coup, wager.box, wager.player), f"dealer {coup.dealer}",
                         f"table {coup.table}"):
                grouped[name].append(wager)
        for name, wagers in grouped.items():
            m, v = moments(coup.game, coup.settings, wagers)
            won[name] += sum((w.result for w in wagers), Decimal(0))
            mean[name], variance[name] = mean[name] + m, variance[name] + v
            bets[name] += sum(1 for w in wagers if w.outcome != "returned")
    tests = []
    for name in sorted(won):
        if bets[name] < MIN_BETS or variance[name] <= 0:
            continue
        deviation = math.sqrt(float(variance[name]))  # money-safe: a scale for a z-score
        z = float(won[name] - mean[name]) / deviation  # money-safe: a z-score
        tests.append(Signal(
            signal="result", subject=name, count=bets[name], probability=normal_upper(z),
            seen=result_words(name, won[name], mean[name], bets[name],
                              Decimal(repr(deviation)), z)))
    return tests


def result_words(subject: str, won: Decimal, mean: Decimal, bets: int, deviation: Decimal,
                 z: float) -> str:  # money-safe: a z-score
    """A result test's figures, said from the side of whose result it is: a player's or a
    box's as the players', a dealer's or a table's as the house's (`won`, `mean` and `z` are
    the players'), the expected result in the same sense as the result beside it.

    >>> print(result_words("table F8-03", Decimal(8800), Decimal(-4300), 126, Decimal(3000),
    ...                    4.37))  # doctest: +NORMALIZE_WHITESPACE
    the house lost MOP 8,800.00 at table F8-03 on 126 bets; expected to win MOP 4,300.00
    ± MOP 3,000.00 (4.37 deviations in the players' favour)
    >>> print(result_words("player P-7", Decimal(-200), Decimal(-50), 21, Decimal(400),
    ...                    -0.38))  # doctest: +NORMALIZE_WHITESPACE
    player P-7 lost MOP 200.00 on 21 bets; expected to lose MOP 50.00 ± MOP 400.00
    (0.38 deviations in the house's favour)
    """
    kind, name = subject.split(" ", 1)
    favour = "the players'" if z > 0 else "the house's"
    if kind in HOUSE_SIDE:
        on = counted(bets, "bet")
        where = f"at table {name} on {on}" if kind == "table" else f"on {on} dealt by dealer {name}"
        said = f"the house {_won(-won)} {where}"
        expected = -mean
    else:
        whose = f"the players of box {name}" if kind == "box" else subject
        said, expected = f"{whose} {_won(won)} on {counted(bets, 'bet')}", mean
        favour = "the player's" if kind == "player" and z > 0 else favour
    return (f"{said}; expected to {_won(expected, future=True)} ± {money(deviation)} "
            f"({abs(z):.2f} deviations in {favour} favour)")


def _won(amount: Decimal, *, future: bool = False) -> str:
    """`won MOP 8,800.00`, `lost MOP 200.00` (`win`, `lose` for what was expected)."""
    if not amount:
        return "break even" if future else "broke even"
    verb = ("win", "lose") if future else ("won", "lost")
    return f"{verb[amount < 0]} {money(abs(amount))}"


def informed(coups: Iterable[Coup], moments: Moments = round_moments) -> list[Signal]:
    """(b): each bettor's stakes before the cards against the value of the coups they bet on,
    shuffled among the coups where they made the same bets in the same shares (whose values are
    alike under fair play), on ranks within each such stratum."""
    strata: dict[str, dict[tuple[object, ...], list[tuple[float, float]]]] = defaultdict(
        lambda: defaultdict(list))
    for coup in coups:
        if coup.voided:
            continue
        placed: dict[str, list[Wager]] = defaultdict(list)
        for bet in coup.placed:
            for name in _subjects(coup, bet.box, bet.player):
                placed[name].append(bet)
        settled: dict[str, list[Wager]] = defaultdict(list)
        for wager in coup.wagers:
            if wager.spot != JACKPOT:
                for name in _subjects(coup, wager.box, wager.player):
                    settled[name].append(wager)
        for name, bets in placed.items():
            m, v = moments(coup.game, coup.settings, settled[name])
            if v <= 0:
                continue
            won = sum((w.result for w in settled[name]), Decimal(0))
            # to a thousandth of a deviation: the joint figures' rounding must not break ties
            # between equal values (a won bet of 300 and of 900) in the stake's favour
            value = round(float(won - m) / math.sqrt(float(v)), 3)  # money-safe: a standardised value
            stake = sum((bet.stake for bet in bets), Decimal(0))
            strata[name][_mix(coup.game, bets, stake)].append((float(stake), value))  # money-safe: ranked
    tests = []
    for name in sorted(strata):
        seen = [pair for stratum in strata[name].values() for pair in stratum]
        if len(seen) < MIN_COUPS:
            continue
        ranked = [(ranks([s for s, _ in stratum]), ranks([v for _, v in stratum]))
                  for stratum in strata[name].values()]
        top = sorted(seen, reverse=True)[:max(1, len(seen) // 10)]
        tests.append(Signal(
            signal="informed", subject=name, count=len(seen), probability=stratified_test(ranked),
            seen=f"{len(seen):,} coups; on its largest tenth of stakes the coups' value averaged "
                 f"{sum(v for _, v in top) / len(top):+.2f} deviations"))
    return tests


def _mix(game_code: str, bets: Sequence[Wager], stake: Decimal) -> tuple[object, ...]:
    """What makes two coups' standardised values alike under fair play: the same game and the
    same bets, on the same boxes among the bettor's, in the same shares of the stake."""
    boxes = sorted({bet.box for bet in bets})
    return (game_code, *sorted((boxes.index(bet.box), bet.spot, round(bet.stake / stake, 2))
                               for bet in bets))


def irregularities(coups: Sequence[Coup]) -> list[Signal]:
    """(c): each dealer's rounds with an irregularity (an exposed card, a misdeal, a void)
    against the other dealers' rounds of the same game: one test a dealer and game."""
    rounds: dict[tuple[str, str], int] = defaultdict(int)
    counts: dict[tuple[str, str, str], int] = defaultdict(int)
    for coup in coups:
        rounds[coup.game, coup.dealer] += 1
        for kind, happened in IRREGULARITIES.items():
            counts[coup.game, coup.dealer, kind] += happened(coup)
        counts[coup.game, coup.dealer, ANY] += any(h(coup) for h in IRREGULARITIES.values())
    game_rounds: dict[str, int] = defaultdict(int)
    game_irregular: dict[str, int] = defaultdict(int)
    for (game_code, dealer), dealt in rounds.items():
        game_rounds[game_code] += dealt
        game_irregular[game_code] += counts[game_code, dealer, ANY]
    tests = []
    for (game_code, dealer), dealt in sorted(rounds.items()):
        mine = counts[game_code, dealer, ANY]
        others = game_irregular[game_code] - mine
        others_dealt = game_rounds[game_code] - dealt
        if mine + others == 0 or others_dealt == 0:
            continue
        kinds = ", ".join(counted(counts[game_code, dealer, kind], kind)
                          for kind in IRREGULARITIES)
        tests.append(Signal(
            signal="irregularity", subject=f"dealer {dealer}", count=dealt,
            probability=rate_test(mine, dealt, others, others_dealt),
            seen=f"{mine:,} of {counted(dealt, 'round')} of {game(game_code).name} irregular "
                 f"({kinds}); the other dealers {others:,} of {others_dealt:,} "
                 f"({others / others_dealt * dealt:.1f} expected)"))
    return tests


def jackpots(coups: Iterable[Coup]) -> list[Signal]:
    """(e): each box's and player's jackpot prizes against the chance of one per bet."""
    bets: dict[str, int] = defaultdict(int)
    hits: dict[str, int] = defaultdict(int)
    chance: dict[str, float] = {}  # money-safe: a probability per bet
    for coup in coups:
        per_bet = game(coup.game).jackpot_hit_chance()
        if per_bet is None or coup.voided:
            continue
        for wager in coup.wagers:
            if wager.spot != JACKPOT:
                continue
            for name in _subjects(coup, wager.box, wager.player):
                bets[name] += 1
                hits[name] += coup.jackpot_hits.count(wager.box)
                chance[name] = float(per_bet)  # money-safe: a probability
    return [Signal(signal="jackpot", subject=name, count=bets[name],
                 probability=binomial_upper(hits[name], bets[name], chance[name]),
                 seen=f"{counted(hits[name], 'prize')} on {counted(bets[name], 'jackpot bet')}; "
                      f"{bets[name] * chance[name]:.2f} expected")
            for name in sorted(bets)]


def findings(coups: Iterable[Coup]) -> list[Finding]:
    """(d): the voids that returned bets the cards dealt before them had decided."""
    found = []
    for coup in coups:
        if not coup.voided or not coup.decided:
            continue
        lost = [r for r in coup.decided if r.outcome == "lost"]
        won = [r for r in coup.decided if r.outcome == "won"]
        found.append(Finding(
            round=coup.label, dealer=coup.dealer, voided_by=coup.voided_by,
            reason=coup.void_reason, lost=len(lost), won=len(won),
            lost_stakes=sum((r.stake for r in lost), Decimal("0.00")),
            won_stakes=sum((r.stake for r in won), Decimal("0.00"))))
    return found


def every_test(coups: Sequence[Coup], moments: Moments = round_moments,
               alpha: float = ALPHA) -> list[Signal]:  # money-safe: a probability
    """Every signal's tests over the coups, adjusted together by Holm's method and flagged
    where the adjusted chance is at most `alpha`."""
    tests = (results(coups, moments) + informed(coups, moments) + irregularities(coups)
             + jackpots(coups))
    adjusted = holm([t.probability for t in tests])
    return [t.model_copy(update={"adjusted": a, "flagged": a <= alpha})
            for t, a in zip(tests, adjusted, strict=True)]
