"""Small builders shared by the tests."""

from companion.report import ScoredCasinoJson, casino_result_json
from companion.rules import Die, GameConfig, GameStarted, Placed, Player, Rolled, RoundResult, replay
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


def paid_by_rules(position) -> list[tuple[str, str, int]]:
    """A round in counts (``odds.Position``) scored by the rules' own ranking (``scoring.rank``):
    (casino, colour, banknote) for each note taken. The oracle the counts engines are held to."""
    from companion.rules.scoring import rank

    paid = []
    for name, tally in position.tallies.items():
        winners = rank(name, [(colour, *entry) for colour, entry in tally.items()])[2]
        paid += [(name, colour, note) for colour, note in zip(winners, position.notes[name], strict=False)]
    return paid


def scored_json(casino) -> dict:
    """A casino scored in counts (``playout.ScoredCasino``) as ``report.casino_result_json`` shows one."""
    return {
        "casino": casino.casino,
        "banknotes": list(casino.banknotes),
        "cancelled": list(casino.cancelled),
        "payouts": [{"colour": c, "banknote": n} for c, n in casino.payouts],
        "unclaimed": list(casino.unclaimed),
    }


def round_json(result: RoundResult) -> dict[str, list[ScoredCasinoJson]]:
    """A scored round as ``companion score`` shows each of its casinos."""
    return {"casinos": [casino_result_json(c) for c in result.casinos]}


def marked_copy(tmp_path, mark: str | None):
    """The shipped PipNet's graph with ``TURNS_KEY`` set to ``mark`` (None: no mark at all)."""
    import pytest

    from companion.vision.pips import DEFAULT_PIP_MODEL, TURNS_KEY

    onnx = pytest.importorskip("onnx")  # the `train` extra
    model = onnx.load(str(DEFAULT_PIP_MODEL))
    props = {p.key: p.value for p in model.metadata_props if p.key != TURNS_KEY}
    del model.metadata_props[:]
    onnx.helper.set_model_props(model, props if mark is None else {**props, TURNS_KEY: mark})
    path = tmp_path / "pipnet.onnx"
    onnx.save(model, str(path))
    return path
