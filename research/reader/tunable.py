"""The reader with the settings research measures and the product fixes.

The product's reader runs one value of each: the quarter scale only after a wide half-scale
candidate, a candidate inside a larger die dropped only when ``PART_INSIDE`` of it lies inside,
PipNet read upright, mirrored only under ``SURE_UNMIRRORED``. ``compare_readers`` and
``bench_game_rolls`` turn them to repeat a measurement, and read a PipNet trained on turned
crops (``train_pips`` without ``--upright``) in the quarter turns its file names.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.vision.boxes import inside_share
from companion.vision.calibration import Calibration
from companion.vision.detector import (
    DEFAULT_THRESHOLD,
    FOCUS_MOST,
    PART_INSIDE,
    QUARTER_FROM,
    Detection,
    DiceDetector,
)
from companion.vision.pips import SURE_UNMIRRORED, PipReader, turns_mark
from companion.vision.reader import CANDIDATE_THRESHOLD, DiceReader

#: the turns a PipNet trained on crops turned every way is read in, averaged (Roboflow valid
#: 0.794 -> 0.801 over one turn); one trained upright is read once
TURNED_TRAINING_TURNS = 4
#: the turns of a PipNet file that names none: the first exports wrote no mark, and were trained turned
UNMARKED_TURNS = TURNED_TRAINING_TURNS
#: with more than one turn, a crop read at least this surely upright is not turned: each turn
#: costs about 0.7 ms a crop on a 2-core laptop
SURE_UPRIGHT = 0.8


class TunableDetector(DiceDetector):
    """``DiceDetector`` whose quarter scale is run when the half scale found something
    ``quarter_from`` pixels wide or nothing (None: always), and which drops a candidate inside a
    coarser scale's die when ``part_inside`` of it lies inside (None: whenever its centre does)."""

    def __init__(
        self,
        *args,
        quarter_from: int | None = QUARTER_FROM,
        part_inside: float | None = PART_INSIDE,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.quarter_from = quarter_from
        self.part_inside = part_inside

    def needs_coarser_scales(self, half_found: list[Detection], half_scale: float) -> bool:
        if self.quarter_from is None or not half_found:
            return True
        return max(max(d.box[2], d.box[3]) for d in half_found) * half_scale >= self.quarter_from

    def containing(self, candidate: Detection, dice: list[Detection]) -> list[Detection]:
        if self.part_inside is None:
            return dice
        return [die for die in dice if inside_share(candidate.box, die.box) >= self.part_inside]


class TunablePipReader(PipReader):
    """``PipReader`` that reads each crop in ``turns`` quarter turns (None: as the model file says,
    ``UNMARKED_TURNS`` when it says nothing), turning only crops read upright under
    ``sure_upright`` (None: every crop); ``mirrored`` False: each crop read once, not also
    mirrored; ``sure_unmirrored`` None: with ``mirrored``, every crop read mirrored too."""

    def __init__(
        self,
        model_path: Path | None = None,
        threads: int = 2,
        turns: int | None = None,
        sure_upright: float | None = SURE_UPRIGHT,
        mirrored: bool = True,
        sure_unmirrored: float | None = SURE_UNMIRRORED,
    ) -> None:
        if turns is not None and not 1 <= turns <= 4:
            raise ValueError(f"turns must be 1–4 (quarter turns of each crop), got {turns}")
        self.turns = turns or 0
        super().__init__(model_path, threads)
        self.sure_upright = sure_upright
        self.mirrored = mirrored
        self.sure_unmirrored = sure_unmirrored

    def check_model(self, path: Path, metadata: dict[str, str]) -> None:
        """Any quarter turns the file names are read; a file naming none is read as turned."""
        mark = turns_mark(path, metadata)
        self.turns = self.turns or (UNMARKED_TURNS if mark is None else mark)

    def run(self, crops: np.ndarray) -> np.ndarray:
        """N×7 probabilities for N×side×side×3 BGR crops, as they are, or (``mirrored``) the mean
        of each crop's and its left-right mirror's: in one batch, or (``sure_unmirrored``) the
        mirrors of the crops read under it in a second."""
        if not self.mirrored:
            return self.infer(crops)
        if self.sure_unmirrored is None:
            both = self.infer(np.concatenate([crops, crops[:, :, ::-1]]))
            return (both[: len(crops)] + both[len(crops) :]) / 2
        probabilities = self.infer(crops)
        unsure = np.nonzero(probabilities.max(axis=1) < self.sure_unmirrored)[0]
        if len(unsure):
            probabilities[unsure] = (probabilities[unsure] + self.infer(crops[unsure, :, ::-1])) / 2
        return probabilities

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """``run``'s probabilities averaged over ``turns`` quarter turns of each crop; a crop read
        upright at ``sure_upright`` or more is not turned."""
        upright = self.run(crops)
        line = np.inf if self.sure_upright is None else self.sure_upright
        unsure = np.nonzero(upright.max(axis=1) < line)[0]
        if len(unsure) and self.turns > 1:
            turned = np.concatenate([np.rot90(crops[unsure], k, axes=(1, 2)) for k in range(1, self.turns)])
            others = self.run(turned).reshape(self.turns - 1, len(unsure), -1)
            upright[unsure] = (upright[unsure] + others.sum(axis=0)) / self.turns
        return upright


class TunableDiceReader(DiceReader):
    """``DiceReader`` built of a ``TunableDetector`` and a ``TunablePipReader``: ``detector`` and
    ``pips`` are their settings (``quarter_from``, ``part_inside``; ``turns``, ``sure_upright``,
    ``mirrored``, ``sure_unmirrored``)."""

    def __init__(
        self,
        model_path: Path | None = None,
        calibration: Calibration | None = None,
        threads: int = 2,
        threshold: float = DEFAULT_THRESHOLD,
        pip_model_path: Path | None = None,
        focus_most: float | None = FOCUS_MOST,
        detector: dict | None = None,
        pips: dict | None = None,
    ) -> None:
        self.detector = TunableDetector(
            model_path,
            threads=threads,
            threshold=threshold,
            floor=CANDIDATE_THRESHOLD,
            focus_most=focus_most,
            **(detector or {}),
        )
        self.pip_reader = TunablePipReader(pip_model_path, threads=threads, **(pips or {}))
        self.calibration = calibration or Calibration()
