"""Record a sample session: a seeded round of Las Vegas played by the rules engine, filmed from
above. Each turn: bare tray, dice tumbling in, dice still, a hand taking the chosen dice to
their casino. Writes recording.mp4 (or frames/), recording.json with the true rolls, and
calibration.json (the tray and the casino zones).

    python -m research.synth.recording samples/classic-two-players --players 2 --seed 7
"""

import argparse
import json
import math
import random
from pathlib import Path

import cv2
import numpy as np

from companion.rules import GameConfig, Phase, choose_placement, replay, roll_virtual, start_game

from .cli import parse_size
from .scene import DiePose, background, camera_effects, draw_die, sample_light

FPS = 15
EMPTY_S, ROLLING_S, STILL_S, HAND_S = 0.9, 0.6, 1.0, 0.4


class Table:
    """The fixed layout: a tray at the bottom, six casino zones above it."""

    def __init__(self, w: int, h: int, rng: np.random.Generator) -> None:
        self.w, self.h = w, h
        self.cloth = background(rng, w, h)
        self.light = sample_light(rng)
        self.light.update(blur=False, gradient=0.15, brightness=1.0)
        self.tray = (int(w * 0.22), int(h * 0.42), int(w * 0.56), int(h * 0.54))
        zone_w = w // 6
        self.zones = {str(i + 1): (i * zone_w + 4, 4, zone_w - 8, int(h * 0.36)) for i in range(6)}
        base = np.clip(self.cloth, 0, 255).astype(np.uint8)
        x, y, tw, th = self.tray
        cv2.rectangle(base, (x, y), (x + tw, y + th), (30, 60, 95), 10)
        for name, (zx, zy, zw, zh) in self.zones.items():
            cv2.rectangle(base, (zx, zy), (zx + zw, zy + zh), (200, 200, 200), 2)
            cv2.putText(base, name, (zx + 6, zy + 30), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (220, 220, 220), 2)
        self.base = base.astype(np.float32)

    def frame(
        self,
        dice: list[DiePose],
        rng: np.random.Generator,
        blur: float = 0.0,
        hand: tuple[float, float] | None = None,
    ) -> np.ndarray:
        img = self.base.astype(np.float32).copy()
        for pose in dice:
            draw_die(img, pose, self.light["direction"], rng)
        if hand is not None:
            cv2.ellipse(
                img,
                (int(hand[0]), int(hand[1])),
                (int(self.w * 0.09), int(self.h * 0.16)),
                20,
                0,
                360,
                (120, 160, 215),
                -1,
                cv2.LINE_AA,
            )
        img = img * self.light["brightness"] * self.light["gains"][None, None, :]
        if blur > 0:
            k = max(3, int(blur) | 1)
            img = cv2.GaussianBlur(img, (k, k), 0)
        return camera_effects(img, rng, {"blur": False})


def tray_poses(table: Table, dice: list, rng: np.random.Generator, size: float, turn: int) -> list[DiePose]:
    x, y, w, h = table.tray
    poses: list[DiePose] = []
    for index, die in enumerate(dice):
        for _ in range(200):
            px, py = (
                rng.uniform(x + size * 1.2, x + w - size * 1.2),
                rng.uniform(y + size * 1.2, y + h - size * 1.2),
            )
            if all(math.hypot(px - p.x, py - p.y) > size * 1.7 for p in poses):
                break
        poses.append(
            DiePose(
                px,
                py,
                size * (1.4 if die.big else 1),
                rng.uniform(0, math.pi / 2),
                die.pips,
                die.colour,
                die.big,
                look=turn * 100 + index,
            )
        )
    return poses


