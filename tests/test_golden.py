"""Golden playthroughs: whole seeded games written out event by event and compared line by line.

To accept a deliberate change of the rules' output: UPDATE_GOLDEN=1 pytest tests/test_golden.py,
then read the diff of tests/golden/ before committing it."""

import os
import random
from pathlib import Path

import pytest

from companion.rules import (
    GameConfig,
    Phase,
    Placed,
    Rolled,
    choose_placement,
    replay,
    roll_virtual,
    start_game,
)

GOLDEN = Path(__file__).parent / "golden"

GAMES = {
    "classic-3-players-neutral-seed-42": GameConfig.for_players(3, neutral=True),
    "biggy-4-players-slot-neutral-seed-42": GameConfig.for_players(
        4, edition="biggy", slot=True, neutral=True
    ),
}


def short(die) -> str:
    """re4, gr2B (a Biggy), wh6 …"""
    return f"{die.colour[:2]}{die.pips}{'B' if die.big else ''}"


def transcript(config: GameConfig, seed: int) -> list[str]:
    rng = random.Random(seed)
    started = start_game(config, rng)
    state = replay([started])
    lines = [f"deck {' '.join(str(n // 1000) for n in started.deck)}"]
    rounds_seen = 0

    def casinos_line() -> str:
        return "  ".join(
            f"{name}:{'+'.join(str(n // 1000) for n in c.banknotes) or '-'}"
            for name, c in state.casinos.items()
        )

    lines.append(f"round 1 start {state.current_player}  {casinos_line()}")
    while not state.is_over:
        event = roll_virtual(state, rng)
        state.apply(event)
        lines.append(f"{event.player} rolls {' '.join(map(short, event.dice))}")
        if state.phase is Phase.PLACE:
            move: Placed = choose_placement(state, rng)
            state.apply(move)
            lines.append(f"{move.player} places {move.value}s on {move.casino}")
        if len(state.rounds) != rounds_seen:
            rounds_seen = len(state.rounds)
            result = state.rounds[-1]
            for casino in result.casinos:
                tallies = " ".join(f"{t.colour}={t.dice}" for t in casino.tallies)
                paid = " ".join(f"{p.colour}<-{p.banknote // 1000}" for p in casino.payouts)
                lines.append(
                    f"  casino {casino.casino}: [{tallies}] cancel [{' '.join(casino.cancelled)}] "
                    f"paid [{paid}] unclaimed [{' '.join(str(n // 1000) for n in casino.unclaimed)}]"
                )
            lines.append(f"  under the deck [{' '.join(str(n // 1000) for n in result.to_deck)}]")
            lines.append(f"  out of the game [{' '.join(str(n // 1000) for n in result.discarded)}]")
            lines.append(
                "  money "
                + " ".join(f"{s.colour}={s.money // 1000}k/{s.banknotes}" for s in state.standings())
            )
            if not state.is_over:
                lines.append(f"round {state.round_number} start {state.current_player}  {casinos_line()}")
    lines.append(f"winners {' '.join(state.winners())}")
    return lines


@pytest.mark.parametrize("name", GAMES)
def test_golden_playthrough(name):
    lines = transcript(GAMES[name], 42)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text("\n".join(lines) + "\n")
    expected = path.read_text().splitlines()
    for number, (got, want) in enumerate(zip(lines, expected, strict=False), start=1):
        assert got == want, f"{path.name} line {number} differs"
    assert len(lines) == len(expected)


def test_transcript_events_replay_to_the_same_end():
    config = GAMES["classic-3-players-neutral-seed-42"]
    rng = random.Random(42)
    events = [start_game(config, rng)]
    state = replay(events)
    while not state.is_over:
        roll: Rolled = roll_virtual(state, rng)
        state.apply(roll)
        events.append(roll)
        if state.phase is Phase.PLACE:
            events.append(choose_placement(state, rng))
            state.apply(events[-1])
    assert replay(events).winners() == state.winners()
