"""The camera bridge names a roll's dice with the game's colours, undoing the reader's known
colour mistakes only where the roller's hand leaves one answer."""

import numpy as np

from companion.camera_game.roll_colours import to_rules_dice
from companion.vision import SeenDie
from companion.vision.colour import LEAN_HUES


def seen(*dice: tuple[str, int] | tuple[str, int, int]) -> tuple[SeenDie, ...]:
    """Dice read in a row, each (colour, pips) or (colour, pips, side in pixels)."""
    out = []
    for i, (colour, pips, *size) in enumerate(dice):
        side = size[0] if size else 50
        out.append(SeenDie((100 * i, 0, side, side), pips, colour, 0.9))
    return tuple(out)


def colours(dice) -> list[tuple[str, int, bool]]:
    return [(d.colour, d.pips, d.big) for d in dice]


def test_a_grey_looking_die_in_a_white_players_roll_is_white():
    dice = to_rules_dice(seen(("white", 3), ("grey", 5), ("white", 1)), {("white", False): 3})
    assert colours(dice) == [("white", 3, False), ("white", 5, False), ("white", 1, False)]


def test_a_die_the_reader_could_not_name_is_the_colour_the_roll_is_short_of():
    hand = {("red", False): 2, ("white", False): 1}  # classic game, a neutral white die
    dice = to_rules_dice(seen(("red", 2), ("other", 6), ("white", 4)), hand)
    assert colours(dice) == [("red", 2, False), ("red", 6, False), ("white", 4, False)]


def test_an_orange_players_dice_read_red_are_orange():
    """The palette has no orange (the tablet page offers it): orange dice read red."""
    hand = {("orange", False): 3, ("white", False): 1}
    dice = to_rules_dice(seen(("red", 2), ("other", 6), ("yellow", 6), ("white", 1)), hand)
    assert [d.colour for d in dice] == ["orange", "orange", "orange", "white"]
    # a red player's roll holds red: nothing of it is renamed, even with an orange player at the table
    red_roll = to_rules_dice(seen(("red", 2), ("red", 6)), {("red", False): 1, ("orange", False): 0})
    assert [d.colour for d in red_roll] == ["red", "red"]


def test_an_orange_players_roll_is_renamed_where_only_one_renaming_of_the_whole_roll_fits():
    """A die read red in an orange player's roll with white neutral dice may be orange or white
    (white dice read red under a tungsten lamp); but a die read grey there can only be white, so
    when the dice read grey are the white ones the dice read red are orange (an orange player's
    rolls asked about their colours: 0 of 300 rendered, 8 without this)."""
    hand = {("orange", False): 3, ("white", False): 3}
    read = seen(("red", 2), ("grey", 6), ("red", 3), ("grey", 1), ("white", 4), ("red", 5))
    assert [d.colour for d in to_rules_dice(read, hand)] == [
        "orange",
        "white",
        "orange",
        "white",
        "white",
        "orange",
    ]
    # a die nobody could name and a grey one: the grey one is white, so the other is orange
    short = to_rules_dice(seen(("grey", 1), ("other", 2)), {("orange", False): 1, ("white", False): 1})
    assert [d.colour for d in short] == ["white", "orange"]
    # three dice read red for two orange and one white: which red die is white, nobody can say
    split = to_rules_dice(
        seen(("red", 1), ("red", 2), ("red", 3)), {("orange", False): 2, ("white", False): 1}
    )
    assert [d.colour for d in split] == ["red", "red", "red"]


