"""Train DiceNet on real and rendered dice, then export it to ONNX.

    python -m research.training.train --out build/dicenet.onnx --minutes 45 \\
        --data ../shared/datasets/roboflow-dice/train ../shared/datasets/webcam-white-dice/train \\
        --synthetic build/synth_train

Only training splits go in: the valid/test splits stay out so the figures in the model card
measure data the model has never seen. Runs on the CPU; stops after --minutes.

``--keep-from TEACHER.onnx`` adds, on the real photos of each batch, a loss that
keeps the net's answers near the teacher's (its heatmap everywhere, its box sizes and offsets
where it sees a die): a net trained on from the shipped one can learn rendered scenes without
drifting on real photos where the labels say nothing (distillation, "learning without
forgetting"). ``--motion-blur SHARE`` blurs that share of the rendered images along
a line, as a shaken camera would (the real photos stay sharp); with ``--keep-sharp`` the keep loss
covers every image left sharp, rendered ones too, so the net learns blurred dice from their labels
while it keeps its teacher's answers on sharp ones. ``--blur-real`` blurs the real
photos too; the teacher always sees a picture as it was before the blur, so on a blurred real
photo the net learns to answer as its teacher does on the sharp one. ``--desaturate SHARE``
takes the colour away from that share of every kind of picture (fully grey or
nearly), as a webcam in dim light or a black-and-white camera gives it; the teacher is shown the
picture in colour, so on a real photo the net learns to answer without colour as its teacher does
with it.

``--depths 1,1,2,2`` trains a lighter net (``LIGHT_DEPTHS``), started from the layers
it shares with a fuller ``--resume``d file; ``--keep-features WEIGHT`` keeps each of its stages'
outputs near the ``--keep-from`` teacher's as well as its answers. ``--widths 12,24,40,80,112,32``
trains a narrower one, started from the ``--resume``d file's strongest channels
(``prune.narrowed``). ``--depths 2,2,4,3`` from the shipped file trains a deeper one
whose extra convolutions start as the identity (``deepen``): it starts out answering as the file.
``--tile-real SHARE`` makes that share of the real photos drawn into a batch four
real photos' crops, each half the side, tiled into one picture (``data.tiled``); the keep loss's
teacher is shown the same picture. ``--paste-real SHARE`` lays 1-4 real dice, cut from
the real training photos by their boxes, at free places on that share of the real photos drawn
(``paste.with_pasted_dice``); the teacher is shown the pasted picture.
"""

import argparse
import random
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple, cast

import numpy as np
import torch
from torch.nn import functional as F

from companion.vision.detector import DEFAULT_INPUT_SIDE, INPUT_SIDES, input_sides_named
from companion.vision.onnx_model import ModelError, open_session

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
from .data import Sample, augment, desaturated, load_folder, smeared, targets, tiled
from .deepen import added_as_identity
from .export import export_onnx
from .from_onnx import load_fused, resume_from_onnx, spread_batch_norms, stage_depths, stage_widths
from .model import CLASSES, FULL_DEPTHS, FULL_WIDTHS, STRIDE, Depths, DiceNet, Stages, Widths
from .paste import CutDie, cut_dice, with_pasted_dice
from .prune import narrowed
from .schedule import set_learning_rate

#: the teacher's heat from which --keep-from also keeps its box sizes and offsets
KEEP_SURE = 0.3
#: how much the box-size loss counts beside the heatmap and offset losses
SIZE_WEIGHT = 0.2
#: how long a ``--motion-blur`` smear is, in pixels of the training crop (game rolls scaled as
#: ``augment`` scales them at its middle: dice 31-75 px, median 51, seed 147; PipNet smears 3-9 px
#: of its 48 px crop)
SMEAR_LENGTH = (3, 12)


