"""The round in counts (``odds.Position``) against the rules engine, and the worth of choices on
positions where the best one is known."""

import copy
import json
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.odds.advisor import supported, worth_of_choices
from companion.odds.dice_counts import TABLES
from companion.odds.playout import score_counts
from companion.odds.position import Position, add_die
from companion.rules import Die, GameConfig, Phase, Rolled, choose_placement, replay, roll_virtual, start_game
from tests.helpers import paid_by_rules, round_json, scored_json


def started(players: int, seed: int, **options):
    return replay([start_game(GameConfig.for_players(players, **options), random.Random(seed))])


def mid_round(players: int, seed: int, options: dict):
    """A game of ``players`` a few turns into its first round (None when those turns ended it)."""
    rng = random.Random(seed)
    state = started(players, seed, **options)
    if state.phase is Phase.NEUTRAL_ROLL:
        state.apply(roll_virtual(state, rng))
    for _ in range(rng.randrange(0, 6)):
        state.apply(roll_virtual(state, rng))
        state.apply(choose_placement(state, rng))
        if state.rounds:
            return None
    return state


class Recording:
    """A ``random.Random`` that keeps every number drawn and every choice made among equals."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.draws: list[float] = []
        self.choices: list[int] = []

    def random(self) -> float:
        self.draws.append(self.rng.random())
        return self.draws[-1]

    def choice(self, seq):
        self.choices.append(self.rng.randrange(len(seq)))
        return seq[self.choices[-1]]


class Replaying:
    """Gives the rules' policy the choices a ``Recording`` kept, in order."""

    def __init__(self, choices: list[int]) -> None:
        self.choices = choices

    def choice(self, seq):
        return seq[self.choices.pop(0)]


def rolled_from_draws(state, draws: list[float]) -> Rolled:
    """The dice of the current player's turn as ``Position.finish`` rolls them from ``draws``:
    one draw for their own dice (held or not), one for Biggy dice and one for neutral dice held."""
    player = state.current_player
    hand = state.hands[player]
    kinds = [(hand.own, player, False, True), (hand.big, player, True, False)]
    kinds.append((hand.neutral, state.neutral, False, False))
    dice = []
    for count, colour, big, always in kinds:
        if count or always:
            counts = TABLES[count].counts[TABLES[count].pick(draws.pop(0))]
            dice += [Die(colour, value, big) for value in range(1, 7) for _ in range(counts[value])]
    return Rolled(player, tuple(dice))


def tallies_of(casinos) -> dict[str, dict[str, list[int]]]:
    tallies = {}
    for casino in casinos:
        tallies[casino.casino] = {}
        for die in casino.dice:
            add_die(tallies[casino.casino], die.colour, die.pips, die.big)
    return tallies


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"neutral": True}), (5, {}), (4, {"edition": "biggy", "slot": True, "neutral": True})],
)
def test_the_rest_of_a_round_in_counts_is_the_rules_engine_s_seed_for_seed(players, options):
    """``Position.finish`` plays the rest of a round met mid-round; its draws, turned into dice,
    and its choices among equal placements are replayed through the rules engine and its greedy
    policy. Every die lands where it did in counts, and every casino pays the same."""
    for seed in range(40):
        state = mid_round(players, seed, options)
        if state is None:
            continue
        position = Position.from_state(state)
        recording = Recording(seed)
        position.finish(recording)
        replaying = Replaying(recording.choices)
        while not state.rounds:
            state.apply(rolled_from_draws(state, recording.draws))
            state.apply(choose_placement(state, replaying))
        assert recording.draws == [] and replaying.choices == [], f"seed {seed}"
        assert position.tallies == tallies_of(state.rounds[0].casinos), f"seed {seed}"
        scored = [score_counts(name, notes, position.tallies[name]) for name, notes in position.notes.items()]
        assert [scored_json(c) for c in scored] == round_json(state.rounds[0])["casinos"], f"seed {seed}"


