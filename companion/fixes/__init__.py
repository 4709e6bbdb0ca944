"""A table's corrections of the camera: each die a player fixed, kept beside the games with the
crop of the camera's picture, what the reader read and what the player said, so that a table's
corrections can become a labelled set for the next model."""

from .store import DieCrop, Fix, FixStore

__all__ = ["DieCrop", "Fix", "FixStore"]
