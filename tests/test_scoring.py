"""Scoring one casino: worked examples of the rules, classic, neutral, Biggy and slot."""

from companion.rules import Payout, score_casino
from companion.rules.editions import SLOT
from tests.helpers import dice


def test_equal_counts_cancel_and_the_rest_take_notes_in_order():
    # Red and blue both have 3 dice: they cancel. Green (2) takes the top note, yellow (1) the next.
    placed = dice("red", 5, 5, 5) + dice("blue", 5, 5, 5) + dice("green", 5, 5) + dice("yellow", 5)
    result = score_casino("5", [10_000, 70_000, 40_000], placed)
    assert result.banknotes == (70_000, 40_000, 10_000)
    assert result.cancelled == ("blue", "red")
    assert result.payouts == (Payout("green", 70_000), Payout("yellow", 40_000))
    assert result.unclaimed == (10_000,)


def test_more_winners_than_notes_leaves_the_last_without():
    placed = dice("red", 2, 2, 2, 2) + dice("blue", 2, 2, 2) + dice("green", 2)
    result = score_casino("2", [60_000], placed)
    assert result.payouts == (Payout("red", 60_000),)
    assert result.unclaimed == ()
    assert result.cancelled == ()


def test_everyone_tied_means_every_note_is_unclaimed():
    placed = dice("red", 1, 1) + dice("blue", 1, 1) + dice("green", 1, 1)
    result = score_casino("1", [30_000, 20_000], placed)
    assert result.payouts == ()
    assert result.cancelled == ("blue", "green", "red")
    assert result.unclaimed == (30_000, 20_000)


def test_two_separate_ties_both_cancel():
    placed = dice("red", 3, 3) + dice("blue", 3, 3) + dice("green", 3) + dice("black", 3)
    placed += dice("white", 3, 3, 3)
    result = score_casino("3", [50_000, 20_000], placed)
    assert result.cancelled == ("black", "blue", "green", "red")
    assert result.payouts == (Payout("white", 50_000),)
    assert result.unclaimed == (20_000,)


def test_neutral_dice_play_as_one_more_player_and_can_cancel_a_player():
    placed = dice("red", 4, 4) + dice("white", 4, 4) + dice("blue", 4)
    result = score_casino("4", [80_000, 20_000], placed)
    assert result.cancelled == ("red", "white")
    assert result.payouts == (Payout("blue", 80_000),)


def test_neutral_dice_can_win_a_note():
    placed = dice("white", 6, 6, 6) + dice("red", 6)
    result = score_casino("6", [90_000, 10_000], placed)
    assert result.payouts == (Payout("white", 90_000), Payout("red", 10_000))


def test_biggy_counts_as_two_dice_and_ties_with_two_dice():
    placed = dice("red", 4, big=True) + dice("blue", 4, 4) + dice("green", 4)
    result = score_casino("4", [50_000, 30_000], placed)
    assert result.cancelled == ("blue", "red")
    assert result.payouts == (Payout("green", 50_000),)


def test_biggy_beats_a_single_die():
    # The CLI example input: the blue Biggy is two dice against red's one.
    placed = dice("red", 4) + dice("blue", 4, big=True)
    result = score_casino("4", [10_000, 80_000, 30_000], placed)
    assert result.cancelled == ()
    assert result.payouts == (Payout("blue", 80_000), Payout("red", 30_000))
    assert result.unclaimed == (10_000,)


def test_slot_breaks_equal_counts_by_pip_sum():
    placed = dice("red", 6, 1) + dice("blue", 5, 3)
    result = score_casino(SLOT, [40_000, 20_000], placed)
    assert result.cancelled == ()
    assert result.payouts == (Payout("blue", 40_000), Payout("red", 20_000))


def test_slot_breaks_equal_count_and_sum_by_highest_die():
    placed = dice("red", 6, 2) + dice("blue", 5, 3)
    result = score_casino(SLOT, [40_000, 20_000], placed)
    assert result.payouts == (Payout("red", 40_000), Payout("blue", 20_000))


def test_slot_cancels_only_a_perfect_tie_and_ranks_every_place():
    # green and black tie on count, sum and highest die; red and blue are told apart lower down.
    placed = dice("green", 6, 1, 1) + dice("black", 6, 1, 1) + dice("red", 2, 2) + dice("blue", 3, 1)
    result = score_casino(SLOT, [70_000, 30_000], placed)
    assert result.cancelled == ("black", "green")
    assert result.payouts == (Payout("blue", 70_000), Payout("red", 30_000))


def test_slot_biggy_counts_twice_in_count_and_in_pips():
    # Biggy 3 = two dice, 6 pips, highest 3; blue 2+4 = two dice, 6 pips, highest 4.
    placed = dice("red", 3, big=True) + dice("blue", 2, 4)
    result = score_casino(SLOT, [60_000, 10_000], placed)
    assert result.tallies[0].colour == "blue"
    assert result.payouts == (Payout("blue", 60_000), Payout("red", 10_000))


def test_numbered_casino_ignores_pips_when_counts_tie():
    placed = dice("red", 6, 6) + dice("blue", 6, 6)
    assert score_casino("6", [50_000], placed).cancelled == ("blue", "red")


def test_empty_casino_keeps_all_notes_unclaimed():
    result = score_casino("1", [20_000, 30_000], ())
    assert result.payouts == () and result.unclaimed == (30_000, 20_000)
