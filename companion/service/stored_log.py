"""Reading a game's stored events back: each row parsed and replayed through the rules, and
the first one that fails named with the reason, so a damaged game is told apart, not fatal."""

import json
from dataclasses import dataclass
from typing import Any

from ..rules import Event, GameStarted, GameState, RulesError, event_from_dict


@dataclass(frozen=True)
class Damage:
    """Where a game's log stops replaying: the first event that fails, and why."""

    event: int
    reason: str

    def as_json(self) -> dict[str, Any]:
        return {"event": self.event, "reason": self.reason}


@dataclass(frozen=True)
class Replayed:
    """The events that replay (all of them when ``damage`` is None) and their state."""

    events: list[Event]
    state: GameState | None
    damage: Damage | None
    stored: int  # how many event rows the game has


def replay_stored(rows: list[tuple[int, str]]) -> Replayed:
    """Parse and replay ``rows`` (number, JSON text) in order, up to the first that fails."""
    events: list[Event] = []
    state: GameState | None = None
    for place, (seq, text) in enumerate(rows):
        if seq != place:
            gap = Damage(place, f"is missing (the next one stored is {seq})")
            return Replayed(events, state, gap, len(rows))
        try:
            event = event_from_dict(json.loads(text))
            if state is None:
                if not isinstance(event, GameStarted):
                    raise RulesError("a game's first event must be its start")
                state = GameState(event)
            else:
                state.apply(event)
        except Exception as err:  # stored text from any version or tool: each failure is data
            return Replayed(events, state, Damage(seq, why_unreadable(err)), len(rows))
        events.append(event)
    if state is None:
        return Replayed(events, None, Damage(0, "is missing (the game has no events)"), 0)
    return Replayed(events, state, None, len(rows))


def why_unreadable(err: Exception) -> str:
    """Why a stored event does not replay, in words that follow "event N …"."""
    if isinstance(err, json.JSONDecodeError):
        return f"is not whole JSON ({err.msg.removesuffix(' at')} at character {err.pos})"
    if isinstance(err, KeyError):
        return f"lacks its field {err.args[0]!r}"
    if isinstance(err, RulesError):
        return f"is refused by the rules: {err}"
    return f"does not read as an event: {err or type(err).__name__}"
