"""The Flask application factory."""

from pathlib import Path
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider

from ..camera_game.session import CameraSession
from ..fixes import FixStore
from ..service import GameService
from ..service.hints import Hints
from ..storage import EventStore, default_folder
from . import api, failures, pages, setup_page
from .requests import MAX_BODY_BYTES

#: live views (open pages following a game) the server keeps at once
DEFAULT_VIEWERS = 1000


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app. ``DATA_DIR`` chooses where games are stored (created on first use)."""
    app = Flask(__name__)
    app.config.from_mapping(
        DATA_DIR=str(default_folder()),
        JOIN_BASE_URL=None,
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        # a comment down every quiet live stream this often, so no proxy closes it
        SSE_KEEPALIVE=15.0,
        MAX_VIEWERS=DEFAULT_VIEWERS,
        SSE_RETRY_AFTER=5,
        # review each round in the background as it ends (tests that play many games turn it off)
        REVIEW_ROUNDS=True,
    )
    if test_config:
        app.config.update(test_config)
    app.json = InOrderJSON(app)
    data = Path(app.config["DATA_DIR"])
    service = GameService(EventStore(data), review_rounds=app.config["REVIEW_ROUNDS"])
    app.extensions["games"] = service
    app.extensions["camera"] = CameraSession(service, fixes=FixStore(data))
    app.extensions["hints"] = Hints(service)
    app.register_blueprint(api.blueprint)
    app.register_blueprint(pages.blueprint)
    app.register_blueprint(setup_page.blueprint)
    failures.register(app)
    return app


class InOrderJSON(DefaultJSONProvider):
    """JSON answers keep their keys in the order the code builds them (casinos 1 to 6, then the
    slot), which reads better than sorted keys."""

    sort_keys = False
