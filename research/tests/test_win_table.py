"""The win table's fit: whole games played side by side in arrays, and the logistic fit."""

import numpy as np

from companion.rules import GameConfig
from research.odds.fit_win_table import fit_logistic, play_games


def test_games_played_side_by_side_end_with_every_win_shared_out():
    config = GameConfig.for_players(3)
    money_after, shares = play_games(config, 40, seed=2)
    assert len(money_after) == config.round_count
    assert np.allclose(shares.sum(axis=1), 1.0)
    assert (np.diff(np.stack(money_after), axis=0) >= 0).all()  # money only grows round by round
    assert money_after[-1].sum(axis=1).min() > 0


def test_the_logistic_fit_finds_the_curve_the_outcomes_were_drawn_from():
    rng = np.random.default_rng(1)
    x = rng.normal(0, 1, 40_000)
    y = (rng.random(x.size) < 1 / (1 + np.exp(-(-0.5 + 1.8 * x)))).astype(float)
    intercept, slope = fit_logistic(x, y)
    assert abs(intercept + 0.5) < 0.05 and abs(slope - 1.8) < 0.08
