"""What a game feels of the reader: dice asked about, dice recorded wrong unasked, roll chances."""

import pytest

from companion.vision import SeenDie
from research.reader.table_feel import TableFeel, roll_chances, solid_dice


def test_a_roll_waits_when_any_die_is_asked_and_goes_in_wrong_when_none_is_but_one_is_wrong():
    assert roll_chances(0.0, 1.0) == (0.0, 0.0)
    waits, wrong = roll_chances(0.06, 0.94)
    assert waits == pytest.approx(1 - 0.94**8) and wrong == pytest.approx(0.0)
    waits, wrong = roll_chances(0.0, 0.99, dice=2)
    assert waits == 0.0 and wrong == pytest.approx(1 - 0.99**2)
    # one die in ten asked, one in a hundred wrong while sure: a roll of 8 goes in wrong 3.9 %
    assert roll_chances(0.1, 0.89)[1] == pytest.approx(0.9**8 - 0.89**8)
    with pytest.raises(ValueError, match="add to at most 1"):
        roll_chances(0.5, 0.6)


def die(x: int, pips: int, found: float = 0.9, margin: float = 0.9) -> SeenDie:
    return SeenDie((x, 0, 20, 20), pips, "red", 0.8, found_score=found, pips_margin=margin)


def test_the_feel_counts_misses_as_asked_and_only_the_solid_dice():
    feel = TableFeel()
    pips = [3, 5, 2, 6, 4]
    solid = [True, True, True, True, False]  # the last label: a die nobody could name the colour of
    pairs = [
        (die(0, 3), 0),  # sure and right
        (die(40, 6), 1),  # sure and wrong
        (die(80, 1, margin=0.2), 2),  # wrong, but hesitant: asked
        (die(160, 1), 4),  # wrong and sure, but not a solid die: left out
    ]  # label 3 missed
    feel.add(solid, pips, pairs)
    figures = feel.figures()
    assert figures["dice"] == 4 and figures["found"] == 0.75
    assert figures["pips_right_among_found"] == pytest.approx(1 / 3, abs=1e-4)
    assert (
        figures["unsure_among_found"]
        == figures["wrong_while_sure_among_found"]
        == pytest.approx(1 / 3, abs=1e-4)
    )
    waits, wrong = roll_chances(2 / 4, 1 / 4)  # asked: the miss and the hesitant die
    assert figures["roll_waits"] == round(waits, 4) and figures["roll_wrong_silently"] == round(wrong, 4)
    assert figures["roll_waits_for_misses"] == round(1 - 0.75**8, 4)
    everything_sure = feel.figures(sure=lambda d: True)
    assert everything_sure["unsure_among_found"] == 0.0
    assert everything_sure["wrong_while_sure_among_found"] == pytest.approx(2 / 3, abs=1e-4)


def test_solid_dice_are_those_named_by_eye(tmp_path):
    table = {"photo": ["red", "orange"]}
    assert solid_dice("table-dice valid", tmp_path / "valid", "photo", 2, table) == [True, True]
    assert solid_dice("table-dice valid", tmp_path / "valid", "other", 2, table) is None
    assert solid_dice("table-dice valid", tmp_path / "valid", "photo", 3, table) is None  # labels changed
    assert solid_dice("webcam valid", tmp_path / "valid", "any", 3, table) == [True] * 3
