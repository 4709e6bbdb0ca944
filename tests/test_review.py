"""The odds at the table through the service and the API: the hints switch and the worth of each
value, the review of a game kept with it (made again when its events change), `companion review`,
and each player's chance to win."""

import json
import random

import pytest

from companion.cli import main
from companion.odds.chances import win_chances
from companion.odds.review import review_game
from companion.rules import GameConfig, choose_placement, replay, roll_virtual, start_game
from companion.service import GameService
from companion.storage import EventStore


def play(game, rounds: int) -> dict:
    """Virtual rolls, each placed on its lowest value, until ``rounds`` rounds have ended."""
    while True:
        state = game.state()
        if len(state["rounds"]) >= rounds or state["over"]:
            return state
        if state["phase"] == "place":
            game.post("/placements", state["placements"][0])
        else:
            game.post("/rolls/virtual")


def test_hints_are_off_until_the_table_turns_them_on_and_need_the_token(game):
    assert game.state()["hints"] is False
    assert game.post("/hints", {"on": True}, token=None).status_code == 401
    refused = game.post("/hints", {"on": "yes"})
    assert refused.status_code == 400 and '{"on": true}' in refused.get_json()["error"]
    assert game.post("/hints", {"on": True, "of": 1}).status_code == 400
    assert game.state()["hints"] is False
    assert game.post("/hints", {"on": True}).get_json()["hints"] is True


def test_the_worth_of_each_value_is_for_the_roll_waiting(client, game):
    waiting = client.get(f"/api/games/{game.id}/advice")
    assert waiting.status_code == 409 and "no roll waits" in waiting.get_json()["error"]
    rolled = game.post("/rolls/virtual").get_json()
    advice = client.get(f"/api/games/{game.id}/advice").get_json()
    assert advice["player"] == rolled["current_player"] and advice["policy_id"] == "margin"
    assert "margin" in advice["policy"]
    assert {c["value"] for c in advice["choices"]} == {p["value"] for p in rolled["placements"]}
    ranks = [c["chance"] for c in advice["choices"]]  # rounding keeps the order
    assert ranks == sorted(ranks, reverse=True)
    assert all(0 <= c["chance"] <= 1 and c["stderr"] >= 0 for c in advice["choices"])
    assert client.get(f"/api/games/{game.id}/advice").get_json() == advice  # once per roll


def test_the_worth_of_a_roll_undone_and_rolled_again_meanwhile_is_for_the_dice_rolled_again(
    app, client, game, monkeypatch
):
    """While the worth of a roll is worked out (without the service's lock), a player undoes it
    and rolls other dice: as many events as before, but the answer for the first dice is not
    handed out for the second."""
    import companion.odds.advisor as advisor
    from companion.rules import Die

    games = app.extensions["games"]
    worked_out = advisor.advice_json
    redone = []

    def undone_and_rolled_again_meanwhile(*args, **kwargs):
        answer = worked_out(*args, **kwargs)
        if not redone:
            redone.append(games.undo(game.id))
            games.roll(game.id, tuple(Die("red", p) for p in (5, 5, 5, 5, 6, 6, 6, 6)))
        return answer

    monkeypatch.setattr(advisor, "advice_json", undone_and_rolled_again_meanwhile)
    dice = [{"colour": "red", "pips": p} for p in (1, 1, 1, 1, 2, 2, 2, 2)]
    assert game.post("/rolls", {"dice": dice}).status_code == 200
    first = client.get(f"/api/games/{game.id}/advice").get_json()
    assert {c["value"] for c in first["choices"]} == {1, 2} and redone
    assert game.state()["events"] == 2
    again = client.get(f"/api/games/{game.id}/advice").get_json()
    assert {c["value"] for c in again["choices"]} == {5, 6}


def test_the_chances_to_win_are_for_the_game_as_it_stands(client, game):
    first = client.get(f"/api/games/{game.id}/chances").get_json()
    assert first["events"] == 1 and first["rollouts"] == 1000
    assert set(first["chances"]) == {"red", "blue", "green"}
    assert sum(first["chances"].values()) == pytest.approx(1.0, abs=0.002)
    assert all(0 < c < 1 for c in first["chances"].values())
    assert client.get(f"/api/games/{game.id}/chances").get_json() == first  # once per change
    game.post("/rolls/virtual")
    assert client.get(f"/api/games/{game.id}/chances").get_json()["events"] == 2
    assert client.get("/api/games/nope/chances").status_code == 404


def test_a_review_covers_the_ended_rounds_is_kept_and_made_again_after_an_undo(app, client, game):
    before = client.get(f"/api/games/{game.id}/review").get_json()
    assert before["review"] is None or before["review"]["moves"] == []
    state = play(game, 1)
    reviews = app.extensions["games"].reviews
    made = reviews.review_now(game.id)
    assert made.covered == state["events"]
    assert {m.round for m in made.moves} == {1} and made.rounds[0].round == 1
    assert sum(made.rounds[0].chances.values()) == pytest.approx(1.0)
    answer = client.get(f"/api/games/{game.id}/review").get_json()
    assert answer["current"] and answer["progress"] is None
    assert answer["review"]["covered"] == state["events"]
    for move in answer["review"]["moves"]:
        assert move["given_up"] >= 0 and move["chosen"].count(":") == 1
    assert reviews.review_now(game.id) == made  # kept: nothing computed again

    game.post("/undo")  # the round's last placement taken back: the kept review no longer fits
    assert reviews.kept(game.id) is None
    stale = client.get(f"/api/games/{game.id}/review").get_json()
    assert not stale["current"]


