"""The web adapter: JSON API, Server-Sent Events and the tablet pages.

``create_app`` loads on first use, so a module of this package that needs little (request
parsing) starts without the service and its numpy."""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name != "create_app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return import_module(".app", __name__).create_app
