"""The table setup page and its API: the camera's picture, the table area and zones drawn on it,
and each player's colour learned from the dice on the table (``companion.camera.table_setup``).

Changes need the setup token ``companion serve`` prints with the page's link, as
`Authorization: Bearer …`; without a camera the page says how to start one."""

import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from ..camera.table_setup import AREAS, SetupError, TableSetup
from ..camera_game.table_colours import colours_to_learn
from ..service import RequestError
from .failures import error_body
from .requests import json_body

blueprint = Blueprint("setup", __name__)

NO_CAMERA = (
    "no camera is being watched: start the companion with a camera (companion serve --camera 0), "
    "or calibrate from photos with companion calibrate"
)


class NoCamera(LookupError):
    pass


def table_setup() -> TableSetup:
    setup = current_app.extensions.get("setup")
    if setup is None:
        raise NoCamera(NO_CAMERA)
    return setup


def needs_setup_token(view: Callable[..., Any]) -> Callable[..., Any]:
    """Changes to the table's calibration: the setup token, as `Authorization: Bearer …`."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        table_setup()  # no camera: say that first
        expected = current_app.config.get("SETUP_TOKEN") or ""
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not expected or not secrets.compare_digest(token.strip(), expected):
            return refusal(
                "this needs the setup token from the link companion serve printed", "setup_token"
            ), 401
        return view(*args, **kwargs)

    return wrapper


def refusal(message: str, code: str, values: dict[str, Any] | None = None) -> Response:
    """The API's error: the English sentence, its stable code and the values its words name."""
    return jsonify(error_body(message, code, values or {}))


@blueprint.errorhandler(NoCamera)
def no_camera(err: Exception) -> tuple[Response, int]:
    return refusal(str(err), "no_camera"), 404


@blueprint.errorhandler(SetupError)
def cannot(err: SetupError) -> tuple[Response, int]:
    return refusal(str(err), err.code, err.values), 400


@blueprint.errorhandler(RequestError)
def malformed(err: Exception) -> tuple[Response, int]:
    return refusal(str(err), getattr(err, "code", "bad_request"), getattr(err, "values", None)), 400


@blueprint.get("/setup")
def page() -> str:
    return render_template("setup.html", areas=AREAS)


def with_game(state: dict[str, Any]) -> dict[str, Any]:
    """The setup's ``state`` with ``to_learn``: the colours the game being played rolls that
    the calibration has not learned (``colours_to_learn``), or None when no game is being played."""
    games = current_app.extensions.get("games")
    live = games.active_game() if games is not None else None
    to_learn = colours_to_learn(state["colours"], live.state.config) if live is not None else None
    session = current_app.extensions.get("camera")
    camera = session.status if session is not None else None  # stopped, ended, dim …: the page says so
    status = {"kind": camera["kind"], "message": camera["message"]} if camera else None
    return {**state, "to_learn": to_learn, "status": status}


@blueprint.get("/api/setup")
def state() -> Response:
    return jsonify(with_game(table_setup().state()))


@blueprint.get("/api/setup/frame.jpg")
def frame() -> Response:
    number, data = table_setup().picture()
    response = Response(data, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Picture"] = str(number)  # learning a colour names the picture it saw
    return response


@blueprint.post("/api/setup/areas")
@needs_setup_token
def areas() -> Response:
    data = json_body()
    if not isinstance(data, dict):
        raise SetupError('send the areas as a JSON object: {"tray": [x, y, w, h], "1": …}')
    return jsonify(with_game(table_setup().set_areas(data)))


@blueprint.post("/api/setup/colours")
@needs_setup_token
def colours() -> Response:
    data = json_body()
    colour = data.get("colour") if isinstance(data, dict) else None
    if not isinstance(colour, str):
        raise SetupError('send the colour of the dice on the table: {"colour": "red"}', "colour_unnamed")
    picture = data.get("picture")
    if picture is not None and (isinstance(picture, bool) or not isinstance(picture, int)):
        raise SetupError(
            f"picture: the number of the picture shown (its X-Picture header), got {picture!r}",
            "picture_gone",
        )
    return jsonify(with_game(table_setup().learn(colour, picture)))
