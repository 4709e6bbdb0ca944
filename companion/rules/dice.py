"""Dice as the rules see them: a colour, the pips on the top face, and whether it is a Biggy."""

from typing import NamedTuple

PIP_VALUES = (1, 2, 3, 4, 5, 6)


class Die(NamedTuple):
    """One die on the table. A Biggy (``big``) counts as two dice in every count and tie."""

    colour: str
    pips: int
    big: bool = False

    @property
    def weight(self) -> int:
        return 2 if self.big else 1


def check_pips(pips: object) -> int:
    """Return ``pips`` if it is a whole number from 1 to 6, else raise ValueError."""
    if isinstance(pips, bool) or not isinstance(pips, int) or not 1 <= pips <= 6:
        raise ValueError(f"pips must be a whole number from 1 to 6, got {pips!r}")
    return pips


def die_of(colour: object, pips: object, big: object = False) -> Die:
    """The die of these values as JSON gives them (the colour's case and spaces do not count);
    ValueError naming the bad value."""
    if not isinstance(colour, str) or not colour.strip():
        raise ValueError(f"a die needs a colour name, got {colour!r}")
    checked = check_pips(pips)
    if not isinstance(big, bool):
        raise ValueError(f"'big' must be true or false, got {big!r}")
    return Die(colour.strip().lower(), checked, big)