def focal_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss, normalised by the number of dice."""
    pred = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(pred) * (1 - pred) ** 2 * pos
    neg_loss = torch.log(1 - pred) * pred**2 * (1 - target) ** 4 * neg
    return -(pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1)


def box_losses(
    size: torch.Tensor, offset: torch.Tensor, target: torch.Tensor, places: torch.Tensor, n: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """The L1 distances of the box sizes and offsets from ``target`` (channels: width, height,
    offset x, offset y) where ``places`` is 1, each summed and divided by ``n``."""
    l_size = F.l1_loss(size * places, target[:, :2] * places, reduction="sum") / n
    l_off = F.l1_loss(offset * places, target[:, 2:] * places, reduction="sum") / n
    return l_size, l_off


class Batch(NamedTuple):
    """A drawn batch: the images, their heatmap, box and mask targets, which are real photos and
    which were ``smeared``, and the ``teacher_view``: the images as they were before any smear or
    desaturation."""

    images: torch.Tensor
    heat: torch.Tensor
    reg: torch.Tensor
    mask: torch.Tensor
    is_real: torch.Tensor
    smeared: torch.Tensor
    #: each picture as it was before any smear or desaturation: what the keep loss's teacher sees
    teacher_view: torch.Tensor


def batch(
    samples: list[Sample],
    weights: list[float],
    size: int,
    crop: int,
    rng: random.Random,
    stretch: float = 1.0,
    real: int = 0,
    motion_blur: float = 0.0,
    blur_real: bool = False,
    look_side: int = DEFAULT_INPUT_SIDE,
    desaturate: float = 0.0,
    tile_real: float = 0.0,
    paste_real: float = 0.0,
    donors: list[CutDie] | None = None,
) -> Batch:
    """``size`` samples drawn by ``weights`` (the first ``real`` of ``samples`` are real photos),
    a ``motion_blur`` share of the rendered ones ``smeared``, of the real ones too if ``blur_real``,
    a ``desaturate`` share of all of them ``desaturated``, each scaled as a ``look_side`` look
    would show it; a ``tile_real`` share of the real ones ``tiled`` with three more real photos, a
    ``paste_real`` share of the others given dice of ``donors`` (``with_pasted_dice``)."""
    images, heats, regs, masks, is_real, smears, teacher_view = [], [], [], [], [], [], []
    for index in rng.choices(range(len(samples)), weights=weights, k=size):
        if index < real and tile_real and rng.random() < tile_real:
            others = rng.choices(range(real), k=3)
            image, boxes, classes = tiled(
                [samples[i] for i in (index, *others)], crop, rng, stretch, look_side
            )
        else:
            sample = samples[index]
            if index < real and paste_real and donors and rng.random() < paste_real:
                sample = with_pasted_dice(sample, donors, rng)
            image, boxes, classes = augment(sample, crop, rng, stretch, look_side)
        teacher_view.append(image.transpose(2, 0, 1))
        if desaturate and rng.random() < desaturate:
            image = desaturated(image, rng)
        smear = bool(motion_blur) and (blur_real or index >= real) and rng.random() < motion_blur
        if smear:
            image = smeared(image, rng, SMEAR_LENGTH)
        heat, reg, mask = targets(boxes, classes, crop, STRIDE, CLASSES)
        images.append(image.transpose(2, 0, 1))
        heats.append(heat), regs.append(reg), masks.append(mask)
        is_real.append(index < real)
        smears.append(smear)
    return Batch(
        torch.from_numpy(np.stack(images)).float(),
        torch.from_numpy(np.stack(heats)),
        torch.from_numpy(np.stack(regs)),
        torch.from_numpy(np.stack(masks)),
        torch.tensor(is_real),
        torch.tensor(smears),
        torch.from_numpy(np.stack(teacher_view)).float(),
    )


class Teacher:
    """A detector (an ONNX file, run with onnxruntime) whose answers on real photos the net keeps."""

    def __init__(self, path: Path, threads: int) -> None:
        self.session = open_session(path, threads, "teacher", "--keep-from another file")

    def answers(self, images: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Its heatmap (probabilities) and boxes (size, offset) for N×3×H×W images."""
        heat, _, boxes = self.session.run(None, {"image": images.numpy()})
        return torch.from_numpy(heat), torch.from_numpy(boxes)


class FeatureTeacher:
    """A detector (an ONNX file, its fused layers in a torch net) whose stages' outputs a lighter
    net follows with ``--keep-features``."""

    def __init__(self, path: Path) -> None:
        self.net = DiceNet(depths=cast(Depths, stage_depths(path)), widths=cast(Widths, stage_widths(path)))
        load_fused(self.net, path)
        self.net.eval()

    def stages(self, images: torch.Tensor) -> Stages:
        with torch.no_grad():
            return self.net.stages(images)


