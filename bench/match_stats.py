"""What a match's paired games say: the score, an Elo difference with its 95% interval, an SPRT.

The sample is the opening pair, not the game: each opening is played twice
with colours swapped, and the two games of a pair are not independent (an
opening that favours X helps each player once).  So each pair's score (0,
1/4, 1/2, 3/4 or 1: player A's points in the two games, halved) is one
sample, the pentanomial model of paired games: the variance of the mean
score is the variance of the pair scores over the number of pairs, which
is smaller than the per-game (trinomial) variance when openings decide
games.  The interval is the normal one on the mean score (1.96 standard
errors), mapped to Elo through the logistic curve.

The SPRT is the generalised SPRT on that normal approximation (as chess
engine testing frameworks use it): for hypotheses elo0 and elo1 (scores s0
and s1), the log-likelihood ratio after n pairs of mean m and variance v
is n (s1 - s0) (2 m - s0 - s1) / (2 v); it accepts elo1 at ln((1-beta)/alpha)
and elo0 at ln(beta/(1-alpha)), with alpha = beta = 0.05.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959964  # the two-sided 95% quantile of the normal distribution
SPRT_ALPHA = SPRT_BETA = 0.05
EXTREME_SCORE = 1e-3  # scores are clamped to [this, 1 - this] before they become Elo


def elo(score: float) -> float:
    """The Elo difference that expects ``score`` (clamped away from 0 and 1, where it is infinite)."""
    score = min(max(score, EXTREME_SCORE), 1 - EXTREME_SCORE)
    return 400 * math.log10(score / (1 - score))


def expected_score(elo_difference: float) -> float:
    """The score an Elo difference expects (the logistic curve)."""
    return 1 / (1 + 10 ** (-elo_difference / 400))


@dataclass(frozen=True)
class Estimate:
    """Player A's mean score over ``pairs`` pairs, its standard error, and the Elo it implies."""

    pairs: int
    score: float
    error: float  # the standard error of ``score``

    @property
    def elo(self) -> float:
        """The Elo difference of the mean score."""
        return elo(self.score)

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of the Elo difference."""
        return elo(self.score - Z95 * self.error), elo(self.score + Z95 * self.error)


def _mean_variance(pair_scores: list[float]) -> tuple[float, float]:
    """The mean of the pair scores and their variance (over n, as the pentanomial estimate has it)."""
    n = len(pair_scores)
    mean = sum(pair_scores) / n
    return mean, sum((score - mean) ** 2 for score in pair_scores) / n


def estimate(pair_scores: list[float]) -> Estimate:
    """The estimate from each pair's score (A's points in the pair / 2); raises ValueError if empty."""
    if not pair_scores:
        raise ValueError("no complete pair to estimate from")
    mean, variance = _mean_variance(pair_scores)
    return Estimate(len(pair_scores), mean, math.sqrt(variance / len(pair_scores)))


def sprt_llr(pair_scores: list[float], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of elo1 against elo0 (0.0 while the pairs show no spread)."""
    if not pair_scores:
        return 0.0
    mean, variance = _mean_variance(pair_scores)
    if variance == 0:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return len(pair_scores) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def sprt_verdict(pair_scores: list[float], elo0: float, elo1: float) -> str | None:
    """``"H1"`` (elo1 accepted), ``"H0"`` (elo0 accepted) or None (go on playing)."""
    llr = sprt_llr(pair_scores, elo0, elo1)
    if llr >= math.log((1 - SPRT_BETA) / SPRT_ALPHA):
        return "H1"
    if llr <= math.log(SPRT_BETA / (1 - SPRT_ALPHA)):
        return "H0"
    return None


__all__ = ["Estimate", "elo", "estimate", "expected_score", "sprt_llr", "sprt_verdict"]
