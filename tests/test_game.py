"""Whole rounds and games: dealing, turns, scoring, variants and illegal moves."""

import copy

import pytest

from companion.rules import (
    ConfigError,
    Die,
    GameConfig,
    IllegalMove,
    Phase,
    Placed,
    Player,
    Rolled,
    replay,
)
from companion.rules.banknotes import CLASSIC_DECK, build_deck
from companion.rules.editions import SLOT
from companion.rules.events import GameStarted
from tests.helpers import dice, game, play

# Casino 1: 90k · 2: 20k+30k · 3: 5×10k · 4: 60k · 5: 40k+10k · 6: 50k
ROUND_ONE_TOP = [
    90_000,
    20_000,
    30_000,
    10_000,
    10_000,
    10_000,
    10_000,
    10_000,
    60_000,
    40_000,
    10_000,
    50_000,
]

RED_GREEN_ROUND = (
    (dice("red", 1, 1, 1, 2, 3, 4, 5, 6), 1),
    (dice("green", 1, 1, 1, 3, 3, 4, 6, 6), 1),
    (dice("red", 2, 2, 3, 4, 5), 2),
    (dice("green", 3, 3, 3, 4, 4), 3),
    (dice("red", 4, 5, 6), 6),
    (dice("green", 4, 4), 4),
    (dice("red", 4, 5), 4),
    (dice("red", 5), 5),  # green holds no dice: red plays twice in a row
)


def test_classic_deal_fills_each_casino_to_at_least_50000():
    state = replay([game(("red", "green"), ROUND_ONE_TOP)])
    notes = {name: sorted(c.banknotes) for name, c in state.casinos.items()}
    assert notes == {
        "1": [90_000],
        "2": [20_000, 30_000],
        "3": [10_000] * 5,
        "4": [60_000],
        "5": [10_000, 40_000],
        "6": [50_000],
    }
    assert len(state.deck) == 54 - 12


def test_golden_round_by_hand():
    state = play(game(("red", "green"), ROUND_ONE_TOP), *RED_GREEN_ROUND)
    (result,) = state.rounds
    by_casino = {c.casino: c for c in result.casinos}
    assert by_casino["1"].cancelled == ("green", "red")
    assert by_casino["1"].unclaimed == (90_000,)
    assert [(p.colour, p.banknote) for p in by_casino["2"].payouts] == [("red", 30_000)]
    assert [(p.colour, p.banknote) for p in by_casino["3"].payouts] == [("green", 10_000)]
    assert [(p.colour, p.banknote) for p in by_casino["4"].payouts] == [("green", 60_000)]
    assert [(p.colour, p.banknote) for p in by_casino["5"].payouts] == [("red", 40_000)]
    assert [(p.colour, p.banknote) for p in by_casino["6"].payouts] == [("red", 50_000)]
    assert sorted(state.winnings["red"]) == [30_000, 40_000, 50_000]
    assert sorted(state.winnings["green"]) == [10_000, 60_000]
    # Unclaimed notes went under the deck in casino order, highest first within a casino.
    assert result.to_deck == (90_000, 20_000, 10_000, 10_000, 10_000, 10_000, 10_000)
    assert state.deck[-7:] == list(result.to_deck)
    # Round two: the start player moved one seat clockwise, every casino is dealt again.
    assert state.round_number == 2
    assert state.current_player == "green"
    assert all(sum(c.banknotes) >= 50_000 for c in state.casinos.values())


def test_discard_option_takes_unclaimed_notes_out_of_the_game():
    state = play(game(("red", "green"), ROUND_ONE_TOP, unclaimed="discard"), *RED_GREEN_ROUND)
    assert sorted(state.discard) == sorted([90_000, 20_000] + [10_000] * 5)
    assert state.rounds[0].to_deck == ()


def test_turns_go_clockwise_and_skip_players_without_dice():
    state = replay([game(("red", "green", "blue"), [])])
    assert state.current_player == "red"
    state.apply(Rolled("red", dice("red", 1, 1, 1, 1, 1, 1, 1, 1)))
    state.apply(Placed("red", 1, "1"))
    assert state.current_player == "green"
    state.apply(Rolled("green", dice("green", 2, 2, 2, 2, 2, 2, 2, 3)))
    state.apply(Placed("green", 2, "2"))
    assert state.current_player == "blue"
    state.apply(Rolled("blue", dice("blue", 4, 4, 4, 4, 4, 4, 4, 4)))
    state.apply(Placed("blue", 4, "4"))
    assert state.current_player == "green"  # red holds nothing, blue neither: green again
    assert state.hands["green"].count == 1


