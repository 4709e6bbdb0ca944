"""A pip reader that reads each die from several crops and averages the answers: today's crop
and the same moved a tenth of the box's longer side up, down, left and right."""

from __future__ import annotations

import numpy as np

from companion.vision.boxes import Box
from companion.vision.pips import NOT_A_DIE, PipReader, PipReading, reader_crops

#: the crops' moves, in the box's longer side (x, y): today's first
MOVES = ((0.0, 0.0), (0.0, -0.1), (0.0, 0.1), (-0.1, 0.0), (0.1, 0.0))


class SeveralCropsPipReader(PipReader):
    """``PipReader`` reading each box from the first ``crops`` of ``MOVES``, answers averaged."""

    def __init__(self, *args, crops: int = len(MOVES), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not 1 <= crops <= len(MOVES):
            raise ValueError(f"crops must be 1–{len(MOVES)}, got {crops}")
        self.moves = MOVES[:crops]

    def read(self, frame: np.ndarray, boxes: list[Box]) -> list[PipReading]:
        if not boxes:
            return []
        rows = np.mean(
            [
                self.probabilities(reader_crops(frame, [moved(box, dx, dy) for box in boxes]))
                for dx, dy in self.moves
            ],
            axis=0,
        )
        readings = []
        for row in rows:
            second, first = np.sort(row)[-2:]
            best = int(row.argmax())
            readings.append(
                PipReading(None if best == NOT_A_DIE else best, float(first), float(first - second))
            )
        return readings


def moved(box: Box, dx: float, dy: float) -> Box:
    x, y, w, h = box
    side = max(w, h)
    return (x + dx * side, y + dy * side, w, h)


def several_crops(reader, crops: int, threads: int = 2) -> None:
    """Make ``reader`` (a ``DiceReader`` with the shipped PipNet) read each die from ``crops`` crops."""
    reader.pip_reader = SeveralCropsPipReader(threads=threads, crops=crops)
