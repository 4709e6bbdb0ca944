"""Fit the table of the chance to win a game from the standings at a round's end
(``companion/odds/win_table.json``): whole games played in arrays with the rollouts' margin
policy, and, per edition, number of players and rounds left, a logistic curve of each player's
final win share on their lead over their strongest rival (in $100,000), fitted by Newton's method.
Prints each curve's calibration: the fitted chance against the share won, by tenths.

Run: python -m research.odds.fit_win_table [--games 20000] [--seed 1] [--write]"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence

import numpy as np

from companion.odds.batch import CommonDice, play_out
from companion.odds.playout import ScoredCasino, Table
from companion.odds.standing import LEAD_UNIT, TABLE_FILE, final_shares, leads
from companion.rules import GameConfig

#: the tables fitted: edition and numbers of players (a larger table uses the largest)
EDITIONS = {"classic": (2, 3, 4, 5), "biggy": (2, 3, 4, 5)}


def play_games(config: GameConfig, games: int, seed: int) -> tuple[list[np.ndarray], np.ndarray]:
    """``games`` whole games played side by side. Returns each round's end standings (games,
    seats) of money and every player's final win share (games, seats)."""
    rng, dice_rng = random.Random(seed), np.random.default_rng(seed)
    tables = [Table.new(config, rng) for _ in range(games)]
    colours = list(config.colours)
    money_after = []
    for _ in range(config.round_count):
        positions = [table.start_round(rng) for table in tables]
        standings = [dict(table.money) for table in tables]
        dice = CommonDice.draw(dice_rng, games, positions)
        ends = play_out(positions, dice, "margin", standings, rollouts=1)
        for table, position, paid in zip(tables, positions, ends.paid, strict=True):
            score_paid(table, position.notes, paid, ends.colours)
        money_after.append(np.array([[t.money[c] for c in colours] for t in tables], np.int64))
    notes = np.array([[t.banknotes[c] for c in colours] for t in tables], np.int64)
    return money_after, final_shares(money_after[-1], notes)


def score_paid(
    table: Table, notes: dict[str, tuple[int, ...]], paid: Sequence[Sequence[int]], colours: list[str]
) -> None:
    """End a round played in arrays (``batch``): ``paid[c][k]``, the note colour ``k`` took on
    the ``c``-th casino of ``notes``, 0 for none (which dice cancelled is not kept)."""
    scored = []
    for c, (name, dealt) in enumerate(notes.items()):
        payouts = sorted(
            ((colours[k], int(note)) for k, note in enumerate(paid[c]) if note), key=lambda p: -p[1]
        )
        unclaimed = list(dealt)
        for _, note in payouts:
            unclaimed.remove(note)
        scored.append(ScoredCasino(name, dealt, (), tuple(payouts), tuple(unclaimed)))
    table.settle(scored)


def fit_logistic(x: np.ndarray, y: np.ndarray, steps: int = 50) -> tuple[float, float]:
    """(intercept, slope) maximising the likelihood of shares ``y`` (0-1) under sigmoid(a + b x)."""
    features = np.stack([np.ones_like(x), x], axis=1)
    weights = np.zeros(2)
    for _ in range(steps):
        p = 1 / (1 + np.exp(-features @ weights))
        gradient = features.T @ (y - p)
        hessian = (features * (p * (1 - p))[:, None]).T @ features
        step = np.linalg.solve(hessian + 1e-9 * np.eye(2), gradient)
        weights += step
        if np.abs(step).max() < 1e-10:
            break
    return float(weights[0]), float(weights[1])


def calibration(x: np.ndarray, y: np.ndarray, intercept: float, slope: float) -> str:
    """The fitted chance against the share won, by tenths of the fitted chance."""
    p = 1 / (1 + np.exp(-(intercept + slope * x)))
    bins = np.minimum((p * 10).astype(int), 9)
    parts = []
    for b in range(10):
        inside = bins == b
        if inside.sum() >= 50:
            parts.append(f"{p[inside].mean():.2f}→{y[inside].mean():.2f}")
    return " ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20_000, help="games per edition and number of players")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help=f"write the table to {TABLE_FILE}")
    args = parser.parse_args()
    curves: dict[str, dict[str, dict[str, list[float]]]] = {}
    for edition, counts in EDITIONS.items():
        for players in counts:
            start = time.perf_counter()
            config = GameConfig.for_players(players, edition=edition, slot=edition == "biggy")
            money_after, shares = play_games(config, args.games, args.seed + players)
            fitted = curves.setdefault(edition, {}).setdefault(str(players), {})
            for played, money in enumerate(money_after[:-1], start=1):
                rounds_left = config.round_count - played
                x, y = (leads(money) / LEAD_UNIT).ravel(), shares.ravel()
                intercept, slope = fit_logistic(x, y)
                fitted[str(rounds_left)] = [round(intercept, 4), round(slope, 4)]
                print(
                    f"{edition} {players}p, {rounds_left} round(s) left: a={intercept:+.3f} b={slope:.3f}  "
                    f"{calibration(x, y, intercept, slope)}"
                )
            print(f"  {args.games:,} games in {time.perf_counter() - start:.1f} s")
    table = {
        "about": "chance to win = sigmoid(a + b * lead / 100,000) per edition, players, rounds left; "
        "made by python -m research.odds.fit_win_table",
        "games": args.games,
        "seed": args.seed,
        "policy": "margin",
        "curves": curves,
    }
    if args.write:
        TABLE_FILE.write_text(json.dumps(table, indent=1) + "\n")
        print(f"written: {TABLE_FILE}")


if __name__ == "__main__":
    main()