def test_a_review_made_round_by_round_equals_one_made_at_once():
    config = GameConfig.for_players(3)
    rng = random.Random(2)
    events = [start_game(config, rng)]
    state = replay(events)
    ends = []
    while not state.is_over:
        for event in (roll_virtual(state, rng), None):
            event = event or choose_placement(state, rng)
            state.apply(event)
            events.append(event)
        if len(state.rounds) > len(ends):
            ends.append(len(events))
    at_once = review_game(events, 7, rollouts=200)
    stepwise = None
    for end in ends:
        stepwise = review_game(events[:end], 7, stepwise, rollouts=200)
    assert stepwise == at_once
    steps = []
    review_game(events, 7, rollouts=50, progress=lambda done, total: steps.append((done, total)))
    assert steps[-1][0] == steps[-1][1] and [d for d, _ in steps] == list(range(1, len(steps) + 1))


def test_companion_review_prints_and_keeps_a_stored_game_s_review(tmp_path, capsys):
    games = GameService(EventStore(tmp_path))
    live = games.create(GameConfig.for_players(2), seed=3)
    games.roll_virtually(live.record.id)
    games.place(live.record.id, *sorted_first(games, live.record.id))
    assert main(["review", live.record.id, "--data", str(tmp_path), "--rollouts", "100"]) == 0
    assert "no round has ended yet; a review covers the ended rounds" in capsys.readouterr().out
    while not live.state.rounds:
        games.roll_virtually(live.record.id)
        games.place(live.record.id, *sorted_first(games, live.record.id))
    assert main(["review", live.record.id, "--data", str(tmp_path), "--rollouts", "100", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["game"] == live.record.id and printed["players"] == {"red": "Red", "green": "Green"}
    assert [r["round"] for r in printed["rounds"]] == [1] and printed["moves"]
    assert EventStore(tmp_path).review(live.record.id) is not None
    assert main(["review", live.record.id, "--data", str(tmp_path), "--rollouts", "100"]) == 0
    table = capsys.readouterr().out  # the kept review, as a table
    assert table.startswith(
        f"Review of game {live.record.id}: {len(printed['moves'])} moves with a choice in 1 ended round."
    )
    chances = printed["rounds"][0]["chances"]
    assert f"round 1  {chances['red'] * 100:.1f}%  {chances['green'] * 100:.1f}%" in table
    assert main(["review", live.record.id[:-1] + "x", "--data", str(tmp_path)]) == 2
    assert f"did you mean {live.record.id}?" in capsys.readouterr().err
    assert main(["review", "abc", "--data", str(tmp_path / "none")]) == 2
    assert "no games are kept" in capsys.readouterr().err


def sorted_first(games: GameService, game_id: str) -> tuple[int, str]:
    placement = games.get(game_id).state.legal_placements()[0]
    return placement.value, placement.casino


def test_win_chances_of_a_decided_game_and_of_one_in_play():
    config = GameConfig.for_players(3)
    rng = random.Random(4)
    state = replay([start_game(config, rng)])
    while len(state.rounds) < 3:
        state.apply(roll_virtual(state, rng))
        state.apply(choose_placement(state, rng))
    chances = win_chances(state, 400, random.Random(1))
    assert sum(chances.chances.values()) == pytest.approx(1.0)
    leader = state.standings()[0].colour
    assert chances.chances[leader] == max(chances.chances.values())
    assert all(0 < e < 0.05 for c, e in chances.stderr.items() if 0 < chances.chances[c] < 1)
    while not state.is_over:
        state.apply(roll_virtual(state, rng))
        state.apply(choose_placement(state, rng))
    over = win_chances(state, 400, random.Random(1))
    assert {c for c, p in over.chances.items() if p} == set(state.winners())
    assert sum(over.chances.values()) == pytest.approx(1.0)


def test_a_player_who_cannot_be_caught_wins_for_sure():
    """Last round, red ahead by more than every note on the table: every rollout says red."""
    config = GameConfig.for_players(2, rounds=2, deck=((10_000, 20),))
    rng = random.Random(1)
    state = replay([start_game(config, rng)])
    state.winnings["red"] = [1_000_000]  # a hand-made position: red far ahead of the $200,000 in the deck
    while not state.rounds:
        state.apply(roll_virtual(state, rng))
        state.apply(choose_placement(state, rng))
    chances = win_chances(state, 100, random.Random(2))
    assert chances.chances == {"red": 1.0, "green": 0.0}


def test_the_review_page_renders_and_an_unknown_game_is_a_404(client, game):
    page = client.get(f"/games/{game.id}/review")
    assert page.status_code == 200 and b"review_page.js" in page.data
    assert client.get("/games/nope/review").status_code == 404


def test_win_chances_when_the_leftover_neutral_dice_wait_to_be_rolled():
    """Three players with neutral dice: each round starts with the leftover neutral roll, which
    the rollouts make themselves."""
    state = replay([start_game(GameConfig.for_players(3, neutral=True), random.Random(6))])
    assert state.phase.value == "neutral_roll"
    chances = win_chances(state, 300, random.Random(3))
    assert set(chances.chances) == {"red", "green", "blue"}
    assert sum(chances.chances.values()) == pytest.approx(1.0)
