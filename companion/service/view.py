"""The whole state of a game as JSON for the tablet page and the API."""

from typing import TypedDict

from ..report import casino_result_json, standings_json
from ..rules import CasinoResult, Die, GameState, Phase, Placed, Rolled, RoundResult, score_casino
from ..rules.banknotes import by_value
from .live_game import LiveGame
from .state_types import (
    CameraJson,
    CameraRollJson,
    CasinoJson,
    CasinoResultJson,
    DiceGroupJson,
    GameStateJson,
    LastRollJson,
    PlacementJson,
    ReviewProgressJson,
    RoundJson,
    RoundRollJson,
    ValueGroupJson,
)


class CameraPartJson(TypedDict, total=False):
    """What the camera's session adds to a game's state (``camera_game.session``): the state's
    keys of the same names."""

    camera: CameraJson | None
    camera_roll: CameraRollJson | None
    proposal: PlacementJson | None


def dice_by_colour(dice: tuple[Die, ...] | list[Die]) -> list[DiceGroupJson]:
    """Dice grouped per colour, in order of arrival: [{colour, count, pips, big}]; a colour's
    Biggy dice come first in its pips (``big`` of them), each counting two in ``count``."""
    groups: dict[str, DiceGroupJson] = {}
    for die in sorted(dice, key=lambda d: not d.big):  # stable: arrival order within each kind
        group = groups.setdefault(die.colour, {"colour": die.colour, "count": 0, "pips": [], "big": 0})
        group["count"] += die.weight
        group["pips"].append(die.pips)
        group["big"] += die.big
    return list(groups.values())


def roll_by_value(dice: tuple[Die, ...]) -> list[ValueGroupJson]:
    """The last roll grouped by value, for the big choose buttons."""
    values = sorted({d.pips for d in dice})
    return [
        {"value": v, "dice": [{"colour": d.colour, "big": d.big} for d in dice if d.pips == v]}
        for v in values
    ]


def casino_result_view(result: CasinoResult) -> CasinoResultJson:
    return {
        **casino_result_json(result),
        "tallies": [
            {"colour": t.colour, "dice": t.dice, "pips": t.pips, "highest": t.highest} for t in result.tallies
        ],
        "dice": dice_by_colour(result.dice),
    }


def round_view(result: RoundResult) -> RoundJson:
    return {
        "number": result.number,
        "casinos": [casino_result_view(c) for c in result.casinos],
        "to_deck": list(result.to_deck),
        "discarded": list(result.discarded),
    }


def casino_view(
    name: str, banknotes: tuple[int, ...] | list[int], dice: tuple[Die, ...] | list[Die]
) -> CasinoJson:
    """A casino during the round: its notes, its dice by colour, and how it would pay if the round
    ended now (the colours that would cancel, who would take which note): what the table argues
    over before every placement."""
    standing = score_casino(name, tuple(banknotes), tuple(dice))
    return {
        "casino": name,
        "banknotes": list(banknotes),
        "dice": dice_by_colour(dice),
        "cancelled": list(standing.cancelled),
        "leading": [{"colour": p.colour, "banknote": p.banknote} for p in standing.payouts],
    }


def state_json(
    live: LiveGame, camera_part: CameraPartJson | None = None, review: ReviewProgressJson | None = None
) -> GameStateJson:
    """``camera_part``: what the camera's session shows (``camera_game.session``): its health
    (``camera``), the roll waiting for a player (``camera_roll``) and the placement it saw
    (``proposal``); None: no camera. ``review``: how far the review of the game's ended rounds
    has got, while it is made."""
    camera: CameraPartJson = camera_part or {}
    state: GameState = live.state
    config = state.config
    return {
        "id": live.record.id,
        "created": live.record.created,
        "seed": live.record.seed,
        "events": len(live.events),
        "edition": config.edition,
        "neutral": state.neutral,
        "slot": config.slot,
        "unclaimed_rule": config.unclaimed,
        "neutral_winnings": config.rules.neutral_winnings,
        "rounds_total": config.round_count,
        "round": state.round_number,
        "phase": state.phase.value,
        "over": state.is_over,
        "players": [{"name": p.name, "colour": p.colour, "seat": i} for i, p in enumerate(config.players)],
        "start_player": state.colours[state.start_seat],
        "current_player": state.current_player,
        "hands": {
            c: {"own": h.own, "big": h.big, "neutral": h.neutral, "count": h.count}
            for c, h in state.hands.items()
        }
        if not state.is_over
        else {},
        "expected_roll": [
            {"colour": colour, "big": big, "count": n} for (colour, big), n in state.expected_roll().items()
        ],
        "casinos": [casino_view(c.name, c.banknotes, c.dice) for c in state.casinos.values()],
        "last_roll": _last_roll(state),
        "placements": [{"value": p.value, "casino": p.casino} for p in state.legal_placements()],
        "deck": {
            "count": len(state.deck),
            "total": sum(state.deck),
            "by_value": [{"value": v, "count": n} for v, n in by_value(state.deck).items()],
        },
        "discarded": list(state.discard),
        "standings": standings_json(state),
        "winnings": {c: sorted(notes, reverse=True) for c, notes in state.winnings.items()},
        "winners": state.winners() if state.is_over else [],
        "rounds": [round_view(r) for r in state.rounds],
        "last_change": live.last_change,
        "round_rolls": round_rolls(live),
        "camera": camera.get("camera"),
        "camera_roll": camera.get("camera_roll"),
        "proposal": camera.get("proposal"),
        "hints": bool(live.settings.get("hints", False)),
        "review": review,
    }


def round_rolls(live: LiveGame) -> list[RoundRollJson]:
    """The rolls of the current round, each with its event number and its placement."""
    if live.state.is_over:
        return []
    rolls: list[RoundRollJson] = []
    first = live.state.round_first_event
    for index, event in enumerate(live.events[first:], start=first):
        if isinstance(event, Rolled):
            rolls.append(
                {
                    "event": index,
                    "player": event.player,
                    "dice": [{"colour": d.colour, "pips": d.pips, "big": d.big} for d in event.dice],
                    "placed": None,
                }
            )
        elif isinstance(event, Placed) and rolls:
            rolls[-1]["placed"] = {"value": event.value, "casino": event.casino}
    return rolls


def _last_roll(state: GameState) -> LastRollJson | None:
    if state.last_roll is None:
        return None
    roll = state.last_roll
    return {
        "dice": [{"colour": d.colour, "pips": d.pips, "big": d.big} for d in roll],
        "by_value": roll_by_value(roll) if state.phase is Phase.PLACE else [],
    }
