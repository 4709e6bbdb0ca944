"""Train PipNet on crops of real and rendered dice, then export it to ONNX.

    python -m research.training.train_pips --out build/pipnet.onnx --minutes 20 \\
        --data ../shared/datasets/roboflow-dice/train ../shared/datasets/webcam-white-dice/train \\
        --synthetic build/synth_train --pip-crops ../shared/datasets/pip-crops \\
        --check ../shared/datasets/roboflow-dice/valid ../shared/datasets/webcam-white-dice/valid

Crops come from the labelled boxes, moved toward the top face as the reader moves them
(``toward_top_face``), then moved and resized a little (as a detector's boxes would be),
turned (with ``--upright`` never: the shipped PipNet), flipped and recoloured; "not a die"
crops come from places with no labelled die and, with ``--mine-with``, from where a detector
wrongly finds one. One image in five of
``--pip-crops`` is kept out of training and scored at the end with the ``--check`` folders
(true boxes, no jitter).

``--keep-from TEACHER.onnx`` (as the detector's) adds, on the
crops of real dice in each batch (the real folders and the pip crops), the KL divergence of the
net's answers from the teacher's: a PipNet trained on from the shipped one can learn rendered
dice while it keeps reading real ones as it did. ``--motion-blur SHARE`` blurs that
share of the rendered and "not a die" crops along a line, as a shaken camera would; the real
dice stay sharp, so the keep loss still compares like with like. ``--keep-sharp``
widens the keep loss to every crop left sharp, rendered dice and "not a die" places too: the net
learns blurred dice from their labels while it keeps reading sharp ones as the teacher did.
``--paint-neighbours SHARE`` paints, in that share of the crops of dice with other
labelled dice in their picture, the other dice's boxes the table's colour, as the reader does
with ``hide_neighbours``: a PipNet that has seen such crops. With ``--keep-unpainted``
the keep loss's teacher, which has never seen a painted crop, is shown each painted crop as it
was before the painting (the same move, turn and recolouring): the net is asked to read a die
with its neighbours painted out as its teacher reads it with them. ``--widths 16,32,56,96``
trains a narrower PipNet: resumed from a wider file, it starts from that file's
strongest channels (``prune.narrowed_pipnet``), and with ``--keep-from`` that file as the teacher
it learns to answer as the wider net does at about half the multiply-adds.
"""

import argparse
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, cast

import cv2
import numpy as np
import torch
from torch.nn import functional as F

from companion.vision.detector import DiceDetector
from companion.vision.onnx_model import open_session
from companion.vision.pips import (
    CROP_SIDE,
    NOT_A_DIE,
    crop_die,
    toward_top_face,
)
from research.reader.tunable import TURNED_TRAINING_TURNS
from research.synth.pale import greyed
from research.training.neighbours import NeighbourPainter

from .cli import (
    add_blur_options,
    add_keep_options,
    parse_share,
    parsed,
    seeded_start,
    smoothed_value,
    training_parser,
    whole_numbers,
)
from .data import Sample, load_folder, photometric, smeared
from .from_onnx import pip_widths, resume_from_onnx, spread_batch_norms
from .mining import false_finds
from .pipnet import PIP_WIDTHS, PipNet, PipWidths, export_pipnet
from .prune import narrowed_pipnet
from .schedule import set_learning_rate

#: the share of each batch from the real and rendered folders together (the rest: pip crops and
#: "not a die")
REAL_AND_RENDERED = 0.70
#: the pools of real dice (the real folders, the pip crops), in the order ``main`` lists its pools:
#: what ``--keep-from`` keeps and ``--motion-blur`` leaves sharp
REAL_POOLS = (0, 2)
#: how long a ``smeared`` crop's blur is, in pixels of the 48-pixel crop (at 9 px along a line a
#: game roll's dice read 0.85: about 7 px of such a crop)
SMEAR_LENGTH = (3, 9)
#: where the die sits in a 128×128 pip-crops image (measured on a few by eye)
PIP_CROP_BOX = (33.0, 33.0, 62.0, 62.0)


@dataclass(frozen=True)
class Example:
    image: np.ndarray
    box: tuple[float, float, float, float]  # x, y, w, h
    label: int  # pips (1–6), or NOT_A_DIE
    #: the other labelled dice's boxes in its picture (x, y, w, h)
    neighbours: tuple[tuple[float, float, float, float], ...] = ()

    @property
    def crop_box(self) -> tuple[float, float, float, float]:
        """The box the reader would crop for this die (moved toward its top face)."""
        return toward_top_face(self.box, (self.image.shape[1], self.image.shape[0]))


