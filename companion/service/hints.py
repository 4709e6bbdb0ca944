"""The hints a table asks for: the worth of each value of the roll in front of a player, and
each player's chance to win. Each is worked out once for a game as its events stand, without
holding up play meanwhile, and kept until they change."""

import random
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ..rules import IllegalMove, Phase, replay
from .games import GameService
from .live_game import LiveGame

#: rollouts per value for the hints: each value's worth to about ±$1,500, in about 0.3 s
ADVICE_ROLLOUTS = 1000
#: plays of the rest of the game for the chances to win: each to about ±1.5 points, in under 1 s
CHANCES_ROLLOUTS = 1000
#: games whose last answer of each kind is kept (one answer is a few kilobytes)
KEPT_GAMES = 32

#: the work of one answer, done without the service's lock
Work = Callable[[], dict[str, Any]]


class Hints:
    """The advice and the chances to win of the games of ``games``; thread-safe."""

    def __init__(self, games: GameService) -> None:
        self._games = games
        self._lock = threading.Lock()
        #: per kind of answer and game: (the game's revision then, the answer)
        self._kept: dict[str, OrderedDict[str, tuple[int, dict[str, Any]]]] = {
            "advice": OrderedDict(),
            "chances": OrderedDict(),
        }

    def advice(self, game_id: str) -> dict[str, Any]:
        """What each placement of the roll in front of the player is worth: the chance to win,
        the money by the round's end (``odds.advisor``), worked out once per roll."""
        from ..odds.advisor import advice_json  # numpy: loaded when a table first asks
        from ..odds.position import Position
        from ..odds.standing import Standing

        def inputs(live: LiveGame, moment: int) -> Work:
            state = live.state  # changed in place by the next command: read it now, under the lock
            if state.phase is not Phase.PLACE or not state.last_roll:
                raise IllegalMove(
                    "no roll waits to be placed: the worth of each value is for a roll", "no_roll_waits"
                )
            position, standing, dice = Position.from_state(state), Standing.from_state(state), state.last_roll
            rng = random.Random(f"{live.record.seed}:advice:{moment}")
            return lambda: advice_json(position, dice, ADVICE_ROLLOUTS, rng, standing)

        return self._once_per_change("advice", game_id, inputs)

    def chances(self, game_id: str) -> dict[str, Any]:
        """Each player's chance to win from where the game stands (``odds.chances``), worked out
        once per change of the game."""
        from ..odds.chances import win_chances

        def inputs(live: LiveGame, moment: int) -> Work:
            state = replay(live.events)  # a copy: the rollouts read it while play goes on
            rng = random.Random(f"{live.record.seed}:chances:{moment}")

            def work() -> dict[str, Any]:
                found = win_chances(state, CHANCES_ROLLOUTS, rng)
                return {
                    "events": moment,
                    "rollouts": found.rollouts,
                    "chances": {c: round(p, 3) for c, p in found.chances.items()},
                    "stderr": {c: round(e, 3) for c, e in found.stderr.items()},
                }

            return work

        return self._once_per_change("chances", game_id, inputs)

    def _once_per_change(
        self, kind: str, game_id: str, inputs: Callable[[LiveGame, int], Work]
    ) -> dict[str, Any]:
        """The ``kind`` of answer kept for the game's events as they stand, else worked out:
        ``inputs`` takes what it needs from the game (and its number of events, which seeds the
        rollouts) under the service's lock and returns the work, done without it (so play goes
        on meanwhile). The answer is kept under the game's revision, not its number of events:
        a roll undone and rolled again is as many events but other dice."""
        kept = self._kept[kind]
        with self._games.locked():
            live = self._games.get(game_id)
            revision = live.revision
            with self._lock:
                known = kept.get(game_id)
            if known is not None and known[0] == revision:
                return known[1]
            work = inputs(live, len(live.events))
        answer = work()
        with self._lock:
            known = kept.get(game_id)
            if known is None or known[0] < revision:  # an answer for later events stays
                kept[game_id] = (revision, answer)
            kept.move_to_end(game_id)
            while len(kept) > KEPT_GAMES:
                kept.popitem(last=False)
        return answer