def feature_loss(stages: Stages, taught: Stages) -> torch.Tensor:
    """How far each stage's output lies from the teacher's: the mean squared difference over the
    teacher's mean square, summed over the four stages (each stage counts alike whatever its scale)."""
    return sum(
        (
            ((mine - theirs) ** 2).mean() / (theirs**2).mean().clamp(min=1e-6)
            for mine, theirs in zip(stages, taught, strict=True)
        ),
        torch.zeros(()),
    )


def keep_loss(
    heat_logits: torch.Tensor,
    size: torch.Tensor,
    offset: torch.Tensor,
    teacher_heat: torch.Tensor,
    teacher_boxes: torch.Tensor,
    sure: float = KEEP_SURE,
) -> torch.Tensor:
    """How far the net's answers lie from the teacher's: the squared difference of the heatmaps
    everywhere, the box sizes and offsets where the teacher's heat is ``sure`` or more; normalised
    by the number of such places, as the focal loss is by the number of dice."""
    places = (teacher_heat >= sure).float()
    n = places.sum().clamp(min=1)
    l_heat = ((torch.sigmoid(heat_logits) - teacher_heat) ** 2).sum() / n
    l_size, l_off = box_losses(size, offset, teacher_boxes, places, n)
    return l_heat + SIZE_WEIGHT * l_size + l_off


def loss_of(
    net: DiceNet,
    drawn: Batch,
    kept: torch.Tensor,
    teacher: Teacher | None = None,
    keep_weight: float = 1.0,
    feature_teacher: FeatureTeacher | None = None,
    feature_weight: float = 0.0,
) -> tuple[torch.Tensor, dict[str, float]]:
    """The detector's loss on a batch, with the teacher's keep loss on the ``kept`` images (the
    teacher shown them sharp and in colour), and with a ``feature_teacher`` the loss that keeps
    the stages' outputs near its own on them."""
    stages = net.stages(drawn.images)
    heat_logits, size, offset = net.heads(stages)
    l_heat = focal_loss(heat_logits, drawn.heat)
    m = drawn.mask.unsqueeze(1)
    n = drawn.mask.sum().clamp(min=1)
    l_size, l_off = box_losses(size, offset, drawn.reg, m, n)
    total = l_heat + SIZE_WEIGHT * l_size + l_off
    parts = {"heat": l_heat.item(), "size": l_size.item(), "offset": l_off.item()}
    if teacher is not None and bool(kept.any()):
        taught_heat, taught_boxes = teacher.answers(drawn.teacher_view[kept])
        l_keep = keep_loss(heat_logits[kept], size[kept], offset[kept], taught_heat, taught_boxes)
        total = total + keep_weight * l_keep
        parts["keep"] = l_keep.item()
    if feature_teacher is not None and bool(kept.any()):
        taught = feature_teacher.stages(drawn.teacher_view[kept])
        l_features = feature_loss(cast(Stages, tuple(stage[kept] for stage in stages)), taught)
        total = total + feature_weight * l_features
        parts["features"] = l_features.item()
    return total, parts


def depths_option(parser: argparse.ArgumentParser, text: str | None, resume: Path | None) -> Depths:
    """The stage depths ``--depths`` names ("1,1,2,2"); without it, those of the ``--resume``d
    ONNX file, else the full ones."""
    if text is None:
        found = stage_depths(resume) if resume and resume.suffix == ".onnx" else FULL_DEPTHS
        if len(found) != 4:
            parser.error(f"--resume {resume} has no detector's four stages (a PipNet file?)")
        return cast(Depths, tuple(found))
    depths = whole_numbers(text, 4)
    if depths is None:
        parser.error(f"--depths takes four whole numbers of 1 or more, as 1,1,2,2; not {text!r}")
    return cast(Depths, depths)


def widths_option(parser: argparse.ArgumentParser, text: str | None, resume: Path | None) -> Widths:
    """The channels ``--widths`` names ("12,24,40,80,112,32": stem, four stages, pyramid), none
    wider than the ``--resume``d ONNX file's; without it, that file's, else the full ones."""
    found = stage_widths(resume) if resume and resume.suffix == ".onnx" else None
    if text is None:
        return cast(Widths, found if found is not None and len(found) == 6 else FULL_WIDTHS)
    widths = whole_numbers(text, 6)
    if widths is None:
        parser.error(
            "--widths takes six whole numbers of 1 or more (stem, the four stages, the pyramid), "
            f"as 12,24,40,80,112,32; not {text!r}"
        )
    if found is not None and len(found) == 6 and any(w > f for w, f in zip(widths, found, strict=True)):
        wider = ",".join(map(str, found))
        parser.error(f"--widths {text}: a net is only narrowed from the --resume file's {wider}")
    return cast(Widths, widths)


