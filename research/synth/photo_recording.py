"""Make a sample session from labelled real photos of one table: a bare table (the dice
painted out of the first photo), then each photo as a settled roll, with motion between.

    python -m research.synth.photo_recording samples/webcam-real \\
        --photos ../shared/datasets/webcam-white-dice/valid --count 8 --colour white
"""

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from research.reader.dataset import read_yolo_folder

FPS = 15
BARE_S, MOVE_S, STILL_S = 1.0, 0.4, 1.0


def bare_table(photo: np.ndarray, boxes: list) -> np.ndarray:
    mask = np.zeros(photo.shape[:2], np.uint8)
    for b in boxes:
        pad = 0.9 * max(b.w, b.h)  # the box is the top face; the die and its shadow reach further
        cv2.rectangle(
            mask, (int(b.x - pad), int(b.y - pad)), (int(b.x + b.w + pad), int(b.y + b.h + pad)), 255, -1
        )
    return cv2.inpaint(photo, mask, 9, cv2.INPAINT_TELEA)


def noisy(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A live sensor never repeats a frame exactly."""
    return np.clip(image.astype(np.int16) + rng.integers(-3, 4, image.shape), 0, 255).astype(np.uint8)


def moving(a: np.ndarray, b: np.ndarray, steps: int, rng: np.random.Generator) -> list[np.ndarray]:
    frames = []
    for i in range(steps):
        mix = (i + 1) / (steps + 1)
        shift = np.float32([[1, 0, rng.uniform(-25, 25)], [0, 1, rng.uniform(-25, 25)]])
        b_moved = cv2.warpAffine(b, shift, (b.shape[1], b.shape[0]), borderMode=cv2.BORDER_REFLECT)
        frame = cv2.addWeighted(a, 1 - mix, b_moved, mix, 0)
        frames.append(cv2.GaussianBlur(frame, (0, 0), 3))
    return frames


def with_hand(
    photo: np.ndarray, over: tuple[float, float, float, float], rng: np.random.Generator
) -> np.ndarray:
    """``photo`` with a hand resting over the die boxed ``over``: a palm over it, the arm reaching
    in from the bottom edge, skin shaded lighter toward the fingers."""
    h, w = photo.shape[:2]
    x, y, bw, bh = over
    cx, cy, size = x + bw / 2, y + bh / 2, max(bw, bh)
    mask = np.zeros((h, w), np.uint8)
    wrist = (int(cx + rng.uniform(-0.5, 0.5) * size), h + 10)
    cv2.line(mask, (int(cx), int(cy)), wrist, 255, int(2.2 * size))
    cv2.ellipse(
        mask, (int(cx), int(cy)), (int(1.9 * size), int(1.5 * size)), rng.uniform(-20, 20), 0, 360, 255, -1
    )
    soft = cv2.GaussianBlur(mask, (0, 0), 2).astype(np.float32)[..., None] / 255
    shade = np.linspace(1.05, 0.8, h, dtype=np.float32)[:, None, None]  # lit from above the table
    skin = np.clip(np.array([120, 150, 205], np.float32) * shade + rng.normal(0, 4, (h, w, 3)), 0, 255)
    return (photo * (1 - soft) + skin * soft).astype(np.uint8)


def make_recording(
    out: Path,
    photos_folder: Path,
    count: int,
    colour: str,
    seed: int,
    still_s: float = STILL_S,
    hand_s: float = 0.0,
    hand_after_s: float = 0.0,
) -> None:
    """``out/frames/*.jpg`` and ``out/recording.json``: a bare table, then ``count`` photos of
    ``photos_folder`` each still for ``still_s`` seconds as a settled roll, with motion between;
    with ``hand_s``, a hand rests still that long over one of each roll's fresh dice first; with
    ``hand_after_s``, once the roll has lain still, a hand rests that long over one of its dice,
    leaves without moving any, and the roll lies still for ``still_s`` again."""
    rng = np.random.default_rng(seed)
    items = list(read_yolo_folder(photos_folder))
    chosen = [items[i] for i in sorted(rng.choice(len(items), size=min(count, len(items)), replace=False))]
    photos = [cv2.imread(str(item.image_path)) for item in chosen]
    h, w = photos[0].shape[:2]
    bare = bare_table(photos[0], chosen[0].boxes(w, h))
    frames: list[np.ndarray] = [noisy(bare, rng) for _ in range(int(BARE_S * FPS))]
    rolls = []
    for item, photo in zip(chosen, photos, strict=True):
        photo = cv2.resize(photo, (w, h))
        frames += moving(bare, photo, int(MOVE_S * FPS), rng)
        if hand_s:
            box = item.boxes(w, h)[int(rng.integers(len(item.rows)))]
            covered = with_hand(photo, (box.x, box.y, box.w, box.h), rng)
            frames += [noisy(covered, rng) for _ in range(int(hand_s * FPS))]
            frames += moving(covered, photo, int(MOVE_S * FPS), rng)  # the hand leaves
        still_from = len(frames) / FPS
        frames += [noisy(photo, rng) for _ in range(int(still_s * FPS))]
        roll = {
            "dice": [{"colour": colour, "pips": b.pips} for b in item.boxes(w, h)],
            "still_from": round(still_from, 3),
            "still_to": round(len(frames) / FPS, 3),
            "photo": item.image_path.name,
        }
        if hand_after_s:
            box = item.boxes(w, h)[int(rng.integers(len(item.rows)))]
            covered = with_hand(photo, (box.x, box.y, box.w, box.h), rng)
            frames += moving(photo, covered, int(MOVE_S * FPS), rng)  # the hand comes
            roll["hand_from"] = round(len(frames) / FPS, 3)
            frames += [noisy(covered, rng) for _ in range(int(hand_after_s * FPS))]
            roll["hand_to"] = round(len(frames) / FPS, 3)
            frames += moving(covered, photo, int(MOVE_S * FPS), rng)  # and leaves
            frames += [noisy(photo, rng) for _ in range(int(still_s * FPS))]
        rolls.append(roll)
        frames += moving(photo, bare, int(MOVE_S * FPS), rng)
        frames += [noisy(bare, rng) for _ in range(int(BARE_S * FPS))]
    (out / "frames").mkdir(parents=True, exist_ok=True)
    for index, frame in enumerate(frames):
        cv2.imwrite(str(out / "frames" / f"{index:05d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 82])
    (out / "recording.json").write_text(
        json.dumps(
            {
                "fps": FPS,
                "size": [w, h],
                "rolls": rolls,
                "about": f"Real photos from {photos_folder.parent.name}/{photos_folder.name} (MIT licence, "
                "matteop65/Dice_Detection_Recognition), played as rolls on an inpainted bare desk.",
            },
            indent=1,
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", type=Path)
    parser.add_argument("--photos", type=Path, required=True, help="a YOLO folder of photos of one table")
    parser.add_argument("--count", type=int, default=8)
    parser.add_argument("--colour", default="white", help="the colour of the dice in these photos")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument(
        "--hand", type=float, default=0.0, metavar="SECONDS", help="a hand rests over each roll's dice first"
    )
    parser.add_argument(
        "--hand-after",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="a hand rests over each roll's dice once it lies still, then leaves",
    )
    args = parser.parse_args()
    make_recording(
        args.out,
        args.photos,
        args.count,
        args.colour,
        args.seed,
        hand_s=args.hand,
        hand_after_s=args.hand_after,
    )


if __name__ == "__main__":
    main()
