"""A game as the service holds it in memory, and its state as clients receive it."""

from dataclasses import dataclass, field
from typing import Any

from ..rules import Event, GameState
from ..storage import GameRecord
from .state_types import GameStateJson, LastChangeJson


@dataclass
class LiveGame:
    """A game in memory: its record, its events and their fold, what changed last, and the
    table's choices for it."""

    record: GameRecord
    events: list[Event]
    state: GameState
    #: this service's stamp of the events as they are now: a new one with every change of them
    #: (and each time the game is read from the store), never an earlier one again, so what is
    #: worked out from the events (the hints) is kept under it
    revision: int = 0
    last_change: LastChangeJson = field(default_factory=lambda: LastChangeJson())
    #: the table's choices for this game (``hints``), kept beside its events
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Snapshot:
    """A game's state at one revision: as a dict and as the JSON text sent to clients."""

    revision: int  # the game's version on the change feed
    state: GameStateJson
    text: str