def test_a_white_players_dice_read_yellow_or_red_under_a_warm_lamp_are_white():
    """A warm light turns white dice yellow to the reader (bench_colour: 68 of the real labelled
    dice under the warm cast), a tungsten lamp some red; a roll that cannot hold that colour is
    short of white, so they are white."""
    hand = {("red", False): 1, ("white", False): 3}  # a red player and three neutral white dice
    dice = to_rules_dice(seen(("yellow", 2), ("red", 6), ("white", 4), ("yellow", 5)), hand)
    assert [d.colour for d in dice] == ["white", "red", "white", "white"]
    # under a tungsten lamp white dice read red too (bench_colour: 20 real dice)
    tungsten = to_rules_dice(seen(("red", 2), ("yellow", 6), ("white", 4)), {("white", False): 3})
    assert [d.colour for d in tungsten] == ["white", "white", "white"]
    # a red player's roll holds red: a neutral white die read red is not guessed at
    red_roll = to_rules_dice(seen(("red", 2), ("red", 6)), {("red", False): 1, ("white", False): 1})
    assert [d.colour for d in red_roll] == ["red", "red"]
    # a yellow player's roll holds yellow: a die read yellow too many stays yellow
    yellow_hand = {("yellow", False): 1, ("white", False): 1}
    yellow_roll = to_rules_dice(seen(("yellow", 2), ("yellow", 3)), yellow_hand)
    assert [d.colour for d in yellow_roll] == ["yellow", "yellow"]


def test_a_colour_casts_shift_is_undone_in_a_roll_of_one_colour():
    """A lamp moves every die's hue its way: under a cold light red dice read violet and white
    ones blue, under a warm one violet and black dice read red, grey ones yellow or red (session
    52, bench_rolls --light). A roll of one colour holds nothing else, so they are the roller's."""
    assert [d.colour for d in to_rules_dice(seen(("red", 2), ("violet", 5)), {("red", False): 2})] == [
        "red"
    ] * 2
    assert [d.colour for d in to_rules_dice(seen(("red", 4), ("violet", 2)), {("violet", False): 2})] == [
        "violet"
    ] * 2
    assert [d.colour for d in to_rules_dice(seen(("black", 6), ("red", 3)), {("black", False): 2})] == [
        "black"
    ] * 2
    neutral_roll = to_rules_dice(seen(("yellow", 1), ("red", 2), ("grey", 3)), {("grey", False): 3})
    assert [d.colour for d in neutral_roll] == ["grey"] * 3
    assert [d.colour for d in to_rules_dice(seen(("blue", 1), ("white", 2)), {("white", False): 2})] == [
        "white"
    ] * 2
    # with neutral dice in the roll the same lamp reads white dice red too: not guessed at
    hand = {("violet", False): 2, ("white", False): 1}
    assert [d.colour for d in to_rules_dice(seen(("violet", 1), ("red", 2), ("white", 3)), hand)] == [
        "violet",
        "red",
        "white",
    ]


def test_nothing_is_renamed_where_the_hand_leaves_two_answers_or_none():
    three_round = {("white", False): 2, ("grey", False): 1}
    # white and grey are both in the roll: a die read grey too many cannot be told apart
    assert colours(to_rules_dice(seen(("white", 1), ("grey", 2), ("grey", 3)), three_round)) == [
        ("white", 1, False),
        ("grey", 2, False),
        ("grey", 3, False),
    ]
    # an unnamed die when both the player's and the neutral colour are short
    both_short = to_rules_dice(seen(("white", 1), ("other", 2)), {("red", False): 1, ("white", False): 2})
    assert [d.colour for d in both_short] == ["white", "other"]
    # yellow is not a colour the reader takes for blue
    assert [d.colour for d in to_rules_dice(seen(("blue", 1), ("yellow", 2)), {("blue", False): 2})] == [
        "blue",
        "yellow",
    ]
    # a die too many stays as read: the rules say the roll holds one die more than the hand
    one_too_many = to_rules_dice(seen(("white", 1), ("white", 2), ("grey", 3)), {("white", False): 2})
    assert [d.colour for d in one_too_many] == ["white", "white", "grey"]
    # two strays for one missing die
    assert [d.colour for d in to_rules_dice(seen(("grey", 1), ("grey", 2)), {("white", False): 1})] == [
        "grey",
        "grey",
    ]


