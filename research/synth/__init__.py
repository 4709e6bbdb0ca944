"""A renderer of top-down dice scenes: training data, test fixtures and sample sessions."""

from .palette import BODY_COLOURS
from .scene import DiePose, RenderedDie, Scene, render_scene, sample_scene

__all__ = ["BODY_COLOURS", "DiePose", "RenderedDie", "Scene", "render_scene", "sample_scene"]