def casino_pose(table: Table, casino: str, index: int, die, size: float) -> DiePose:
    zx, zy, zw, zh = table.zones[casino]
    per_row = max(1, int((zw - 10) // (size * 1.25)))
    col, row = index % per_row, index // per_row
    return DiePose(
        zx + 8 + size * 0.6 + col * size * 1.25,
        zy + 48 + size * 0.6 + row * size * 1.25,
        size * 0.9,
        0.0,
        die.pips,
        die.colour,
        die.big,
        look=10_000 + index * 7 + int(casino),
    )


def record(
    out: Path, players: int, seed: int, size: tuple[int, int], edition: str, neutral: bool, video: bool
) -> None:
    rng = np.random.default_rng(seed)
    game_rng = random.Random(seed)
    config = GameConfig.for_players(players, edition=edition, neutral=neutral)
    started = start_game(config, game_rng)
    state = replay([started])
    table = Table(*size, rng)
    die_size = size[0] * 0.042
    placed: dict[str, list[DiePose]] = {name: [] for name in table.zones}
    frames: list[np.ndarray] = []
    rolls = []

    def on_casinos() -> list[DiePose]:
        return [p for poses in placed.values() for p in poses]

    while state.round_number == 1 and not state.is_over:
        roll = roll_virtual(state, game_rng)
        player = state.current_player
        state.apply(roll)
        final = tray_poses(table, list(roll.dice), rng, die_size, len(rolls))
        for _ in range(int(EMPTY_S * FPS)):
            frames.append(table.frame(on_casinos(), rng))
        steps = int(ROLLING_S * FPS)
        for step in range(steps):
            left = 1 - (step + 1) / steps
            moving = [
                DiePose(
                    p.x + left * rng.uniform(-1, 1) * die_size * 3,
                    p.y - left * die_size * 6,
                    p.size,
                    p.angle + left * 3,
                    int(rng.integers(1, 7)) if left > 0.3 else p.pips,
                    p.colour,
                    p.big,
                    look=p.look,
                )
                for p in final
            ]
            frames.append(table.frame(on_casinos() + moving, rng, blur=left * 9))
        still_from = len(frames) / FPS
        for _ in range(int(STILL_S * FPS)):
            frames.append(table.frame(on_casinos() + final, rng))
        still_to = len(frames) / FPS
        if state.phase is Phase.PLACE:
            placement = choose_placement(state, game_rng)
            state.apply(placement)
            placement_json = {"value": placement.value, "casino": placement.casino}
            chosen = [d for d in roll.dice if d.pips == placement.value]
        else:  # the leftover neutral roll places itself on the casinos of its values
            placement_json, chosen = None, list(roll.dice)
        for die in chosen:
            casino = str(die.pips)
            placed[casino].append(casino_pose(table, casino, len(placed[casino]), die, die_size))
        for step in range(int(HAND_S * FPS)):
            x, y, w, h = table.tray
            hand = (x + w * (0.2 + 0.6 * step / max(1, HAND_S * FPS - 1)), y + h * 0.5)
            frames.append(table.frame(on_casinos(), rng, hand=hand))
        rolls.append(
            {
                "player": player,
                "dice": [{"colour": d.colour, "pips": d.pips, "big": d.big} for d in roll.dice],
                "still_from": round(still_from, 3),
                "still_to": round(still_to, 3),
                "placement": placement_json,
            }
        )
    for _ in range(int(EMPTY_S * FPS)):
        frames.append(table.frame(on_casinos(), rng))
    write(out, frames, video)
    session = {
        "fps": FPS,
        "size": list(size),
        "edition": edition,
        "neutral": neutral,
        "seed": seed,
        "players": [{"name": p.name, "colour": p.colour} for p in config.players],
        "deck": list(started.deck),
        "rolls": rolls,
        "about": "Rendered by research.synth.recording: one round, true rolls and placements.",
    }
    (out / "recording.json").write_text(json.dumps(session, indent=1))
    calibration = {
        "version": 1,
        "frame": list(size),
        "table": None,
        "colours": {},
        "zones": {"tray": list(table.tray), **{n: list(r) for n, r in table.zones.items()}},
    }
    (out / "calibration.json").write_text(json.dumps(calibration, indent=1))


def write(out: Path, frames: list[np.ndarray], video: bool) -> None:
    out.mkdir(parents=True, exist_ok=True)
    if video:
        h, w = frames[0].shape[:2]
        writer = cv2.VideoWriter(str(out / "recording.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), FPS, (w, h))
        if writer.isOpened():
            for frame in frames:
                writer.write(frame)
            writer.release()
            return
    (out / "frames").mkdir(exist_ok=True)
    for index, frame in enumerate(frames):
        cv2.imwrite(str(out / "frames" / f"{index:05d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 85])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", type=Path)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--size", type=parse_size, default="960x540", help="WIDTHxHEIGHT of the video")
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--neutral", action="store_true")
    parser.add_argument("--frames", action="store_true", help="write JPEG frames instead of a video")
    args = parser.parse_args()
    record(args.out, args.players, args.seed, args.size, args.edition, args.neutral, not args.frames)


if __name__ == "__main__":
    main()