def test_a_players_dice_read_without_a_hue_in_a_pale_picture_are_the_players():
    """A dim room or a washed-out webcam takes the hue from every die (at half the saturation green,
    blue and violet dice read grey, yellow white); a roll that holds no neutral dice is the roller's
    own."""
    dice = to_rules_dice(seen(("grey", 3), ("green", 5), ("black", 1), ("white", 2)), {("green", False): 4})
    assert [d.colour for d in dice] == ["green"] * 4
    biggy = {("yellow", False): 1, ("yellow", True): 1}
    yellow = to_rules_dice(seen(("white", 3), ("white", 6, 80)), biggy)
    assert colours(yellow) == [("yellow", 3, False), ("yellow", 6, True)]


def test_a_black_die_with_a_violet_tinge_read_violet_in_a_black_players_roll_is_black():
    hand = {("black", False): 2, ("white", False): 1}
    dice = to_rules_dice(seen(("black", 3), ("violet", 5), ("white", 1)), hand)
    assert [d.colour for d in dice] == ["black", "black", "white"]
    # a violet player's roll holds violet: a die read violet stays violet
    violet = to_rules_dice(seen(("violet", 3), ("violet", 5)), {("violet", False): 1, ("black", False): 1})
    assert [d.colour for d in violet] == ["violet", "violet"]


def tinted(player: str, *dice: tuple[str, int, float | None]) -> tuple[SeenDie, ...]:
    """Dice read in a row, each (colour, pips, how far its body leans to ``player``'s hue)."""
    hue = np.radians(LEAN_HUES[player])
    return tuple(
        SeenDie(
            (100 * i, 0, 50, 50), pips, colour, 0.9, 60.0, None, None,
            None if lean is None else (lean * np.cos(hue), lean * np.sin(hue)),
        )
        for i, (colour, pips, lean) in enumerate(dice)
    )  # fmt: skip


def test_a_pale_players_dice_are_told_from_the_neutral_dice_by_how_far_they_lean_to_its_colour():
    three_round = {("green", False): 2, ("grey", False): 1}
    dice = to_rules_dice(tinted("green", ("grey", 3, 14.0), ("grey", 5, 1.0), ("grey", 6, 22.0)), three_round)
    assert [d.colour for d in dice] == ["green", "grey", "green"]
    # the classic game's white neutral dice, a pale green die read white
    classic = {("green", False): 2, ("white", False): 1}
    dice = to_rules_dice(tinted("green", ("grey", 3, 14.0), ("white", 5, -2.0), ("white", 6, 9.0)), classic)
    assert [d.colour for d in dice] == ["green", "white", "green"]
    # a yellow player's die read grey and the grey neutral die read white: the lean says which
    yellow_with_grey = {("yellow", False): 2, ("grey", False): 1}
    dice = to_rules_dice(
        tinted("yellow", ("grey", 5, 12.0), ("white", 2, 3.0), ("yellow", 1, 40.0)), yellow_with_grey
    )
    assert [d.colour for d in dice] == ["yellow", "grey", "yellow"]
    # yellow dice move the white balance, and the grey neutral die reads blue: it leans away from yellow
    dice = to_rules_dice(
        tinted("yellow", ("yellow", 5, 45.0), ("blue", 2, -14.0), ("yellow", 1, 40.0)), yellow_with_grey
    )
    assert [d.colour for d in dice] == ["yellow", "grey", "yellow"]


def test_an_orange_players_pale_dice_are_told_by_how_far_they_lean_to_orange():
    """Orange, a player colour of the tablet page, is not in the palette but has a hue to lean to."""
    hand = {("orange", False): 2, ("white", False): 1}
    pale = tinted("orange", ("red", 3, 40.0), ("white", 5, 2.0), ("grey", 6, 25.0))
    assert [d.colour for d in to_rules_dice(pale, hand)] == ["orange", "white", "orange"]


