"""The two editions of the game, described as data."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

NUMBERED_CASINOS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")
SLOT = "slot"


@dataclass(frozen=True)
class EditionRules:
    """Everything that differs between editions."""

    name: str
    rounds: int
    dice_per_player: int
    big_dice_per_player: int
    #: neutral dice each player receives, by number of players (absent: variant not allowed)
    neutral_per_player: Mapping[int, int]
    #: neutral dice the start player rolls onto the casinos each round, by number of players
    neutral_leftover: Mapping[int, int] = field(default_factory=dict)
    default_neutral_colour: str = "white"
    #: classic dealing: notes until a casino holds at least this much
    casino_minimum: int | None = None
    #: Biggy dealing: exactly this many notes per casino
    notes_per_casino: int | None = None
    slot_allowed: bool = False
    #: what the neutral dice win: "bottom", under the deck (the classic texts: the Spanish "se
    #: agregará al final de la pila", the French "la banque récupère"), or "discard", out of the
    #: game (the Biggy text: "If they win money, it is forfeited.")
    neutral_winnings: str = "bottom"
    min_players: int = 2
    max_players: int = 5


CLASSIC = EditionRules(
    name="classic",
    rounds=4,
    dice_per_player=8,
    big_dice_per_player=0,
    neutral_per_player=MappingProxyType({2: 4, 3: 2, 4: 2}),
    neutral_leftover=MappingProxyType({3: 2}),
    default_neutral_colour="white",
    casino_minimum=50_000,
)

BIGGY = EditionRules(
    name="biggy",
    rounds=3,
    dice_per_player=6,
    big_dice_per_player=1,
    neutral_per_player=MappingProxyType({2: 3, 3: 2, 4: 1}),
    default_neutral_colour="grey",
    notes_per_casino=2,
    slot_allowed=True,
    neutral_winnings="discard",
)

EDITIONS: Mapping[str, EditionRules] = MappingProxyType({CLASSIC.name: CLASSIC, BIGGY.name: BIGGY})
