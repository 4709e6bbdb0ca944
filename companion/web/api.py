"""The JSON API (exact routes; other tools rely on them) and the live Server-Sent Events."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound

from ..camera_game.session import CameraSession
from ..rules import ConfigError, Refusal, RulesError
from ..service import FixRefused, GameDamaged, GameNotFound, GameService, RequestError, Unauthorized
from ..service.export import export_csv, export_json, export_stored
from ..service.hints import Hints
from ..storage import StoreError
from ..words import nearest
from . import requests
from .failures import error_body

API_PREFIX = "/api"
blueprint = Blueprint("api", __name__, url_prefix=API_PREFIX)


def service() -> GameService:
    return current_app.extensions["games"]


def camera() -> CameraSession:
    return current_app.extensions["camera"]


def hints_service() -> Hints:
    return current_app.extensions["hints"]


def body() -> Any:
    return requests.json_body()


def state_of(game_id: str) -> Response:
    """The game's state as the answer to a request: the snapshot every client receives."""
    return Response(service().snapshot(game_id).text, mimetype="application/json")


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


def needs_token(view: Callable[..., Any]) -> Callable[..., Any]:
    """State-changing routes: the game's token, as `Authorization: Bearer …`."""

    @wraps(view)
    def wrapper(game_id: str, *args: Any, **kwargs: Any) -> Any:
        service().check_token(game_id, bearer_token())
        return view(game_id, *args, **kwargs)

    return wrapper


#: the HTTP status of each kind of refusal (a RulesError not a RequestError is a 409)
STATUS = {RequestError: 400, Unauthorized: 401, GameNotFound: 404, RulesError: 409}


def error_answer(message: str, code: str, status: int, **values: Any) -> tuple[Response, int]:
    """The API's one error format: the English ``error``, a stable ``code`` and the ``values`` a
    translation of the message needs (where a colour is named, the name of its player too)."""
    colour, game_id = values.get("colour"), (request.view_args or {}).get("game_id")
    if colour and game_id and "player" not in values:
        try:
            players = service().snapshot(game_id).state["players"]
        except (GameNotFound, GameDamaged, StoreError):  # the colour then stands for its player
            players = []
        values["player"] = next((p["name"] for p in players if p["colour"] == colour), colour)
    return jsonify(error_body(message, code, values)), status


@blueprint.errorhandler(FixRefused)
def fix_refused(err: FixRefused) -> tuple[Response, int]:
    """A fix for a roll that is no longer waiting (409) or for a die it does not have (400)."""
    return error_answer(str(err), err.code, 400 if err.code == "no_such_die" else 409, **err.values)


@blueprint.errorhandler(Refusal)
def refused(err: Refusal) -> tuple[Response, int]:
    status = next((status for kind, status in STATUS.items() if isinstance(err, kind)), 409)
    return error_answer(str(err), err.code, status, **err.values)


@blueprint.errorhandler(HTTPException)
def http_error(err: HTTPException) -> tuple[Response, int]:
    return error_answer(err.description or err.name, http_code(err), err.code or 500)


def http_code(err: HTTPException) -> str:
    """ "not_found", "method_not_allowed", …: the HTTP error's name as a code."""
    return err.name.lower().replace(" ", "_")


@blueprint.app_errorhandler(HTTPException)
def unknown_route(err: HTTPException) -> Any:
    """A request for a route the API does not have (a typo in its path, or the wrong method)
    gets a JSON error that names the route meant; other pages keep Flask's own error page."""
    if not request.path.startswith(API_PREFIX + "/"):
        return err
    wanted = f"{request.method} {request.path}"
    if isinstance(err, MethodNotAllowed) and err.valid_methods:
        methods = " or ".join(m for m in err.valid_methods if m not in ("HEAD", "OPTIONS"))
        return error_answer(f"{wanted}: this route takes {methods}", http_code(err), 405, route=wanted)
    if isinstance(err, NotFound):
        close = nearest(request.path, api_paths_like(request.path))
        hint = f" — did you mean {close}?" if close else "; the routes are in the README's HTTP API"
        return error_answer(f"no route {wanted}{hint}", "no_route", 404, route=wanted)
    return http_error(err)


def api_paths_like(path: str) -> list[str]:
    """The API's routes with as many parts as ``path``, each part a route leaves open (a game's
    id) taken from ``path``: what a mistyped path may have meant."""
    parts = path.strip("/").split("/")
    paths = []
    for rule in current_app.url_map.iter_rules():
        pattern = rule.rule.strip("/").split("/")
        if rule.rule.startswith(API_PREFIX + "/") and len(pattern) == len(parts):
            filled = (
                given if part.startswith("<") else part for given, part in zip(parts, pattern, strict=True)
            )
            paths.append("/" + "/".join(filled))
    return paths