def started_net(
    resume: Path | None,
    depths: Depths,
    batches: Callable[[], Iterable[torch.Tensor]],
    widths: Widths = FULL_WIDTHS,
) -> DiceNet:
    """A DiceNet of ``depths`` and ``widths``, from ``resume`` when given: a checkpoint (.pt) gives
    the tensors that fit; an exported file (.onnx) its fused layers, each BatchNorm spread over
    ``batches``. An exported net with other depths gives the layers both have (a lighter net
    started from a fuller one keeps the first convolutions of each stage; a deeper one adds its
    extra ones as the identity, ``deepen``); one with other widths its strongest channels
    (``prune.narrowed``)."""
    net = DiceNet(depths=depths, widths=widths)
    if resume and resume.suffix == ".onnx":
        found = cast(Depths, stage_depths(resume))
        found_widths = cast(Widths, stage_widths(resume))
        same = (found, found_widths) == (depths, widths)
        source = net if same else DiceNet(depths=found, widths=found_widths)
        resume_from_onnx(source, resume, batches())
        if not same:
            if found_widths != widths:
                source = narrowed(source, widths)
            taken = take_fitting(net, source.state_dict())
            added = added_as_identity(net, found)
            if added:
                spread_batch_norms(net, batches(), only=added)
            print(
                f"{taken} tensors of {resume} (depths {found}, widths {found_widths}) "
                f"in a net of depths {depths}, widths {widths}",
                flush=True,
            )
        print(f"resumed from the fused layers of {resume}", flush=True)
    elif resume:
        taken = take_fitting(net, torch.load(resume, map_location="cpu"))
        print(f"resumed {taken} of {len(net.state_dict())} tensors from {resume}", flush=True)
    return net


def take_fitting(net: DiceNet, state: dict[str, torch.Tensor]) -> int:
    """Load the tensors of ``state`` whose names and shapes ``net`` has (a checkpoint with
    another number of heat channels still gives its backbone); how many."""
    own = net.state_dict()
    fitting = {k: v for k, v in state.items() if k in own and own[k].shape == v.shape}
    net.load_state_dict(fitting, strict=False)
    return len(fitting)