def test_rollouts_in_counts_pay_as_the_rules_engine_over_many_rounds():
    """The money the player to move takes by the round's end, played out 1,500 times by each
    engine from the same position: the means agree within four standard errors."""
    state = started(4, 11)
    rng = random.Random(5)
    state.apply(roll_virtual(state, rng))
    state.apply(choose_placement(state, rng))
    player = state.current_player
    counts, rules = [], []
    for run in range(1500):
        rollout = Position.from_state(state)
        rollout.finish(random.Random(run))
        counts.append(sum(note for _, colour, note in paid_by_rules(rollout) if colour == player))
        other, own = copy.deepcopy(state), random.Random(10_000 + run)
        while not other.rounds:
            other.apply(roll_virtual(other, own))
            other.apply(choose_placement(other, own))
        rules.append(
            sum(p.banknote for c in other.rounds[-1].casinos for p in c.payouts if p.colour == player)
        )
    mean_a, mean_b = sum(counts) / len(counts), sum(rules) / len(rules)
    spread = (sum((x - mean_a) ** 2 for x in counts) / len(counts)) ** 0.5
    assert abs(mean_a - mean_b) <= 4 * spread * (2 / len(counts)) ** 0.5, (mean_a, mean_b)


def last_roll_position(hand: int, notes: dict, tallies: dict, slot_values=()) -> Position:
    """Red to place the round's last roll (``hand`` dice), green done: every rollout is the same.
    The numbered casinos not in ``notes`` hold no note."""
    notes = {name: () for name in "123456"} | notes
    return Position(
        colours=("red", "green"),
        seat=0,
        hands=[[hand, 0, 0], [0, 0, 0]],
        neutral=None,
        notes=notes,
        tallies={name: {colour: list(t) for colour, t in tallies.get(name, {}).items()} for name in notes},
        slot_values=set(slot_values),
    )


def test_the_last_die_of_the_round_goes_where_it_takes_most():
    """Red's last die, a 3: on casino 3 it comes second to green's two dice ($30,000); on the slot
    it ties green's one die on count and loses on pips, second again but for $40,000."""
    position = last_roll_position(
        1,
        {"3": (60_000, 30_000), "slot": (70_000, 40_000)},
        {"3": {"green": (2, 6, 3)}, "slot": {"green": (1, 6, 6)}},
        {6},
    )
    worths = worth_of_choices(position, [Die("red", 3)], 10, random.Random(1))
    assert [(w.value, w.casino, w.money, w.stderr) for w in worths] == [
        (3, "slot", 40_000, 0.0),
        (3, "3", 30_000, 0.0),
    ]
    assert worths[0].notes == (("slot", 40_000, 1.0),)


def test_cancelling_a_rival_s_top_note_beats_taking_a_smaller_one():
    """Red's last two 4s: beside green's two 4s on casino 4 they tie and both cancel ($90,000
    taken by nobody: red draws the one-round game); on the empty slot they take its $30,000 and
    green wins with $90,000. The hints play to win: the cancel first, the money beside it."""
    position = last_roll_position(2, {"4": (90_000,), "slot": (30_000, 20_000)}, {"4": {"green": (2, 8, 4)}})
    worths = worth_of_choices(position, [Die("red", 4)] * 2, 10, random.Random(2))
    assert [(w.casino, w.money, w.chance, w.margin) for w in worths] == [
        ("4", 0, 0.5, 0),
        ("slot", 30_000, 0.0, -60_000),
    ]


def test_the_slot_breaks_a_tie_on_dice_by_pips():
    """Red's last two 2s on the slot tie green's two 6s on count and lose on pips: green keeps
    the top note, red takes the second ($50,000), more than casino 2's only note."""
    position = last_roll_position(
        2, {"2": (20_000,), "slot": (80_000, 50_000)}, {"slot": {"green": (2, 12, 6)}}, {6}
    )
    worths = worth_of_choices(position, [Die("red", 2)] * 2, 10, random.Random(3))
    assert [(w.casino, w.money) for w in worths] == [("slot", 50_000), ("2", 20_000)]


def test_money_is_shown_to_the_digits_its_standard_error_supports():
    assert supported(57_312.4, 1_140) == 57_000
    assert supported(57_312.4, 95) == 57_310
    assert supported(140_000, 0) == 140_000