def examples_of(samples: list[Sample]) -> list[Example]:
    """One example per labelled die of ``samples`` (6 px or more), with its picture's other dice."""
    found = []
    for s in samples:
        boxes = [(float(x0), float(y0), float(x1 - x0), float(y1 - y0)) for x0, y0, x1, y1 in s.boxes]
        for index, (box, c) in enumerate(zip(boxes, s.classes, strict=True)):
            if min(box[2], box[3]) >= 6:
                others = tuple(boxes[:index] + boxes[index + 1 :])
                found.append(Example(s.image, box, int(c) + 1, others))
    return found


def example_crop(example: Example, rng: random.Random, paint_neighbours: float = 0.0) -> np.ndarray:
    """The crop of ``example`` moved as a detector's box would be; in a ``paint_neighbours``
    share of those with neighbours, the neighbours painted out (``NeighbourPainter``)."""
    return example_crops(example, rng, paint_neighbours)[0]


def example_crops(
    example: Example, rng: random.Random, paint_neighbours: float = 0.0
) -> tuple[np.ndarray, np.ndarray | None]:
    """``example_crop``, and the same crop before the painting when it was painted (else None)."""
    painted = None
    if example.neighbours and paint_neighbours and rng.random() < paint_neighbours:
        painted = NeighbourPainter(example.image, [example.box, *example.neighbours]).hider_for(example.box)
    box = jittered(example.crop_box, rng)
    crop = crop_die(example.image, box, painted=painted)
    return crop, (crop_die(example.image, box) if painted is not None else None)


def pip_crop_examples(folder: Path, held_out: bool) -> list[Example]:
    """Every fifth image of each value is held out."""
    found = []
    for pips in range(1, 7):
        for index, path in enumerate(sorted((folder / str(pips)).glob("*.png"))):
            if (index % 5 == 0) != held_out:
                continue
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is not None:
                found.append(Example(image, PIP_CROP_BOX, pips))
    return found


def jittered(box: tuple[float, float, float, float], rng: random.Random) -> tuple[float, ...]:
    x, y, w, h = box
    side = max(w, h)
    nw, nh = w * rng.uniform(0.85, 1.2), h * rng.uniform(0.85, 1.2)
    cx = x + w / 2 + rng.uniform(-0.1, 0.1) * side
    cy = y + h / 2 + rng.uniform(-0.1, 0.1) * side
    return cx - nw / 2, cy - nh / 2, nw, nh


def background_crop(samples: list[Sample], rng: random.Random) -> np.ndarray:
    """A crop the size of a die from a place where no labelled die is."""
    for _ in range(50):
        sample = rng.choice(samples)
        h, w = sample.image.shape[:2]
        sizes = sample.boxes[:, 2:] - sample.boxes[:, :2] if len(sample.boxes) else np.array([[40.0, 40.0]])
        side = float(rng.choice(list(sizes.max(axis=1)))) * rng.uniform(0.7, 1.4)
        if side >= min(w, h):
            continue
        x0, y0 = rng.uniform(0, w - side), rng.uniform(0, h - side)
        clear = all(
            min(x0 + side, bx1) - max(x0, bx0) <= 0.15 * side
            or min(y0 + side, by1) - max(y0, by0) <= 0.15 * side
            for bx0, by0, bx1, by1 in sample.boxes
        )
        if clear:
            return crop_die(sample.image, (x0, y0, side, side))
    return np.full((CROP_SIDE, CROP_SIDE, 3), rng.randint(0, 255), np.uint8)


def augmented(crop: np.ndarray, rng: random.Random, upright: bool = False) -> np.ndarray:
    """A training crop turned, mirrored and recoloured; ``upright`` keeps the picture's up as
    it is (mirrored left–right only), so the top face of a die seen at an angle stays the
    upper one, as in a photo taken from the side of the table."""
    if not upright:
        crop = np.rot90(crop, rng.randrange(4))
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
    crop = photometric(np.ascontiguousarray(crop), rng)
    if rng.random() < 0.1:
        crop = greyed(crop)
    if rng.random() < 0.15:  # a small or far die: fewer pixels to read from
        small = rng.randint(14, 32)
        crop = cv2.resize(
            cv2.resize(crop, (small, small), interpolation=cv2.INTER_AREA), (CROP_SIDE, CROP_SIDE)
        )
    return crop