def test_start_player_rotates_each_round_and_game_ends_after_four():
    config = GameConfig.for_players(3)
    state = replay([GameStarted(config, tuple(build_deck(CLASSIC_DECK)))])
    starters = []
    while not state.is_over:
        if state.phase is Phase.ROLL and all(h.count == 8 for h in state.hands.values()):
            starters.append(state.current_player)
        player = state.current_player
        state.apply(Rolled(player, dice(player, *[3] * state.hands[player].count)))
        state.apply(Placed(player, 3, "3"))
    assert starters == ["red", "green", "blue", "red"]
    assert len(state.rounds) == 4
    assert state.current_player is None


def test_deck_running_out_leaves_casinos_with_what_they_got():
    tiny = GameConfig(players=(Player("A", "red"), Player("B", "blue")), deck=((90_000, 2), (10_000, 1)))
    state = replay([GameStarted(tiny, (10_000, 90_000, 90_000))])
    assert [c.banknotes for c in state.casinos.values()] == [[90_000, 10_000], [90_000], [], [], [], []]


def test_three_player_neutral_variant_starts_with_the_leftover_roll():
    state = replay([game(("red", "green", "blue"), [], neutral=True)])
    assert state.phase is Phase.NEUTRAL_ROLL and state.current_player == "red"
    with pytest.raises(IllegalMove):
        state.apply(Rolled("red", dice("white", 3, 5, 6)))
    state.apply(Rolled("red", dice("white", 3, 5)))
    assert [d.colour for d in state.casinos["3"].dice] == ["white"]
    assert [d.colour for d in state.casinos["5"].dice] == ["white"]
    assert state.phase is Phase.ROLL and state.current_player == "red"
    assert state.expected_roll() == {("red", False): 8, ("white", False): 2}


def test_neutral_dice_move_with_the_value_and_may_be_chosen_alone():
    state = replay([game(("red", "green"), [], neutral=True)])
    assert state.hands["red"].neutral == 4
    state.apply(Rolled("red", dice("red", 1, 1, 2, 2, 3, 3, 4, 4) + dice("white", 6, 6, 1, 5)))
    state.apply(Placed("red", 6, "6"))  # only neutral dice show 6
    assert state.hands["red"].own == 8 and state.hands["red"].neutral == 2
    assert [d.colour for d in state.casinos["6"].dice] == ["white", "white"]


def test_classic_neutral_winnings_go_under_the_deck():
    """The Spanish text: what the imaginary player wins "se agregará al final de la pila"."""
    started = game(("red", "green"), ROUND_ONE_TOP, neutral=True)
    state = play(
        started,
        (dice("red", 2, 2, 2, 2, 2, 2, 2, 2) + dice("white", 1, 1, 1, 1), 1),  # only neutrals
        (dice("green", 3, 3, 3, 3, 3, 3, 3, 3) + dice("white", 4, 4, 4, 4), 3),
        (dice("red", 2, 2, 2, 2, 2, 2, 2, 2), 2),
        (dice("white", 4, 4, 4, 4), 4),
    )
    first = state.rounds[0]
    payouts = {c.casino: [(p.colour, p.banknote) for p in c.payouts] for c in first.casinos}
    assert payouts["1"] == [("white", 90_000)]
    assert payouts["4"] == [("white", 60_000)]
    assert first.to_deck[:2] == (90_000, 20_000)  # casino 1's neutral win, then casino 2's leftover
    assert 60_000 in first.to_deck
    assert state.money("red") == 30_000 and state.money("green") == 10_000


