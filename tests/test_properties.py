"""Properties over thousands of random complete games (hypothesis draws the setups and seeds)."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import (
    Die,
    GameConfig,
    IllegalMove,
    Phase,
    Rolled,
    choose_placement,
    event_from_dict,
    event_to_dict,
    replay,
    roll_virtual,
    start_game,
)
from companion.rules.banknotes import deck_total
from companion.simulation import play_game


@st.composite
def configs(draw) -> GameConfig:
    edition = draw(st.sampled_from(["classic", "biggy"]))
    players = draw(st.integers(2, 5))
    neutral = players <= 4 and draw(st.booleans())
    slot = edition == "biggy" and draw(st.booleans())
    unclaimed = draw(st.sampled_from(["bottom", "discard"]))
    return GameConfig.for_players(players, edition=edition, neutral=neutral, slot=slot, unclaimed=unclaimed)


def money_everywhere(state) -> int:
    players = sum(state.money(c) for c in state.colours)
    on_table = sum(sum(casino.banknotes) for casino in state.casinos.values())
    return players + sum(state.deck) + sum(state.discard) + on_table


def play_recording(config: GameConfig, seed: int):
    """Play a game, checking invariants after every event; return the events."""
    rng = random.Random(seed)
    events = [start_game(config, rng)]
    state = replay(events)
    total = deck_total(config.deck)
    rounds_seen = 0
    while not state.is_over:
        if state.round_number != rounds_seen:
            rounds_seen = state.round_number
            check_round_start(state, config)
        event = roll_virtual(state, rng)
        state.apply(event)
        events.append(event)
        if state.phase is Phase.PLACE:
            event = choose_placement(state, rng)
            state.apply(event)
            events.append(event)
        assert money_everywhere(state) == total
        assert all(h.own >= 0 and h.big >= 0 and h.neutral >= 0 for h in state.hands.values())
    return events, state


def check_round_start(state, config: GameConfig) -> None:
    notes = [c.banknotes for c in state.casinos.values()]
    if config.edition == "classic":
        # every casino holds $50,000 or more, unless the deck ran dry while dealing it
        for index, casino_notes in enumerate(notes):
            ran_dry = not state.deck and all(not later for later in notes[index + 1 :])
            assert sum(casino_notes) >= 50_000 or ran_dry
    else:
        assert all(len(n) == 2 for n in notes) or not state.deck


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs(), seed=st.integers(0, 2**32 - 1))
def test_money_is_conserved_and_casinos_are_stocked(config, seed):
    events, state = play_recording(config, seed)
    assert len(state.rounds) == config.round_count
    standings = state.standings()
    assert [s.money for s in standings] == sorted((s.money for s in standings), reverse=True)
    assert set(state.winners()) <= set(config.colours)


@settings(max_examples=300, deadline=None)
@given(config=configs(), seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_game_and_replay_gives_same_state(config, seed):
    events, state = play_recording(config, seed)
    again = play_game(config, seed)
    assert again.rounds == state.rounds
    assert again.winnings == state.winnings
    stored = [event_from_dict(event_to_dict(e)) for e in events]
    assert stored == events
    replayed = replay(stored)
    assert replayed.rounds == state.rounds and replayed.deck == state.deck


@settings(max_examples=200, deadline=None)
@given(config=configs(), seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_replaying_a_prefix_gives_the_state_of_that_moment(config, seed, cut):
    events, _ = play_recording(config, seed)
    stop = 1 + int(cut * (len(events) - 1))
    live = replay(events[:1])
    for event in events[1:stop]:
        live.apply(event)
    assert replay(events[:stop]).__dict__ == live.__dict__


@settings(max_examples=200, deadline=None)
@given(
    config=configs(),
    seed=st.integers(0, 2**32 - 1),
    cut=st.floats(0, 1),
    change=st.sampled_from(["none", "drop", "add", "recolour", "big"]),
    colour=st.sampled_from(["red", "green", "blue", "black", "white", "yellow", "grey", "violet"]),
)
def test_roll_fits_says_what_the_rules_accept(config, seed, cut, change, colour):
    """``roll_fits`` (the camera's question before it records a roll) agrees with ``apply``:
    the virtual roll, as it is or with a die dropped, added, recoloured or made a Biggy."""
    events, _ = play_recording(config, seed)
    rolls = [i for i, e in enumerate(events) if isinstance(e, Rolled)]
    at = rolls[int(cut * (len(rolls) - 1))]
    state = replay(events[:at])
    dice = list(events[at].dice)
    if change == "drop":
        dice.pop()
    elif change == "add":
        dice.append(Die(colour, 3))
    elif change == "recolour":
        dice[0] = Die(colour, dice[0].pips, dice[0].big)
    elif change == "big":
        dice[-1] = Die(dice[-1].colour, dice[-1].pips, not dice[-1].big)
    try:
        state.apply(Rolled(events[at].player, tuple(dice)))
        accepted = True
    except IllegalMove:
        accepted = False
    assert replay(events[:at]).roll_fits(dice) == accepted
