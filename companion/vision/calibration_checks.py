"""Questioning a calibration before a game relies on it: dice of two colours in one photo, dice
of a hue far from the colour named, two colours learned alike.
Pure: readings in, findings and the words for the player out."""

import itertools
from dataclasses import dataclass

import numpy as np

from .calibration import LearnedColour, learn_colour
from .colour import HUES, OTHER, BodyReading, palette_colour

#: dice of one photo whose bodies part into two groups this far apart (CIELAB, lightness in full)
#: are not one colour: a photo holding another player's dice too. One colour's dice part by at
#: most 55 (docs/decisions.md, "The palette's thresholds are measured")
MIXED_APART = 60.0
#: two learned colours this close (in each other's spreads, as ``LearnedColour.distance`` counts)
#: cannot be told apart in play
ALIKE = 1.0


@dataclass(frozen=True)
class Parting:
    """How the dice of one calibration photo part into two groups of bodies."""

    apart: float  # distance between the groups' median bodies (CIELAB)
    fewer: tuple[int, ...]  # indices of the readings in the smaller group


def parting(readings: list[BodyReading]) -> Parting:
    """The split of ``readings`` into two groups, cut along the line they spread most on where
    the groups' means part most for their sizes (Ward's criterion); a die alone: nothing apart."""
    if len(readings) < 2:
        return Parting(0.0, ())
    labs = np.array([r.lab for r in readings], np.float64)
    centred = labs - labs.mean(axis=0)
    order = np.argsort(centred @ np.linalg.svd(centred, full_matrices=False)[2][0])
    best, best_score = Parting(0.0, ()), -1.0
    for cut in range(1, len(order)):
        low, high = labs[order[:cut]], labs[order[cut:]]
        score = len(low) * len(high) / len(labs) * float(np.sum((low.mean(axis=0) - high.mean(axis=0)) ** 2))
        if score > best_score:
            fewer = order[:cut] if cut <= len(order) - cut else order[cut:]
            apart = float(np.linalg.norm(np.median(low, axis=0) - np.median(high, axis=0)))
            best, best_score = Parting(apart, tuple(sorted(int(i) for i in fewer))), score
    return best


def alike_colours(colours: dict[str, LearnedColour]) -> list[tuple[str, str]]:
    """The pairs of learned colours each within ``ALIKE`` of the other: the reader would mix them up."""

    def as_reading(colour: LearnedColour) -> BodyReading:
        return BodyReading(colour.lab, colour.dark_pips)

    return [
        (a, b)
        for (a, first), (b, second) in itertools.combinations(colours.items(), 2)
        if first.distance(as_reading(second)) < ALIKE and second.distance(as_reading(first)) < ALIKE
    ]


#: a photo given for one hue whose dice the palette names a hue at least this far round the circle
#: (degrees between the palette's hue centres: red and green, blue and yellow; not red and
#: yellow, nor blue and violet, which a lamp can move one into the other) is likely another
#: colour's photo
OTHER_HUE_APART = 90.0


def looks_like_another_hue(given: str, colour: LearnedColour) -> str | None:
    """The palette's name for a learned colour when the photo was given as a hue far from it
    (a photo given under the wrong colour), else None. Neutral names are never questioned: a
    warm lamp turns white dice yellow, which is why a table calibrates."""
    if given not in HUES:
        return None
    named, _ = palette_colour(BodyReading(colour.lab, colour.dark_pips))
    if named not in HUES or named == given:
        return None
    between = abs((HUES[named][0] - HUES[given][0] + 180) % 360 - 180)
    return named if between >= OTHER_HUE_APART else None


def photo_warnings(
    colour: str, readings: list[BodyReading], learned: LearnedColour, paths: list[str]
) -> list[str]:
    """What looks wrong with the photos a colour was learned from: dice of two colours in them,
    or dice of a hue far from the colour's name (another colour's photo). ``paths``: the
    photos, or what the player knows the picture by."""
    warnings = []
    split = parting(readings)
    if split.apart >= MIXED_APART:
        rest = [i for i in range(len(readings)) if i not in split.fewer]
        groups = [(len(part), palette_name([readings[i] for i in part])) for part in (split.fewer, rest)]
        # the larger group first; of two alike in size, the one that looks like the colour named
        (many, many_look), (few, few_look) = sorted(groups, key=lambda g: (-g[0], g[1] != colour))
        described = (
            f"{many} look {many_look}, {few} {few_look}"
            if OTHER not in (few_look, many_look) and few_look != many_look
            else f"{few} of the {len(readings)} stand apart"
        )
        warnings.append(
            f"the dice in {', '.join(paths)} are not all one colour ({described}): take the photo again "
            f"with only {colour} dice, or the reader may name both colours {colour}"
        )
    named = looks_like_another_hue(colour, learned)
    if named is not None:
        warnings.append(
            f"these dice look {named}, not {colour}: is {', '.join(paths)} the photo of the {colour} dice?"
        )
    return warnings


def palette_name(readings: list[BodyReading]) -> str:
    """What the default palette calls the typical body among ``readings``."""
    typical = learn_colour(readings)
    return palette_colour(BodyReading(typical.lab, typical.dark_pips))[0]


def alike_warning(first: str, second: str, where: dict[str, list[str]]) -> str:
    """What to tell a player whose colours ``first`` and ``second`` were learned alike, with the
    photos each was learned from."""
    return (
        f"{first} and {second} were learned alike ({', '.join(where[first])}; {', '.join(where[second])}): "
        "the reader will mix them up; is one of the photos the wrong one?"
    )
