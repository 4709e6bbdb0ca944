"""The dice reader: created once (models, calibration), then ``read(frame) -> list[SeenDie]``.

Two models: the detector proposes candidates, the pip reader reads each one from a crop of the
full-resolution frame (and throws out what is not a die). A low-score candidate (scored between
``CANDIDATE_THRESHOLD`` and the threshold: a die on granite, a white die on a light cloth) is
kept when the pip reader is sure of its pips (``SURE_PIPS``). In a picture without colour
(``colourless``) every die's colour is ``other``: a grey body there may be any die.
"""

from dataclasses import replace
from pathlib import Path

import numpy as np

from .boxes import Box, centre
from .calibration import Calibration
from .colour import OTHER, BodyReading, palette_colour, read_body, white_balance_gains
from .dark_frame import brightened as brighten
from .detector import DEFAULT_THRESHOLD, FOCUS_MOST, Detection, DiceDetector
from .die import SeenDie, in_reading_order
from .pips import PipReader, PipReading
from .quality import colourless, unreadable

#: the lowest detector score of a candidate the pip reader may still keep
CANDIDATE_THRESHOLD = 0.25
#: how sure the pip reader must be of a low-score candidate's pips to keep it
SURE_PIPS = 0.7
#: a candidate narrower than this (pixels of the frame) is too small to show pips: not read as a die
#: (the smallest labelled die of the shared sets is 8 px, most are 12 px or more)
MIN_DIE_SIDE = 6


class DiceReader:
    def __init__(
        self,
        model_path: Path | None = None,
        calibration: Calibration | None = None,
        threads: int = 2,
        threshold: float = DEFAULT_THRESHOLD,
        pip_model_path: Path | None = None,
        focus_most: float | None = FOCUS_MOST,
    ) -> None:
        """``model_path``, ``pip_model_path`` None: the shipped models; ``threshold``: the
        detector's score that makes a candidate a sure die; ``focus_most``: the detector's (None:
        full scale covers the whole frame always, as ``--whole-frame`` asks)."""
        self.detector = DiceDetector(
            model_path, threads=threads, threshold=threshold, floor=CANDIDATE_THRESHOLD, focus_most=focus_most
        )
        self.pip_reader = PipReader(pip_model_path, threads=threads)
        self.calibration = calibration or Calibration()

    def keeps(self, score: float, reading: PipReading) -> bool:
        """Whether a candidate the detector scored ``score`` and the pip reader read so is a die."""
        if reading.pips is None:
            return False
        return score >= self.detector.threshold or reading.confidence >= SURE_PIPS

    def read(self, frame: np.ndarray, whole: bool = False, brightened: bool = False) -> list[SeenDie]:
        """Every die on the table in this BGR frame, in reading order (top to bottom, left to right);
        ``whole``: the detector's full scale covers the whole frame (a roll read short is read so again);
        ``brightened``: the dice are found and read on a brightened copy of the frame
        (``dark_frame.brightened``; a dark roll still read short), their colours on the frame as it is."""
        found = self.find(brighten(frame) if brightened else frame, whole)
        gains = white_balance_gains(frame, [f.box for f in found])
        without_colour = colourless(frame)
        dice = []
        for die in found:
            body = read_body(frame, die.box, gains)
            colour = OTHER if without_colour else self.colour_named(body)
            lightness, tint = (None, None) if body is None else (body.lab[0], body.lab[1:])
            dice.append(replace(die, colour=colour, lightness=lightness, tint=tint))
        return in_reading_order(dice)

    def find(self, frame: np.ndarray, whole: bool = False) -> list[SeenDie]:
        """Every die in this BGR frame, its colour not yet read (``other``): what ``read`` names
        the colours of, and what calibration learns them from (``whole``: as ``read``'s)."""
        problem = unreadable(frame)
        if problem is not None:
            raise ValueError(problem)
        #: what the pip reader already read while the detector asked which large candidates are dice
        readings: dict[Box, PipReading] = {}

        def confirm(candidates: list[Detection]) -> list[bool]:
            boxes = [d.box for d in candidates]
            readings.update(zip(boxes, self.pip_reader.read(frame, boxes), strict=True))
            return [self.keeps(d.score, readings[d.box]) for d in candidates]

        table = self.calibration.fitted_to((frame.shape[1], frame.shape[0])).calibration
        found = [
            d
            for d in self.detector.detect(frame, confirm, whole)
            if table.on_table(centre(d.box)) and max(d.box[2], d.box[3]) >= MIN_DIE_SIDE
        ]
        unread = [d.box for d in found if d.box not in readings]
        readings.update(zip(unread, self.pip_reader.read(frame, unread), strict=True))
        read = [(d, readings[d.box]) for d in found]
        return [
            seen(d.box, reading.pips, d.score * reading.confidence, d.score, reading.margin)
            for d, reading in read
            if reading.pips is not None and self.keeps(d.score, reading)
        ]

    def colour_of(self, frame: np.ndarray, box: Box, gains: np.ndarray) -> str:
        """The colour of the die in ``box``, its frame's exposure corrected by ``gains``."""
        return self.colour_named(read_body(frame, box, gains))

    def colour_named(self, reading: BodyReading | None) -> str:
        """A body's colour: the calibration's nearest learned colour when there is one, else the
        default palette's name, or ``other`` when unsure."""
        if reading is None:
            return OTHER
        learned = self.calibration.nearest_colour(reading)
        if learned is not None:
            return learned[0]
        name, confidence = palette_colour(reading)
        return name if confidence >= 0.45 else OTHER


def seen(box: Box, pips: int, score: float, found_score: float, pips_margin: float | None) -> SeenDie:
    """A die found and read, its colour not yet named: its box in whole pixels of the frame."""
    x, y, w, h = (int(round(v)) for v in box)
    return SeenDie((x, y, w, h), pips, OTHER, min(1.0, max(0.0, score)), None, found_score, pips_margin)
