"""The hints on hand-made positions where the right answer is known: a cancel that wins the game
over a choice that brings more money, equal choices shown as equal (and a review that charges
nothing for them), a sure top note, a decided last round; and the rollouts' margin policy held
to the rules' own scoring."""

import random

import numpy as np
import pytest

from companion.odds.advisor import advice_json, worth_of_choices
from companion.odds.batch import choose
from companion.odds.position import Position
from companion.odds.review import GameReview, MoveReview
from companion.odds.standing import Standing, fitted_chances
from companion.rules import Die, GameConfig, Phase, choose_placement, replay, roll_virtual, start_game
from tests.helpers import paid_by_rules


def two_players(hands, notes, tallies) -> Position:
    """Red to move against blue in a classic round (casinos missing from ``notes`` hold none)."""
    notes = {name: () for name in "123456"} | notes
    return Position(
        colours=("red", "blue"),
        seat=0,
        hands=[list(h) for h in hands],
        neutral=None,
        notes=notes,
        tallies={name: {c: list(t) for c, t in tallies.get(name, {}).items()} for name in notes},
    )


def red(*values: int) -> list[Die]:
    return [Die("red", v) for v in values]


def test_a_tie_that_cancels_a_rival_s_top_note_wins_more_games_than_more_money():
    """Round 1 of 4. Blue's single die on casino 1 ($60,000 + $10,000); red rolls 1, 3, 5. The 3s
    bring red more money by the round's end, but the 1 ties blue's die and cancels it: the hints
    put the 1s first, by chance to win and by margin over blue."""
    position = two_players(
        [(3, 0, 0), (2, 0, 0)],
        {"1": (60_000, 10_000), "2": (50_000, 20_000), "3": (40_000,), "4": (70_000,), "5": (30_000, 20_000)}
        | {"6": (50_000, 40_000)},
        {
            "1": {"blue": (1, 1, 1)},
            "2": {"red": (2, 4, 2)},
            "4": {"blue": (3, 12, 4)},
            "6": {"red": (2, 12, 6), "blue": (1, 6, 6)},
        },
    )
    standing = Standing.fresh(("red", "blue"), rounds_left=3)
    worths = worth_of_choices(position, red(1, 3, 5), 1000, random.Random(1), standing)
    by_value = {w.value: w for w in worths}
    assert worths[0].value == 1 and not by_value[3].same_as_best
    assert by_value[3].gap > 4 * by_value[3].gap_stderr
    assert by_value[1].margin > by_value[3].margin
    assert by_value[3].money > by_value[1].money  # what the previous advisor ranked by
    money_first = max(
        worth_of_choices(position, red(1, 3, 5), 1000, random.Random(1), policy="greedy"),
        key=lambda w: w.money,
    )
    assert money_first.value == 3


def last_roll(notes, tallies) -> tuple[Position, Standing]:
    """Red places the round's last roll, two dice of one value, in a one-round game; blue has no
    dice left: every rollout is the same."""
    return two_players([(2, 0, 0), (0, 0, 0)], notes, tallies), Standing.fresh(("red", "blue"), 0)


def test_equal_choices_are_shown_as_equal_and_a_review_charges_nothing_for_them():
    """Red's last two dice show 2: casino 2 and the slot each hold one $50,000 note and no dice,
    so either choice takes $50,000."""
    position, standing = last_roll({"2": (50_000,), "slot": (50_000,)}, {})
    answer = advice_json(position, red(2, 2), 50, random.Random(4), standing)
    first, second = answer["choices"]
    assert first["money"] == second["money"] == 50_000
    assert first["chance"] == second["chance"] == 1.0
    assert second["about_the_same"] and second["gap"] == 0 and second["gap_stderr"] == 0
    worths = worth_of_choices(position, red(2, 2), 50, random.Random(4), standing)
    move = MoveReview(
        event=5,
        round=1,
        player="red",
        rolled=[2],
        chosen=f"{worths[1].value}:{worths[1].casino}",
        chosen_money=worths[1].money - 800,  # as if independent rollouts had put it a little lower
        chosen_stderr=600,
        best=f"{worths[0].value}:{worths[0].casino}",
        best_money=worths[0].money,
        best_stderr=600,
        stderr=850,
        chosen_chance=worths[1].chance,
        best_chance=worths[0].chance,
        chance_stderr=worths[1].gap_stderr,
        about_the_same=worths[1].same_as_best,
    )
    assert move.given_up == 0 and move.chance_given_up == 0
    assert GameReview(6, [move], []).biggest_swings() == []
    assert move.as_json()["given_up"] == 0


