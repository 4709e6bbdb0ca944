"""The hints benchmark's greedy opponent places where the rules' own player (``rules.policy``)
would: the benchmark's "against greedy" figures are against the companion's simple player."""

import random

import pytest

from companion.odds.position import Position
from companion.rules import GameConfig, Phase, choose_placement, replay, roll_virtual, start_game
from research.benchmarks.bench_hints import greedy_player

#: draws of each player's tie-breaking RNG: with at most a dozen equal moves, 120 draws all but
#: surely meet each of them
DRAWS = 120


def mid_round_states(config: GameConfig, seed: int):
    """Each state of one game with a roll waiting to be placed by its player."""
    rng = random.Random(seed)
    state = replay([start_game(config, rng)])
    while not state.is_over:
        state.apply(roll_virtual(state, rng))
        if state.phase is Phase.PLACE:
            yield state
            state.apply(choose_placement(state, rng))


@pytest.mark.parametrize("edition, slot", [("classic", False), ("biggy", True)])
def test_the_benchmarks_greedy_player_chooses_among_what_the_rules_player_does(edition, slot):
    config = GameConfig.for_players(3, edition=edition, neutral=True, slot=slot)
    checked = 0
    for seed in range(3):
        for state in mid_round_states(config, seed):
            assert state.last_roll is not None
            position = Position.from_state(state)
            roll = position.roll_of(state.last_roll)
            by_rules = {
                (placed.value, placed.casino)
                for placed in (choose_placement(state, random.Random(draw)) for draw in range(DRAWS))
            }
            by_bench = {greedy_player(position, roll, None, random.Random(draw)) for draw in range(DRAWS)}
            assert by_bench == by_rules, f"seed {seed}, round {state.round_number}"
            checked += 1
    assert checked > 50