def test_advise_prints_each_choice_best_first_and_refuses_a_state_with_no_roll(
    tmp_path, capsys, client, game
):
    rolled = game.post("/rolls/virtual").get_json()
    path = tmp_path / "state.json"
    path.write_text(json.dumps(rolled))
    assert main(["advise", str(path), "--rollouts", "200", "--seed", "3", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["player"] == rolled["current_player"] and "margin" in answer["policy"]
    values = {p["value"] for p in rolled["placements"]}
    assert {c["value"] for c in answer["choices"]} == values
    ranks = [c["chance"] for c in answer["choices"]]  # rounding keeps the order
    assert ranks == sorted(ranks, reverse=True) and all(c["stderr"] >= 0 for c in answer["choices"])
    assert main(["advise", str(path), "--rollouts", "200", "--seed", "3"]) == 0
    table = capsys.readouterr().out
    name = next(p["name"] for p in rolled["players"] if p["colour"] == rolled["current_player"])
    assert table.startswith(f"{name} to place.") and "chance to win" in table
    for choice in answer["choices"]:  # the same seed: the table shows the JSON's figures
        assert f"{choice['chance'] * 100:.1f}%" in table and f"${choice['money']:,}" in table
    path.write_text(json.dumps(game.state() | {"phase": "roll", "last_roll": None}))
    assert main(["advise", str(path)]) == 2
    assert "phase to be 'place'" in capsys.readouterr().err
    path.write_text(json.dumps({"casinos": []}))  # a round for `companion score`, not a game
    assert main(["advise", str(path)]) == 2
    assert "neither a game's state" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"neutral": True}), (5, {}), (4, {"edition": "biggy", "slot": True})],
)
def test_rollouts_stepped_at_once_pay_as_rollouts_one_by_one(players, options):
    """The batch engine against the round in counts, played 3,000 times each from the same
    position a few turns into a round: the mean money of the player to move, and of the next
    player, agree within four standard errors."""
    import numpy as np

    from companion.odds.batch import CommonDice, play_out

    state = started(players, 3, **options)
    rng = random.Random(9)
    if state.phase is Phase.NEUTRAL_ROLL:
        state.apply(roll_virtual(state, rng))
    for _ in range(2):
        state.apply(roll_virtual(state, rng))
        state.apply(choose_placement(state, rng))
    position = Position.from_state(state)
    for player in (position.player, position.colours[(position.seat + 1) % len(position.colours)]):
        ends = play_out([position], CommonDice.draw(np.random.default_rng(1), 3000, [position]), "greedy")
        batch = ends.money(player)
        one_by_one = []
        for run in range(3000):
            rollout = position.copy()
            rollout.finish(random.Random(run))
            one_by_one.append(sum(note for _, colour, note in paid_by_rules(rollout) if colour == player))
        one_by_one = np.array(one_by_one)
        error = np.sqrt(batch.var(ddof=1) / len(batch) + one_by_one.var(ddof=1) / len(one_by_one))
        assert abs(batch.mean() - one_by_one.mean()) <= 4 * error + 1, (
            player,
            batch.mean(),
            one_by_one.mean(),
        )


def test_advise_reads_a_stored_game_and_an_export_as_it_reads_the_state(tmp_path, capsys, client, game):
    """The same game as the API's state, as its export and by its id in the data folder (events
    replayed through the rules): the same seed gives the same advice, to the last figure. An
    export that does not replay is named with its first bad event."""
    rolled = game.post("/rolls/virtual").get_json()
    export = client.get(f"/api/games/{game.id}/export.json").get_json()
    state_file, export_file = tmp_path / "state.json", tmp_path / "export.json"
    state_file.write_text(json.dumps(rolled))
    export_file.write_text(json.dumps(export))
    answers = []
    by_id = [game.id, "--data", str(tmp_path / "data")]
    for source in ([str(state_file)], [str(export_file)], by_id):
        assert main(["advise", *source, "--rollouts", "200", "--seed", "4", "--json"]) == 0
        answers.append(json.loads(capsys.readouterr().out))
    assert answers[0] == answers[1] == answers[2] and answers[0]["choices"]
    assert main(["advise", game.id[:-1] + "x", "--data", str(tmp_path / "data")]) == 2
    assert f"did you mean {game.id}?" in capsys.readouterr().err
    assert main(["advise", str(export_file), "--rollouts", "200", "--seed", "4"]) == 0
    name = next(p["name"] for p in rolled["players"] if p["colour"] == rolled["current_player"])
    assert capsys.readouterr().out.startswith(f"{name} to place.")
    export_file.write_text(json.dumps(export | {"events": export["events"][:-1]}))
    assert main(["advise", str(export_file)]) == 2
    assert "phase to be 'place'" in capsys.readouterr().err
    export_file.write_text(json.dumps(export | {"events": export["events"] + [{"type": "placed"}]}))
    assert main(["advise", str(export_file)]) == 2
    assert f"event {len(export['events'])} " in capsys.readouterr().err