class Batch(NamedTuple):
    """Training crops (N×3×side×side), their labels, the pool each came from (``len(pools)``
    for "not a die" places), whether each was ``smeared``, and the crops the keep loss's
    teacher is shown (``taught``: the crops themselves, or with ``keep_unpainted`` the painted
    ones as they were before the painting)."""

    crops: torch.Tensor
    labels: torch.Tensor
    sources: torch.Tensor
    smeared: torch.Tensor
    taught: torch.Tensor


def finished(
    crop: np.ndarray, rng: random.Random, upright: bool, motion_blur: float
) -> tuple[np.ndarray, bool]:
    """``crop`` augmented and, in a ``motion_blur`` share, smeared; and whether it was."""
    crop = augmented(crop, rng, upright)
    smear = bool(motion_blur) and rng.random() < motion_blur
    return (smeared(crop, rng, SMEAR_LENGTH) if smear else crop), smear


def batch(
    pools: list[list[Example]],
    shares: list[float],
    negatives: list[Sample],
    size: int,
    rng: random.Random,
    upright: bool = False,
    motion_blur: float = 0.0,
    paint_neighbours: float = 0.0,
    keep_unpainted: bool = False,
) -> Batch:
    """``size`` augmented crops drawn from ``pools`` by ``shares`` (the last share: "not a die"
    from a place of ``negatives`` with no labelled die). A ``motion_blur`` share of the crops
    from pools other than ``REAL_POOLS`` is also ``smeared`` (the real dice stay as they are:
    what ``--keep-from`` keeps). ``paint_neighbours``: see ``example_crop``; with
    ``keep_unpainted`` the batch's ``taught`` holds each painted crop as it was before the
    painting, moved, turned, recoloured and smeared as the painted one was."""
    crops, taught, labels, sources, smears = [], [], [], [], []
    for _ in range(size):
        index = rng.choices(range(len(pools) + 1), weights=shares)[0]
        pool = pools[index] if index < len(pools) else []
        unpainted = None
        if pool:
            example = rng.choice(pool)
            crop, unpainted = example_crops(example, rng, paint_neighbours)
            labels.append(example.label)
        else:
            crop = background_crop(negatives, rng)
            labels.append(NOT_A_DIE)
        blur = motion_blur if index not in REAL_POOLS else 0.0
        shown = None  # what the teacher sees when it is not the crop itself
        if keep_unpainted and unpainted is not None:
            replay = random.Random()
            replay.setstate(rng.getstate())  # the same draws again, for the crop before the painting
            shown = finished(unpainted, replay, upright, blur)[0]
        crop, smear = finished(crop, rng, upright, blur)
        crops.append(crop)
        taught.append(crop if shown is None else shown)
        sources.append(index)
        smears.append(smear)

    def tensor(pictures: list[np.ndarray]) -> torch.Tensor:
        return torch.from_numpy(np.stack(pictures).transpose(0, 3, 1, 2).copy()).float()

    crops_t = tensor(crops)
    taught_t = tensor(taught) if keep_unpainted else crops_t
    return Batch(crops_t, torch.tensor(labels), torch.tensor(sources), torch.tensor(smears), taught_t)


class PipTeacher:
    """A PipNet (an ONNX file, run with onnxruntime) whose answers on real dice the net keeps."""

    def __init__(self, path: Path, threads: int) -> None:
        self.session = open_session(path, threads, "teacher", "--keep-from another file")

    def answers(self, crops: torch.Tensor) -> torch.Tensor:
        """Its probabilities (not a die, 1–6) for N×3×side×side crops."""
        (probabilities,) = self.session.run(None, {"crops": crops.numpy()})
        return torch.from_numpy(probabilities)


def keep_loss(logits: torch.Tensor, taught: torch.Tensor) -> torch.Tensor:
    """How far the net's answers lie from the teacher's probabilities: their KL divergence,
    averaged over the crops."""
    return F.kl_div(F.log_softmax(logits, dim=1), taught.clamp(min=1e-8), reduction="batchmean")


def accuracy(net: PipNet, examples: list[Example]) -> float:
    if not examples:
        return float("nan")
    net.eval()
    right = 0
    with torch.no_grad():
        for start in range(0, len(examples), 256):
            part = examples[start : start + 256]
            crops = np.stack([crop_die(e.image, e.crop_box) for e in part]).transpose(0, 3, 1, 2)
            guess = net(torch.from_numpy(crops.copy()).float()).argmax(dim=1)
            right += int((guess == torch.tensor([e.label for e in part])).sum())
    net.train()
    return right / len(examples)