@blueprint.get("/games")
def list_games() -> Response:
    return jsonify(games=service().listing())


@blueprint.post("/games")
def create_game() -> tuple[Response, int]:
    config, seed = requests.new_game(body())
    try:
        live = service().create(config, seed)
    except ConfigError as err:  # settings the rules refuse only once the game starts
        raise RequestError(str(err), err.code, **err.values) from None
    return jsonify(id=live.record.id, token=live.record.token), 201


@blueprint.get("/games/<game_id>")
def game_state(game_id: str) -> Response:
    return state_of(game_id)


@blueprint.post("/games/<game_id>/rolls")
@needs_token
def roll(game_id: str) -> Response:
    service().roll(game_id, requests.roll(body()))
    return state_of(game_id)


@blueprint.post("/games/<game_id>/rolls/virtual")
@needs_token
def roll_virtual(game_id: str) -> Response:
    service().roll_virtually(game_id)
    return state_of(game_id)


@blueprint.post("/games/<game_id>/placements")
@needs_token
def place(game_id: str) -> Response:
    service().place(game_id, *requests.placement(body()))
    return state_of(game_id)


@blueprint.post("/games/<game_id>/undo")
@needs_token
def undo(game_id: str) -> Response:
    service().undo(game_id)
    return state_of(game_id)


@blueprint.post("/games/<game_id>/corrections")
@needs_token
def correct(game_id: str) -> Response:
    seq, dice = requests.correction(body())
    live, dropped = service().correct_roll(game_id, seq, dice)
    return jsonify(dropped=dropped, state=service().snapshot(live.record.id).state)


@blueprint.get("/games/<game_id>/camera/frame.jpg")
def camera_frame(game_id: str) -> Response:
    """The camera's picture of a roll that needs correcting, with what was read drawn on it."""
    frame = camera().frame(game_id)
    if frame is None:
        raise GameNotFound("no camera picture is waiting for this game")
    return Response(frame, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@blueprint.get("/games/<game_id>/camera/dice/<int:index>.jpg")
def camera_die(game_id: str, index: int) -> Response:
    """The crop of the camera's picture round die number ``index`` of the waiting roll: the die a
    player is asked about, large enough to tell on a phone."""
    crop = camera().die_crop(game_id, index)
    if crop is None:
        raise GameNotFound(f"no camera picture of die {index} is waiting for this game")
    return Response(crop.jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@blueprint.post("/games/<game_id>/camera/dismiss")
@needs_token
def camera_dismiss(game_id: str) -> Response:
    camera().dismiss_roll(game_id)
    return state_of(game_id)


@blueprint.post("/games/<game_id>/camera/read-again")
@needs_token
def camera_read_again(game_id: str) -> Response:
    camera().ask_to_read_again(game_id)
    return state_of(game_id)


@blueprint.post("/games/<game_id>/camera/fix")
@needs_token
def camera_fix(game_id: str) -> Response:
    """A player says what one die of the camera's waiting roll is; the roll is recorded once
    no die the camera was unsure of is left."""
    camera().fix_die(game_id, *requests.camera_fix(body()))
    return state_of(game_id)


@blueprint.post("/games/<game_id>/hints")
@needs_token
def hints(game_id: str) -> Response:
    service().set_hints(game_id, requests.hints(body()))
    return state_of(game_id)


@blueprint.get("/games/<game_id>/advice")
def advice(game_id: str) -> Response:
    """What each value of the roll in front of the player is worth by the round's end."""
    return jsonify(hints_service().advice(game_id))


@blueprint.get("/games/<game_id>/chances")
def chances(game_id: str) -> Response:
    """Each player's chance to win the game from where it stands, by plays of the rest of it."""
    return jsonify(hints_service().chances(game_id))


@blueprint.get("/games/<game_id>/review")
def review(game_id: str) -> Response:
    """The game's review as far as it is made; asking starts it when it lags the game's rounds."""
    reviews = service().reviews
    status = reviews.status(game_id)
    if not status["current"] and status["progress"] is None:
        reviews.request(game_id)
        status["progress"] = reviews.progress(game_id)
    return jsonify(status)


@blueprint.get("/games/<game_id>/export.json")
def export_as_json(game_id: str) -> Response:
    """The game's export; for a game whose events no longer replay, its events as stored."""
    try:
        exported = export_json(service().get(game_id))
    except GameDamaged:
        exported = export_stored(*service().stored_log(game_id))
    response = jsonify(exported)
    response.headers["Content-Disposition"] = f'attachment; filename="vegas-{game_id}.json"'
    return response


@blueprint.get("/games/<game_id>/export.csv")
def export_as_csv(game_id: str) -> Response:
    live = service().get(game_id)
    return Response(
        export_csv(live),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="vegas-{game_id}.csv"'},
    )
