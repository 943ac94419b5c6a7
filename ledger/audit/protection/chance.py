"""The tests behind the protection signals, and the correction for running many of them.

Every function returns the chance of a result at least as extreme as the one seen, under fair
play (one-sided: towards the player, or towards more irregularities). Probabilities are floats:
they are no money.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import permutations
from statistics import NormalDist

EXACT_UP_TO = 8  # coups: a permutation test enumerates every order up to this many (40,320)


def normal_upper(z: float) -> float:  # money-safe: a probability
    """P(Z ≥ z) for a standard normal Z.

    >>> round(normal_upper(1.6449), 4)
    0.05
    """
    return NormalDist().cdf(-z)


def _log_binomial_pmf(k: int, n: int, p: float) -> float:  # money-safe: a log-probability
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def binomial_upper(k: int, n: int, p: float) -> float:  # money-safe: a probability
    """P(X ≥ k) for X ~ Binomial(n, p), summed exactly.

    >>> round(binomial_upper(2, 3, 0.5), 12)
    0.5
    """
    if k <= 0:
        return 1.0
    if k > n or p <= 0:
        return 0.0
    if p >= 1:
        return 1.0
    total = sum(math.exp(_log_binomial_pmf(i, n, p)) for i in range(k, n + 1))
    return min(1.0, total)


def poisson_upper(k: int, mean: float) -> float:  # money-safe: a probability
    """P(X ≥ k) for X ~ Poisson(mean), summed from k up (exact in the far tail too).

    >>> round(poisson_upper(1, 1.0), 6)  # 1 - e^-1
    0.632121
    """
    if k <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    total, i = 0.0, k
    term = math.exp(k * math.log(mean) - mean - math.lgamma(k + 1))
    while term > 1e-300 and (i < k + 10 or term > total * 1e-17):
        total += term
        i += 1
        term *= mean / i
    return min(1.0, total)


def rate_test(count: int, exposure: int, others: int, others_exposure: int) -> float:  # money-safe: a probability
    """The chance that one (a dealer) shows at least `count` events in `exposure` rounds when
    everyone has the same rate, given the `others` events in `others_exposure` rounds of the
    rest: conditional on the total, the one's count is Binomial(total, its share of rounds).

    >>> round(rate_test(3, 10, 1, 30), 12)  # 4 events, a quarter of the rounds: 13/256
    0.05078125
    """
    if exposure <= 0 or others_exposure < 0:
        return 1.0
    share = exposure / (exposure + others_exposure)
    return binomial_upper(count, count + others, share)


def ranks(values: Sequence[float]) -> list[float]:  # money-safe: ranks
    """Ranks from 1, ties given the mean of the ranks they share.

    >>> ranks([10, 30, 20, 30])
    [1.0, 3.5, 2.0, 3.5]
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for i in order[start:end + 1]:
            result[i] = (start + end) / 2 + 1
        start = end + 1
    return result


def permutation_test(stakes: Sequence[float], values: Sequence[float]) -> float:  # money-safe: a probability
    """The chance, shuffling the stakes among the coups, of a sum of stake × value at least
    the one seen. Up to `EXACT_UP_TO` coups every order is counted; beyond, the shuffled sum's
    exact mean and variance (n s̄ v̄ and Σ(s−s̄)² Σ(v−v̄)² / (n−1)) give a normal tail.

    >>> permutation_test([1, 2, 3], [1, 2, 3])  # 1 order of 6 reaches 14
    0.16666666666666666
    """
    n = len(stakes)
    if n != len(values) or n < 2:
        return 1.0
    seen = sum(s * v for s, v in zip(stakes, values, strict=True))
    if n <= EXACT_UP_TO:
        sums = [sum(s * v for s, v in zip(order, values, strict=True))
                for order in permutations(stakes)]
        return sum(1 for t in sums if t >= seen - 1e-9 * (1 + abs(seen))) / len(sums)
    s_mean, v_mean = sum(stakes) / n, sum(values) / n
    s_square = sum((s - s_mean) ** 2 for s in stakes)
    v_square = sum((v - v_mean) ** 2 for v in values)
    variance = s_square * v_square / (n - 1)
    if variance <= 0:
        return 1.0
    return normal_upper((seen - n * s_mean * v_mean) / math.sqrt(variance))


def stratified_test(strata: Sequence[tuple[Sequence[float], Sequence[float]]]) -> float:  # money-safe: a probability
    """The permutation test with the stakes shuffled only within each stratum (coups of the
    same bets, whose values are alike under fair play): one stratum is `permutation_test`;
    several add their shuffled sums' means and variances for a normal tail.

    >>> stratified_test([([1, 2, 3], [1, 2, 3])])
    0.16666666666666666
    """
    kept = [(s, v) for s, v in strata if len(s) >= 2]
    if len(kept) == 1:
        return permutation_test(*kept[0])
    seen = mean = variance = 0.0
    for stakes, values in kept:
        n = len(stakes)
        s_mean, v_mean = sum(stakes) / n, sum(values) / n
        seen += sum(s * v for s, v in zip(stakes, values, strict=True))
        mean += n * s_mean * v_mean
        variance += (sum((s - s_mean) ** 2 for s in stakes)
                     * sum((v - v_mean) ** 2 for v in values) / (n - 1))
    if variance <= 0:
        return 1.0
    return normal_upper((seen - mean) / math.sqrt(variance))


def holm(probabilities: Sequence[float]) -> list[float]:  # money-safe: probabilities
    """Holm's step-down adjustment: a flag at level α when its adjusted chance is at most α
    keeps the chance of any false flag among all the tests at most α.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    m = len(probabilities)
    order = sorted(range(m), key=lambda i: probabilities[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * probabilities[i]))
        adjusted[i] = round(running, 15)
    return adjusted
