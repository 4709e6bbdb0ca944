"""The hints a table asks for: the worth of each value of the roll in front of a player, and
each player's chance to win. Each is worked out once for a game as its events stand, without
holding up play meanwhile, and kept until they change."""

import random
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from ..rules import IllegalMove, Phase, replay
from .games import GameService
from .live_game import LiveGame
from .state_types import ChancesJson

#: rollouts per value for the hints: each value's worth to about ±$1,500, in about 0.3 s
ADVICE_ROLLOUTS = 1000
#: plays of the rest of the game for the chances to win: each to about ±1.5 points, in under 1 s
CHANCES_ROLLOUTS = 1000
#: games whose last answer of each kind is kept (one answer is a few kilobytes)
KEPT_GAMES = 32

Answer = TypeVar("Answer")


class KeptAnswers(Generic[Answer]):
    """One kind of answer, kept per game under the game's revision (its last ``KEPT_GAMES``)."""

    def __init__(self, games: GameService) -> None:
        self._games = games
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, tuple[int, Answer]] = OrderedDict()

    def of(self, game_id: str, inputs: Callable[[LiveGame, int], Callable[[], Answer]]) -> Answer:
        """The answer kept for the game's events as they stand, else worked out: ``inputs``
        takes what it needs from the game (and its number of events, which seeds the rollouts)
        under the service's lock and returns the work, done without it (so play goes on
        meanwhile). The answer is kept under the game's revision, not its number of events: a
        roll undone and rolled again is as many events but other dice."""
        with self._games.locked():
            live = self._games.get(game_id)
            revision = live.revision
            with self._lock:
                known = self._kept.get(game_id)
            if known is not None and known[0] == revision:
                return known[1]
            work = inputs(live, len(live.events))
        answer = work()
        with self._lock:
            known = self._kept.get(game_id)
            if known is None or known[0] < revision:  # an answer for later events stays
                self._kept[game_id] = (revision, answer)
            self._kept.move_to_end(game_id)
            while len(self._kept) > KEPT_GAMES:
                self._kept.popitem(last=False)
        return answer


class Hints:
    """The advice and the chances to win of the games of ``games``; thread-safe."""

    def __init__(self, games: GameService) -> None:
        self._advice: KeptAnswers[dict[str, Any]] = KeptAnswers(games)
        self._chances: KeptAnswers[ChancesJson] = KeptAnswers(games)

    def advice(self, game_id: str) -> dict[str, Any]:
        """What each placement of the roll in front of the player is worth: the chance to win,
        the money by the round's end (``odds.advisor``), worked out once per roll."""
        from ..odds.advisor import advice_json  # numpy: loaded when a table first asks
        from ..odds.position import Position
        from ..odds.standing import Standing

        def inputs(live: LiveGame, moment: int) -> Callable[[], dict[str, Any]]:
            state = live.state  # changed in place by the next command: read it now, under the lock
            if state.phase is not Phase.PLACE or not state.last_roll:
                raise IllegalMove(
                    "no roll waits to be placed: the worth of each value is for a roll", "no_roll_waits"
                )
            position, standing, dice = Position.from_state(state), Standing.from_state(state), state.last_roll
            rng = random.Random(f"{live.record.seed}:advice:{moment}")
            return lambda: advice_json(position, dice, ADVICE_ROLLOUTS, rng, standing)

        return self._advice.of(game_id, inputs)

    def chances(self, game_id: str) -> ChancesJson:
        """Each player's chance to win from where the game stands (``odds.chances``), worked out
        once per change of the game."""
        from ..odds.chances import win_chances

        def inputs(live: LiveGame, moment: int) -> Callable[[], ChancesJson]:
            state = replay(live.events)  # a copy: the rollouts read it while play goes on
            rng = random.Random(f"{live.record.seed}:chances:{moment}")

            def work() -> ChancesJson:
                found = win_chances(state, CHANCES_ROLLOUTS, rng)
                return {
                    "events": moment,
                    "rollouts": found.rollouts,
                    "chances": {c: round(p, 3) for c, p in found.chances.items()},
                    "stderr": {c: round(e, 3) for c, e in found.stderr.items()},
                }

            return work

        return self._chances.of(game_id, inputs)
