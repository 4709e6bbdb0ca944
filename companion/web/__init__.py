"""The web adapter: JSON API, Server-Sent Events and the tablet pages."""

from .app import create_app

__all__ = ["create_app"]