def test_biggy_grey_dice_winnings_are_forfeited():
    """The Biggy text: the neutral dice "are evaluated as if they belonged to an additional
    (imaginary) person. If they win money, it is forfeited." Their notes leave the game; the
    notes nobody wins still go under the deck."""
    # two notes a casino: 1 gets 90k and 10k, 2 gets 80k and 20k, 3 gets 30k twice, 4 40k twice…
    top = [90_000, 10_000, 80_000, 20_000, 30_000, 30_000, 40_000, 40_000, 50_000, 50_000, 60_000, 60_000]
    started = game(("red", "green"), top, edition="biggy", neutral=True)
    deck_before = len(replay([started]).deck)
    state = play(
        started,
        (dice("red", 2, 2, 2, 2, 2, 2) + dice("red", 2, big=True) + dice("grey", 1, 1, 1), 1),  # grey alone
        (dice("green", 3, 3, 3, 3, 3, 3) + dice("green", 3, big=True) + dice("grey", 4, 4, 4), 3),
        (dice("red", 2, 2, 2, 2, 2, 2) + dice("red", 2, big=True), 2),
        (dice("grey", 4, 4, 4), 4),
    )
    first = state.rounds[0]
    payouts = {c.casino: [(p.colour, p.banknote) for p in c.payouts] for c in first.casinos}
    assert payouts["1"] == [("grey", 90_000)]  # grey's three 1s alone on casino 1
    assert 90_000 in first.discarded and 90_000 in state.discard
    assert 90_000 not in first.to_deck and 10_000 in first.to_deck  # casino 1's second note, unwon
    assert payouts["4"] == [("grey", 40_000)] and first.discarded == (90_000, 40_000)
    assert len(state.deck) == deck_before + len(first.to_deck) - 12  # round two dealt from it
    assert state.money("red") > 0 and "grey" not in {s.colour for s in state.standings()}


def test_biggy_edition_deals_two_notes_a_casino_and_plays_three_rounds():
    config = GameConfig.for_players(2, edition="biggy", slot=True)
    state = replay([GameStarted(config, tuple(build_deck(CLASSIC_DECK)))])
    assert list(state.casinos) == ["1", "2", "3", "4", "5", "6", SLOT]
    assert all(len(c.banknotes) == 2 for c in state.casinos.values())
    assert state.expected_roll() == {("red", False): 6, ("red", True): 1}
    assert config.round_count == 3


def test_biggy_neutral_grey_dice_by_player_count():
    for players, each in ((2, 3), (3, 2), (4, 1)):
        state = replay(
            [
                GameStarted(
                    GameConfig.for_players(players, edition="biggy", neutral=True),
                    tuple(build_deck(CLASSIC_DECK)),
                )
            ]
        )
        assert state.neutral == "grey"
        assert state.hands["red"].neutral == each
        assert state.phase is Phase.ROLL  # no leftover roll in the Biggy edition


def test_slot_takes_all_dice_of_a_value_not_already_there():
    state = replay([game(("red", "green"), [], edition="biggy", slot=True)])
    state.apply(Rolled("red", dice("red", 5, 5, 1, 2, 3, 4) + dice("red", 5, big=True)))
    state.apply(Placed("red", 5, SLOT))
    assert sorted(d.pips for d in state.casinos[SLOT].dice) == [5, 5, 5]
    assert state.hands["red"].big == 0 and state.hands["red"].own == 4
    state.apply(Rolled("green", dice("green", 5, 5, 1, 2, 3, 4) + dice("green", 6, big=True)))
    before = copy.deepcopy(state.__dict__)
    with pytest.raises(IllegalMove, match="on the slot already"):
        state.apply(Placed("green", 5, SLOT))
    assert state.__dict__ == before
    state.apply(Placed("green", 6, SLOT))
    assert len(state.casinos[SLOT].dice) == 4


ILLEGAL = [
    (Rolled("red", dice("red", 1, 2, 3)), "holds 8 dice"),
    (Rolled("red", dice("red", 1, 2, 3, 4, 5, 6, 1) + dice("green", 2)), "green dice belong to another"),
    (Rolled("red", dice("red", 1, 2, 3, 4, 5, 6, 1) + dice("purple", 2)), "'purple' is not a colour"),
    (Rolled("green", dice("green", 1, 2, 3, 4, 5, 6, 1, 1)), "it is red's turn"),
    (Rolled("pink", dice("pink", 1)), "no player plays 'pink'"),
    (Placed("red", 4, "4"), "must roll before placing"),
]


@pytest.mark.parametrize("event, message", ILLEGAL)
def test_illegal_moves_are_refused_and_change_nothing(event, message):
    state = replay([game(("red", "green"), [])])
    before = copy.deepcopy(state.__dict__)
    with pytest.raises(IllegalMove, match=message):
        state.apply(event)
    assert state.__dict__ == before


