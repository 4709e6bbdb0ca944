"""Write rendered scenes as a YOLO folder (images/, labels/ with class = pips − 1) plus
colours.json (image name -> colour of each labelled die, in label order).

    python -m research.synth.make_dataset OUT --count 3000 --seed 1 [--max-side 640] \
        [--perspective 0.5] [--lowest 25] [--translucent 0.3] [--busy 0.7] \
        [--size 3264x2448] [--die-share 0.02 0.06] [--slanted 0.8] [--defocus 0.4] [--grouped 0.5] \
        [--glossy 0.5] [--marbled 0.3] [--game-rolls 1.0] [--players orange]

``--perspective`` is the share of scenes drawn as cubes through a lens (``perspective.py``);
the rest come from the flat top-down renderer (``scene.py``). ``--lowest`` is the lowest lens
camera in degrees above the table, ``--translucent`` the share of see-through lens dice,
``--busy`` the share of lens scenes on a speckled, printed or cluttered table (``busy.py``).
``--size`` draws every lens scene at that size (a phone photo), half of them turned upright,
and ``--die-share`` sets how wide a die at the centre is, as a share of the shorter side.
``--slanted`` is the share of lens cameras anywhere from ``--lowest`` to 90° (the rest near
overhead), ``--defocus`` the share of lens scenes partly out of focus (``focus.py``) and
``--grouped`` the share of lens scenes whose dice are pushed together in touching groups;
``--glossy`` is the share of lens dice whose pips are drilled and catch the light (``glossy.py``),
``--marbled`` the share whose body is marbled or glittered (``marbled.py``). ``--game-rolls`` is
the share of scenes that are one player's roll as the table's webcam sees it (``game_roll.py``;
drawn at ``--size`` when given): the other options do not apply to them; ``--players`` names the
colours their players may have (default the seven of ``game_roll.PLAYER_COLOURS``; orange, which
the tablet page offers and the reader's palette lacks, only when named).
"""

import argparse
import json
from collections.abc import Iterable, Iterator
from dataclasses import fields
from pathlib import Path

import cv2
import numpy as np

from .cli import add_players_option, parse_share, parse_size
from .game_roll import PLAYER_COLOURS, sample_game_roll
from .perspective import DIE_SHARE, LOWEST_CAMERA, PLAIN_LENS, SLANTED, LensOptions, sample_perspective_scene
from .scene import Scene, sample_scene


def write_dataset(
    out: Path,
    count: int,
    seed: int,
    max_side: int | None,
    perspective: float = 0.0,
    lens: LensOptions = PLAIN_LENS,
    size: tuple[int, int] | None = None,
    game_rolls: float = 0.0,
    players: tuple[str, ...] = PLAYER_COLOURS,
) -> None:
    """``count`` scenes of ``seed`` into ``out``: a ``game_rolls`` share of game rolls (their player
    of one of ``players``' colours), a ``perspective`` share of the rest drawn through a lens as
    ``lens`` says (at ``size`` when given, half of them upright), the others flat; each shrunk to
    ``max_side`` when given."""
    rng = np.random.default_rng(seed)

    def scenes() -> Iterator[Scene]:
        for _ in range(count):
            if game_rolls and rng.random() < game_rolls:
                yield sample_game_roll(rng, size, players)
            elif perspective and rng.random() < perspective:
                frame = size if size is None or rng.random() < 0.5 else (size[1], size[0])
                yield sample_perspective_scene(rng, frame, options=lens)
            else:
                yield sample_scene(rng)

    write_scenes(out, seed, scenes(), max_side)


def write_scenes(out: Path, seed: int, scenes: Iterable[Scene], max_side: int | None) -> None:
    """``scenes`` into ``out`` as a YOLO folder with colours.json, named ``synth_SEED_INDEX``, each
    shrunk to ``max_side`` when given."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    colours: dict[str, list[str]] = {}
    for index, scene in enumerate(scenes):
        image, scale = scene.image, 1.0
        h, w = image.shape[:2]
        if max_side and max(h, w) > max_side:
            scale = max_side / max(h, w)
            image = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
        ih, iw = image.shape[:2]
        name = f"synth_{seed}_{index:05d}"
        cv2.imwrite(str(out / "images" / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        lines = []
        for die in scene.dice:
            x, y, bw, bh = (v * scale for v in die.box)
            lines.append(
                f"{die.pips - 1} {(x + bw / 2) / iw:.6f} {(y + bh / 2) / ih:.6f} {bw / iw:.6f} {bh / ih:.6f}"
            )
        (out / "labels" / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
        colours[name] = [d.colour for d in scene.dice]
    (out / "colours.json").write_text(json.dumps(colours))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-side", type=int, default=None)
    parser.add_argument(
        "--perspective", type=parse_share, default=0.0, help="share of scenes drawn through a lens"
    )
    parser.add_argument(
        "--lowest",
        type=float,
        default=LOWEST_CAMERA,
        help="degrees above the table of the lowest lens camera (default %(default)s)",
    )
    parser.add_argument("--translucent", type=parse_share, default=0.0, help="share of see-through lens dice")
    parser.add_argument("--busy", type=parse_share, default=0.0, help="share of lens scenes on a busy table")
    parser.add_argument(
        "--inked",
        type=parse_share,
        default=0.0,
        help="share of lens dice with gold, silver, red, blue or green pips",
    )
    parser.add_argument(
        "--slanted",
        type=parse_share,
        default=SLANTED,
        help="share of lens cameras anywhere from --lowest to 90° (the rest near overhead; "
        "default %(default)s)",
    )
    parser.add_argument(
        "--defocus", type=parse_share, default=0.0, help="share of lens scenes partly out of focus"
    )
    parser.add_argument(
        "--grouped",
        type=parse_share,
        default=0.0,
        help="share of lens scenes whose dice are pushed together in touching groups",
    )
    parser.add_argument(
        "--glossy",
        type=parse_share,
        default=0.0,
        help="share of lens dice whose pips are drilled and catch the light (gold, silver, ...)",
    )
    parser.add_argument(
        "--marbled",
        type=parse_share,
        default=0.0,
        help="share of lens dice whose body is marbled (veins of a second colour) or glittered",
    )
    parser.add_argument(
        "--game-rolls",
        type=parse_share,
        default=0.0,
        help="share of scenes that are one player's roll seen by the table's webcam (game_roll.py)",
    )
    add_players_option(parser)
    parser.add_argument(
        "--size", type=parse_size, default=None, help="lens scenes drawn at WxH (e.g. 3264x2448)"
    )
    parser.add_argument(
        "--die-share",
        type=float,
        nargs=2,
        default=DIE_SHARE,
        metavar=("LOW", "HIGH"),
        help="a die at the centre is this share of the shorter side wide (default %(default)s)",
    )
    args = parser.parse_args()
    # each LensOptions field has the command-line option of its name
    given = {field.name: getattr(args, field.name) for field in fields(LensOptions)}
    lens = LensOptions(**given | {"die_share": tuple(args.die_share)})
    write_dataset(
        args.out,
        args.count,
        args.seed,
        args.max_side,
        args.perspective,
        lens,
        args.size,
        args.game_rolls,
        args.players,
    )


if __name__ == "__main__":
    main()
