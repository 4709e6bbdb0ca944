"""Small builders shared by the tests."""

from companion.rules import Die, GameConfig, GameStarted, Placed, Player, Rolled, replay
from companion.rules.banknotes import CLASSIC_DECK, build_deck


def dice(colour: str, *pips: int, big: bool = False) -> tuple[Die, ...]:
    return tuple(Die(colour, p, big) for p in pips)


def stacked_deck(top: list[int]) -> tuple[int, ...]:
    """A full classic deck whose first notes are ``top`` (the rest in deck order)."""
    rest = build_deck(CLASSIC_DECK)
    for note in top:
        rest.remove(note)
    return tuple(top) + tuple(rest)


def game(colours: tuple[str, ...], top: list[int], **options) -> GameStarted:
    players = tuple(Player(c.title(), c) for c in colours)
    return GameStarted(GameConfig(players=players, **options), stacked_deck(top))


def play(started: GameStarted, *turns: tuple[tuple[Die, ...], int] | tuple[tuple[Die, ...], int, str]):
    """Replay a game from (roll, value[, casino]) turns, each by whoever's turn it is."""
    state = replay([started])
    for turn in turns:
        roll, value = turn[0], turn[1]
        casino = turn[2] if len(turn) > 2 else str(value)
        state.apply(Rolled(state.current_player, roll))
        state.apply(Placed(state.current_player, value, casino))
    return state