def test_a_roll_with_neutral_dice_is_not_renamed_by_names_alone_nor_by_a_lean_that_does_not_tell():
    hand = {("yellow", False): 1, ("grey", False): 1}
    # without the dice's tints a die read white could be the grey neutral die as well as the yellow one
    untinted = tinted("yellow", ("grey", 5, None), ("white", 2, None))
    assert [d.colour for d in to_rules_dice(untinted, hand)] == ["grey", "white"]
    three_round = {("green", False): 2, ("grey", False): 1}
    # the least green of the player's dice leans less than LEAN_GAP beyond the neutral one
    close = tinted("green", ("grey", 3, 6.0), ("grey", 5, 2.0), ("grey", 6, 22.0))
    assert [d.colour for d in to_rules_dice(close, three_round)] == ["grey", "grey", "grey"]
    # a die too many: nothing is told by lean
    extra = tinted("green", ("grey", 3, 14.0), ("grey", 5, 1.0), ("grey", 6, 22.0), ("grey", 1, 0.0))
    assert [d.colour for d in to_rules_dice(extra, three_round)] == ["grey"] * 4


def test_the_biggy_is_the_largest_die_of_its_colour_after_renaming():
    hand = {("white", False): 2, ("white", True): 1}
    dice = to_rules_dice(seen(("white", 2), ("grey", 6, 80), ("white", 4)), hand)
    assert colours(dice) == [("white", 2, False), ("white", 6, True), ("white", 4, False)]


def test_the_games_own_colour_names_are_kept():
    dice = to_rules_dice(seen(("violet", 3), ("purple", 4)), {("purple", False): 2})
    assert [d.colour for d in dice] == ["purple", "purple"]


def test_a_colour_named_in_the_rule_texts_languages_is_the_readers_colour():
    """A player whose colour the game spells "Rouge" or "Red" rolls the dice the reader reads red."""
    dice = to_rules_dice(seen(("red", 3), ("red", 5)), {("Rouge", False): 2})
    assert [d.colour for d in dice] == ["Rouge", "Rouge"]
    dice = to_rules_dice(seen(("red", 3), ("red", 5)), {("Red", False): 2})
    assert [d.colour for d in dice] == ["Red", "Red"]


def live_bridge(tmp_path):
    """A two-player classic game (red to roll 8 dice), the camera's session and its bridge."""
    from companion.camera_game.bridge import CameraBridge
    from companion.camera_game.session import CameraSession
    from companion.rules import GameConfig
    from companion.service import GameService
    from companion.storage import EventStore

    camera = CameraSession(GameService(EventStore(tmp_path)))
    players = [{"name": "Ana", "colour": "red"}, {"name": "Bo", "colour": "green"}]
    game = camera.games.create(GameConfig.from_dict({"players": players}), seed=7)
    return camera, game.record.id, CameraBridge(camera, "camera 0")


def test_a_players_tap_while_the_camera_offers_a_roll_waits_and_then_takes_its_place(tmp_path):
    """The camera's offer and a player's roll from a tablet at the same moment: the tap waits
    until the offer is whole, then is recorded, and the game's state shows no offer left over."""
    import threading

    from companion.rules import Die

    camera, game_id, _ = live_bridge(tmp_path)
    games = camera.games
    tap = threading.Thread(
        target=games.roll, args=(game_id, tuple(Die("red", p) for p in (1, 2, 3, 4, 5, 6, 6, 2)))
    )
    waited = []

    def picture() -> bytes:  # made while the offer is under way
        tap.start()
        tap.join(0.3)
        waited.append(tap.is_alive())
        return b"picture"

    camera.offer_roll(game_id, tuple(Die("red", p) for p in (1, 2, 3)), picture)  # short: it waits
    tap.join(5)
    assert waited == [True], "the tap waited for the camera's offer"
    state = games.snapshot(game_id).state
    assert state["phase"] == "place" and state["events"] == 2
    assert state["camera_roll"] is None and camera.frame(game_id) is None


