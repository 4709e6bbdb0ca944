"""The colours of the shared Roboflow photos' dice, named by eye for the colour benchmark."""

import json

import pytest

from companion.vision.colour import PALETTE
from research.benchmarks.bench_colour import NAMED, ROBOFLOW


def test_colours_named_by_eye_are_palette_names_one_per_labelled_die():
    named = json.loads(NAMED.read_text())
    assert {key.split("/")[0] for key in named} == {"valid", "test"}
    assert {c for colours in named.values() for c in colours} <= set(PALETTE) | {"orange", None}
    if not ROBOFLOW.is_dir():
        pytest.skip("the shared Roboflow photos are not beside this checkout")
    for key, colours in named.items():
        split, stem = key.split("/")
        labels = (ROBOFLOW / split / "labels" / f"{stem}.txt").read_text().split("\n")
        assert len(colours) == len([line for line in labels if line.strip()]), key
