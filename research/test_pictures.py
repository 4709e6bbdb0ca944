"""Draw the product tests' rendered pictures (``tests/pictures.py``) again from their manifest:
``python -m research.test_pictures``. Each is drawn as the tests were written against it and
saved as lossless WebP, so the tests read the same pixels without importing the renderer."""

import json
import sys

import cv2
import numpy as np

from research.synth.scene import DiePose, render_scene
from tests.pictures import FOLDER, LIGHTS, MANIFEST


def steady_light(gains: tuple[float, float, float]) -> dict:
    """A light from the upper left, even and sharp; ``gains`` tint it (BGR)."""
    return {
        "direction": (0.6, 0.8),
        "gains": np.array(gains, np.float32),
        "brightness": 1.0,
        "gradient": 0.1,
        "blur": False,
    }


def draw(entry: dict) -> tuple[np.ndarray, list[int] | None]:
    """The picture an entry of the manifest describes, and the box of its one die when it asks."""
    kind = entry["kind"]
    light = steady_light(LIGHTS[entry.get("light")])
    if kind == "table":  # five dice to a row, 150 px apart
        seed = entry["seed"]
        poses = [
            DiePose(140 + 150 * (i % 5), 150 + 200 * (i // 5), 56, 0.3 * i, pips, colour, look=seed * 10 + i)
            for i, (colour, pips) in enumerate(entry["dice"])
        ]
        return render_scene(np.random.default_rng(seed), 960, 540, poses, light=light).image, None
    if kind == "row":  # one row, 180 px apart
        poses = [
            DiePose(200 + 180 * i, 270, 56, 0.3 * i, pips, colour, look=i)
            for i, (colour, pips) in enumerate(entry["dice"])
        ]
        return render_scene(np.random.default_rng(entry["seed"]), 960, 540, poses, light=light).image, None
    if kind == "close":
        pose = DiePose(480, 270, 120, 0.4, entry["pips"], entry["colour"], look=entry["look"])
        return render_scene(np.random.default_rng(entry["pips"]), 960, 540, [pose], light=light).image, None
    if kind == "die":  # the renderer's own light, as PipNet's tests were written against
        seed = entry["seed"]
        pose = DiePose(160, 120, 60, 0.4 * seed, entry["pips"], entry["colour"], look=seed)
        scene = render_scene(np.random.default_rng(seed), 320, 240, [pose])
        return scene.image, list(scene.dice[0].box)
    raise ValueError(f"no kind of test picture {kind!r}")


def save(name: str, entry: dict) -> np.ndarray:
    image, box = draw(entry)
    cv2.imwrite(str(FOLDER / f"{name}.webp"), image, [cv2.IMWRITE_WEBP_QUALITY, 101])  # 101: lossless
    if box is not None:
        entry["box"] = box
    return image


def main() -> int:
    manifest = json.loads(MANIFEST.read_text())
    for name, entry in manifest.items():
        save(name, entry)
    MANIFEST.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"drew {len(manifest)} pictures into {FOLDER}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
