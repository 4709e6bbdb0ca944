"""What a game at the table feels of the reader: the dice it must ask about, the dice it records
wrong without asking, and from those the chance that a roll waits for a tap or goes in wrong.

Counted on the solid-coloured dice of a labelled set (the kind a Las Vegas set has): every die of
a label whose colour was named by eye, not one left unnamed (translucent, marbled, half hidden).
A die waits for a tap when the reader misses it (the roll then does not fit the roller's hand)
or is unsure of it (``companion.vision.sure.is_sure``); a die the reader is sure of with the
wrong pips goes into the game unnoticed. A roll's dice are taken as independent, so a roll of
n dice waits with 1 − (1 − asked)ⁿ and goes in wrong silently with (1 − asked)ⁿ − (sure and
right)ⁿ, each share of the labelled dice.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from companion.vision.die import SeenDie
from companion.vision.sure import is_sure

#: the dice of a Las Vegas roll at the start of a round (a player's eight)
ROLL_DICE = 8
#: the body colour of every labelled die of Roboflow valid and test, named by eye (null: nobody
#: could name it for sure: translucent, cream or tan, half hidden, blurred)
ROBOFLOW_COLOURS = Path(__file__).resolve().parent.parent / "benchmarks" / "roboflow_colours.json"


def roll_chances(asked: float, sure_right: float, dice: int = ROLL_DICE) -> tuple[float, float]:
    """The chance that a roll of ``dice`` dice waits for a tap, and that it is recorded wrong
    without asking, from the shares of dice asked about and of dice read surely and right."""
    if not 0.0 <= asked <= 1.0 or not 0.0 <= sure_right <= 1.0 - asked + 1e-12:
        raise ValueError(
            f"shares must lie in 0–1 and add to at most 1: asked {asked}, sure and right {sure_right}"
        )
    none_asked = (1.0 - asked) ** dice
    return 1.0 - none_asked, max(0.0, none_asked - sure_right**dice)


@dataclass
class TableFeel:
    """The solid-coloured labelled dice of a set: how many, and each one found with whether its
    pips were right (to be judged sure or not by a rule)."""

    dice: int = 0
    reads: list[tuple[SeenDie, bool]] = field(default_factory=list)
    #: per photo: its solid dice, and how many of ``reads`` are its
    photos: list[tuple[int, int]] = field(default_factory=list)

    def add(self, solid: list[bool], pips: list[int], pairs: list[tuple[SeenDie, int]]) -> None:
        """One photo: ``solid`` says which of its labels count, ``pips`` what each label says;
        ``pairs`` the dice read matched to them (a die, its label's index)."""
        reads = [(die, die.pips == pips[index]) for die, index in pairs if solid[index]]
        self.dice += sum(solid)
        self.reads.extend(reads)
        self.photos.append((sum(solid), len(reads)))

    @classmethod
    def pooled(cls, feels: list[TableFeel]) -> TableFeel:
        """Several sets' dice as one."""
        return cls(
            sum(f.dice for f in feels),
            [r for f in feels for r in f.reads],
            [p for f in feels for p in f.photos],
        )

    def per_photo(self, sure: Callable[[SeenDie], bool] = is_sure) -> np.ndarray:
        """Photos × (solid dice, dice asked about, dice read surely and right): what a bootstrap
        over photos draws from."""
        rows, start = [], 0
        for dice, count in self.photos:
            reads = self.reads[start : start + count]
            start += count
            sure_right = sum(ok and sure(die) for die, ok in reads)
            rows.append(
                (dice, dice - sure_right - sum(sure(die) and not ok for die, ok in reads), sure_right)
            )
        return np.array(rows, float).reshape(-1, 3)

    def figures(self, sure: Callable[[SeenDie], bool] = is_sure, dice: int = ROLL_DICE) -> dict:
        """Found, pips right among found, unsure and wrong-while-sure among found, and the roll chances."""
        found = len(self.reads)
        right = sum(ok for _, ok in self.reads)
        unsure = sum(not sure(die) for die, _ in self.reads)
        sure_wrong = sum(sure(die) and not ok for die, ok in self.reads)
        if not self.dice:
            return {"dice": 0}
        asked = (self.dice - found + unsure) / self.dice
        waits, wrong = roll_chances(asked, (found - unsure - sure_wrong) / self.dice, dice)
        among = max(found, 1)
        return {
            "dice": self.dice,
            "found": round(found / self.dice, 4),
            "pips_right_among_found": round(right / among, 4),
            "unsure_among_found": round(unsure / among, 4),
            "wrong_while_sure_among_found": round(sure_wrong / among, 4),
            "roll_waits": round(waits, 4),
            # what the dice missed alone make wait, whatever the rule: the detector's part
            "roll_waits_for_misses": round(roll_chances((self.dice - found) / self.dice, 0.0, dice)[0], 4),
            "roll_wrong_silently": round(wrong, 4),
        }


def solid_dice(set_name: str, folder: Path, stem: str, labels: int, table_colours: dict) -> list[bool] | None:
    """Which labelled dice of one photo are solid-coloured ones whose colour was named by eye:
    Roboflow's by ``ROBOFLOW_COLOURS``, table-dice's by ``table_colours`` (every die there is
    solid), the webcam set's all (white dice). None: the photo has no colour labels."""
    if set_name.startswith("roboflow"):
        named = roboflow_colours().get(f"{folder.name}/{stem}")
    elif set_name.startswith("table-dice"):
        named = table_colours.get(stem)
    else:
        named = ["white"] * labels
    if named is None or len(named) != labels:
        return None
    return [colour is not None for colour in named]


@cache
def roboflow_colours() -> dict:
    return json.loads(ROBOFLOW_COLOURS.read_text())