def test_what_the_camera_offers_goes_when_play_moves_on(tmp_path):
    """A placement the camera saw goes with the next event; a roll waiting for a player goes with
    the roll recorded instead, or with an undo."""
    from companion.rules import Die

    camera, game_id, _ = live_bridge(tmp_path)
    games = camera.games
    games.roll(game_id, tuple(Die("red", p) for p in (1, 2, 3, 4, 5, 6, 6, 2)))
    camera.propose_placement(game_id, {"value": 6, "casino": "6"})
    assert games.snapshot(game_id).state["proposal"] == {"value": 6, "casino": "6"}
    games.place(game_id, 2, "2")
    assert games.snapshot(game_id).state["proposal"] is None and camera.state_of(game_id)["proposal"] is None
    camera.offer_roll(game_id, tuple(Die("green", p) for p in (1, 2, 3)), lambda: b"picture")
    assert games.snapshot(game_id).state["camera_roll"]["kind"] == "misfit"
    assert camera.frame(game_id) == b"picture"
    games.undo(game_id)
    assert games.snapshot(game_id).state["camera_roll"] is None and camera.frame(game_id) is None


def test_a_placement_the_camera_saw_after_play_moved_on_is_not_shown(tmp_path):
    """The camera's placement of a roll already placed (a tap came first) is no proposal."""
    from companion.rules import Die

    camera, game_id, _ = live_bridge(tmp_path)
    games = camera.games
    games.roll(game_id, tuple(Die("red", p) for p in (1, 2, 3, 4, 5, 6, 6, 2)))
    games.place(game_id, 6, "6")  # blue's turn to roll now: nothing waits to be placed
    camera.propose_placement(game_id, {"value": 6, "casino": "6"})
    assert games.snapshot(game_id).state["proposal"] is None


def red_roll(scores: list[float]) -> tuple[SeenDie, ...]:
    return tuple(SeenDie((60 * i, 0, 50, 50), 1 + i % 6, "red", s) for i, s in enumerate(scores))


def test_a_roll_that_fits_is_recorded_when_the_camera_is_sure_of_every_die(tmp_path):
    from companion.camera.watcher import Settled

    camera, game_id, bridge = live_bridge(tmp_path)
    bridge.on_settled(Settled(1.0, red_roll([0.9, 0.8, 0.7, 0.6, 0.5, 0.45, 0.9, 0.9])))
    live = camera.games.get(game_id)
    assert live.state.phase.value == "place" and camera.state_of(game_id)["camera_roll"] is None


def test_a_roll_that_fits_waits_for_a_look_when_the_camera_is_unsure_of_a_die(tmp_path):
    """Rolls recorded wrong without a question held a die the reader scored low."""
    from companion.camera.watcher import Settled
    from companion.rules.events import die_from_dict

    camera, game_id, bridge = live_bridge(tmp_path)
    bridge.on_settled(Settled(1.0, red_roll([0.9, 0.8, 0.3, 0.9, 0.9, 0.9, 0.44, 0.9])))
    assert camera.games.get(game_id).state.phase.value == "roll", "nothing recorded yet"
    waiting = camera.state_of(game_id)["camera_roll"]
    assert waiting["kind"] == "unsure" and waiting["unsure"] == [2, 6]
    assert waiting["problem"].startswith("the camera is unsure of 2 dice of Ana (red)'s roll")
    checked = waiting["dice"]
    assert [d["pips"] for d in checked] == [1, 2, 3, 4, 5, 6, 1, 2]
    # a roll that does not fit says the rules' reason, and still marks the dice the camera doubts
    bridge.on_settled(Settled(2.0, red_roll([0.9, 0.3, 0.9])))
    waiting = camera.state_of(game_id)["camera_roll"]
    assert waiting["kind"] == "misfit" and waiting["unsure"] == [1]
    assert waiting["problem"].startswith("Ana (red)'s roll as the camera read it: ")
    assert "holds" in waiting["problem"]
    # a player looks at the first roll and records it: the rules take it, the offer is gone
    live = camera.games.roll(game_id, tuple(die_from_dict(d) for d in checked))
    assert live.state.phase.value == "place" and camera.state_of(game_id)["camera_roll"] is None
    assert camera.games.snapshot(game_id).state["camera_roll"] is None


