"""What a player calls a colour, as the reader names it: the palette's names, the game's other
names for them (``rules.colours.OTHER_NAMES``), any other name kept as given, and a "did you
mean …?" for what looks like a typo of one of the palette's names."""

from ..rules.colours import OTHER_NAMES
from ..words import nearest
from .colour import PALETTE


class ColourNameError(ValueError):
    """A colour name that looks like a typo; the message names the nearest right one."""


def reader_colour(given: str) -> tuple[str, str]:
    """The name ``given`` for a colour, as the reader and the tablet page call it, and a note for
    the player (empty when the name is the palette's own)."""
    name = given.strip().lower()
    if name in PALETTE:
        return name, ""
    if name in OTHER_NAMES:
        return OTHER_NAMES[name], f" (learned as {OTHER_NAMES[name]}, the reader's name for {name})"
    close = nearest(name, list(PALETTE))
    if close is not None:
        raise ColourNameError(f"no colour {given!r} — did you mean '{close}'?")
    return name, (
        f" ({name} is not one of the reader's colours, {', '.join(PALETTE)}: with this calibration its "
        f"dice are named {name}, so give the player that colour)"
    )
