"""The round in counts (``odds.Position``) against the rules engine, and the worth of choices on
positions where the best one is known."""

import copy
import json
import random

import pytest

from companion.cli import main
from companion.odds.advisor import supported, worth_of_choices
from companion.odds.position import Position
from companion.rules import GameConfig, Phase, choose_placement, replay, roll_virtual, start_game


def started(players: int, seed: int, **options):
    return replay([start_game(GameConfig.for_players(players, **options), random.Random(seed))])


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"neutral": True}), (5, {}), (4, {"edition": "biggy", "slot": True})],
)
def test_the_same_dice_and_moves_give_the_rules_engine_s_payouts(players, options):
    """From a position met mid-round, the rest of the round is played by the rules engine (its
    virtual dice, its greedy policy); the same rolls and placements in counts pay the same
    notes to the same colours on every casino."""
    for seed in range(40):
        rng = random.Random(seed)
        state = started(players, seed, **options)
        if state.phase is Phase.NEUTRAL_ROLL:
            state.apply(roll_virtual(state, rng))
        for _ in range(rng.randrange(0, 6)):  # into the round a little
            state.apply(roll_virtual(state, rng))
            state.apply(choose_placement(state, rng))
            if state.rounds:
                break
        if state.rounds:
            continue
        position = Position.from_state(state)
        round_number = state.round_number
        while state.round_number == round_number and not state.is_over:
            roll = roll_virtual(state, rng)
            state.apply(roll)
            move = choose_placement(state, rng)
            rolled = position.roll_of([(d.colour, d.pips, d.big) for d in roll.dice])
            best = position.greedy(rolled, lambda tied, move=move: (move.value, move.casino))
            assert best == (move.value, move.casino), f"seed {seed}: the policy in counts chose otherwise"
            state.apply(move)
            position.place(rolled, move.value, move.casino)
        assert position.over
        expected = sorted(
            (c.casino, p.colour, p.banknote) for c in state.rounds[-1].casinos for p in c.payouts
        )
        assert sorted(position.payouts()) == expected, f"seed {seed}"


def test_rollouts_in_counts_pay_as_the_rules_engine_over_many_rounds():
    """The money the player to move takes by the round's end, played out 1,500 times by each
    engine from the same position: the means agree within four standard errors."""
    state = started(4, 11)
    rng = random.Random(5)
    state.apply(roll_virtual(state, rng))
    state.apply(choose_placement(state, rng))
    player = state.current_player
    counts, rules = [], []
    for run in range(1500):
        rollout = Position.from_state(state)
        rollout.finish(random.Random(run))
        counts.append(sum(note for _, colour, note in rollout.payouts() if colour == player))
        other, own = copy.deepcopy(state), random.Random(10_000 + run)
        while not other.rounds:
            other.apply(roll_virtual(other, own))
            other.apply(choose_placement(other, own))
        rules.append(
            sum(p.banknote for c in other.rounds[-1].casinos for p in c.payouts if p.colour == player)
        )
    mean_a, mean_b = sum(counts) / len(counts), sum(rules) / len(rules)
    spread = (sum((x - mean_a) ** 2 for x in counts) / len(counts)) ** 0.5
    assert abs(mean_a - mean_b) <= 4 * spread * (2 / len(counts)) ** 0.5, (mean_a, mean_b)


def last_roll_position(hand: int, notes: dict, tallies: dict, slot_values=()) -> Position:
    """Red to place the round's last roll (``hand`` dice), green done: every rollout is the same.
    The numbered casinos not in ``notes`` hold no note."""
    notes = {name: () for name in "123456"} | notes
    return Position(
        colours=("red", "green"),
        seat=0,
        hands=[[hand, 0, 0], [0, 0, 0]],
        neutral=None,
        notes=notes,
        tallies={name: {colour: list(t) for colour, t in tallies.get(name, {}).items()} for name in notes},
        slot_values=set(slot_values),
    )


def test_the_last_die_of_the_round_goes_where_it_takes_most():
    """Red's last die, a 3: on casino 3 it comes second to green's two dice ($30,000); on the slot
    it ties green's one die on count and loses on pips, second again but for $40,000."""
    position = last_roll_position(
        1,
        {"3": (60_000, 30_000), "slot": (70_000, 40_000)},
        {"3": {"green": (2, 6, 3)}, "slot": {"green": (1, 6, 6)}},
        {6},
    )
    worths = worth_of_choices(position, [("red", 3, False)], 10, random.Random(1))
    assert [(w.value, w.casino, w.money, w.stderr) for w in worths] == [
        (3, "slot", 40_000, 0.0),
        (3, "3", 30_000, 0.0),
    ]
    assert worths[0].notes == (("slot", 40_000, 1.0),)


