"""The statistics of issue 36 tested on known values and simulated coins: chi-square, the exact
binomial test, Holm's adjusted p-values, seat fairness by seat and by turn position, and the
confidence sequences behind --until-decided (type-I error under optional stopping, early stops)."""

from __future__ import annotations

import math
import random

import pytest

from tabula.balance.fairness import fairness, position_of
from tabula.balance.match import GameRecord
from tabula.balance.sequential import (
    asymptotic_sequence,
    confidence_sequence,
    decide,
    minimum_detectable,
    radius,
    rho_for,
)
from tabula.balance.stats import binomial_two_sided, chi2_sf, chi2_uniform, holm, holm_adjusted


@pytest.mark.parametrize(
    ("x", "df"),
    [
        (3.841458820694124, 1),
        (5.991464547107979, 2),
        (7.814727903251178, 3),
        (9.487729036781154, 4),
        (11.070497693516351, 5),
    ],
)
def test_chi2_sf_at_the_five_percent_critical_values(x: float, df: int) -> None:
    assert chi2_sf(x, df) == pytest.approx(0.05, abs=1e-12)


def test_chi2_sf_known_tails() -> None:
    assert chi2_sf(10.0, 2) == pytest.approx(math.exp(-5), rel=1e-12)  # df 2: exp(-x/2)
    assert chi2_sf(1.0, 1) == pytest.approx(0.31731050786291404, rel=1e-12)
    assert chi2_sf(20.0, 7) == pytest.approx(0.005569683072945574, rel=1e-9)
    assert chi2_sf(0.0, 3) == 1.0


def test_chi2_uniform_counts() -> None:
    stat, df, p = chi2_uniform([10, 20, 30])  # expected 20 each: (100 + 0 + 100) / 20
    assert (stat, df) == (10.0, 2)
    assert p == pytest.approx(math.exp(-5))
    assert chi2_uniform([7, 7])[2] == 1.0


def test_binomial_two_sided_known_values() -> None:
    assert binomial_two_sided(3, 20, 1 / 3) == pytest.approx(0.09808303171882878, rel=1e-9)  # scipy binomtest
    assert binomial_two_sided(9, 10, 0.5) == pytest.approx(22 / 1024)
    assert binomial_two_sided(5, 10, 0.5) == 1.0


def test_holm_adjusted_agrees_with_holm() -> None:
    ps = [0.01, 0.04, 0.03, 0.002]
    assert holm_adjusted(ps) == pytest.approx([0.03, 0.06, 0.06, 0.008])
    assert [q <= 0.05 for q in holm_adjusted(ps)] == holm(ps)


def _rec(winners: list[int], first: int, n: int = 3) -> GameRecord:
    return GameRecord(0, 0, ["random"] * n, [f"P{i}" for i in range(n)], winners=winners, first=first)


def test_fairness_by_seat_and_by_turn_position() -> None:
    # the start player always wins, and the start player rotates: seats are fair, positions are not
    records = [_rec([g % 3], first=g % 3) for g in range(30)] + [_rec([0, 1], first=0), _rec([], first=1)]
    seat, pos = fairness(records, "seat"), fairness(records, "position")
    assert (seat["sole_wins"], seat["ties"], seat["unfinished"]) == (30, 1, 1)
    assert seat["chi2"] == 0.0 and not seat["favoured"]
    assert pos["chi2"] == pytest.approx(60.0) and pos["favoured"]  # (30-10)^2/10 + 2 * 10^2/10
    assert [r["wins"] for r in pos["rows"]] == [30, 0, 0]
    assert pos["rows"][0]["p_holm"] < 0.001
    assert position_of(_rec([], first=2), 0) == 1  # seat 0 plays after seat 2 in a game of 3