@pytest.mark.parametrize(
    "placement, message",
    [
        (Placed("red", 6, "6"), "6 was not rolled; choose one of 1, 2, 3"),
        (Placed("red", 2, "3"), "dice showing 2 go on casino 2"),
        (Placed("red", 2, SLOT), "no slot casino"),
        (Placed("green", 2, "2"), "it is red's turn"),
    ],
)
def test_illegal_placements_are_refused_and_change_nothing(placement, message):
    state = replay([game(("red", "green"), [])])
    state.apply(Rolled("red", dice("red", 1, 1, 2, 2, 3, 3, 3, 3)))
    before = copy.deepcopy(state.__dict__)
    with pytest.raises(IllegalMove, match=message):
        state.apply(placement)
    assert state.__dict__ == before


def test_rolling_twice_and_playing_after_the_end_are_refused():
    state = replay([game(("red", "green"), [], rounds=1)])
    state.apply(Rolled("red", dice("red", *[1] * 8)))
    with pytest.raises(IllegalMove, match="rolled already"):
        state.apply(Rolled("red", dice("red", *[1] * 8)))
    state.apply(Placed("red", 1, "1"))
    state.apply(Rolled("green", dice("green", *[2] * 8)))
    state.apply(Placed("green", 2, "2"))
    assert state.is_over
    with pytest.raises(IllegalMove, match="game is over"):
        state.apply(Rolled("red", dice("red", 1)))


def test_a_biggy_die_must_be_in_the_roll_as_a_biggy():
    state = replay([game(("red", "green"), [], edition="biggy")])
    with pytest.raises(IllegalMove, match="holds 7 dice"):
        state.apply(Rolled("red", dice("red", 1, 2, 3, 4, 5, 6, 6)))
    with pytest.raises(IllegalMove, match="roll has 8 dice .*2 red Biggy"):
        state.apply(Rolled("red", dice("red", 1, 2, 3, 4, 5, 6) + dice("red", 6, 6, big=True)))
    state.apply(Rolled("red", dice("red", 1, 2, 3, 4, 5, 5) + dice("red", 6, big=True)))
    state.apply(Placed("red", 6, "6"))
    state.apply(Rolled("green", dice("green", *[1] * 6) + dice("green", 2, big=True)))
    state.apply(Placed("green", 1, "1"))
    with pytest.raises(IllegalMove, match="red has no red Biggy die in hand"):
        state.apply(Rolled("red", dice("red", 1, 2, 3, 4) + dice("red", 5, big=True)))


def test_end_of_game_tie_break_by_banknotes_then_shared_win():
    state = replay([game(("red", "green", "blue"), [])])
    state.winnings = {"red": [50_000, 10_000], "green": [60_000], "blue": [30_000, 30_000]}
    assert state.winners() == ["red", "blue"]
    assert [s.colour for s in state.standings()][2] == "green"
    state.winnings["blue"] = [30_000, 20_000, 10_000]
    assert state.winners() == ["blue"]


@pytest.mark.parametrize(
    "options, message",
    [
        ({"players": 1}, "2 to 5 players"),
        ({"players": 5, "neutral": True}, "2 to 4 players"),
        ({"players": 3, "slot": True}, "slot casino belongs to the biggy"),
        ({"players": 3, "edition": "deluxe"}, "unknown edition 'deluxe'"),
        ({"players": 3, "unclaimed": "burn"}, "'bottom' or 'discard'"),
    ],
)
def test_bad_setups_say_what_is_wrong(options, message):
    count = options.pop("players")
    with pytest.raises(ConfigError, match=message):
        GameConfig(
            players=tuple(
                Player(str(i), c) for i, c in enumerate(("red", "green", "blue", "black", "white")[:count])
            ),
            **options,
        ).validate()


def test_neutral_colour_must_not_be_a_players_colour():
    players = (Player("A", "white"), Player("B", "red"))
    with pytest.raises(ConfigError, match="neutral dice are white"):
        GameConfig(players=players, neutral=True).validate()
    GameConfig(players=players, neutral=True, neutral_colour="yellow").validate()


def test_duplicate_colours_are_refused():
    with pytest.raises(ConfigError, match="'red' is taken twice"):
        GameConfig(players=(Player("A", "red"), Player("B", "red"))).validate()


def test_die_values_are_values():
    assert Die("red", 3) == Die("red", 3, False)
    assert Die("red", 3, True).weight == 2