class BestSeen:
    """Stands in for the rules policy's RNG: keeps the (value, casino) it found equally good."""

    def __init__(self) -> None:
        self.seen: list | None = None

    def choice(self, seq):
        self.seen = list(seq)
        return seq[0]


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"neutral": True}), (5, {}), (4, {"edition": "biggy", "slot": True, "neutral": True})],
)
def test_greedy_rollouts_in_arrays_place_and_pay_as_the_rules_engine_turn_by_turn(players, options):
    """One greedy rollout in arrays (``batch``) from a position met mid-round; its rolls are fed to
    the rules engine turn by turn. Each placement is one the rules' greedy policy rates best (the
    arrays break ties with their own noise), it goes to the rules engine, and at the round's end
    every colour took the same note on every casino."""
    import numpy as np

    from companion.odds.batch import CommonDice, Rollouts
    from companion.rules import Placed

    for seed in range(25):
        state = mid_round(players, seed, options)
        if state is None:
            continue
        position = Position.from_state(state)
        table = Rollouts([position], 1)
        dice = CommonDice.draw(np.random.default_rng(seed), 1, [position])
        for _, roll, target in table.turns(dice, "greedy"):
            player = state.current_player
            colours = (player, player, state.neutral)
            shown = [
                Die(colours[kind], value + 1, kind == 1)
                for kind in range(3)
                for value in range(6)
                for _ in range(roll[0, kind, value])
            ]
            state.apply(Rolled(player, tuple(shown)))
            seen = BestSeen()
            move = choose_placement(state, seen)
            best = seen.seen or [(move.value, move.casino)]
            value = int(target[0]) % 6 + 1
            placed = Placed(player, value, table.names[table.target_casino[target[0]]])
            assert (placed.value, placed.casino) in best, f"seed {seed}: {placed} is not among {best}"
            state.apply(placed)
        assert len(state.rounds) == 1, f"seed {seed}"
        by_rules = {(c.casino, p.colour): p.banknote for c in state.rounds[0].casinos for p in c.payouts}
        in_arrays = {
            (table.names[c], table.colours[k]): int(note)
            for (c, k), note in np.ndenumerate(table.paid[0])
            if note
        }
        assert in_arrays == by_rules, f"seed {seed}"


casino_dice = st.lists(
    st.builds(Die, st.sampled_from(["red", "green", "blue", "grey"]), st.integers(1, 6), st.booleans()),
    max_size=12,
)


#: the slot: equal on dice and pips, green's highest die (5) beats red's (3)
SLOT_BY_HIGHEST = [[]] * 6 + [[Die("red", 3), Die("red", 3), Die("green", 1), Die("green", 5)]]


@settings(max_examples=300, deadline=None)
@example(dice=SLOT_BY_HIGHEST, notes=[[]] * 6 + [[5, 3]])
@given(
    dice=st.lists(casino_dice, min_size=7, max_size=7),
    notes=st.lists(st.lists(st.integers(1, 9), max_size=5), min_size=7, max_size=7),
)
def test_casinos_scored_in_arrays_pay_as_the_rules_score_them(dice, notes):
    """Six numbered casinos and the slot with any dice (Biggy and neutral ones too) and notes: the
    arrays' ranking and payouts (``batch``) give each colour the note ``rules.score_casino`` does."""
    from companion.odds.batch import Rollouts
    from companion.rules.scoring import score_casino

    names = [*"123456", "slot"]
    banknotes = {
        n: tuple(sorted((k * 10_000 for k in held), reverse=True))
        for n, held in zip(names, notes, strict=True)
    }
    tallies: dict[str, dict[str, list[int]]] = {n: {} for n in names}
    for name, on in zip(names, dice, strict=True):
        for die in on:
            add_die(tallies[name], die.colour, die.pips, die.big)
    position = Position(("red", "green", "blue"), 0, [[1, 0, 0]] * 3, "grey", banknotes, tallies)
    table = Rollouts([position], 1)
    for c, name in enumerate(table.names):
        by_rules = {
            p.colour: p.banknote for p in score_casino(name, banknotes[name], dice[names.index(name)]).payouts
        }
        in_arrays = {table.colours[k]: int(note) for k, note in enumerate(table.paid[0, c]) if note}
        assert in_arrays == by_rules, name
