"""Benchmark: the dice reader on data kept out of training (prints the README's table).

- roboflow-dice valid+test, webcam-white-dice valid (../shared/datasets)
- "read F1, centre match" counts a die found when each box's centre lies inside the other
  (the sets box dice differently); "(unlabelled)" counts images with no label at all.
- the rendered held-out set (seed 999, images 150–299; 0–149 were used to set the colour
  thresholds), made again here from its seed when build/ does not have it.

Run: python -m tests.benchmarks.bench_vision [--model models/dicenet.onnx] [--pip-model models/pipnet.onnx]
"""

import argparse
import json
import platform
import shutil
from pathlib import Path

from companion.synth.make_dataset import write_dataset
from companion.vision import DiceReader
from companion.vision.benchmark import evaluate

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "datasets"
BUILD = ROOT / "build"


def held_out_synthetic() -> Path:
    """Rendered images 150–299 of seed 999 (with colours.json)."""
    test = BUILD / "synth_colour_test"
    if (test / "colours.json").exists():
        return test
    full = BUILD / "synth_heldout"
    if not (full / "colours.json").exists():
        write_dataset(full, 300, 999, None)
    colours = json.loads((full / "colours.json").read_text())
    names = sorted(colours)[150:]
    for sub in ("images", "labels"):
        (test / sub).mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(full / "images" / f"{name}.jpg", test / "images")
        shutil.copy(full / "labels" / f"{name}.txt", test / "labels")
    (test / "colours.json").write_text(json.dumps({n: colours[n] for n in names}))
    return test


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", type=Path)
    parser.add_argument("--pip-model", type=Path)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    reader = DiceReader(args.model, threads=args.threads, pip_model_path=args.pip_model)
    sets = {
        "roboflow-dice valid+test": [SHARED / "roboflow-dice" / "valid", SHARED / "roboflow-dice" / "test"],
        "webcam-white-dice valid": [SHARED / "webcam-white-dice" / "valid"],
        "rendered held-out (seed 999, 150–299)": [held_out_synthetic()],
    }
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, {args.threads} threads")
    print(
        "| set | images (unlabelled) | dice | recall | precision | pips right (found) | read F1 "
        "| read F1, centre match | images all right | colour right | median ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, folders in sets.items():
        f = evaluate(reader, folders).figures()
        colour = f"{f['colour_right']:.3f}" if "colour_right" in f else "–"
        print(
            f"| {name} | {f['images']} ({f['images_without_labels']}) | {f['dice']} | {f['recall']:.3f} | "
            f"{f['precision']:.3f} | {f['pips_right_among_found']:.3f} | {f['read_f1']:.3f} | "
            f"{f['read_f1_by_centre']:.3f} | {f['images_all_right']:.3f} | "
            f"{colour} | {f['median_ms']:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
