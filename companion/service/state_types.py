"""The shape of the API's answers, one ``TypedDict`` per JSON object: the game state
(``view.state_json``) first, then the other answers of the game routes and the table setup's.

``docs/api.md`` documents each object of the state under a heading that names its type, key by
key, and the other answers in its table of routes; a test holds the two together and checks
real answers against these types. A colour is a colour id (``rules.colours``) or a player's own
colour name."""

from typing import Any, TypedDict

from .. import report
from ..report import PayoutJson, StandingJson
from ..rules.events import DieJson


class DieKindJson(TypedDict):
    colour: str
    big: bool


class PlacementJson(TypedDict):
    value: int
    casino: str


class PlayerJson(TypedDict):
    name: str
    colour: str
    seat: int


class HandJson(TypedDict):
    own: int
    big: int
    neutral: int
    count: int


class ExpectedDiceJson(TypedDict):
    colour: str
    big: bool
    count: int


class DiceGroupJson(TypedDict):
    colour: str
    count: int
    pips: list[int]
    big: int


class CasinoJson(TypedDict):
    casino: str
    banknotes: list[int]
    dice: list[DiceGroupJson]
    cancelled: list[str]
    leading: list[PayoutJson]


class ValueGroupJson(TypedDict):
    value: int
    dice: list[DieKindJson]


class LastRollJson(TypedDict):
    dice: list[DieJson]
    by_value: list[ValueGroupJson]


class NoteCountJson(TypedDict):
    value: int
    count: int


class DeckJson(TypedDict):
    count: int
    total: int
    by_value: list[NoteCountJson]


class TallyJson(TypedDict):
    colour: str
    dice: int
    pips: int
    highest: int


class CasinoResultJson(report.ScoredCasinoJson):
    """A casino's result as ``companion score`` gives it, with each colour's tally and dice."""

    tallies: list[TallyJson]
    dice: list[DiceGroupJson]


class RoundJson(TypedDict):
    number: int
    casinos: list[CasinoResultJson]
    to_deck: list[int]
    discarded: list[int]


class LastChangeJson(TypedDict, total=False):
    """Empty for a game just read from the store."""

    kind: str
    round_ended: bool
    event: int
    dropped: int


class RoundRollJson(TypedDict):
    event: int
    player: str
    dice: list[DieJson]
    placed: PlacementJson | None


class CameraJson(TypedDict):
    ok: bool
    ended: bool
    kind: str
    message: str
    source: str


class CameraRollJson(TypedDict):
    dice: list[DieJson]
    kind: str
    problem: str
    unsure: list[int]
    fixed: list[int]
    boxes: list[list[float]] | None
    version: int


class ReviewProgressJson(TypedDict):
    done: int
    total: int


class GameStateJson(TypedDict):
    id: str
    created: str
    seed: int
    events: int
    edition: str
    neutral: str | None
    slot: bool
    unclaimed_rule: str
    neutral_winnings: str
    rounds_total: int
    round: int
    phase: str
    over: bool
    players: list[PlayerJson]
    start_player: str
    current_player: str | None
    hands: dict[str, HandJson]
    expected_roll: list[ExpectedDiceJson]
    casinos: list[CasinoJson]
    last_roll: LastRollJson | None
    placements: list[PlacementJson]
    deck: DeckJson
    discarded: list[int]
    standings: list[StandingJson]
    winnings: dict[str, list[int]]
    winners: list[str]
    rounds: list[RoundJson]
    last_change: LastChangeJson
    round_rolls: list[RoundRollJson]
    camera: CameraJson | None
    camera_roll: CameraRollJson | None
    proposal: PlacementJson | None
    hints: bool
    review: ReviewProgressJson | None


class DamageJson(TypedDict):
    """Where a game's stored events stop replaying: the first event that fails, and why."""

    event: int
    reason: str


class GameSummaryJson(TypedDict):
    id: str
    title: str
    created: str
    edition: str | None
    round: int
    over: bool
    winners: list[str]
    damaged: DamageJson | None


class GameListJson(TypedDict):
    """``GET /api/games``, newest first."""

    games: list[GameSummaryJson]


class CreatedJson(TypedDict):
    """``POST /api/games``."""

    id: str
    token: str


class CorrectionJson(TypedDict):
    """``POST /api/games/<id>/corrections``."""

    dropped: int
    state: GameStateJson


class ChancesJson(TypedDict):
    """``GET /api/games/<id>/chances``: each player's chance to win, by colour."""

    events: int
    rollouts: int
    chances: dict[str, float]
    stderr: dict[str, float]


class ReviewStatusJson(TypedDict):
    """``GET /api/games/<id>/review``; the review itself is ``companion review --json``'s."""

    review: dict[str, Any] | None
    current: bool
    progress: ReviewProgressJson | None


class ColourToLearnJson(TypedDict):
    """A colour the game being played rolls that the table's calibration has not learned."""

    colour: str
    player: str | None


class SetupCameraJson(TypedDict):
    kind: str
    message: str


class SetupStateJson(TypedDict):
    """``GET /api/setup``, and every setup command's answer."""

    camera: str
    file: str
    frame: list[int] | None
    problem: str | None
    table: list[int] | None
    zones: dict[str, list[int]]
    colours: list[str]
    to_learn: list[ColourToLearnJson] | None
    status: SetupCameraJson | None


class LearnedJson(TypedDict):
    """``POST /api/setup/colours`` answers the setup's state with this as ``learned``."""

    colour: str
    dice: int
    boxes: list[list[float]]
    frame: list[int]
    note: str
    warnings: list[str]
