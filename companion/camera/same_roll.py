"""Whether a settled reading is the roll already reported, its correction, or a new roll.

A hand that rests over a roll and leaves moves the table, so the table settles and is read again;
dice in the places they lay are the same dice. Matching is by place alone: a die that rolled
again lands elsewhere, and the pips of a die read twice may differ (a misread first look)."""

from enum import StrEnum

from ..vision.die import SeenDie


class Verdict(StrEnum):
    NEW = "new"  # another roll: some die lies where none lay
    AGAIN = "again"  # the same dice, or some of them (a hand hides the rest, dice taken away)
    CORRECTED = "corrected"  # every die reported before, and more dice or other pips: a fuller look


def same_place(a: SeenDie, b: SeenDie) -> bool:
    """Whether two readings' dice lie in one place: either's centre within the other's box."""

    def inside(die: SeenDie, box: tuple[int, int, int, int]) -> bool:
        x, y, w, h = box
        return x <= die.centre[0] <= x + w and y <= die.centre[1] <= y + h

    return inside(a, b.box) or inside(b, a.box)


def pairs(before: tuple[SeenDie, ...], now: tuple[SeenDie, ...]) -> list[tuple[int, int]]:
    """(index in ``before``, index in ``now``) of the dice lying in one place, each die in one
    pair at most, the nearest first."""

    def distance(i: int, j: int) -> float:
        (ax, ay), (bx, by) = before[i].centre, now[j].centre
        return (ax - bx) ** 2 + (ay - by) ** 2

    candidates = sorted(
        ((i, j) for i in range(len(before)) for j in range(len(now)) if same_place(before[i], now[j])),
        key=lambda pair: distance(*pair),
    )
    taken_before: set[int] = set()
    taken_now: set[int] = set()
    matched = []
    for i, j in candidates:
        if i not in taken_before and j not in taken_now:
            taken_before.add(i)
            taken_now.add(j)
            matched.append((i, j))
    return matched


def compare(before: tuple[SeenDie, ...], now: tuple[SeenDie, ...]) -> Verdict:
    """What the reading ``now`` is to the roll reported as ``before`` (both non-empty)."""
    matched = pairs(before, now)
    if len(matched) == len(now) < len(before):  # some of the dice: the others hidden or taken
        return Verdict.AGAIN
    if len(matched) == len(now):  # the same dice: the same pips, or a better look at them
        same_pips = all(before[i].pips == now[j].pips for i, j in matched)
        return Verdict.AGAIN if same_pips else Verdict.CORRECTED
    if len(matched) == len(before):  # every die of the roll is still there, and more are seen
        return Verdict.CORRECTED
    return Verdict.NEW


def exactly_again(before: tuple[SeenDie, ...], now: tuple[SeenDie, ...]) -> bool:
    """Whether ``now`` holds the very dice of ``before``: as many, each where it lay, with its pips."""
    matched = pairs(before, now)
    return len(matched) == len(before) == len(now) and all(before[i].pips == now[j].pips for i, j in matched)