def main() -> None:
    parser = training_parser(__doc__, out="build/dicenet.onnx", minutes=45, batch=16)
    parser.add_argument("--crop", type=int, default=320)
    parser.add_argument(
        "--real-share", type=parse_share, default=0.5, help="share of each batch from real photos"
    )
    add_keep_options(parser, "a teacher detector (ONNX) whose answers on real photos the net keeps")
    parser.add_argument(
        "--stretch",
        type=float,
        default=1.0,
        help="stretch half the images one way by up to this factor (1: none)",
    )
    parser.add_argument(
        "--depths",
        help="3×3 convolutions per stage, as 1,1,2,2 (default: the --resume file's, else 2,2,3,2)",
    )
    parser.add_argument(
        "--widths",
        help="channels of the stem, the four stages and the pyramid, as 12,24,40,80,112,32 "
        "(default: the --resume file's, else 16,32,48,80,112,40)",
    )
    parser.add_argument(
        "--keep-features",
        type=float,
        default=0.0,
        metavar="WEIGHT",
        help="keep each stage's output near the --keep-from teacher's, with this weight (default 0: off)",
    )
    add_blur_options(parser, "rendered images", "real photos")
    parser.add_argument(
        "--look-side",
        type=int,
        default=DEFAULT_INPUT_SIDE,
        help=f"the longest side (px) of the look to train for (default {DEFAULT_INPUT_SIDE})",
    )
    parser.add_argument(
        "--desaturate",
        type=parse_share,
        default=0.0,
        help="share of all pictures with their colour taken away; the teacher sees them coloured (default 0)",
    )
    parser.add_argument(
        "--tile-real",
        type=parse_share,
        default=0.0,
        help="share of the real photos drawn that are four real photos' crops tiled into one (default 0)",
    )
    parser.add_argument(
        "--paste-real",
        type=parse_share,
        default=0.0,
        help="share of the real photos drawn given 1-4 real dice cut from the real photos (default 0)",
    )
    parser.add_argument(
        "--blur-real",
        action="store_true",
        help="--motion-blur blurs real photos too; the keep loss covers them, its teacher shown them sharp",
    )
    args = parsed(parser)
    if args.blur_real and not args.motion_blur:
        parser.error("--blur-real blurs a --motion-blur share of the real photos: give that share")
    if args.look_side not in INPUT_SIDES:  # refused now, not at the first save minutes in
        parser.error(f"--look-side {args.look_side}: a look side is {input_sides_named()} pixels")
    if args.keep_features and not args.keep_from:
        parser.error("--keep-features follows the stages of the --keep-from teacher: name one")
    depths = depths_option(parser, args.depths, args.resume)
    widths = widths_option(parser, args.widths, args.resume)
    rng = seeded_start(args)
    real = [s for folder in args.data for s in load_folder(folder)]
    synthetic = [s for folder in args.synthetic for s in load_folder(folder)]
    samples = real + synthetic
    # --real-share of every batch real, the rest rendered (when both exist)
    real_share = args.real_share if real and synthetic else float(bool(real))
    weights = [real_share / max(1, len(real))] * len(real) + [
        (1 - real_share) / max(1, len(synthetic))
    ] * len(synthetic)
    donors = cut_dice(real) if args.paste_real else []
    print(f"{len(real)} real and {len(synthetic)} rendered images", flush=True)
    if args.paste_real:
        print(f"{len(donors)} real dice to paste", flush=True)
        if not donors:
            parser.error("--paste-real lays real dice from the --data photos: they hold none")
    try:
        teacher = Teacher(args.keep_from, args.threads) if args.keep_from else None
        feature_teacher = FeatureTeacher(args.keep_from) if args.keep_features else None
    except (ModelError, ValueError) as err:
        parser.error(str(err))
    if feature_teacher is not None and feature_teacher.net.widths[1:5] != widths[1:5]:
        parser.error(
            f"--keep-features follows the teacher's stages, {feature_teacher.net.widths[1:5]} channels; "
            f"this net's have {widths[1:5]}"
        )

    net = started_net(
        args.resume,
        depths,
        lambda: (batch(samples, weights, args.batch, args.crop, rng).images for _ in range(8)),
        widths,
    )
    optimiser = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = args.minutes * 60
    start = time.monotonic()
    checkpoint = args.out.with_suffix(".pt")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    step, last_save, smoothed = 0, start, None
    while (elapsed := time.monotonic() - start) < budget:
        lr = set_learning_rate(optimiser, args.lr, elapsed / budget, step)
        net.train()
        drawn = batch(
            samples,
            weights,
            args.batch,
            args.crop,
            rng,
            args.stretch,
            len(real),
            args.motion_blur,
            args.blur_real,
            args.look_side,
            args.desaturate,
            args.tile_real,
            args.paste_real,
            donors,
        )
        # real photos are always kept (sharp or not, the teacher sees them sharp); rendered
        # ones too when left sharp, with --keep-sharp
        kept = drawn.is_real | ~drawn.smeared if args.keep_sharp else drawn.is_real
        loss, parts = loss_of(
            net, drawn, kept, teacher, args.keep_weight, feature_teacher, args.keep_features
        )
        optimiser.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 10.0)
        optimiser.step()
        smoothed = smoothed_value(smoothed, loss.item())
        step += 1
        if step % 50 == 0:
            print(
                f"step {step} {elapsed / 60:.1f} min lr {lr:.5f} loss {smoothed:.3f} "
                + " ".join(f"{k} {v:.3f}" for k, v in parts.items()),
                flush=True,
            )
        if time.monotonic() - last_save > 300:
            torch.save(net.state_dict(), checkpoint)
            export_onnx(net, args.out, args.look_side)
            last_save = time.monotonic()
    torch.save(net.state_dict(), checkpoint)
    export_onnx(net, args.out, args.look_side)
    print(f"done: {step} steps in {(time.monotonic() - start) / 60:.1f} min -> {args.out}", flush=True)


if __name__ == "__main__":
    main()
