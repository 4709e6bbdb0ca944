"""The colours of a roll as the game names them: the reader names each die's body by the
palette (or the table's calibration); the hand the roller holds says which names a roll may
really have, so a die read pale, under a lamp's cast or in a picture without colour is named
after the dice the player holds."""

import itertools
from collections import Counter
from collections.abc import Collection

from ..rules import Die
from ..rules.colours import WITHOUT_HUE, canonical
from ..vision import SeenDie
from ..vision.colour import LEAN_HUES, OTHER, lean_to


def same_colour(a: str, b: str) -> bool:
    return canonical(a) == canonical(b)


#: the colours without hue, darkest first. A roll may hold two of them: a white player's dice
#: with the grey neutral dice, a black player's with grey or white ones. A die read in one of
#: them may be of any colour (``may_be``): dice pushed together shade each other, and a pale
#: picture (a dim room, a washed-out webcam) takes the hue from dice of every colour (docs/
#: decisions.md, "A roll's colours are named by the roller's hand")
NEUTRALS = WITHOUT_HUE

#: the colours a die read in a colour with a hue may be besides: blue and violet one for the
#: other (dice pushed together), black dice with a violet tinge read violet, white dice under a
#: warm lamp read yellow and under a tungsten-like one red, and orange dice (a player colour of
#: the tablet page the palette lacks) read red or yellow (docs/decisions.md, as ``NEUTRALS``)
MISTAKEN_FOR = {
    "blue": {"violet"},
    "violet": {"blue", "black"},
    "red": {"orange", "white"},
    "yellow": {"orange", "white"},
}
#: the colours a die read in a colour with a hue may be besides in a roll of one colour, where a
#: lamp's cast has moved its hue: under a cold light red dice read violet and white ones blue;
#: under a warm or tungsten one violet, black and yellow dice read red and grey ones yellow or
#: red. With neutral dice in the roll, renaming by name alone under such a light can swap a
#: white die and a violet one, so there these are not guessed at (docs/decisions.md, as
#: ``NEUTRALS``)
CAST_NEIGHBOURS = {
    "red": {"violet", "black", "yellow", "grey"},
    "yellow": {"grey"},
    "violet": {"red"},
    "blue": {"white", "grey"},
}


def to_rules_dice(seen: tuple[SeenDie, ...], expected: dict[tuple[str, bool], int]) -> tuple[Die, ...]:
    """Name each die with the game's colour and mark the Biggy (the largest die of a colour
    whose player holds one)."""
    colours = {colour for colour, _ in expected}
    named = [next((c for c in colours if same_colour(c, die.colour)), die.colour) for die in seen]
    named = with_mistakes_undone(named, expected) or named
    named = with_player_dice_told(named, seen, expected) or named
    named = with_player_dice_darker(named, seen, expected) or named
    named = with_neutrals_ranked(named, seen, expected) or named
    bigs = {colour for (colour, big), n in expected.items() if big and n}
    out = [Die(colour, die.pips, False) for colour, die in zip(named, seen, strict=True)]
    for colour in bigs:
        mine = [i for i, c in enumerate(named) if c == colour]
        if mine:
            largest = max(mine, key=lambda i: seen[i].box[2] * seen[i].box[3])
            out[largest] = Die(colour, seen[largest].pips, True)
    return tuple(out)


def held_colours(expected: dict[tuple[str, bool], int]) -> Counter[str]:
    """How many dice of each colour the roller holds, their Biggy with the others."""
    held: Counter[str] = Counter()
    for (colour, _), n in expected.items():
        held[colour] += n
    return held


def held_neutrals(held: Counter[str]) -> list[str]:
    """The game's spellings of the colours without hue the roller holds dice of, darkest first."""
    return [colour for tone in NEUTRALS for colour in held if held[colour] and canonical(colour) == tone]