def widths_named(text: str) -> PipWidths:
    """An argparse type: ``--widths``, four whole numbers of 1 or more ("16,32,56,96")."""
    widths = whole_numbers(text, 4)
    if widths is None:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give four whole numbers of 1 or more, the channels of PipNet's four blocks"
        )
    return cast(PipWidths, widths)


def state_widths(state: dict[str, torch.Tensor]) -> PipWidths:
    """The widths of the PipNet whose ``state_dict`` is ``state``: each block's first convolution's."""
    return tuple(int(state[f"features.{index}.0.weight"].shape[0]) for index in (0, 3, 6, 9))  # type: ignore[return-value]


def resumed_widths(resume: Path) -> PipWidths:
    """The widths of the PipNet in ``resume``: an ONNX file or a torch checkpoint."""
    if resume.suffix == ".onnx":
        return cast(PipWidths, pip_widths(resume))
    return state_widths(torch.load(resume, map_location="cpu"))


def widths_refused(widths: PipWidths | None, resume: Path | None) -> str | None:
    """Why ``--widths`` cannot be trained from the ``--resume`` file (wider than its: a net is
    only narrowed), or None."""
    if widths is None or resume is None:
        return None
    found = resumed_widths(resume)
    if any(w > f for w, f in zip(widths, found, strict=True)):
        asked, wider = ",".join(map(str, widths)), ",".join(map(str, found))
        return f"--widths {asked}: a PipNet is only narrowed from the --resume file's {wider}"
    return None


def started_net(
    resume: Path | None, widths: PipWidths | None, batches: Callable[[], Iterator[torch.Tensor]]
) -> PipNet:
    """The net training starts from: ``resume``'s (an ONNX file or a torch checkpoint) or a new
    one, narrowed to ``widths`` when they are given and narrower (its BatchNorms spread over
    ``batches`` again, as after loading an ONNX file)."""
    if resume is not None and resume.suffix == ".onnx":
        net = PipNet(resumed_widths(resume))
        resume_from_onnx(net, resume, batches())
        print(f"resumed from the fused layers of {resume}", flush=True)
    elif resume is not None:
        state = torch.load(resume, map_location="cpu")
        net = PipNet(state_widths(state))
        net.load_state_dict(state)
        print(f"resumed from {resume}", flush=True)
    else:
        net = PipNet(widths or PIP_WIDTHS)
    if widths is not None and widths != net.widths:
        net = narrowed_pipnet(net, widths)
        spread_batch_norms(net, batches())
        print(f"narrowed to widths {','.join(map(str, widths))} from its strongest channels", flush=True)
    return net


