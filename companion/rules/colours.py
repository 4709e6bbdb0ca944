"""The game's dice colours, named once. A colour is its id ("red", "grey"): the reader's palette
maps what it sees onto these ids, requests and the pages take them from here, and the pages
translate them by id.

A player may still give a colour of their own ("lilac"): the rules take any name; these are the
colours every adapter knows."""

#: the colours a player picks their dice from, in the order the pages offer them
PLAYER_COLOURS = ("red", "green", "blue", "black", "white", "yellow", "violet", "orange", "grey")
#: each seat's colour when a game names none
DEFAULT_COLOURS = PLAYER_COLOURS[:5]
#: colours of dice sets the pages draw and translate though no seat is offered them
OTHER_DRAWN_COLOURS = ("pink", "brown")
#: every colour the game has a name for
COLOURS = PLAYER_COLOURS + OTHER_DRAWN_COLOURS
#: the colours without hue, darkest first; the neutral dice are white or grey
WITHOUT_HUE = ("black", "grey", "white")

#: the American spellings of colours
SPELLINGS = {"gray": "grey", "purple": "violet"}
#: the colours' names in the rule texts' Spanish and French ("blanc" is white, not a typo of black)
RULE_TEXT_NAMES = {
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
#: other names a player may give a colour, each with the colour's id
OTHER_NAMES = SPELLINGS | RULE_TEXT_NAMES


def canonical(colour: str) -> str:
    """The id of a colour the game may spell otherwise ("Gray" is grey, "rouge" red: any case,
    and ``OTHER_NAMES``); any other name as given, in lower case."""
    name = colour.strip().lower()
    return OTHER_NAMES.get(name, name)