def with_mistakes_undone(named: list[str], expected: dict[tuple[str, bool], int]) -> list[str] | None:
    """The colours of a roll with the dice of colours the roll cannot hold renamed to colours it
    is short of, when exactly one renaming makes every colour's count what the roller holds;
    otherwise None (the roll stays as read, and the rules ask a player). Dice read alike are
    renamed alike, each to a colour it ``may_be``: so a die read red in an orange player's roll
    with white neutral dice may be either, but when the dice read grey must be the white ones
    (a grey die may be only another colour without hue there), those read red are orange. A
    player rolls only their own dice (and the neutral ones), so a grey-looking die in a white
    player's roll of eight white dice that shows seven white is white, and so is one in a
    green player's roll of dice read pale. A die read in a colour the roll holds is never
    renamed here: with white and grey dice both in the roll, one read grey too many could be
    either (``with_neutrals_ranked`` may then tell them apart by lightness; else the rules ask)."""
    held = held_colours(expected)
    counted = Counter(c for c in named if c in held)
    short = +Counter({colour: held[colour] - counted[colour] for colour in held})
    strays = Counter(colour for colour in named if colour not in held)
    if not strays or short.total() != strays.total():
        return None
    with_neutral_dice, one_colour = bool(held_neutrals(held)), len(+held) == 1
    choices = [[c for c in short if may_be(read, c, with_neutral_dice, one_colour)] for read in strays]
    fitting = [names for names in itertools.product(*choices) if renamed_counts(strays, names) == short]
    if len(fitting) != 1:
        return None
    renaming = dict(zip(strays, fitting[0], strict=True))
    renamed = [renaming.get(colour, colour) for colour in named]
    return renamed if Counter(renamed) == +held else None


def renamed_counts(strays: Counter, renaming: tuple[str, ...]) -> Counter:
    """How many dice each colour gets when the dice of each colour counted in ``strays`` are
    renamed to the colour in its place in ``renaming``."""
    counts: Counter = Counter()
    for n, colour in zip(strays.values(), renaming, strict=True):
        counts[colour] += n
    return counts


def may_be(read: str, colour: str, with_neutral_dice: bool, one_colour: bool = False) -> bool:
    """Whether a die the reader named ``read`` may be of ``colour`` in a roll: any colour for
    OTHER; for a colour without hue any colour too, but only the others without hue where the
    roll holds such dice besides the player's (a pale player's die and a neutral one both read
    grey: ``with_player_dice_told`` tells them apart by their lean, a name cannot); else the
    colours it is ``MISTAKEN_FOR``, and in a roll of ``one_colour`` its ``CAST_NEIGHBOURS``."""
    if read == OTHER:
        return True
    if read in NEUTRALS:
        return canonical(colour) in NEUTRALS or not with_neutral_dice
    neighbours = MISTAKEN_FOR.get(read, set()) | (CAST_NEIGHBOURS.get(read, set()) if one_colour else set())
    return any(same_colour(colour, m) for m in neighbours)


#: the least gap in how far a die's body leans to the player's colour (its CIELAB a and b along
#: that colour's hue) between the player's die leaning least and the neutral die leaning most,
#: for the lean to tell them apart: under the smallest gap of a roll paled to saturation x0.3
#: (6.7; docs/decisions.md, "A roll's colours are named by the roller's hand")
LEAN_GAP = 5.0


def with_player_dice_told(
    named: list[str], seen: tuple[SeenDie, ...], expected: dict[tuple[str, bool], int]
) -> list[str] | None:
    """The colours of a roll of a player's dice (of a colour with a hue) and neutral dice of
    one colour whose counts do not fit the hand, told apart by how far each die's body leans
    to the player's colour: the dice leaning most are the player's, as many as they hold, the
    others neutral. A pale picture names the player's dice grey or white like the neutral ones,
    but leaves them leaning to their colour; a roll of yellow dice moves the white balance so
    that its grey neutral dice may read blue, leaning away from yellow. Only when the dice are
    as many as the hand holds, each has a tint, and the player's die leaning least leans
    ``LEAN_GAP`` more than the neutral die leaning most; otherwise None (the names stay as
    read)."""
    hand = player_and_neutral(named, expected, LEAN_HUES)
    tints = [die.tint for die in seen if die.tint is not None]
    if hand is None or len(tints) < len(seen):
        return None
    player, held_by_player, neutral = hand
    lean = [lean_to(tint, canonical(player)) for tint in tints]
    mine = measuring_most(lean, held_by_player, LEAN_GAP)
    return None if mine is None else [player if i in mine else neutral for i in range(len(seen))]