def main() -> None:
    parser = training_parser(__doc__, out="build/pipnet.onnx", minutes=20, batch=128)
    parser.add_argument("--pip-crops", type=Path, help="folders 1..6 of one-die crops")
    parser.add_argument(
        "--mine-with", type=Path, help="a DiceNet ONNX file: its false finds become 'not a die' crops"
    )
    parser.add_argument("--check", type=Path, nargs="*", default=[], help="held-out YOLO folders to score")
    parser.add_argument(
        "--upright", action="store_true", help="no quarter turns: mirror crops left-right only"
    )
    add_keep_options(parser, "a teacher PipNet (ONNX) whose answers on real dice the net keeps")
    parser.add_argument(
        "--rendered-share",
        type=float,
        default=0.25,
        help="share of each batch from rendered dice; real dice get 0.70 minus it (default 0.25)",
    )
    add_blur_options(parser, "rendered and 'not a die' crops", "real dice")
    parser.add_argument(
        "--widths",
        type=widths_named,
        help="the channels of the four blocks, e.g. 16,32,56,96 (default: the resumed net's, "
        f"else {','.join(map(str, PIP_WIDTHS))}); narrower than --resume's: from its strongest channels",
    )
    parser.add_argument(
        "--paint-neighbours",
        type=parse_share,
        default=0.0,
        help="share of the crops of dice with neighbours whose neighbours are painted out (default 0)",
    )
    parser.add_argument(
        "--keep-unpainted",
        action="store_true",
        help="show the --keep-from teacher each painted crop as it was before the painting",
    )
    args = parsed(parser)
    if args.keep_unpainted and not (args.keep_from and args.paint_neighbours):
        parser.error(
            "--keep-unpainted shows the --keep-from teacher unpainted crops: "
            "give both --keep-from and --paint-neighbours"
        )
    if (refusal := widths_refused(args.widths, args.resume)) is not None:
        parser.error(refusal)  # before the crops are mined, which takes minutes
    rng = seeded_start(args)
    real_samples = [s for folder in args.data for s in load_folder(folder)]
    rendered_samples = [s for folder in args.synthetic for s in load_folder(folder)]
    samples = real_samples + rendered_samples
    real, rendered = examples_of(real_samples), examples_of(rendered_samples)
    crops = pip_crop_examples(args.pip_crops, held_out=False) if args.pip_crops else []
    mined = []
    if args.mine_with:
        detector = DiceDetector(args.mine_with, threshold=0.2)  # low: also what it half believes
        for sample in samples:
            boxes = false_finds(sample, detector.detect)
            mined += [Example(sample.image, box, NOT_A_DIE) for box in boxes]
    print(
        f"{len(real)} real, {len(rendered)} rendered and {len(crops)} pip-crops dice, "
        f"{len(mined)} mined 'not a die' crops",
        flush=True,
    )
    # the last share is "not a die" from random places without a labelled die
    pools = [real, rendered, crops, mined]  # REAL_POOLS names the real ones
    if not 0.0 <= args.rendered_share <= REAL_AND_RENDERED:
        parser.error(f"--rendered-share must lie within 0–{REAL_AND_RENDERED}")
    dice_shares = [REAL_AND_RENDERED - args.rendered_share, args.rendered_share]
    shares = [*dice_shares, 0.1 if crops else 0.0, 0.1 if mined else 0.0, 0.1 if mined else 0.2]
    kept_pools = torch.tensor(REAL_POOLS)  # real dice: what --keep-from keeps
    teacher = PipTeacher(args.keep_from, args.threads) if args.keep_from else None

    net = started_net(
        args.resume,
        args.widths,
        lambda: (batch(pools, shares, samples, args.batch, rng).crops for _ in range(4)),
    )
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=5e-4)
    turns = 1 if args.upright else TURNED_TRAINING_TURNS  # how the reader is to read what this run learns
    budget, start = args.minutes * 60, time.monotonic()
    step, smoothed, smoothed_keep, last_save = 0, None, None, start
    while (elapsed := time.monotonic() - start) < budget:
        lr = set_learning_rate(optimiser, args.lr, elapsed / budget, step)
        drawn = batch(
            pools,
            shares,
            samples,
            args.batch,
            rng,
            args.upright,
            args.motion_blur,
            args.paint_neighbours,
            args.keep_unpainted,
        )
        logits = net(drawn.crops)
        loss = F.cross_entropy(logits, drawn.labels, label_smoothing=0.05)
        kept = ~drawn.smeared if args.keep_sharp else torch.isin(drawn.sources, kept_pools)
        if teacher is not None and bool(kept.any()):
            l_keep = keep_loss(logits[kept], teacher.answers(drawn.taught[kept]))
            loss = loss + args.keep_weight * l_keep
            smoothed_keep = smoothed_value(smoothed_keep, l_keep.item())
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        smoothed = smoothed_value(smoothed, loss.item())
        step += 1
        if step % 100 == 0:
            keeping = f" keep {smoothed_keep:.4f}" if smoothed_keep is not None else ""
            print(f"step {step} {elapsed / 60:.1f} min lr {lr:.5f} loss {smoothed:.3f}{keeping}", flush=True)
        if time.monotonic() - last_save > 300:
            export_pipnet(net, args.out, turns)
            torch.save(net.state_dict(), args.out.with_suffix(".pt"))
            last_save = time.monotonic()
    export_pipnet(net, args.out, turns)
    torch.save(net.state_dict(), args.out.with_suffix(".pt"))
    print(f"done: {step} steps in {(time.monotonic() - start) / 60:.1f} min -> {args.out}", flush=True)
    if args.pip_crops:
        print(f"held-out pip-crops: {accuracy(net, pip_crop_examples(args.pip_crops, held_out=True)):.4f}")
    for folder in args.check:
        print(f"{folder} (true boxes): {accuracy(net, examples_of(load_folder(folder))):.4f}", flush=True)


if __name__ == "__main__":
    main()
