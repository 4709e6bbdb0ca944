"""Answers for what goes wrong beyond a refused request: the store (a full disk, a database
that cannot be written, a game changed elsewhere), a game whose events no longer replay, and
any unexpected error. Each is JSON under /api/ (``{"error", "code", "values"}``) and a short
page elsewhere; never the framework's generic text. An unexpected error gets a short id that
is also logged beside its traceback, so the person who reports it can be matched to it."""

import logging
import secrets
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from ..service import GameDamaged
from ..storage import DiskFull, StaleWrite, StoreError, StoreIOError, StoreReadOnly

log = logging.getLogger(__name__)


def describe(err: Exception) -> tuple[int, dict[str, Any]] | None:
    """The status and JSON body for a store failure or a damaged game; None for anything else."""
    if isinstance(err, GameDamaged):
        values = {"game": err.game_id, "event": err.event, "reason": err.reason}
        return 409, error_body(str(err), "game_damaged", values)
    if isinstance(err, DiskFull):
        return 507, error_body(str(err), "disk_full", {"folder": str(err.folder)})
    if isinstance(err, StoreReadOnly):
        return 503, error_body(str(err), "store_read_only", {"file": str(err.path)})
    if isinstance(err, StoreIOError):
        return 503, error_body(str(err), "store_io_error", {"file": str(err.path), "detail": err.detail})
    if isinstance(err, StaleWrite):
        return 409, error_body(str(err), "game_changed", {"game": err.game_id, "events": err.stored})
    if isinstance(err, StoreError):
        return 503, error_body(str(err), "store_unavailable", {"detail": str(err)})
    return None


def error_body(message: str, code: str, values: dict[str, Any]) -> dict[str, Any]:
    """Every JSON error the server answers: the English sentence, its stable code, its values."""
    return {"error": message, "code": code, "values": values}


def wants_json() -> bool:
    return request.path.startswith("/api/")


def failed(err: Exception) -> Any:
    """Any exception a view let through: a store failure or a damaged game said as such, and
    anything else as an internal error with its id."""
    if isinstance(err, HTTPException):
        return err  # the routes' own answers (404, 405, …) have their handlers
    known = describe(err)
    if known is None:
        return internal_error(err)
    status, answer = known
    if wants_json():
        return jsonify(answer), status
    if isinstance(err, GameDamaged):
        page = render_template("damaged.html", game_id=err.game_id, event=err.event, reason=err.reason)
        return page, status
    return Response(answer["error"], status=status, mimetype="text/plain")


def internal_error(err: Exception) -> tuple[Response, int]:
    answer = internal_answer(err, request.method, request.path)
    if wants_json():
        return jsonify(answer), 500
    return Response(answer["error"], mimetype="text/plain"), 500


def internal_answer(err: Exception, method: str, path: str) -> dict[str, Any]:
    """The answer to an unforeseen error, its short id logged with the traceback."""
    incident = secrets.token_hex(4)
    log.error("internal error %s on %s %s", incident, method, path, exc_info=err)
    message = (
        f"something went wrong on the server (error {incident}); nothing more was recorded. "
        "Try again; if it happens again, tell whoever runs the server this id: it is in its log"
    )
    return error_body(message, "internal", {"id": incident})


def register(app: Flask) -> None:
    app.register_error_handler(Exception, failed)