def test_the_camera_is_unsure_of_a_die_found_or_read_hesitantly():
    """The detector's score and the pip reader's margin apart say more than their product; a die
    without them (a model that reads pips itself) falls back to the product."""
    from companion.camera_game.bridge import unsure

    def die(score: float, found: float | None, margin: float | None) -> SeenDie:
        return SeenDie((0, 0, 50, 50), 4, "red", score, None, found, margin)

    assert not unsure(die(0.8, 0.9, 0.85))
    assert unsure(die(0.8, 0.9, 0.3)), "sure of pips 4 but nearly as sure of 5: asked"
    assert unsure(die(0.8, 0.9, 0.55)), "a margin of 0.55 is hesitant enough to ask"
    assert unsure(die(0.27, 0.28, 0.97)), "read surely but barely found: asked"
    assert not unsure(die(0.4, 0.45, 0.9)), "found under half but read surely: not asked"
    assert not unsure(die(0.42, 0.6, 0.65)), "a low product of two passable parts is not asked"
    assert unsure(die(0.44, None, None)) and not unsure(die(0.46, None, None))


def test_read_json_says_sure_by_the_rule_the_game_asks_by():
    """``companion read --json`` marks each die ``sure`` exactly when the camera game would
    record it without asking, so a table's own photos measure what its games will ask."""
    from companion.camera_game.bridge import unsure

    dice = [
        SeenDie((0, 0, 50, 50), 4, "red", score, None, found, margin)
        for score, found, margin in (
            (0.8, 0.9, 0.85),
            (0.8, 0.9, 0.3),
            (0.27, 0.28, 0.97),
            (0.44, None, None),
            (0.46, None, None),
        )
    ]
    assert [d.to_json()["sure"] for d in dice] == [True, False, False, False, True]
    assert [d.to_json()["sure"] for d in dice] == [not unsure(d) for d in dice]


def lit(*dice: tuple[str, int, float | None]) -> tuple[SeenDie, ...]:
    """Dice read in a row, each (colour, pips, body lightness)."""
    return tuple(
        SeenDie((100 * i, 0, 50, 50), pips, colour, 0.9, light)
        for i, (colour, pips, light) in enumerate(dice)
    )


WHITE_WITH_GREYS = {("white", False): 3, ("grey", False): 2}


def test_a_white_players_roll_with_grey_neutral_dice_is_named_by_which_dice_are_darker():
    # one grey die read white (the count of each is off): the two darkest are the grey ones
    dice = to_rules_dice(
        lit(
            ("white", 1, 88.0), ("white", 2, 61.0), ("grey", 3, 55.0), ("white", 4, 90.0), ("white", 5, 84.0)
        ),
        WHITE_WITH_GREYS,
    )
    assert [d.colour for d in dice] == ["white", "grey", "grey", "white", "white"]
    # the counts fit but a white and a grey die swapped names: the darker pair is grey
    swapped = to_rules_dice(
        lit(("grey", 1, 80.0), ("white", 2, 58.0), ("grey", 3, 55.0), ("white", 4, 90.0), ("white", 5, 84.0)),
        WHITE_WITH_GREYS,
    )
    assert [d.colour for d in swapped] == ["white", "grey", "grey", "white", "white"]


def test_a_die_read_in_a_neutral_colour_the_hand_lacks_is_ranked_with_the_others():
    """A grey die of a white player's roll read black (or not named at all) is still one of the
    roll's dice without a hue: the darkest two are grey."""
    read = [("black", 1, 31.0), ("grey", 2, 39.0), ("white", 3, 56.0), ("white", 4, 70.0), ("other", 5, 88.0)]
    assert [d.colour for d in to_rules_dice(lit(*read), WHITE_WITH_GREYS)] == [
        "grey",
        "grey",
        "white",
        "white",
        "white",
    ]


