"""The statistics of a run: proportions with Wilson intervals, distributions, and A/B tests.

Pure functions on plain numbers (no numpy): `wilson` (95 % score interval of a proportion),
`describe` (mean, sd, quantiles), `two_proportion_z` (is a win rate different between two runs?),
`bootstrap_diff` (interval and p-value of a difference of means, resampled with Tabula's own seeded
generator so the same data give the same answer), `mean_interval` and `paired_diff` (normal
intervals of a mean and of a paired difference: cheap enough for every counter of a game), and the
multiple-comparison corrections `holm` and `benjamini_hochberg`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tabula.interpreter.base import rng

Z95 = 1.959963984540054
BOOTSTRAP_ROUNDS = 2000


@dataclass(frozen=True)
class Proportion:
    """k successes in n trials, with its 95 % Wilson interval."""

    k: float
    n: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.k / self.n if self.n else 0.0

    def as_dict(self) -> dict[str, float]:
        return {"k": self.k, "n": self.n, "rate": self.rate, "low": self.low, "high": self.high}


def wilson(k: float, n: int, z: float = Z95) -> Proportion:
    """The Wilson score interval (good for small n and rates near 0 or 1)."""
    if n == 0:
        return Proportion(k, 0, 0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Proportion(k, n, max(0.0, centre - half), min(1.0, centre + half))


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear interpolation between the closest ranks (numpy's default)."""
    if not sorted_values:
        return 0.0
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def describe(values: Sequence[float]) -> dict[str, float]:
    """n, mean, sample sd, min, quartiles, max."""
    xs = sorted(float(v) for v in values)
    n = len(xs)
    mean = sum(xs) / n if n else 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return {
        "n": n,
        "mean": mean,
        "sd": sd,
        "min": xs[0] if xs else 0.0,
        "q25": quantile(xs, 0.25),
        "median": quantile(xs, 0.5),
        "q75": quantile(xs, 0.75),
        "max": xs[-1] if xs else 0.0,
    }


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


@dataclass(frozen=True)
class Difference:
    """B minus A: the estimate, its 95 % interval and a two-sided p-value."""

    diff: float
    low: float
    high: float
    p: float

    def as_dict(self) -> dict[str, float]:
        return {"diff": self.diff, "low": self.low, "high": self.high, "p": self.p}


def two_proportion_z(k1: float, n1: int, k2: float, n2: int) -> Difference:
    """Difference of two proportions (second minus first): Wald interval, pooled two-sided z-test."""
    if n1 == 0 or n2 == 0:
        return Difference(0.0, -1.0, 1.0, 1.0)
    p1, p2 = k1 / n1, k2 / n2
    diff = p2 - p1
    se = math.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
    pooled = (k1 + k2) / (n1 + n2)
    se0 = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    p = 1.0 if se0 == 0 else 2 * normal_sf(abs(diff) / se0)
    return Difference(diff, diff - Z95 * se, diff + Z95 * se, min(1.0, p))


def bootstrap_diff(a: Sequence[float], b: Sequence[float], seed: int = 0, paired: bool = False) -> Difference:
    """Difference of means (b minus a): percentile bootstrap interval and two-sided p-value.

    `paired` (the same seeds in A and B, so game i of A and of B share their deal) resamples the
    games jointly, which removes the variance the two runs share."""
    if not a or not b:
        return Difference(0.0, 0.0, 0.0, 1.0)
    if paired and len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    gen = rng.seed_state(seed)
    diff = sum(b) / len(b) - sum(a) / len(a)
    diffs = []
    na, nb = len(a), len(b)
    for _ in range(BOOTSTRAP_ROUNDS):
        if paired:
            picks = [rng.below(gen, na) for _ in range(na)]
            diffs.append(sum(b[i] - a[i] for i in picks) / na)
            continue
        ma = sum(a[rng.below(gen, na)] for _ in range(na)) / na
        mb = sum(b[rng.below(gen, nb)] for _ in range(nb)) / nb
        diffs.append(mb - ma)
    diffs.sort()
    # two-sided p: how often the resampled difference falls on the other side of zero, doubled
    below = sum(1 for d in diffs if d <= 0) / len(diffs)
    above = sum(1 for d in diffs if d >= 0) / len(diffs)
    p = min(1.0, 2 * min(below, above))
    return Difference(diff, quantile(diffs, 0.025), quantile(diffs, 0.975), p)


