"""The game around the round in play, and each player's chance to win it once that round ends.

After the last round the winner is known: most money, then most notes, a tie shared. With rounds
still to play, the chance to win comes from a table fitted once by simulating whole games with
the rollouts' margin policy (``win_table.json``, made by ``python -m research.odds.fit_win_table``):
per edition, number of players and rounds left, a logistic curve of the player's lead over their
strongest rival, the chances of a table's players then scaled to sum to 1."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from ..rules import GameState
from .batch import RoundEnds

TABLE_FILE = Path(__file__).with_name("win_table.json")
#: the lead is measured in these, as the table's curves take it
LEAD_UNIT = 100_000


@dataclass(frozen=True)
class Standing:
    """Each player's money and number of notes from the rounds before the one in play, and how
    many rounds follow it."""

    money: dict[str, int]
    banknotes: dict[str, int]
    rounds_left: int  # after the round in play
    edition: str

    @classmethod
    def from_state(cls, state: GameState) -> Standing:
        return cls(
            {c: sum(notes) for c, notes in state.winnings.items()},
            {c: len(notes) for c, notes in state.winnings.items()},
            max(state.config.round_count - len(state.rounds) - 1, 0),
            state.config.edition,
        )

    @classmethod
    def fresh(cls, colours: tuple[str, ...], rounds_left: int, edition: str = "classic") -> Standing:
        """A game whose earlier rounds paid nobody."""
        return cls(dict.fromkeys(colours, 0), dict.fromkeys(colours, 0), rounds_left, edition)


def chances_at_round_end(ends: RoundEnds, seats: tuple[str, ...], standing: Standing) -> np.ndarray:
    """(rows, seats): each player's chance to win the game in each row of ``ends``."""
    money = np.array([[standing.money.get(c, 0) for c in seats]], np.int64)
    money = money + np.stack([ends.money(c) for c in seats], axis=1)
    if standing.rounds_left == 0:
        taken = ends.notes_taken()[:, [ends.colours.index(c) for c in seats]]
        notes = np.array([[standing.banknotes.get(c, 0) for c in seats]]) + taken
        return final_shares(money, notes)
    return fitted_chances(money, standing.rounds_left, standing.edition)


def final_shares(money: np.ndarray, notes: np.ndarray) -> np.ndarray:
    """(rows, seats): 1 for the sole winner (most money, then most notes), a share when tied."""
    key = money * 1_000 + notes
    winners = key == key.max(axis=1, keepdims=True)
    return winners / winners.sum(axis=1, keepdims=True)


def leads(money: np.ndarray) -> np.ndarray:
    """(rows, seats): each player's money minus their strongest rival's."""
    order = np.sort(money, axis=1)
    best, second = order[:, -1:], order[:, -2:-1]
    return money - np.where(money == best, second, best)


def fitted_chances(money: np.ndarray, rounds_left: int, edition: str) -> np.ndarray:
    """(rows, seats): the table's chance to win for each player, scaled to sum to 1 per row."""
    intercept, slope = curve(edition, money.shape[1], rounds_left)
    raw = 1 / (1 + np.exp(-(intercept + slope * leads(money) / LEAD_UNIT)))
    return raw / raw.sum(axis=1, keepdims=True)


def curve(edition: str, players: int, rounds_left: int) -> tuple[float, float]:
    """The fitted (intercept, slope) nearest this game: its edition (else the classic), its
    number of players and rounds left, clamped to the fitted ones."""
    curves = win_table()["curves"]
    by_edition = curves.get(edition, curves["classic"])
    fitted = sorted(int(n) for n in by_edition)
    by_players = by_edition[str(min(max(players, fitted[0]), fitted[-1]))]
    rounds = sorted(int(r) for r in by_players)
    intercept, slope = by_players[str(min(max(rounds_left, rounds[0]), rounds[-1]))]
    return intercept, slope


@cache
def win_table() -> dict:
    return json.loads(TABLE_FILE.read_text())
