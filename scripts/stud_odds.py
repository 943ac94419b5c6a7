"""Stud Poker's ante and raise, enumerated exactly: every box hand, dealer hand and up card.

A box holds 5 of the 52 cards, the dealer 5 of the other 47, one of them face up: 2,598,960 x
47 x 163,185 equally likely deals (box hand, up card, the dealer's 4 hidden cards). For each
(box hand P, up card u) the dealer hands are counted, not listed: by inclusion-exclusion over
the subsets T of P, the hands that hold u and miss P and are below a strength x number
sum over T of (-1)^|T| #{hands holding T and u, below x}; those counts are binary searches in
the hands of each 1..4-card set sorted by strength. Without the up card the same sum over T
(the dealer's hand anywhere in the 47 cards) counts the deals of a hand that always raises.

Two orders, each rank-dense: the project's art. 8 order (`evaluate`, suit tie-breaks, no two
hands of one deck equal) and the rank-only order of the industry's Caribbean Stud, where equal
ranks push. The rank-only counts do not change when the four suits are permuted, so they are
computed for one hand of each suit pattern and weighted.

The decisions: a hand below A-K high can only win when the dealer does not qualify, so raising
is worth 4 nq / N - 3 and folding -1 (nq of N dealer hands not qualifying); a pair or better is
checked to beat folding for every up card even with a 1:1 payout and every rank tie lost;
A-K high hands (paid 1:1 whatever the paytable) are decided per up card from exact counts.
What is stored is paytable-free: per category, how many deals the dealer does not qualify,
the box wins, loses or pushes; `odds.py` applies the royal flush's odds.

Run: scripts/stud-odds [--write]  (prints timings; --write regenerates odds_data.py)
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from itertools import combinations, permutations
from math import comb
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ledger.core.cards import DECK, Rank
from ledger.games.stud_poker.hands import HandCategory, evaluate

Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]
HANDS = comb(52, 5)
HIDDEN = comb(46, 4)  # the dealer's hidden cards once the box's five and the up card are out
DEALER = comb(47, 5)
SHIFT = 22  # strengths are below 2**22: a (set, strength) pair is one int64
CHUNK = 400_000
BINOM = np.array([[comb(n, k) for k in range(6)] for n in range(53)], dtype=np.int64)
HIGH, PAIR = 0, 1


def colex(sets: Ints) -> Ints:
    """The index of each row's card set (ascending rows) among the sets of its size."""
    index = np.zeros(len(sets), dtype=np.int64)
    for i in range(sets.shape[1]):
        index += BINOM[sets[:, i], i + 1]
    return index


@dataclass(frozen=True)
class Deck:
    """All hands in `combinations` order: cards, art. 8 key, category, qualifying."""

    cards: Ints  # (HANDS, 5), ascending card indices
    key: Ints  # art. 8 key (`HandValue.key`): suit tie-breaks in its two lowest bits
    category: Ints  # HandCategory.strength
    qualifies: Flags  # art. 9, 1): A-K high or better
    position: Ints  # a 5-card set's colex index -> its row


def deck() -> Deck:
    """Every hand valued by the project's own evaluator; qualification checked to be an upper
    set of the order (so a dealer below the lowest qualifying key does not qualify)."""
    values = [evaluate(hand) for hand in combinations(DECK, 5)]
    key = np.array([value.key for value in values], dtype=np.int64)
    category = np.array([value.category.strength for value in values], dtype=np.int64)
    qualifies = np.array([value.category is not HandCategory.HIGH_CARD
                          or value.ranks[:2] == (Rank.ACE, Rank.KING) for value in values])
    if key[qualifies].min() <= key[~qualifies].max():
        raise AssertionError("qualification is not an upper set of the art. 8 order")
    cards = np.array(list(combinations(range(52), 5)), dtype=np.int64)
    position = np.empty(HANDS, dtype=np.int64)
    position[colex(cards)] = np.arange(HANDS)
    return Deck(cards, key, category, qualifies, position)