def test_a_black_players_roll_with_grey_dice_goes_darkest_first():
    dice = to_rules_dice(
        lit(("grey", 6, 20.0), ("grey", 2, 52.0), ("black", 4, 18.0)),
        {("black", False): 2, ("grey", False): 1},
    )
    assert [d.colour for d in dice] == ["black", "grey", "black"]


def test_neutral_dice_keep_their_names_when_their_lightness_does_not_tell_them_apart():
    read = [("white", 1, 88.0), ("white", 2, 61.0), ("grey", 3, 55.0), ("white", 4, 90.0), ("white", 5, 66.0)]
    # the second-darkest grey (61) and the darkest white (66) lie closer than RANK_GAP
    assert [d.colour for d in to_rules_dice(lit(*read), WHITE_WITH_GREYS)] == [c for c, _, _ in read]
    # a die without a lightness, or one die missing: nothing is ranked
    unlit = [*read[:4], ("white", 5, None)]
    assert [d.colour for d in to_rules_dice(lit(*unlit), WHITE_WITH_GREYS)] == [c for c, _, _ in unlit]
    missing = read[:4]
    assert [d.colour for d in to_rules_dice(lit(*missing), WHITE_WITH_GREYS)] == [c for c, _, _ in missing]
    # a hand of one neutral colour is never ranked (a white player's own dice, however dark)
    alone = to_rules_dice(lit(("white", 1, 40.0), ("white", 2, 90.0)), {("white", False): 2})
    assert [d.colour for d in alone] == ["white", "white"]


RED_WITH_WHITES = {("red", False): 3, ("white", False): 2}
#: a red player's roll with two white neutral dice seen by a black-and-white camera: every die
#: read ``other``, with its body lightness
GREY_ROLL = [
    ("other", 1, 31.0),
    ("other", 2, 82.0),
    ("other", 3, 40.0),
    ("other", 4, 27.0),
    ("other", 5, 90.0),
]
RED_AND_WHITE = ["red", "white", "red", "red", "white"]


def test_a_players_dice_in_a_picture_without_colour_are_the_darker_ones_beside_white_neutral_dice():
    """No die has a lean to tell; the red dice are darker than the white neutral dice, so the
    three darkest are red."""
    assert [d.colour for d in to_rules_dice(lit(*GREY_ROLL), RED_WITH_WHITES)] == RED_AND_WHITE
    # a webcam in a dim room: a few dice still named, some wrongly (a shaded white die read grey)
    named = [("red", 1, 31.0), ("grey", 2, 62.0), ("grey", 3, 40.0), ("white", 4, 27.0), ("white", 5, 90.0)]
    assert [d.colour for d in to_rules_dice(lit(*named), RED_WITH_WHITES)] == RED_AND_WHITE


def test_an_orange_players_dice_in_a_picture_without_colour_are_the_darker_ones_beside_white_neutral_dice():
    """Rendered orange players' rolls read without colour (seed 195): colours asked about in 37 of
    300 rolls rather than 105, none more recorded wrong."""
    hand = {("orange", False): 3, ("white", False): 2}
    dice = to_rules_dice(lit(*GREY_ROLL), hand)
    assert [d.colour for d in dice] == ["orange", "white", "orange", "orange", "white"]