def player_and_neutral(
    named: list[str], expected: dict[tuple[str, bool], int], player_colours: Collection[str]
) -> tuple[str, int, str] | None:
    """The player's colour (one of ``player_colours``), how many dice they hold, and the one
    neutral colour, for a hand of exactly those two colours whose dice were read as many as it
    holds but named otherwise; None for any other roll (nothing to tell apart)."""
    held = +held_colours(expected)
    players = [colour for colour in held if canonical(colour) in player_colours]
    neutrals = held_neutrals(held)
    if Counter(named) == held or len(players) != 1 or len(neutrals) != 1 or len(held) != 2:
        return None
    if len(named) != held.total():
        return None
    return players[0], held[players[0]], neutrals[0]


def measuring_most(measure: list[float], count: int, gap: float) -> set[int] | None:
    """The indices of the ``count`` dice whose ``measure`` is largest, when the least of them
    measures at least ``gap`` more than the largest of the others; else None."""
    order = sorted(range(len(measure)), key=lambda i: -measure[i])
    if measure[order[count - 1]] - measure[order[count]] < gap:
        return None
    return set(order[:count])


#: the least gap in body lightness (CIELAB L, 0–100) between the lightest die of one colour of
#: ``NEUTRALS`` and the darkest of the next for their rank to name them: above every gap of a
#: wrong ranking (at most 8.6; docs/decisions.md, "A roll's colours are named by the roller's hand")
RANK_GAP = 10.0


def with_neutrals_ranked(
    named: list[str], seen: tuple[SeenDie, ...], expected: dict[tuple[str, bool], int]
) -> list[str] | None:
    """The colours of a roll with its black, grey and white dice named by lightness, when the
    roller's hand holds two or more of those colours: the darkest are black, the next grey, the
    lightest white, as many of each as the hand holds. Only when the dice read without a hue
    (in any of those colours, or ``other``: a grey die of a white player's roll may read black)
    are as many as the hand holds of them, each has a lightness, and each step from one
    colour to the next is ``RANK_GAP`` or more; otherwise None (the names stay as read). Grey
    and white dice under the same light are told apart by which is darker more surely than by
    how dark each is (the light, the camera's exposure and the shade of a die's neighbours move
    the latter)."""
    held = held_colours(expected)
    tones = held_neutrals(held)
    if len(tones) < 2:
        return None
    neutral = [i for i, colour in enumerate(named) if canonical(colour) in (*NEUTRALS, OTHER)]
    lightness = {i: light for i in neutral if (light := seen[i].lightness) is not None}
    if len(neutral) != sum(held[colour] for colour in tones) or len(lightness) < len(neutral):
        return None
    order = sorted(neutral, key=lambda i: lightness[i])
    renamed, start = list(named), 0
    for colour in tones:
        if start and lightness[order[start]] - lightness[order[start - 1]] < RANK_GAP:
            return None
        for i in order[start : start + held[colour]]:
            renamed[i] = colour
        start += held[colour]
    return renamed


#: the player colours whose dice are darker than white ones under any light, so lightness tells
#: them from white neutral dice in a picture without colour (grey neutral dice and yellow player
#: dice are too close; docs/decisions.md, "A roll's colours are named by the roller's hand")
DARKER_THAN_WHITE = ("red", "green", "blue", "violet", "orange")


def with_player_dice_darker(
    named: list[str], seen: tuple[SeenDie, ...], expected: dict[tuple[str, bool], int]
) -> list[str] | None:
    """The colours of a roll of a player's dice (red, green, blue, violet or orange) and white neutral
    dice whose names do not fit the hand, told apart by lightness: the darkest dice, as many as
    the player holds, are the player's, the others white. A black-and-white camera (or a webcam
    in a room so dim that its picture keeps almost no colour) leaves no lean to tell them apart
    by (``with_player_dice_told``), but a coloured die stays darker than a white one. Only when
    the dice are as many as the hand holds, none was read in another colour with a hue, each has
    a lightness, and the darkest white die is ``RANK_GAP`` lighter than the lightest of the
    player's; otherwise None (the names stay as read)."""
    hand = player_and_neutral(named, expected, DARKER_THAN_WHITE)
    darkness = [-die.lightness for die in seen if die.lightness is not None]
    if hand is None or canonical(hand[2]) != "white" or len(darkness) < len(seen):
        return None
    player, held_by_player, neutral = hand
    if {canonical(colour) for colour in named} - {*NEUTRALS, OTHER, canonical(player)}:
        return None
    mine = measuring_most(darkness, held_by_player, RANK_GAP)
    return None if mine is None else [player if i in mine else neutral for i in range(len(seen))]
