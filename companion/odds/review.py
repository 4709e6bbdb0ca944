"""The review of a game: for every placement that had a choice, what each choice was worth
(``advisor``: the chance to win, and the money by the round's end), the choice made, the best one
and what the move gave up in expectation (nothing when the two are about the same); and each
player's chance to win after every round (``chances``).

The event log stays the truth: a review is computed from the events alone, each move's rollouts
seeded by the game's seed and the move's place in the log, so computing it again gives the same
figures. It covers the rounds that have ended."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from ..rules import Event, GameState, Placed, replay
from .advisor import supported, worth_of_choices
from .chances import win_chances
from .position import Position
from .standing import Standing

#: rollouts per choice of a move and per round's win chances: a move's worth to about ±$1,500
ROLLOUTS = 1000

#: what is told of the work done so far: (steps done, steps in all)
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class MoveReview:
    """One placement that had a choice. Money is the mean of the rollouts, in dollars."""

    event: int  # the placement's index in the game's events
    round: int
    player: str
    rolled: list[int]  # the values the roll showed
    chosen: str  # "value:casino"
    chosen_money: float
    chosen_stderr: float
    best: str
    best_money: float
    best_stderr: float
    stderr: float  # of the difference best − chosen in money (0 when the best was chosen)
    chosen_chance: float  # of winning the game
    best_chance: float
    chance_stderr: float  # of the difference best − chosen in chance, on the same dice
    about_the_same: bool  # the chosen and the best differ by less than their error

    @property
    def given_up(self) -> float:
        """The money the move gave up in expectation against the best choice: never below 0, and
        nothing on a choice about the same as the best."""
        return 0.0 if self.about_the_same else max(self.best_money - self.chosen_money, 0.0)

    @property
    def chance_given_up(self) -> float:
        """The chance to win the move gave up: nothing on a choice about the same as the best."""
        return 0.0 if self.about_the_same else max(self.best_chance - self.chosen_chance, 0.0)

    def as_json(self) -> dict:
        """Money as the page shows it, to the digits its standard error supports."""
        return asdict(self) | {
            "given_up": supported(self.given_up, self.stderr),
            "chance_given_up": round(self.chance_given_up, 3),
            "chosen_chance": round(self.chosen_chance, 3),
            "best_chance": round(self.best_chance, 3),
            "chance_stderr": round(self.chance_stderr, 3),
            "chosen_money": supported(self.chosen_money, self.chosen_stderr),
            "chosen_stderr": round(self.chosen_stderr),
            "best_money": supported(self.best_money, self.best_stderr),
            "best_stderr": round(self.best_stderr),
            "stderr": round(self.stderr),
        }


@dataclass(frozen=True)
class RoundChances:
    """Each player's chance to win the game as a round ended."""

    round: int
    chances: dict[str, float]
    stderr: dict[str, float]


@dataclass(frozen=True)
class GameReview:
    covered: int  # the review holds the events before this index: the rounds ended by then
    moves: list[MoveReview]
    rounds: list[RoundChances]

    def biggest_swings(self, count: int = 3) -> list[MoveReview]:
        """The moves that gave up most chance to win (then money), most first; moves about the
        same as the best left out."""
        costly = [m for m in self.moves if not m.about_the_same and (m.chance_given_up or m.given_up)]
        return sorted(costly, key=lambda m: (-m.chance_given_up, -m.given_up))[:count]

    def as_json(self) -> dict:
        return {
            "covered": self.covered,
            "moves": [m.as_json() for m in self.moves],
            "rounds": [
                {
                    "round": r.round,
                    "chances": {c: round(p, 3) for c, p in r.chances.items()},
                    "stderr": {c: round(e, 3) for c, e in r.stderr.items()},
                }
                for r in self.rounds
            ],
            "biggest": [m.event for m in self.biggest_swings()],
            "rollouts": ROLLOUTS,
        }

    def record(self) -> dict:
        """The review as it is kept: every figure as computed (``as_json`` rounds for showing)."""
        return asdict(self)

    @classmethod
    def from_record(cls, data: dict) -> GameReview:
        """A review as ``record`` kept it."""
        moves = [MoveReview(**m) for m in data["moves"]]
        rounds = [RoundChances(**r) for r in data["rounds"]]
        return cls(data["covered"], moves, rounds)


def reviewed_span(events: Sequence[Event]) -> int:
    """How many events a review covers: up to the end of the last round that has ended."""
    state = replay(events[:1])
    span = 1
    for index, event in enumerate(events[1:], start=1):
        rounds = len(state.rounds)
        state.apply(event)
        if len(state.rounds) > rounds:
            span = index + 1
    return span


def review_game(
    events: Sequence[Event],
    seed: int,
    earlier: GameReview | None = None,
    progress: Progress | None = None,
    rollouts: int = ROLLOUTS,
) -> GameReview:
    """Review the rounds of ``events`` that have ended. ``earlier``: a review of the same game
    made when fewer rounds had ended (its moves and rounds are kept, not computed again)."""
    span = reviewed_span(events)
    kept_moves = [m for m in earlier.moves if m.event < earlier.covered] if earlier else []
    kept_rounds = list(earlier.rounds) if earlier else []
    start = earlier.covered if earlier else 1
    state = replay(events[:start])
    total, done = _steps(events, start, span), 0
    moves, rounds = kept_moves, kept_rounds
    for index in range(start, span):
        event = events[index]
        if isinstance(event, Placed) and len(state.legal_placements()) > 1:
            moves.append(_review_move(state, event, index, seed, rollouts))
            done += 1
            if progress:
                progress(done, total)
        rounds_before = len(state.rounds)
        state.apply(event)
        if len(state.rounds) > rounds_before:
            chances = win_chances(state, rollouts, random.Random(f"{seed}:chances:{index}"))
            rounds.append(RoundChances(len(state.rounds), chances.chances, chances.stderr))
            done += 1
            if progress:
                progress(done, total)
    return GameReview(span, moves, rounds)


def _steps(events: Sequence[Event], start: int, end: int) -> int:
    """The work in reviewing events ``start`` to ``end``: placements with a choice, rounds ended."""
    state, steps = replay(events[:start]), 0
    for event in events[start:end]:
        steps += isinstance(event, Placed) and len(state.legal_placements()) > 1
        rounds = len(state.rounds)
        state.apply(event)
        steps += len(state.rounds) > rounds
    return steps


def _review_move(state: GameState, event: Placed, index: int, seed: int, rollouts: int) -> MoveReview:
    position = Position.from_state(state)
    standing = Standing.from_state(state)
    worths = worth_of_choices(
        position, state.last_roll or (), rollouts, random.Random(f"{seed}:move:{index}"), standing
    )
    chosen = next(w for w in worths if (w.value, w.casino) == (event.value, event.casino))
    best = worths[0]
    return MoveReview(
        event=index,
        round=state.round_number,
        player=event.player,
        rolled=sorted({d.pips for d in state.last_roll or ()}),
        chosen=f"{chosen.value}:{chosen.casino}",
        chosen_money=chosen.money,
        chosen_stderr=chosen.stderr,
        best=f"{best.value}:{best.casino}",
        best_money=best.money,
        best_stderr=best.stderr,
        stderr=math.hypot(best.stderr, chosen.stderr) if best is not chosen else 0.0,
        chosen_chance=chosen.chance,
        best_chance=best.chance,
        chance_stderr=chosen.gap_stderr,
        about_the_same=chosen.same_as_best,
    )