def test_simultaneous_intervals_are_wider_than_single_ones() -> None:
    seat = fairness([_rec([g % 3], first=0) for g in range(30)], "seat")
    share = seat["rows"][0]["share"]
    assert share["rate"] == pytest.approx(1 / 3)
    assert share["high"] - share["low"] > 0.36  # the single 95 % Wilson interval of 10/30 is 0.32 wide


# ------------------------------------------------------------------ confidence sequences


def _stops_wrongly(gen: random.Random, p: float, batch: int, max_games: int, alpha: float) -> bool:
    """One --until-decided run on a coin with win rate p, watching p against 0.5 after every batch:
    True when it declares a difference that is not there."""
    flips: list[float] = []
    while len(flips) < max_games:
        flips += [1.0 if gen.random() < p else 0.0 for _ in range(batch)]
        s = confidence_sequence(flips, 0.0, 1.0, alpha, planned=100)
        if s.low > 0.5 or s.high < 0.5:
            return True
    return False


@pytest.mark.slow
def test_type_one_error_under_optional_stopping_stays_under_alpha() -> None:
    gen = random.Random(36)
    runs = 1000
    wrong = sum(_stops_wrongly(gen, 0.5, batch=5, max_games=400, alpha=0.05) for _ in range(runs))
    assert wrong / runs < 0.05
    # looking at the ordinary 95 % interval after every batch would be wrong far more often
    naive = 0
    for _ in range(300):
        flips: list[float] = []
        while len(flips) < 400:
            flips += [1.0 if gen.random() < 0.5 else 0.0 for _ in range(5)]
            m = sum(flips) / len(flips)
            if abs(m - 0.5) > 1.96 * math.sqrt(0.25 / len(flips)):
                naive += 1
                break
    assert naive / 300 > 0.15


def test_a_strong_effect_stops_early() -> None:
    gen = random.Random(1)
    flips: list[float] = []
    while True:
        flips += [1.0 if gen.random() < 0.9 else 0.0 for _ in range(10)]
        s = confidence_sequence(flips, 0.0, 1.0, 0.05, planned=100)
        if s.low > 0.5:
            break
    assert len(flips) <= 40


def test_a_null_effect_is_bounded_by_the_tolerance() -> None:
    flips = [float(i % 2) for i in range(2000)]
    s = confidence_sequence(flips, 0.0, 1.0, 0.05, planned=2000)
    d = decide({"coin": s}, 0.5, 0.05)
    assert d.decided and not d.differs and d.largest <= 0.05
    assert not decide({"coin": confidence_sequence(flips[:40], 0.0, 1.0, 0.05, 100)}, 0.5, 0.05).decided


def test_radius_shrinks_and_holds_for_any_rho() -> None:
    rho = rho_for(100, 0.5, 0.05)
    assert radius(400, 0.5, 0.05, rho) < radius(100, 0.5, 0.05, rho) < radius(10, 0.5, 0.05, rho)
    # wider than the fixed-n interval at the planned n (the price of looking after every batch)
    assert radius(100, 0.5, 0.05, rho) > 1.96 * 0.5 / 10


def test_minimum_detectable_effect() -> None:
    assert minimum_detectable(1.0, 100) == pytest.approx((1.959963984540054 + 0.8416212335729143) / 10)


@pytest.mark.slow
def test_score_sequences_stay_under_alpha_under_optional_stopping() -> None:
    """compare's score differences are unbounded: their asymptotic confidence sequence, looked at
    after every batch of 10 from 30 games on, declares a difference that is not there rarely (a
    skewed score: exponential, centred)."""
    gen = random.Random(7)
    runs, wrong = 400, 0
    for _ in range(runs):
        values: list[float] = []
        while len(values) < 400:
            values += [gen.expovariate(1 / 3) - 3 for _ in range(10)]
            s = asymptotic_sequence(values, 0.05, planned=200)
            if s.low > 0 or s.high < 0:
                wrong += 1
                break
    assert wrong / runs < 0.06
    assert asymptotic_sequence(values[:29], 0.05, 200).high == math.inf  # too few games to say