def test_a_sure_top_note_comes_first():
    """Red's last two dice show 6: beside blue's one 6 on casino 6 they take its $90,000 for sure
    and win the one-round game; on the slot they take $20,000 and blue wins with $90,000."""
    position, standing = last_roll({"6": (90_000,), "slot": (20_000,)}, {"6": {"blue": (1, 6, 6)}})
    worths = worth_of_choices(position, red(6, 6), 10, random.Random(3), standing)
    assert [(w.casino, w.money, w.chance, w.stderr) for w in worths] == [
        ("6", 90_000, 1.0, 0),
        ("slot", 20_000, 0, 0),
    ]
    assert worths[0].notes == (("6", 90_000, 1.0),) and not worths[1].same_as_best


def test_a_decided_last_round_is_won_for_sure_or_lost_for_sure():
    """Last round, red $1,000,000 ahead: every choice wins for sure (chance 1, no error), and the
    choices are then ranked by the margin; with blue that far ahead, no choice has a chance."""
    position = two_players([(3, 0, 0), (2, 0, 0)], {"2": (50_000,), "3": (90_000,)}, {})
    ahead = Standing({"red": 1_000_000, "blue": 0}, {"red": 1, "blue": 0}, 0, "classic")
    worths = worth_of_choices(position, red(2, 3, 3), 200, random.Random(5), ahead)
    assert all(w.chance == 1.0 and w.chance_stderr == 0 for w in worths)
    margins = [w.margin for w in worths]
    assert margins == sorted(margins, reverse=True)
    behind = Standing({"red": 0, "blue": 1_000_000}, {"red": 0, "blue": 1}, 0, "classic")
    worths = worth_of_choices(position, red(2, 3, 3), 200, random.Random(5), behind)
    assert all(w.chance == 0.0 and w.chance_stderr == 0 for w in worths)


def scored_margin(position: Position, roll, target, standing: dict[str, int]) -> int:
    """Red's money minus the strongest rival's were the round scored now with ``target`` placed,
    by the rules' own scoring (``paid_by_rules``, which ranks with ``scoring.rank``)."""
    after = position.copy()
    after.place(roll, *target)
    money = dict(standing)
    for _, colour, note in paid_by_rules(after):
        if colour in money:
            money[colour] += note
    player = position.player
    return money[player] - max(m for c, m in money.items() if c != player)


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (3, {"neutral": True}), (4, {"edition": "biggy", "slot": True})]
)
def test_the_margin_policy_in_arrays_chooses_as_the_rules_scoring_says(players, options):
    """From positions met in played games, the rollouts' margin choice is among the placements
    whose margin, scored by the rules' ranking, is highest."""
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = replay([start_game(GameConfig.for_players(players, **options), rng)])
        for _ in range(rng.randrange(1, 8)):
            if state.phase is Phase.PLACE or state.rounds:
                break
            state.apply(roll_virtual(state, rng))
            if state.phase is Phase.PLACE and rng.random() < 0.7:
                state.apply(choose_placement(state, rng))
        if state.phase is not Phase.PLACE or state.rounds:
            continue
        position = Position.from_state(state)
        roll = position.roll_of(state.last_roll)
        money = {c: 10_000 * rng.randrange(0, 20) for c in state.colours}
        chosen = choose(position, roll, "margin", np.random.default_rng(seed), money)
        margins = {t: scored_margin(position, roll, t, money) for t in position.targets(roll)}
        assert margins[chosen] == max(margins.values()), (seed, chosen, margins)
        checked += 1
    assert checked >= 10


def test_the_fitted_table_favours_the_leader_and_sums_to_one():
    money = np.array([[300_000, 200_000, 100_000], [0, 0, 0]])
    chances = fitted_chances(money, 2, "classic")
    assert chances.sum(axis=1) == pytest.approx([1, 1])
    assert chances[0, 0] > chances[0, 1] > chances[0, 2]
    assert chances[1] == pytest.approx([1 / 3] * 3)
    fewer = fitted_chances(money, 1, "classic")
    assert fewer[0, 0] > chances[0, 0]  # the same lead is worth more with fewer rounds left


def test_a_waiting_roll_is_placed_by_each_choice_and_the_chances_follow_the_best_one():
    """The chances to win while a roll waits: each placement is played out and the chances are
    those of the one best for the player to move, not of a placement the policy would make."""
    from companion.odds.chances import win_chances

    rng = random.Random(3)
    state = replay([start_game(GameConfig.for_players(3), rng)])
    state.apply(roll_virtual(state, rng))
    assert state.phase is Phase.PLACE and len(state.legal_placements()) > 1
    chances = win_chances(state, 300, random.Random(9))
    worths = worth_of_choices(
        Position.from_state(state), state.last_roll, 300, random.Random(9), Standing.from_state(state)
    )
    assert chances.chances[state.current_player] == pytest.approx(worths[0].chance)
    assert sum(chances.chances.values()) == pytest.approx(1.0)
