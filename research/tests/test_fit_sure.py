"""The unsure rule fitted on labelled dice, and the pip reader that reads each die from several crops."""

import numpy as np

from companion.vision import SeenDie
from companion.vision.pips import PipReader
from research.reader.fit_sure import cost, fitted_bounds
from research.reader.several_crops import SeveralCropsPipReader
from research.reader.table_feel import TableFeel


def test_the_fit_asks_about_the_hesitant_wrong_dice_and_not_the_right_ones():
    # right dice read with margins 0.9 or more; wrong ones with 0.5–0.6: a bound of 0.65 parts them
    margins = [(0.9, True)] * 40 + [(0.95, True)] * 40 + [(0.5, False), (0.55, False), (0.6, False)]
    feel = TableFeel()
    dice = [SeenDie((0, 0, 20, 20), 3, "red", 0.8, found_score=0.9, pips_margin=m) for m, _ in margins]
    feel.reads = list(zip(dice, [ok for _, ok in margins], strict=True))
    feel.dice = len(dice)
    found, margin = fitted_bounds(feel)
    assert 0.6 < margin <= 0.9 and found <= 0.9
    figures = feel.figures(lambda d: d.pips_margin >= margin)
    assert figures["wrong_while_sure_among_found"] == 0.0 and figures["unsure_among_found"] == round(
        3 / 83, 4
    )
    assert cost(figures) < cost(feel.figures(lambda d: True))


def test_one_crop_reads_as_the_shipped_pip_reader_and_five_average_moved_crops():
    rng = np.random.default_rng(3)
    frame = rng.integers(0, 255, (120, 160, 3), dtype=np.uint8)
    boxes = [(30.0, 30.0, 24.0, 24.0), (100.0, 60.0, 20.0, 22.0)]
    shipped = PipReader(threads=1).read(frame, boxes)
    assert SeveralCropsPipReader(threads=1, crops=1).read(frame, boxes) == shipped
    five = SeveralCropsPipReader(threads=1, crops=5).read(frame, boxes)
    assert len(five) == 2 and [r.confidence for r in five] != [r.confidence for r in shipped]
