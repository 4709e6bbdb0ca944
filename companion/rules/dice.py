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


def check_die(die: Die) -> Die:
    """Validate a die's fields; raise ValueError naming the bad value."""
    if not isinstance(die.colour, str) or not die.colour.strip():
        raise ValueError(f"a die needs a colour name, got {die.colour!r}")
    check_pips(die.pips)
    if not isinstance(die.big, bool):
        raise ValueError(f"'big' must be true or false, got {die.big!r}")
    return die
