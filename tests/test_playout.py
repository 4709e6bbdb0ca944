"""Games in counts (``odds.playout``, what `simulate` and the win chances play) held to the rules
engine: the same deal, dice and moves pay the same round by round, a casino scored from counts
is scored as the rules score it, and over many games both engines give the same results."""

import itertools
import random
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.odds.dice_counts import TABLES
from companion.odds.playout import Table, play_game, score_counts
from companion.odds.position import Position, add_die
from companion.rules import Die, GameConfig, Phase, choose_placement, replay, roll_virtual, start_game
from companion.rules.scoring import score_casino
from companion.simulation import play_game as play_game_by_events
from tests.helpers import round_json, scored_json

CONFIGS = {
    "classic 5": GameConfig.for_players(5),
    "classic 3 neutral": GameConfig.for_players(3, neutral=True),
    "biggy 4 slot neutral, unclaimed out": GameConfig.for_players(
        4, edition="biggy", slot=True, neutral=True, unclaimed="discard"
    ),
    "biggy 2 neutral": GameConfig.for_players(2, edition="biggy", neutral=True),
}


def test_each_hand_table_holds_the_chances_of_rolling_die_by_die():
    for dice in range(5):
        table = TABLES[dice]
        ways = dict.fromkeys(table.counts, 0)
        for faces in itertools.product(range(1, 7), repeat=dice):
            ways[tuple(faces.count(v) if v else 0 for v in range(7))] += 1
        assert [ways[c] / 6**dice for c in table.counts] == pytest.approx(table.chances)
    for table in TABLES:
        assert sum(table.chances) == pytest.approx(1.0)
        assert table.counts[table.pick(0.0)] == table.counts[0]
        assert table.counts[table.pick(0.999_999_999)] == table.counts[-1]
        assert {sum(counts) for counts in table.counts} == {sum(table.counts[0])}


def test_a_hand_rolled_from_its_table_shows_each_value_a_sixth_of_the_time():
    """60,000 rolls of five dice: each value's mean count is 5/6 and all five differ as often
    as 6·5·4·3·2 / 6⁵ says, within four standard errors."""
    hand, rng, rolls = TABLES[5], random.Random(4), 60_000
    totals, all_differ = [0] * 7, 0
    for _ in range(rolls):
        counts = hand.counts[hand.pick(rng.random())]
        for value in range(1, 7):
            totals[value] += counts[value]
        all_differ += sum(1 for n in counts if n) == 5
    per_die = (5 * (1 / 6) * (5 / 6) / rolls) ** 0.5
    assert all(abs(totals[v] / rolls - 5 / 6) <= 4 * per_die for v in range(1, 7)), totals
    chance = 6 * 5 * 4 * 3 * 2 / 6**5
    assert abs(all_differ / rolls - chance) <= 4 * (chance * (1 - chance) / rolls) ** 0.5


dice_lists = st.lists(
    st.builds(Die, st.sampled_from(["red", "green", "blue", "grey"]), st.integers(1, 6), st.booleans()),
    max_size=14,
)


@settings(max_examples=400, deadline=None)
@given(casino=st.sampled_from(["3", "slot"]), dice=dice_lists, notes=st.lists(st.integers(1, 9), max_size=5))
def test_a_casino_scored_from_counts_is_scored_as_the_rules_score_it(casino, dice, notes):
    banknotes = tuple(sorted((n * 10_000 for n in notes), reverse=True))
    tally: dict[str, list[int]] = {}
    for die in dice:
        add_die(tally, die.colour, die.pips, die.big)
    counted = score_counts(casino, banknotes, tally)
    rules = score_casino(casino, banknotes, dice)
    assert counted.cancelled == rules.cancelled
    assert counted.payouts == tuple(rules.payouts)
    assert counted.unclaimed == rules.unclaimed


@pytest.mark.parametrize("name", CONFIGS)
def test_a_game_in_counts_pays_as_the_rules_engine_round_by_round(name):
    """The rules engine plays a game with its virtual dice and greedy policy; a ``Table`` dealt
    from the same shuffled deck is fed the same dice and moves. After every round both hold the
    same deck, money and notes per player, and score every casino alike."""
    config = CONFIGS[name]
    for seed in range(12):
        rng = random.Random(seed)
        state = replay([start_game(config, rng)])
        table = Table.new(config, random.Random(seed), keep_rounds=True)
        while not state.is_over:
            position = table.start_round(random.Random(0))
            assert table.deck == state.deck, f"seed {seed}, round {state.round_number}"
            assert position.notes == {n: tuple(c.banknotes) for n, c in state.casinos.items()}
            if state.phase is Phase.NEUTRAL_ROLL:  # the rules engine rolls the leftover neutral dice
                state.apply(roll_virtual(state, rng))
            position.tallies = Position.from_state(state).tallies
            round_number = state.round_number
            while state.round_number == round_number and not state.is_over:
                roll = roll_virtual(state, rng)
                state.apply(roll)
                move = choose_placement(state, rng)
                state.apply(move)
                position.place(position.roll_of(roll.dice), move.value, move.casino)
            table.score(position)
            assert table.money == {c: state.money(c) for c in config.colours}
            assert table.banknotes == {c: len(state.winnings[c]) for c in config.colours}
            counted = [scored_json(c) for c in table.rounds[-1]]
            assert counted == round_json(state.rounds[-1])["casinos"]
        assert table.deck == state.deck and table.over
        assert table.winners() == state.winners()


@pytest.mark.parametrize("name", ["classic 5", "biggy 4 slot neutral, unclaimed out"])
def test_games_in_counts_and_through_the_rules_engine_agree_over_many_games(name):
    """1,000 whole games in each engine: the first player's money and the money all players
    win agree within four standard errors."""
    config = CONFIGS[name]
    results = {"counts": ([], []), "rules": ([], [])}
    for seed in range(1000):
        counted = play_game(config, seed)
        by_events = play_game_by_events(config, 50_000 + seed)
        for engine, money in (
            ("counts", counted.money),
            ("rules", {c: by_events.money(c) for c in config.colours}),
        ):
            results[engine][0].append(money[config.colours[0]])
            results[engine][1].append(sum(money.values()))
    for figure in (0, 1):
        a, b = results["counts"][figure], results["rules"][figure]
        error = (statistics.variance(a) / len(a) + statistics.variance(b) / len(b)) ** 0.5
        assert abs(statistics.mean(a) - statistics.mean(b)) <= 4 * error, (figure, name)