def dense(key: Ints) -> Ints:
    return np.unique(key, return_inverse=True)[1].astype(np.int64).reshape(-1)


@dataclass(frozen=True)
class Order:
    """One order's strengths and, per set size k = 1..4, the (set, strength) pairs sorted."""

    strength: Ints
    everything: Ints  # all strengths sorted (k = 0)
    pairs: dict[int, Ints]


def order(strength: Ints, cards: Ints) -> Order:
    pairs = {}
    for k in range(1, 5):
        keys = [colex(cards[:, list(t)]) << SHIFT | strength for t in combinations(range(5), k)]
        pairs[k] = np.sort(np.concatenate(keys))
    return Order(strength, np.sort(strength), pairs)


def nonqualifying(cards: Ints, qualifies: Flags) -> dict[int, Ints]:
    """Per set size k = 0..4, how many non-qualifying hands hold each k-card set."""
    low = cards[~qualifies]
    counts = {0: np.array([len(low)], dtype=np.int64)}
    for k in range(1, 5):
        sets = np.concatenate([colex(low[:, list(t)]) for t in combinations(range(5), k)])
        counts[k] = np.bincount(sets, minlength=comb(52, k)).astype(np.int64)
    return counts


def below(o: Order, sets: Ints, x: Ints, *, equal: bool) -> Ints:
    """How many hands hold each row's card set (1..4 cards) with strength below x (or equal)."""
    k = sets.shape[1]
    index = colex(sets)
    query = index << SHIFT | (x + 1 if equal else x)
    sort = np.argsort(query, kind="stable")
    found = np.empty_like(query)
    found[sort] = np.searchsorted(o.pairs[k], query[sort])
    return found - index * comb(52 - k, 5 - k)


@dataclass(frozen=True)
class Counts:
    """Per (box hand, up card) or per box hand: dealer hands not qualifying, below, at most."""

    nq: Ints
    less: Ints
    most: Ints


def with_upcard(d: Deck, low: dict[int, Ints], o: Order | None, hands: Ints, up: Ints) -> Counts:
    """Dealer hands holding `up` and none of `hands` (rows): inclusion-exclusion over T."""
    x = o.strength[hands] if o is not None else None
    box = d.cards[hands]
    nq, less, most = (np.zeros(len(hands), dtype=np.int64) for _ in range(3))
    for t in range(5):
        for subset in combinations(range(5), t):
            sets = np.sort(np.column_stack([box[:, list(subset)], up]), axis=1)
            sign = -1 if t % 2 else 1
            if t == 4:
                row = d.position[colex(sets)]
                nq += sign * ~d.qualifies[row]
                if o is not None and x is not None:
                    less += sign * (o.strength[row] < x)
                    most += sign * (o.strength[row] <= x)
                continue
            nq += sign * low[t + 1][colex(sets)]
            if o is not None and x is not None:
                less += sign * below(o, sets, x, equal=False)
                most += sign * below(o, sets, x, equal=True)
    return Counts(nq, less, most)


def without_upcard(d: Deck, low: dict[int, Ints], o: Order) -> Counts:
    """Dealer hands anywhere in the other 47 cards, for every box hand."""
    x = o.strength
    nq = low[0][0] - (~d.qualifies).astype(np.int64)  # T = everything, T = P
    less = np.searchsorted(o.everything, x, side="left").astype(np.int64)
    most = np.searchsorted(o.everything, x, side="right").astype(np.int64) - 1
    for t in range(1, 5):
        sign = -1 if t % 2 else 1
        for subset in combinations(range(5), t):
            sets = d.cards[:, list(subset)]
            nq += sign * low[t][colex(sets)]
            for chunk in range(0, HANDS, 4 * CHUNK):
                part = slice(chunk, chunk + 4 * CHUNK)
                less[part] += sign * below(o, sets[part], x[part], equal=False)
                most[part] += sign * below(o, sets[part], x[part], equal=True)
    return Counts(nq, less, most)