def test_cancelling_a_rival_s_top_note_beats_taking_a_smaller_one():
    """Red's last two 4s: beside green's two 4s on casino 4 they tie and both cancel ($90,000
    taken by nobody: red draws the one-round game); on the empty slot they take its $30,000 and
    green wins with $90,000. The hints play to win: the cancel first, the money beside it."""
    position = last_roll_position(2, {"4": (90_000,), "slot": (30_000, 20_000)}, {"4": {"green": (2, 8, 4)}})
    worths = worth_of_choices(position, [("red", 4, False)] * 2, 10, random.Random(2))
    assert [(w.casino, w.money, w.chance, w.margin) for w in worths] == [
        ("4", 0, 0.5, 0),
        ("slot", 30_000, 0.0, -60_000),
    ]


def test_the_slot_breaks_a_tie_on_dice_by_pips():
    """Red's last two 2s on the slot tie green's two 6s on count and lose on pips: green keeps
    the top note, red takes the second ($50,000), more than casino 2's only note."""
    position = last_roll_position(
        2, {"2": (20_000,), "slot": (80_000, 50_000)}, {"slot": {"green": (2, 12, 6)}}, {6}
    )
    worths = worth_of_choices(position, [("red", 2, False)] * 2, 10, random.Random(3))
    assert [(w.casino, w.money) for w in worths] == [("slot", 50_000), ("2", 20_000)]


def test_money_is_shown_to_the_digits_its_standard_error_supports():
    assert supported(57_312.4, 1_140) == 57_000
    assert supported(57_312.4, 95) == 57_310
    assert supported(140_000, 0) == 140_000


def test_advise_prints_each_choice_best_first_and_refuses_a_state_with_no_roll(
    tmp_path, capsys, client, game
):
    rolled = game.post("/rolls/virtual").get_json()
    path = tmp_path / "state.json"
    path.write_text(json.dumps(rolled))
    assert main(["advise", str(path), "--rollouts", "200", "--seed", "3", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["player"] == rolled["current_player"] and "margin" in answer["policy"]
    values = {p["value"] for p in rolled["placements"]}
    assert {c["value"] for c in answer["choices"]} == values
    ranks = [c["chance"] for c in answer["choices"]]  # rounding keeps the order
    assert ranks == sorted(ranks, reverse=True) and all(c["stderr"] >= 0 for c in answer["choices"])
    assert main(["advise", str(path), "--rollouts", "200", "--seed", "3"]) == 0
    table = capsys.readouterr().out
    name = next(p["name"] for p in rolled["players"] if p["colour"] == rolled["current_player"])
    assert table.startswith(f"{name} to place.") and "chance to win" in table
    for choice in answer["choices"]:  # the same seed: the table shows the JSON's figures
        assert f"{choice['chance'] * 100:.1f}%" in table and f"${choice['money']:,}" in table
    path.write_text(json.dumps(game.state() | {"phase": "roll", "last_roll": None}))
    assert main(["advise", str(path)]) == 2
    assert "phase to be 'place'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"neutral": True}), (5, {}), (4, {"edition": "biggy", "slot": True})],
)
def test_rollouts_stepped_at_once_pay_as_rollouts_one_by_one(players, options):
    """The batch engine against the round in counts, played 3,000 times each from the same
    position a few turns into a round: the mean money of the player to move, and of the next
    player, agree within four standard errors."""
    import numpy as np

    from companion.odds.batch import finish_many

    state = started(players, 3, **options)
    rng = random.Random(9)
    if state.phase is Phase.NEUTRAL_ROLL:
        state.apply(roll_virtual(state, rng))
    for _ in range(2):
        state.apply(roll_virtual(state, rng))
        state.apply(choose_placement(state, rng))
    position = Position.from_state(state)
    for player in (position.player, position.colours[(position.seat + 1) % len(position.colours)]):
        batch, _ = finish_many(position, player, 3000, np.random.default_rng(1))
        one_by_one = []
        for run in range(3000):
            rollout = position.copy()
            rollout.finish(random.Random(run))
            one_by_one.append(sum(note for _, colour, note in rollout.payouts() if colour == player))
        one_by_one = np.array(one_by_one)
        error = np.sqrt(batch.var(ddof=1) / len(batch) + one_by_one.var(ddof=1) / len(one_by_one))
        assert abs(batch.mean() - one_by_one.mean()) <= 4 * error + 1, (
            player,
            batch.mean(),
            one_by_one.mean(),
        )
