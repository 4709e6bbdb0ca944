"""What a player calls a colour, as the reader and the tablet page name it: the palette's names,
American spelling and the rule texts' Spanish and French, any other name kept as given, and a
"did you mean …?" for what looks like a typo of one of the palette's names."""

from ..words import nearest
from .colour import PALETTE

#: other names a player may give a colour of the reader's palette: American spelling, and the
#: Spanish and French of the rule texts (so "blanc" is white, not a typo of "black")
OTHER_NAMES = {
    "gray": "grey",
    "purple": "violet",
    "rojo": "red",
    "rouge": "red",
    "verde": "green",
    "vert": "green",
    "azul": "blue",
    "bleu": "blue",
    "negro": "black",
    "noir": "black",
    "blanco": "white",
    "blanc": "white",
    "amarillo": "yellow",
    "jaune": "yellow",
    "gris": "grey",
    "violeta": "violet",
    "morado": "violet",
}


def canonical(colour: str) -> str:
    """The reader's name for a colour the game may spell otherwise ("Gray" is grey, "rouge" red:
    any case, and ``OTHER_NAMES``, the other names calibration learns a colour under)."""
    name = colour.strip().lower()
    return OTHER_NAMES.get(name, name)


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