def mean_interval(values: Sequence[float]) -> dict[str, float]:
    """n, mean, sd and the 95 % normal interval of the mean."""
    n = len(values)
    mean = sum(values) / n if n else 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n) if n else 0.0
    return {"n": n, "mean": mean, "sd": sd, "low": mean - half, "high": mean + half}


def paired_diff(a: Sequence[float], b: Sequence[float]) -> Difference:
    """Mean of b[i] - a[i] (or of b minus a when the lengths differ): normal interval, two-sided p."""
    if not a or not b:
        return Difference(0.0, 0.0, 0.0, 1.0)
    if len(a) != len(b):
        return mean_diff(a, b)
    d = [y - x for x, y in zip(a, b, strict=True)]
    m = mean_interval(d)
    return _normal(m["mean"], m["sd"] / math.sqrt(len(d)))


def mean_diff(a: Sequence[float], b: Sequence[float]) -> Difference:
    """Mean of b minus mean of a, two independent samples: normal (Welch) interval, two-sided p."""
    if not a or not b:
        return Difference(0.0, 0.0, 0.0, 1.0)
    ma, mb = mean_interval(a), mean_interval(b)
    return _normal(mb["mean"] - ma["mean"], math.sqrt(ma["sd"] ** 2 / len(a) + mb["sd"] ** 2 / len(b)))


def _normal(diff: float, se: float) -> Difference:
    """A difference with its standard error: the 95 % normal interval and the two-sided p."""
    if se == 0:
        return Difference(diff, diff, diff, 1.0 if diff == 0 else 0.0)
    p = min(1.0, 2 * normal_sf(abs(diff) / se))
    return Difference(diff, diff - Z95 * se, diff + Z95 * se, p)


def holm(pvalues: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm's step-down correction: which tests are significant at family-wise level alpha."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    out = [False] * len(pvalues)
    for rank, i in enumerate(order):
        if pvalues[i] > alpha / (len(pvalues) - rank):
            break
        out[i] = True
    return out


def benjamini_hochberg(pvalues: Sequence[float], q: float = 0.05) -> list[bool]:
    """Benjamini-Hochberg: which tests are discoveries at false-discovery rate q."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    cut = 0
    for rank, i in enumerate(order, start=1):
        if pvalues[i] <= q * rank / m:
            cut = rank
    out = [False] * m
    for i in order[:cut]:
        out[i] = True
    return out


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for a chi-square X with `df` degrees of freedom (exact closed forms: a Poisson sum
    for even df, the normal tail plus a finite series for odd df)."""
    if df < 1:
        raise ValueError("df must be at least 1")
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term = total = math.exp(-half)
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, total)
    total = 2 * normal_sf(math.sqrt(x))
    term = math.sqrt(2 * x / math.pi) * math.exp(-half)  # x^(k-1/2) / (1*3*...*(2k-1)) times 2 phi
    for k in range(1, (df - 1) // 2 + 1):
        total += term
        term *= x / (2 * k + 1)
    return min(1.0, total)


def chi2_uniform(counts: Sequence[float]) -> tuple[float, int, float]:
    """Pearson's chi-square test that counts are equally likely in every cell: (statistic, df, p)."""
    n = sum(counts)
    k = len(counts)
    if k < 2 or n <= 0:
        return 0.0, max(k - 1, 1), 1.0
    expected = n / k
    stat = sum((c - expected) ** 2 / expected for c in counts)
    return stat, k - 1, chi2_sf(stat, k - 1)


def binomial_two_sided(k: int, n: int, p: float) -> float:
    """Exact two-sided binomial test of k successes in n trials against rate p (the outcomes no
    likelier than the one observed)."""
    if n == 0:
        return 1.0
    probs = [math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(n + 1)]
    cut = probs[k] * (1 + 1e-7)
    return min(1.0, sum(q for q in probs if q <= cut))


def holm_adjusted(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (a test is significant at level alpha when its adjusted
    p-value is at most alpha; the same decisions as `holm`)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out