def suit_classes(cards: Ints) -> tuple[Ints, Ints]:
    """One hand of each suit pattern (its rows) and how many hands share its pattern."""
    canonical = np.full(HANDS, np.iinfo(np.int64).max)
    for perm in permutations(range(4)):
        suits = np.array(perm, dtype=np.int64)
        moved = np.sort(cards // 4 * 4 + suits[cards % 4], axis=1)
        canonical = np.minimum(canonical, colex(moved))
    mine = colex(cards)
    rows = np.flatnonzero(canonical == mine)
    return rows, np.bincount(canonical, minlength=HANDS)[mine[rows]]


def upcards(d: Deck, rows: Ints) -> tuple[Ints, Ints]:
    """Every (row, up card) with the up card not in the row's hand."""
    hand = np.repeat(rows, 52)
    up = np.tile(np.arange(52, dtype=np.int64), len(rows))
    free = ~(d.cards[hand] == up[:, None]).any(axis=1)
    return hand[free], up[free]


@dataclass
class Tally:
    """Deals (box hand, up card, hidden cards) by what the box's play makes of them."""

    folded: int = 0
    nq: tuple[int, ...] = (0,) * 10  # per category strength: raised, dealer not qualifying
    won: tuple[int, ...] = (0,) * 10
    lost: tuple[int, ...] = (0,) * 10
    pushed: tuple[int, ...] = (0,) * 10
    ak_raised: int = 0  # A-K high (hand, up card) cases raised, of `ak_cases`
    ak_cases: int = 0

    def add(self, category: Ints, weight: Ints, c: Counts, raised: Flags, total: int) -> None:
        """`weight` boxes of each row's kind, `total` dealer hands each, raised or folded."""
        self.folded += int((weight * ~raised).sum()) * total
        for name, counts in (("nq", c.nq), ("won", c.less - c.nq), ("lost", total - c.most),
                             ("pushed", c.most - c.less)):
            sums = [int((weight * raised * counts)[category == s].sum()) for s in range(10)]
            old = getattr(self, name)
            setattr(self, name, tuple(a + b for a, b in zip(old, sums, strict=True)))


def per_upcard(d: Deck, low: dict[int, Ints], o: Order | None, rows: Ints) -> tuple[Ints, Counts]:
    """Counts for every (row, up card), the rows repeated 47 times in order."""
    hand, up = upcards(d, rows)
    parts = [with_upcard(d, low, o, hand[i:i + CHUNK], up[i:i + CHUNK])
             for i in range(0, len(hand), CHUNK)]
    joined = (np.concatenate([getattr(part, name) for part in parts])
              for name in ("nq", "less", "most"))
    return hand, Counts(*joined)


def ak_raises(c: Counts) -> Flags:
    """A-K high wins 1:1 on the raise: (nq + 3 won - 3 lost) / N against folding's -1."""
    return c.nq + 3 * (c.less - c.nq) - 3 * (HIDDEN - c.most) > -HIDDEN


def low_raises(nq: Ints) -> Flags:
    """Below A-K high the box wins only when the dealer does not qualify: 4 nq / N - 3."""
    return 4 * nq - 3 * HIDDEN > -HIDDEN


def check_pairs_raise(d: Deck, hand: Ints, c: Counts) -> None:
    """A pair or better beats folding for every up card, paid only 1:1 and losing every rank
    tie: then it does under either order and any paytable of the regulation."""
    worst = c.nq + 3 * (c.less - c.nq) - 3 * (HIDDEN - c.less)
    bad = np.flatnonzero((worst <= -HIDDEN) & (d.category[hand] >= PAIR))
    if len(bad):
        raise AssertionError(f"{len(bad)} (pair or better, up card) cases might fold")


@dataclass(frozen=True)
class Classes:
    """Hands by suit pattern, split at A-K high: `low` never beat a qualifying dealer."""

    low: Ints
    low_weight: Ints
    high: Ints
    high_weight: Ints


def classes(d: Deck) -> Classes:
    rows, weight = suit_classes(d.cards)
    q = d.qualifies[rows]
    return Classes(rows[~q], weight[~q], rows[q], weight[q])


def below_ak(d: Deck, low: dict[int, Ints], k: Classes, tallies: list[Tally]) -> None:
    """Hands below A-K high, the same under both orders: only the dealer's qualifying counts."""
    hand, c = per_upcard(d, low, None, k.low)
    plain = Counts(c.nq, c.nq, c.nq)
    for tally in tallies:
        tally.add(d.category[hand], np.repeat(k.low_weight, 47), plain, low_raises(c.nq), HIDDEN)


def rank_only(d: Deck, low: dict[int, Ints], k: Classes, tally: Tally) -> None:
    """Caribbean Stud's rank-only order, ties pushing: A-K high and better, per up card."""
    o = order(dense(d.key >> 2), d.cards)
    hand, c = per_upcard(d, low, o, k.high)
    check_pairs_raise(d, hand, c)
    category = d.category[hand]
    ak = category == HIGH
    raised = ~ak | ak_raises(c)
    weight = np.repeat(k.high_weight, 47)
    tally.add(category, weight, c, raised, HIDDEN)
    tally.ak_raised += int((weight * raised)[ak].sum())
    tally.ak_cases += int(weight[ak].sum())


def art8(d: Deck, low: dict[int, Ints], tally: Tally) -> Strategy:
    """The project's order (suit tie-breaks): pairs and better raise (checked under the
    rank-only order, which it refines) and are counted without the up card, every dealer hand
    standing for its 5 up cards; A-K high hands are decided per up card, one by one."""
    o = order(dense(d.key), d.cards)
    c = without_upcard(d, low, o)
    if (c.most != c.less).any():
        raise AssertionError("two hands of one deck are equal in the art. 8 order")
    pairs = np.flatnonzero(d.category >= PAIR)
    five = Counts(5 * c.nq[pairs], 5 * c.less[pairs], 5 * c.most[pairs])
    tally.add(d.category[pairs], np.ones(len(pairs), np.int64), five,
              np.ones(len(pairs), np.bool_), 47 * HIDDEN)
    hand, c = per_upcard(d, low, o, np.flatnonzero(d.qualifies & (d.category == HIGH)))
    raised = ak_raises(c)
    tally.add(d.category[hand], np.ones(len(hand), np.int64), c, raised, HIDDEN)
    tally.ak_raised += int(raised.sum())
    tally.ak_cases += len(hand)
    return ak_table(d, hand, upcards(d, np.flatnonzero(d.qualifies & (d.category == HIGH)))[1],
                    c, raised)


SYMBOLS = "23456789TJQKA"


@dataclass(frozen=True)
class Strategy:
    """A-K high by ranks: the up cards' ranks each pattern of three low cards raises against
    (the majority of its suit cases), and what that costs against the exact per-case play."""

    raises: dict[str, str]
    loss: int  # deals' worth of results (ante units) lost to the exact strategy
    summary: str


def ak_table(d: Deck, hand: Ints, up: Ints, c: Counts, raised: Flags) -> Strategy:
    ranks = np.sort(d.cards[hand] // 4, axis=1)[:, ::-1]
    group = ((ranks[:, 2] * 13 + ranks[:, 3]) * 13 + ranks[:, 4]) * 13 + up // 4
    yes = np.bincount(group, weights=raised, minlength=13**4)
    cases = np.bincount(group, minlength=13**4)
    majority = 2 * yes[group] > cases[group]
    value = c.nq + 3 * (c.less - c.nq) - 3 * (HIDDEN - c.most) + HIDDEN  # raise minus fold
    loss = int(np.abs(value[majority != raised]).sum())
    table: dict[str, str] = {}
    for g in np.unique(group):
        low = "".join(SYMBOLS[g // 13**i % 13] for i in (3, 2, 1))
        table.setdefault(low, "")
        if 2 * yes[g] > cases[g]:
            table[low] += SYMBOLS[g % 13]
    paired = (d.cards[hand] // 4 == (up // 4)[:, None]).any(axis=1)
    summary = (f"raising in {raised[paired].mean():.1%} of the cases where the up card pairs "  # money-safe
               f"one of the box's cards, {raised[~paired].mean():.1%} of the others; "  # money-safe
               f"by ranks in odds_data.AK_RAISES")
    return Strategy(table, loss, summary)


def compute() -> tuple[Tally, Tally, Strategy]:
    """(art. 8 order with suit tie-breaks, rank-only order with pushes), printing timings."""
    start = time.perf_counter()
    d = deck()
    low = nonqualifying(d.cards, d.qualifies)
    k = classes(d)
    print(f"hands valued and grouped: {time.perf_counter() - start:.1f}s")  # money-safe
    suits, ranks = Tally(), Tally()
    below_ak(d, low, k, [suits, ranks])
    print(f"below A-K high: {time.perf_counter() - start:.1f}s")  # money-safe
    rank_only(d, low, k, ranks)
    print(f"rank-only order: {time.perf_counter() - start:.1f}s")  # money-safe
    strategy = art8(d, low, suits)
    print(f"art. 8 order: {time.perf_counter() - start:.1f}s")  # money-safe
    return suits, ranks, strategy


DATA = ROOT / "ledger" / "games" / "stud_poker" / "odds_data.py"
HEADER = '''"""Stud Poker's deals, enumerated by `scripts/stud-odds` (generated: do not edit).

Per order, (folded, dealer not qualifying, won, lost, pushed, A-K high cases raised, A-K high
cases): the tuples by category strength (0 high card .. 9 royal flush), deals raised with such
a hand; a deal is a box hand, the dealer's up card and his four hidden cards, 2,598,960 x 47 x
163,185 in all. `SUIT_TIE_BREAKS` is art. 8's order; `RANK_ONLY` compares ranks and pushes
equal hands (the industry's Caribbean Stud).
"""

from typing import Final

'''


def literal(tally: Tally) -> str:
    fields = (tally.folded, tally.nq, tally.won, tally.lost, tally.pushed, tally.ak_raised,
              tally.ak_cases)
    lines = [f"    {value!r}," for value in fields]
    return "(\n" + "\n".join(lines) + "\n)"


def source(suits: Tally, ranks: Tally, strategy: Strategy) -> str:
    table = "".join(f"    {low!r}: {ups!r},\n" for low, ups in strategy.raises.items())
    return (HEADER + f"SUIT_TIE_BREAKS: Final = {literal(suits)}\n"
            f"RANK_ONLY: Final = {literal(ranks)}\n"
            f"AK_STRATEGY: Final = {strategy.summary!r}\n"
            "# A-K high under art. 8's order, by its other three ranks: the up cards' ranks it\n"
            "# raises against (the majority of the suit cases of those ranks)\n"
            f"AK_RAISES: Final = {{\n{table}}}\n"
            "# deals' worth of results (in antes) the table loses to the exact play, case by case\n"
            f"AK_RAISES_LOSS: Final = {strategy.loss!r}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"regenerate {DATA.name}")
    suits, ranks, strategy = compute()
    text = source(suits, ranks, strategy)
    if parser.parse_args().write:
        DATA.write_text(text)
        print(f"wrote {DATA.relative_to(ROOT)}")
    elif DATA.exists() and DATA.read_text() != text:
        print(f"{DATA.relative_to(ROOT)} differs from this enumeration: run with --write")


if __name__ == "__main__":
    main()
