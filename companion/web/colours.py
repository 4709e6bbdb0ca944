"""The game's colours as the pages draw them. The ids come from ``rules.colours``; this module
adds only how each looks on a screen. Every page receives ``page_colours()`` from its template,
so the pages hold no list of colours of their own (their translations stay in ``i18n.js``,
keyed by id)."""

from typing import TypedDict

from ..rules.colours import DEFAULT_COLOURS, PLAYER_COLOURS, SPELLINGS

#: each colour's swatch and die face on a screen (CSS), for every colour of ``rules.colours.COLOURS``
SWATCHES = {
    "red": "#d62828",
    "green": "#2a9d3f",
    "blue": "#1d5fd1",
    "black": "#1b1b1b",
    "white": "#f4f4f0",
    "yellow": "#f2c230",
    "grey": "#8d8d8d",
    "violet": "#7b3fb8",
    "orange": "#f07a1a",
    "pink": "#e85d9e",
    "brown": "#7a4b2a",
}
#: colours light enough that the pips on their faces are drawn dark
LIGHT = ("white", "yellow")


class PageColours(TypedDict):
    """What the pages know of colours: the choices a seat offers, each seat's default, and how a
    colour is drawn (by id, and by its American spelling)."""

    choices: list[str]
    defaults: list[str]
    swatches: dict[str, str]
    light: list[str]


def page_colours() -> PageColours:
    spelled = {spelling: SWATCHES[colour] for spelling, colour in SPELLINGS.items()}
    return {
        "choices": list(PLAYER_COLOURS),
        "defaults": list(DEFAULT_COLOURS),
        "swatches": SWATCHES | spelled,
        "light": list(LIGHT),
    }