def test_a_players_dice_are_not_told_by_lightness_where_it_may_mislead():
    read = GREY_ROLL
    unchanged = [c for c, _, _ in read]
    # the lightest red die (40) and the darkest white one (45) lie closer than RANK_GAP
    close = [*read[:1], ("other", 2, 45.0), *read[2:]]
    assert [d.colour for d in to_rules_dice(lit(*close), RED_WITH_WHITES)] == unchanged
    # grey neutral dice may be as dark as a player's, and yellow dice as light as white ones
    for hand in ({("red", False): 3, ("grey", False): 2}, {("yellow", False): 3, ("white", False): 2}):
        assert [d.colour for d in to_rules_dice(lit(*read), hand)] == unchanged
    # a die read in another colour with a hue (a foreign die), or a die missing: nothing is told
    foreign = [("green", 1, 31.0), *read[1:]]
    assert [d.colour for d in to_rules_dice(lit(*foreign), RED_WITH_WHITES)] == [c for c, _, _ in foreign]
    assert [d.colour for d in to_rules_dice(lit(*read[:4]), RED_WITH_WHITES)] == unchanged[:4]
    unlit = [*read[:4], ("other", 5, None)]
    assert [d.colour for d in to_rules_dice(lit(*unlit), RED_WITH_WHITES)] == unchanged


def test_the_bridge_says_how_many_dice_the_roller_rolls_and_none_when_no_roll_is_awaited(tmp_path):
    from companion.camera.watcher import Settled

    camera, game_id, bridge = live_bridge(tmp_path)
    assert bridge.dice_rolled() == 8  # red rolls all eight
    bridge.on_settled(Settled(1.0, red_roll([0.9] * 8)))
    assert camera.games.get(game_id).state.phase.value == "place"
    assert bridge.dice_rolled() is None  # the roller places; no roll is awaited


def test_a_renaming_that_gives_the_roller_another_player_s_dice_is_asked_not_recorded(tmp_path):
    """White to roll 8, in a game with black and red players: a reading of three black, two red
    and three white dice could be named all white (black and white dice read alike, white ones
    read red under a lamp), but those black and red dice may be the other players': asked."""
    from companion.camera.watcher import Settled
    from companion.camera_game.bridge import CameraBridge
    from companion.camera_game.session import CameraSession
    from companion.rules import GameConfig
    from companion.service import GameService
    from companion.storage import EventStore

    games = GameService(EventStore(tmp_path))
    camera = CameraSession(games)
    players = [
        {"name": "Wu", "colour": "white"},
        {"name": "Bea", "colour": "black"},
        {"name": "Rod", "colour": "red"},
    ]
    game = games.create(GameConfig.from_dict({"players": players}), seed=7)
    assert game.state.current_player == "white"
    colours = ["black"] * 3 + ["red"] * 2 + ["white"] * 3
    seen = tuple(
        SeenDie((60 * i, 0, 50, 50), 1 + i % 6, c, 0.95, None, 0.95, 0.95) for i, c in enumerate(colours)
    )
    CameraBridge(camera, "camera 0").on_settled(Settled(1.0, seen))
    assert games.get(game.record.id).state.phase.value == "roll", "nothing recorded"
    waiting = camera.state_of(game.record.id)["camera_roll"]
    assert waiting["kind"] == "unsure" and waiting["unsure"] == [0, 1, 2, 3, 4]
    assert {d["colour"] for d in waiting["dice"]} == {"white"}  # offered named as the roller's


def test_the_same_roll_seen_again_after_a_hand_left_is_not_offered_again(tmp_path):
    """A roll the camera offered for a look, read again in the same places once a hand that
    rested over it has gone: the offer a player may be correcting stays as it was."""
    from companion.camera.watcher import Settled

    camera, game_id, bridge = live_bridge(tmp_path)
    bridge.on_settled(Settled(1.0, red_roll([0.9, 0.8, 0.3, 0.9, 0.9, 0.9, 0.44, 0.9])))
    version = camera.state_of(game_id)["camera_roll"]["version"]
    bridge.on_settled(Settled(3.0, red_roll([0.9, 0.8, 0.3, 0.9, 0.9, 0.9, 0.44, 0.9]), again=True))
    assert camera.state_of(game_id)["camera_roll"]["version"] == version
    bridge.on_settled(Settled(5.0, red_roll([0.9, 0.8, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9]), replaces=1.0))
    assert camera.games.get(game_id).state.phase.value == "place", "a better look that fits is the roll"
