"""The tablet pages: new game, table view, a game's review, history; and the QR code of a join link."""

import io

import segno
from flask import Blueprint, Response, abort, current_app, render_template, request

from ..service import GameNotFound, GameService
from .colours import PageColours, page_colours

blueprint = Blueprint("pages", __name__)

MAX_QR_TEXT = 600


@blueprint.app_context_processor
def colours() -> dict[str, PageColours]:
    """Every page's template gets the game's colours, which ``common.js`` reads."""
    return {"colours": page_colours()}


def service() -> GameService:
    return current_app.extensions["games"]


def join_base() -> str:
    """The address other tablets should use: the LAN URL when serving the LAN."""
    return (current_app.config.get("JOIN_BASE_URL") or request.host_url).rstrip("/")


@blueprint.get("/")
def index() -> str:
    return render_template("index.html")


@blueprint.get("/history")
def history() -> str:
    return render_template("history.html")


def title_of(game_id: str) -> str:
    """The game's title (its players' names), or a 404 page when there is no such game."""
    try:
        return service().get(game_id).record.title
    except GameNotFound:
        abort(404, description=f"no game with id {game_id!r}")


@blueprint.get("/games/<game_id>")
def table(game_id: str) -> str:
    return render_template("table.html", game_id=game_id, title=title_of(game_id), join_base=join_base())


@blueprint.get("/games/<game_id>/review")
def review(game_id: str) -> str:
    return render_template("review.html", game_id=game_id, title=title_of(game_id))


@blueprint.get("/qr.svg")
def qr_code() -> Response:
    """A QR code (SVG, made here: no network needed) for a link on this server."""
    text = request.args.get("data", "")
    if not text or len(text) > MAX_QR_TEXT or not text.startswith(("http://", "https://")):
        abort(400, description="give the link to encode as ?data=http…")
    out = io.BytesIO()
    # a whole SVG document with its namespace: an <img> shows nothing without it
    code = segno.make(text, error="m")
    code.save(out, kind="svg", scale=6, border=2, dark="#111", light="#fff", xmldecl=False)
    return Response(out.getvalue(), mimetype="image/svg+xml")
