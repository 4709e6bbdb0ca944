"""A rendered table calibrated from one picture of each colour, as the calibration benchmark does it."""

import pytest

from companion.vision import DiceReader
from research.benchmarks.bench_calibrated_rolls import calibrated, rendered_tables
from research.benchmarks.bench_colour import light_factors


@pytest.fixture(scope="module")
def reader():
    return DiceReader()


def test_a_table_is_calibrated_from_one_picture_of_each_colour_under_its_lamp(reader):
    """``bench_calibrated_rolls``: every colour rolled at a rendered table is learned from its
    picture (the warm lamp's too), and the learned white is lighter than the learned grey."""
    for light in (None, light_factors("tungsten-like")):
        table = rendered_tables(6, 1, 1, ("white", "red"), light)[0]
        calibration, unlearned = calibrated(reader, table.calibration_pictures)
        assert unlearned == [] and set(calibration.colours) == {"white", "red", "grey"}
        assert calibration.colours["white"].lab[0] > calibration.colours["grey"].lab[0] + 10
        assert calibration.colours["red"].lab[1] > 20  # a, red's side
    players_only, _ = calibrated(reader, table.calibration_pictures, leave_out=("grey",))
    assert set(players_only.colours) == {"white", "red"}
