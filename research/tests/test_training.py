"""Training helpers that need torch (the `train` extra, which CI installs): going on from a
shipped ONNX file whose BatchNorms the exporter folded into the convolutions; PipNet's crops."""

import random
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
ort = pytest.importorskip("onnxruntime")

from companion.assets import MODELS  # noqa: E402
from companion.vision.onnx_model import ModelError  # noqa: E402
from companion.vision.pips import PipReader  # noqa: E402
from research.reader.tunable import TunablePipReader  # noqa: E402
from research.training.data import Sample, augment  # noqa: E402
from research.training.from_onnx import load_fused, resume_from_onnx  # noqa: E402
from research.training.model import DiceNet, ExportedDiceNet  # noqa: E402
from research.training.pipnet import ExportedPipNet, PipNet, export_pipnet  # noqa: E402
from research.training.train_pips import augmented  # noqa: E402


def onnx_outputs(path: Path, x: torch.Tensor) -> list[np.ndarray]:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(None, {session.get_inputs()[0].name: x.numpy()})


def torch_outputs(wrapper: torch.nn.Module, x: torch.Tensor) -> list[np.ndarray]:
    with torch.no_grad():
        out = wrapper(x)
    return [t.numpy() for t in (out if isinstance(out, tuple) else (out,))]


@pytest.mark.parametrize(
    "net, wrap, path, shape",
    [
        (PipNet, ExportedPipNet, MODELS / "pipnet.onnx", (3, 3, 48, 48)),
        (DiceNet, ExportedDiceNet, MODELS / "dicenet.onnx", (1, 3, 96, 128)),
    ],
    ids=["pipnet", "dicenet"],
)
def test_a_shipped_model_loads_back_into_torch_unchanged(net, wrap, path, shape):
    torch.manual_seed(0)
    x = torch.rand(*shape) * 255
    model = net()
    load_fused(model, path)
    model.eval()
    for ours, theirs in zip(torch_outputs(wrap(model).eval(), x), onnx_outputs(path, x), strict=True):
        np.testing.assert_allclose(ours, theirs, atol=1e-4)


def test_batch_norms_spread_over_batches_keep_the_model_and_train_from_there():
    torch.manual_seed(1)
    batches = [torch.rand(16, 3, 48, 48) * 255 for _ in range(4)]
    model = PipNet()
    resume_from_onnx(model, MODELS / "pipnet.onnx", batches)
    reference = onnx_outputs(MODELS / "pipnet.onnx", batches[0])[0]
    model.eval()
    np.testing.assert_allclose(
        torch_outputs(ExportedPipNet(model).eval(), batches[0])[0], reference, atol=1e-4
    )
    # in training mode BatchNorm uses the batch's own statistics: near what it was spread over
    model.train()
    model.classify[1].p = 0.0  # no dropout, to compare
    trained_mode = torch_outputs(ExportedPipNet(model), torch.cat(batches))[0]
    assert np.abs(trained_mode - onnx_outputs(MODELS / "pipnet.onnx", torch.cat(batches))[0]).max() < 0.05


def test_a_model_of_another_shape_is_refused():
    with pytest.raises(ValueError, match="layers with weights"):
        load_fused(PipNet(), MODELS / "dicenet.onnx")


def where_the_bright_band_is(crop: np.ndarray) -> str:
    grey = crop.astype(np.float32).mean(axis=2)
    sides = {
        "top": grey[:16].mean(),
        "bottom": grey[-16:].mean(),
        "left": grey[:, :16].mean(),
        "right": grey[:, -16:].mean(),
    }
    return max(sides, key=sides.get)


def test_upright_training_crops_keep_the_top_of_the_picture_on_top():
    crop = np.full((48, 48, 3), 40, np.uint8)
    crop[:12] = 220  # the upper face of a die seen from the side of the table
    rng = random.Random(0)
    upright = {where_the_bright_band_is(augmented(crop, rng, upright=True)) for _ in range(60)}
    turned = {where_the_bright_band_is(augmented(crop, rng)) for _ in range(60)}
    assert upright == {"top"}
    assert turned == {"top", "bottom", "left", "right"}


def box_aspects_after_augmenting(stretch: float) -> list[float]:
    """Width over height of a square die's box in augmented copies, checking each box still
    frames the die (its inside bright, the whole of it)."""
    image = np.full((400, 600, 3), 30, np.uint8)
    image[100:140, 200:240] = 255
    sample = Sample(image, np.array([[200, 100, 240, 140]], np.float32), np.array([2]))
    rng, aspects = random.Random(3), []
    for _ in range(40):
        augmented_image, boxes, _ = augment(sample, 320, rng, stretch)
        if not len(boxes):
            continue
        x0, y0, x1, y1 = boxes[0].round().astype(int)
        grey = augmented_image.mean(axis=2)
        assert grey[y0 + 2 : y1 - 2, x0 + 2 : x1 - 2].min() > grey.mean()
        aspects.append((x1 - x0) / (y1 - y0))
    return aspects


def test_training_images_are_stretched_one_way_only_when_asked():
    assert max(abs(a - 1) for a in box_aspects_after_augmenting(1.0)) < 0.1
    stretched = box_aspects_after_augmenting(1.5)
    assert min(stretched) < 0.85 and max(stretched) > 1.15
    assert min(stretched) > 1 / 1.6 and max(stretched) < 1.6


@pytest.mark.parametrize("turns", [1, 4])
def test_an_exported_pip_net_tells_the_reader_how_to_turn_its_crops(tmp_path, turns):
    """Trained upright (1) it is read once; trained on turned crops (4) in four turns, by the
    research reader: the product's reads crops upright and refuses it."""
    out = tmp_path / "pipnet.onnx"
    export_pipnet(PipNet(), out, turns)
    assert TunablePipReader(out, threads=1).turns == turns
    if turns == 1:
        PipReader(out, threads=1)
    else:
        with pytest.raises(ModelError, match="trained on crops turned every way.*--upright"):
            PipReader(out, threads=1)


def test_the_keep_loss_is_zero_on_the_teachers_own_answers_and_grows_away_from_them():
    """--keep-from: a net resumed from the shipped detector answers real photos as it does (in
    eval mode exactly), so the loss that keeps it there starts near 0 and grows as it drifts."""
    from research.training.train import Teacher, keep_loss

    teacher = Teacher(MODELS / "dicenet.onnx", threads=1)
    torch.manual_seed(2)
    images = torch.rand(2, 3, 128, 160) * 255
    taught_heat, taught_boxes = teacher.answers(images)
    assert taught_heat.shape == (2, 1, 32, 40) and taught_boxes.shape == (2, 4, 32, 40)
    net = DiceNet()
    load_fused(net, MODELS / "dicenet.onnx")
    net.eval()
    with torch.no_grad():
        heat_logits, size, offset = net(images)
        same = keep_loss(heat_logits, size, offset, taught_heat, taught_boxes)
        drifted = keep_loss(heat_logits + 1.0, size * 1.2, offset, taught_heat, taught_boxes)
    assert float(same) < 1e-3
    assert float(drifted) > 100 * float(same) + 0.01


def test_the_pip_keep_loss_is_zero_on_the_teachers_own_answers_and_grows_away_from_them():
    """--keep-from for PipNet: resumed from the shipped file, the net reads crops as the teacher
    does (in eval mode exactly), so the loss starts near 0, and grows as its answers drift."""
    from research.training.train_pips import PipTeacher, keep_loss

    teacher = PipTeacher(MODELS / "pipnet.onnx", threads=1)
    torch.manual_seed(3)
    crops = torch.rand(4, 3, 48, 48) * 255
    taught = teacher.answers(crops)
    assert taught.shape == (4, 7)
    net = PipNet()
    load_fused(net, MODELS / "pipnet.onnx")
    net.eval()
    with torch.no_grad():
        logits = net(crops)
        same = keep_loss(logits, taught)
        drifted = keep_loss(logits + torch.tensor([3.0, 0, 0, 0, 0, 0, -3.0]), taught)
    assert float(same) < 1e-4
    assert float(drifted) > 100 * float(same) + 0.01


def test_a_pip_batch_says_which_pool_each_crop_came_from():
    """The keep loss reads only the crops of real dice, so a batch names each crop's pool."""
    from research.training.train_pips import Example, batch

    image = np.full((120, 160, 3), 90, np.uint8)
    first = [Example(image, (20.0, 20.0, 40.0, 40.0), 3)]
    second = [Example(image, (80.0, 30.0, 40.0, 40.0), 5)]
    negatives = [Sample(image, np.zeros((0, 4), np.float32), np.zeros(0, np.int64))]
    crops, labels, sources, smears, taught = batch(
        [first, second], [0.5, 0.5, 0.0], negatives, 40, random.Random(4)
    )
    assert not smears.any() and taught is crops  # nothing painted: the teacher sees the crops
    assert crops.shape[0] == labels.shape[0] == sources.shape[0] == 40
    assert set(sources.tolist()) == {0, 1}
    assert (labels[sources == 0] == 3).all() and (labels[sources == 1] == 5).all()


def test_each_pip_example_knows_the_other_dice_of_its_picture():
    from research.training.train_pips import examples_of

    image = np.zeros((120, 160, 3), np.uint8)
    boxes = np.array([[20, 20, 60, 60], [60, 20, 100, 60], [0, 0, 4, 4]], np.float32)  # the last too small
    (first, second) = examples_of([Sample(image, boxes, np.array([2, 4, 0]))])
    assert (first.label, second.label) == (3, 5)
    assert first.neighbours == ((60.0, 20.0, 40.0, 40.0), (0.0, 0.0, 4.0, 4.0))
    assert second.neighbours == ((20.0, 20.0, 40.0, 40.0), (0.0, 0.0, 4.0, 4.0))


def test_paint_neighbours_paints_the_other_dice_out_of_that_share_of_crops():
    """--paint-neighbours: the crop of a white die pressed against a red one shows no red when
    painted, as the reader's hide_neighbours paints it; at share 0 it keeps the red."""
    from research.training.train_pips import Example, example_crop

    image = np.full((120, 200, 3), (40, 120, 30), np.uint8)
    image[40:80, 60:100] = 255
    image[40:80, 100:140] = (0, 0, 200)
    white = Example(image, (60.0, 40.0, 40.0, 40.0), 3, ((100.0, 40.0, 40.0, 40.0),))

    def red_pixels(crop: np.ndarray) -> int:
        return int(((crop[:, :, 2] > 150) & (crop[:, :, 0] < 60)).sum())

    kept = sum(red_pixels(example_crop(white, random.Random(seed), 0.0)) for seed in range(20))
    painted = sum(red_pixels(example_crop(white, random.Random(seed), 1.0)) for seed in range(20))
    # what is left: the one column of red on the white box's edge (its corners count as inside)
    assert kept > 1000 and painted < kept / 4
    alone = Example(image, (60.0, 40.0, 40.0, 40.0), 3)  # no neighbours: nothing to paint
    assert np.array_equal(
        example_crop(alone, random.Random(3), 1.0), example_crop(alone, random.Random(3), 0.0)
    )


def test_keep_unpainted_shows_the_teacher_each_painted_crop_as_it_was_before_the_painting():
    """--keep-unpainted: the batch's crops are painted, while what the teacher is shown is the
    same crop (same move, turn, recolouring, smear) with the red neighbour still in it; a die
    with no neighbour is shown as it is. The crops themselves are those of a batch
    drawn without the option from the same seed."""
    from research.training.train_pips import Example, batch

    image = np.full((120, 200, 3), (40, 120, 30), np.uint8)
    image[40:80, 60:100] = 255
    image[40:80, 100:140] = (0, 0, 200)
    pressed = [Example(image, (60.0, 40.0, 40.0, 40.0), 3, ((100.0, 40.0, 40.0, 40.0),))]
    alone = [Example(image, (60.0, 40.0, 40.0, 40.0), 4)]
    negatives = [Sample(image, np.zeros((0, 4), np.float32), np.zeros(0, np.int64))]
    options = {"upright": True, "motion_blur": 0.5, "paint_neighbours": 1.0}
    drawn = batch(
        [pressed, alone], [0.5, 0.5, 0.0], negatives, 40, random.Random(7), keep_unpainted=True, **options
    )
    same_seed = batch([pressed, alone], [0.5, 0.5, 0.0], negatives, 40, random.Random(7), **options)
    assert torch.equal(drawn.crops, same_seed.crops) and torch.equal(drawn.taught, drawn.crops) is False
    with_neighbour = drawn.sources == 0
    assert with_neighbour.any() and (~with_neighbour).any() and drawn.smeared.any()
    assert torch.equal(drawn.taught[~with_neighbour], drawn.crops[~with_neighbour])

    shown, read = drawn.taught[with_neighbour], drawn.crops[with_neighbour]
    differ = (shown - read).abs().amax(dim=1) >= 1  # per pixel
    # most crops reach into the neighbour (a few are moved clear of it): those are shown with it
    assert differ.flatten(1).any(dim=1).float().mean() > 0.5
    # and only where the neighbour lies: the two agree on the rest (same move and colours)
    assert differ.float().mean(dim=(1, 2)).max() < 0.3


def test_pip_training_refuses_keep_unpainted_without_a_teacher_or_painting(monkeypatch, capsys):
    """--keep-unpainted changes what --keep-from's teacher sees of --paint-neighbours' crops."""
    import sys

    from research.training.train_pips import main

    for argv in (["--keep-unpainted"], ["--keep-unpainted", "--keep-from", "t.onnx"]):
        monkeypatch.setattr(sys, "argv", ["train_pips", *argv, "--minutes", "0"])
        with pytest.raises(SystemExit):
            main()
        assert "give both --keep-from and --paint-neighbours" in capsys.readouterr().err


def test_motion_blur_smears_rendered_crops_and_leaves_real_dice_sharp():
    """--motion-blur blurs crops of rendered dice (and "not a die" places) along a line; the real
    dice, what the keep loss holds the net to, stay sharp."""
    from research.training.data import smeared
    from research.training.train_pips import SMEAR_LENGTH, Example, batch

    sharp = np.zeros((48, 48, 3), np.uint8)
    sharp[:, 24:] = 255
    smear = smeared(sharp, random.Random(1), SMEAR_LENGTH)
    assert smear.shape == sharp.shape and 0 < smear[:, 20:28].mean() < 255
    image = np.zeros((120, 160, 3), np.uint8)
    image[::4] = 255  # thin stripes: any blur shows
    real = [Example(image, (20.0, 20.0, 40.0, 40.0), 3)]
    rendered = [Example(image, (80.0, 30.0, 40.0, 40.0), 5)]
    negatives = [Sample(image, np.zeros((0, 4), np.float32), np.zeros(0, np.int64))]
    shares = [0.5, 0.5, 0.0]
    crops, _, sources, smears, _ = batch(
        [real, rendered], shares, negatives, 60, random.Random(4), motion_blur=1.0
    )
    plain, _, plain_sources, _, _ = batch([real, rendered], shares, negatives, 60, random.Random(4))
    assert (smears == (sources != 0)).all()  # what --keep-sharp leaves out of the keep loss
    grain = (crops[:, :, 1:, :] - crops[:, :, :-1, :]).abs().mean(dim=(1, 2, 3))
    plain_grain = (plain[:, :, 1:, :] - plain[:, :, :-1, :]).abs().mean(dim=(1, 2, 3))
    assert grain[sources == 1].mean() < 0.8 * plain_grain[plain_sources == 1].mean()
    real_change = grain[sources == 0].mean() - plain_grain[plain_sources == 0].mean()
    assert abs(real_change) < 0.25 * plain_grain.mean()


def test_detector_motion_blur_smears_rendered_images_and_leaves_real_photos_sharp():
    """The detector's --motion-blur blurs rendered images along a line and names them, so
    --keep-sharp can leave them out of the keep loss; real photos stay as they are."""
    from research.training.train import batch

    image = np.zeros((240, 320, 3), np.uint8)
    image[::4] = 255  # thin stripes: any blur shows
    sample = Sample(image, np.array([[100, 100, 140, 140]], np.float32), np.array([2]))
    drawn = batch([sample, sample], [0.5, 0.5], 24, 160, random.Random(3), real=1, motion_blur=1.0)
    images, is_real, smears = drawn.images, drawn.is_real, drawn.smeared
    assert is_real.any() and (~is_real).any()
    assert (smears == ~is_real).all()
    grain = (images[:, :, 1:, :] - images[:, :, :-1, :]).abs().mean(dim=(1, 2, 3))
    assert grain[smears].mean() < 0.8 * grain[is_real].mean()
    assert (images[~smears] == drawn.teacher_view[~smears]).all()
    assert not (images[smears] == drawn.teacher_view[smears]).all()
    assert not batch([sample, sample], [0.5, 0.5], 24, 160, random.Random(3), real=1).smeared.any()


def test_tiled_real_photos_put_four_crops_in_four_quarters_each_with_its_own_dice():
    """``train --tile-real``: four photos' crops, each half the side, tiled two by two; every die
    kept lies inside one quarter (none across a seam) and is still the die (bright, as drawn),
    and a batch with the share at 1 tiles its real photos and leaves the rendered ones whole."""
    from research.training.data import tiled
    from research.training.train import batch

    image = np.zeros((400, 400, 3), np.uint8)
    image[180:220, 180:220] = 255
    sample = Sample(image, np.array([[180, 180, 220, 220]], np.float32), np.array([2]))
    rng, dice = random.Random(5), 0
    for _ in range(20):
        picture, boxes, classes = tiled([sample] * 4, 320, rng)
        assert picture.shape == (320, 320, 3) and len(boxes) == len(classes)
        for x0, y0, x1, y1 in boxes:
            assert (x1 <= 160 or x0 >= 160) and (y1 <= 160 or y0 >= 160)
            assert picture[int(y0) + 3 : int(y1) - 3, int(x0) + 3 : int(x1) - 3].mean() > 100
        dice += len(boxes)
    assert dice > 40  # most quarters hold their die

    rendered = Sample(np.full((400, 400, 3), 128, np.uint8), np.zeros((0, 4), np.float32), np.zeros(0, int))
    drawn = batch([sample, rendered], [0.5, 0.5], 24, 160, random.Random(3), real=1, tile_real=1.0)
    quarters = drawn.heat[:, 0].flatten(1).gt(0.99).sum(1)  # die centres in each picture's heatmap
    assert (quarters[drawn.is_real] > 1).any()  # a real photo holds one die: more is tiling
    assert (quarters[~drawn.is_real] == 0).all()


def test_pasted_dice_lie_at_free_places_labelled_with_their_donors_pips():
    """``train --paste-real``: dice cut from one photo by their boxes are laid on another where no
    die lies, each labelled with its donor's pips and looking like it (bright where the donor is
    bright), at about that photo's die size; dice cut off by a photo's edge are not cut."""
    from research.training.paste import SIZE_SPREAD, cut_dice, with_pasted_dice

    donor_image = np.zeros((200, 200, 3), np.uint8)
    donor_image[50:90, 50:90] = 255
    donor = Sample(
        donor_image, np.array([[50, 50, 90, 90], [180, 10, 230, 60]], np.float32), np.array([4, 1])
    )
    donors = cut_dice([donor])
    assert [d.pips_index for d in donors] == [4]  # the second die runs off the photo

    image = np.zeros((400, 400, 3), np.uint8)
    target = Sample(image, np.array([[100, 100, 130, 130]], np.float32), np.array([2]))
    rng, pasted = random.Random(7), 0
    for _ in range(20):
        result = with_pasted_dice(target, donors, rng)
        assert np.array_equal(result.boxes[0], target.boxes[0]) and result.classes[0] == 2
        new_boxes = result.boxes[1:]
        assert list(result.classes[1:]) == [4] * len(new_boxes)
        for i, (x0, y0, x1, y1) in enumerate(new_boxes):
            side = x1 - x0
            assert 30 / SIZE_SPREAD - 1 <= side <= 30 * SIZE_SPREAD + 1
            third = int(side / 3)
            middle = result.image[int(y0) + third : int(y1) - third, int(x0) + third : int(x1) - third]
            assert middle.min() > 200
            for other in np.delete(result.boxes, i + 1, axis=0):  # no other die underneath
                assert x1 <= other[0] or other[2] <= x0 or y1 <= other[1] or other[3] <= y0
        pasted += len(new_boxes)
    assert pasted > 20  # most draws lay more than one die
    assert image.max() == 0  # the photo drawn from is left as it was

    from research.training.train import batch

    rendered = Sample(np.full((400, 400, 3), 128, np.uint8), np.zeros((0, 4), np.float32), np.zeros(0, int))
    drawn = batch(
        [target, rendered], [0.5, 0.5], 24, 320, random.Random(3), real=1, paste_real=1.0, donors=donors
    )
    centres = drawn.heat.flatten(1).gt(0.99).sum(1)  # die centres in each picture's heatmaps
    assert (centres[drawn.is_real] > 1).any()  # the real photo holds one die: more were pasted
    assert (centres[~drawn.is_real] == 0).all()  # rendered pictures are left as they are


def test_detector_blur_real_smears_real_photos_and_shows_the_teacher_them_sharp():
    """With --blur-real the real photos are smeared too, while the batch keeps every picture as
    it was before the smear: what the teacher of the keep loss is shown."""
    import torch

    from research.training.train import Batch, DiceNet, batch, loss_of

    image = np.zeros((240, 320, 3), np.uint8)
    image[::4] = 255
    sample = Sample(image, np.array([[100, 100, 140, 140]], np.float32), np.array([2]))
    drawn = batch(
        [sample, sample], [0.5, 0.5], 12, 160, random.Random(5), real=1, motion_blur=1.0, blur_real=True
    )
    assert drawn.is_real.any() and drawn.smeared.all()

    def grain(pictures):
        return (pictures[:, :, 1:, :] - pictures[:, :, :-1, :]).abs().mean()

    assert grain(drawn.images) < 0.8 * grain(drawn.teacher_view)

    class Recorder:
        """A teacher that records what it is shown and answers with nothing."""

        def answers(self, images):
            self.shown = images
            n = len(images)
            return torch.zeros(n, 1, 40, 40), torch.zeros(n, 4, 40, 40)

    recorder = Recorder()
    loss_of(DiceNet(), drawn, drawn.is_real, teacher=recorder)
    assert torch.equal(recorder.shown, drawn.teacher_view[drawn.is_real])
    assert Batch._fields[-1] == "teacher_view"


def test_detector_training_refuses_blur_real_without_motion_blur(monkeypatch, capsys):
    """--blur-real names which pictures --motion-blur smears; alone it would do nothing."""
    import sys

    from research.training.train import main

    monkeypatch.setattr(sys, "argv", ["train", "--blur-real", "--minutes", "0"])
    with pytest.raises(SystemExit):
        main()
    assert "--motion-blur" in capsys.readouterr().err


def test_detector_training_refuses_keep_sharp_without_a_teacher(monkeypatch, capsys):
    """--keep-sharp widens the detector's keep loss too, so it needs --keep-from."""
    import sys

    from research.training.train import main

    monkeypatch.setattr(sys, "argv", ["train", "--keep-sharp", "--minutes", "0"])
    with pytest.raises(SystemExit):
        main()
    assert "--keep-from" in capsys.readouterr().err


def test_pip_training_refuses_keep_sharp_without_a_teacher(monkeypatch, capsys):
    """--keep-sharp widens the keep loss, so it needs --keep-from; said before any data loads."""
    import sys

    from research.training.train_pips import main

    monkeypatch.setattr(sys, "argv", ["train_pips", "--keep-sharp", "--minutes", "0"])
    with pytest.raises(SystemExit):
        main()
    assert "--keep-from" in capsys.readouterr().err


def test_pip_training_refuses_a_rendered_share_beyond_the_batch_share_of_dice(monkeypatch, capsys):
    """--rendered-share takes its share from the real dice: at most the 0.70 the two share."""
    import sys

    from research.training.train_pips import main

    monkeypatch.setattr(sys, "argv", ["train_pips", "--rendered-share", "0.9", "--minutes", "0"])
    with pytest.raises(SystemExit):
        main()
    assert "--rendered-share must lie within 0–0.7" in capsys.readouterr().err


def test_pip_training_refuses_a_paint_neighbours_share_outside_0_to_1(monkeypatch, capsys):
    """--paint-neighbours is a share of crops, refused before any data loads when it is none."""
    import sys

    from research.training.train_pips import main

    monkeypatch.setattr(sys, "argv", ["train_pips", "--paint-neighbours", "1.5", "--minutes", "0"])
    with pytest.raises(SystemExit):
        main()
    assert "argument --paint-neighbours: a share is from 0 to 1, got 1.5" in capsys.readouterr().err


def test_the_stage_depths_are_read_back_from_an_exported_detector(tmp_path):
    """A lighter detector is told from a full one by its file alone, so training
    can go on from either; PipNet, which halves nothing with a 3×3 stride, has no stages."""
    from research.training.export import export_onnx
    from research.training.from_onnx import stage_depths
    from research.training.model import FULL_DEPTHS, LIGHT_DEPTHS

    assert stage_depths(MODELS / "dicenet.onnx") == FULL_DEPTHS
    export_onnx(DiceNet(depths=(1, 2, 1, 3)), tmp_path / "odd.onnx")
    assert stage_depths(tmp_path / "odd.onnx") == (1, 2, 1, 3)
    export_onnx(DiceNet(depths=LIGHT_DEPTHS), tmp_path / "light.onnx")
    assert stage_depths(tmp_path / "light.onnx") == LIGHT_DEPTHS


def test_a_lighter_detector_starts_from_the_layers_it_shares_with_the_shipped_one():
    """--depths 1,1,2,2 --resume the full shipped file: every kept layer holds the shipped
    weights (the stem, each stage's first convolutions, the pyramid and the heads); only the
    dropped convolutions are gone."""
    from research.training.from_onnx import fused_layers
    from research.training.model import LIGHT_DEPTHS
    from research.training.train import started_net

    torch.manual_seed(4)
    light = started_net(MODELS / "dicenet.onnx", LIGHT_DEPTHS, lambda: [torch.rand(2, 3, 64, 64) * 255])
    assert light.depths == LIGHT_DEPTHS
    shipped = [weight for weight, _ in fused_layers(MODELS / "dicenet.onnx")]
    dropped = {2, 4, 7}  # s4.1, s8.1, s16.2 in the full graph's order (0 is the stem)
    kept = [weight for index, weight in enumerate(shipped) if index not in dropped]
    convolutions = [m.weight.detach().numpy() for m in light.modules() if isinstance(m, torch.nn.Conv2d)]
    assert len(convolutions) == len(kept) == len(shipped) - 3
    for mine, theirs in zip(convolutions, kept, strict=True):
        np.testing.assert_array_equal(mine, theirs)


def test_a_deeper_detector_starts_out_answering_as_the_shipped_one():
    """--depths 2,2,4,3 --resume the shipped file: the extra convolutions at the end of the
    stride-16 and 32 stages start as the identity, so the deeper net's heatmap, sizes and offsets
    are the shipped net's, in eval mode exactly and in training mode (batch statistics) nearly."""
    from research.training.train import started_net

    torch.manual_seed(5)
    images = torch.rand(2, 3, 128, 128) * 255
    shipped = started_net(MODELS / "dicenet.onnx", (2, 2, 3, 2), lambda: [images])
    deeper = started_net(MODELS / "dicenet.onnx", (2, 2, 4, 3), lambda: [images])
    assert deeper.depths == (2, 2, 4, 3)
    assert len(deeper.s16) == 4 and len(deeper.s32) == 3
    for mode in ("eval", "train"):
        shipped.train(mode == "train")
        deeper.train(mode == "train")
        with torch.no_grad():
            for theirs, mine in zip(shipped(images), deeper(images), strict=True):
                torch.testing.assert_close(mine, theirs, atol=1e-3, rtol=1e-3)
    assert not torch.equal(deeper.s16[3][0].weight, torch.zeros_like(deeper.s16[3][0].weight))


def test_depths_that_are_not_four_whole_numbers_are_refused_with_an_example():
    import argparse

    from research.training.train import depths_option

    parser = argparse.ArgumentParser()
    assert depths_option(parser, "1,1,2,2", None) == (1, 1, 2, 2)
    assert depths_option(parser, None, None) == (2, 2, 3, 2)
    for wrong in ("1,1,2", "1,x,2,2", "0,1,2,2"):
        with pytest.raises(SystemExit):
            depths_option(parser, wrong, None)


def test_the_feature_loss_is_zero_for_the_teachers_own_net_and_not_for_a_lighter_one():
    """--keep-features: the stages of the shipped detector follow themselves exactly; a lighter
    net started from its shared layers does not yet, which is what the loss teaches it."""
    from research.training.model import LIGHT_DEPTHS
    from research.training.train import FeatureTeacher, feature_loss, started_net

    teacher = FeatureTeacher(MODELS / "dicenet.onnx")
    torch.manual_seed(5)
    images = torch.rand(2, 3, 64, 96) * 255
    taught = teacher.stages(images)
    assert [t.shape[1] for t in taught] == [32, 48, 80, 112]
    same = DiceNet()
    load_fused(same, MODELS / "dicenet.onnx")
    same.eval()
    light = started_net(MODELS / "dicenet.onnx", LIGHT_DEPTHS, lambda: [images])
    light.eval()
    with torch.no_grad():
        assert float(feature_loss(same.stages(images), taught)) < 1e-6
        assert float(feature_loss(light.stages(images), taught)) > 0.05


def test_keep_features_without_a_teacher_is_refused(monkeypatch, capsys):
    from research.training import train

    monkeypatch.setattr("sys.argv", ["train", "--keep-features", "1.0", "--minutes", "0"])
    with pytest.raises(SystemExit):
        train.main()
    assert "--keep-from" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--resume", "models/pipnet.onnx"], "four stages"),
        (["--resume", "no-such-file.onnx"], "no such file"),
    ],
)
def test_a_detector_training_resumed_from_the_wrong_file_says_so(monkeypatch, capsys, argv, said):
    from research.training import train

    monkeypatch.chdir(MODELS.parent)
    monkeypatch.setattr("sys.argv", ["train", *argv, "--minutes", "0"])
    with pytest.raises(SystemExit):
        train.main()
    assert said in capsys.readouterr().err


def test_following_the_features_of_a_file_that_is_no_detector_is_refused(monkeypatch, capsys):
    """--keep-features with a PipNet file as --keep-from: a message, not a traceback."""
    from research.training import train

    monkeypatch.chdir(MODELS.parent)
    monkeypatch.setattr(
        "sys.argv",
        ["train", "--keep-from", "models/pipnet.onnx", "--keep-features", "1", "--minutes", "0"],
    )
    with pytest.raises(SystemExit):
        train.main()
    assert "four stages" in capsys.readouterr().err


def test_a_detector_narrowed_to_its_own_widths_is_the_same_net():
    from research.training.prune import narrowed

    torch.manual_seed(6)
    net = DiceNet(depths=(1, 2, 1, 1))
    for module in net.modules():  # BatchNorms that do something, as after training
        if isinstance(module, torch.nn.BatchNorm2d):
            module.weight.data.uniform_(0.5, 1.5)
            module.running_var.uniform_(0.5, 2.0)
            module.running_mean.uniform_(-0.2, 0.2)
    net.eval()
    same = narrowed(net, net.widths)
    same.eval()
    images = torch.rand(1, 3, 64, 64) * 255
    with torch.no_grad():
        for mine, theirs in zip(same(images), net(images), strict=True):
            torch.testing.assert_close(mine, theirs)


def test_a_narrower_detector_keeps_each_layers_strongest_channels_and_what_reads_them():
    """--widths: the stem's channels are ranked by weight times BatchNorm scale; the stride-4
    stage's first convolution keeps, of its inputs, the stem channels kept; the pyramid's
    channels are ranked over every layer that writes them."""
    from research.training.prune import narrowed

    torch.manual_seed(7)
    net = DiceNet(depths=(1, 1, 1, 1))
    with torch.no_grad():
        net.stem[0].weight.mul_(0.01)
        net.stem[0].weight[[3, 9, 12]] *= 1000  # three strong stem channels
        net.stem[1].weight[9] = 0.0  # one of them silenced by its BatchNorm
        net.smooth[1][0].weight[[5, 30]] *= 1000  # two strong pyramid channels
    net.eval()
    thin = narrowed(net, (2, 32, 48, 80, 112, 2))
    assert thin.widths == (2, 32, 48, 80, 112, 2)
    torch.testing.assert_close(thin.stem[0].weight, net.stem[0].weight[[3, 12]])
    torch.testing.assert_close(thin.s4[0][0].weight, net.s4[0][0].weight[:, [3, 12]])
    torch.testing.assert_close(thin.lat4[0].weight, net.lat4[0].weight[[5, 30]])
    torch.testing.assert_close(thin.smooth[0][0].weight, net.smooth[0][0].weight[[5, 30]])  # depthwise
    torch.testing.assert_close(thin.heat.weight, net.heat.weight[:, [5, 30]])
    torch.testing.assert_close(thin.s8[0][0].weight, net.s8[0][0].weight)  # a stage left as it was
    thin.eval()
    with torch.no_grad():
        heat, size, offset = thin(torch.rand(1, 3, 64, 64) * 255)
    assert heat.shape == (1, 1, 16, 16) and size.shape[1] == offset.shape[1] == 2


def test_a_detector_is_only_narrowed_never_widened():
    from research.training.prune import narrowed

    with pytest.raises(ValueError, match="only narrow"):
        narrowed(DiceNet(), (16, 40, 48, 80, 112, 40))


def test_the_widths_are_read_back_from_an_exported_detector_and_a_narrower_one_starts_from_it(tmp_path):
    from research.training.export import export_onnx
    from research.training.from_onnx import stage_widths
    from research.training.model import FULL_WIDTHS
    from research.training.train import started_net

    assert stage_widths(MODELS / "dicenet.onnx") == FULL_WIDTHS
    export_onnx(DiceNet(depths=(1, 1, 2, 1), widths=(8, 16, 24, 40, 56, 20)), tmp_path / "thin.onnx")
    assert stage_widths(tmp_path / "thin.onnx") == (8, 16, 24, 40, 56, 20)
    torch.manual_seed(8)
    batches = lambda: [torch.rand(2, 3, 64, 64) * 255]  # noqa: E731
    thin = started_net(MODELS / "dicenet.onnx", (1, 1, 2, 2), batches, (12, 24, 40, 80, 112, 32))
    assert (thin.depths, thin.widths) == ((1, 1, 2, 2), (12, 24, 40, 80, 112, 32))
    assert thin.s16[1][0].weight.shape == (80, 80, 3, 3)


def test_widths_that_are_not_six_whole_numbers_or_wider_than_the_resumed_file_are_refused(capsys):
    import argparse

    from research.training.train import widths_option

    parser = argparse.ArgumentParser()
    assert widths_option(parser, "12,24,40,80,112,32", MODELS / "dicenet.onnx") == (12, 24, 40, 80, 112, 32)
    assert widths_option(parser, None, MODELS / "dicenet.onnx") == (16, 32, 48, 80, 112, 40)
    assert widths_option(parser, None, None) == (16, 32, 48, 80, 112, 40)
    for wrong, said in (("12,24,40", "six whole numbers"), ("16,64,48,80,112,40", "only narrowed")):
        with pytest.raises(SystemExit):
            widths_option(parser, wrong, MODELS / "dicenet.onnx")
        assert said in capsys.readouterr().err


def die_widths_after_augmenting(look_side: int) -> list[float]:
    """The width of a 40 px die in a 600 px wide picture in augmented copies for a ``look_side`` look."""
    image = np.full((400, 600, 3), 30, np.uint8)
    image[100:140, 200:240] = 255
    sample = Sample(image, np.array([[200, 100, 240, 140]], np.float32), np.array([2]))
    rng, widths = random.Random(5), []
    for _ in range(80):
        _, boxes, _ = augment(sample, 320, rng, look_side=look_side)
        if len(boxes):
            widths.append(float(boxes[0, 2] - boxes[0, 0]))
    return widths


def test_training_for_a_smaller_look_shows_the_dice_as_that_look_would():
    """--look-side 448 draws the scales around a 448 px look, not 640."""
    usual, smaller = die_widths_after_augmenting(640), die_widths_after_augmenting(448)
    assert max(usual) <= 40 * 1.45 * 640 / 600 + 1 and max(smaller) <= 40 * 1.45 * 448 / 600 + 1
    assert min(smaller) >= 40 * 0.55 * 448 / 600 - 1
    assert 0.6 < np.mean(smaller) / np.mean(usual) < 0.8  # 448 / 640 = 0.7


def test_an_exported_detector_tells_the_reader_its_look_side_and_a_copy_can_name_another(tmp_path, capsys):
    from companion.vision.detector import DEFAULT_INPUT_SIDE, DiceDetector
    from research.training.export import export_onnx, main

    export_onnx(DiceNet(depths=(1, 1, 1, 1), widths=(8, 8, 8, 8, 8, 8)), tmp_path / "small.onnx", 448)
    assert DiceDetector(tmp_path / "small.onnx", threads=1).input_side == 448
    assert DiceDetector(tmp_path / "small.onnx", input_side=320, threads=1).input_side == 320
    assert DiceDetector(MODELS / "dicenet.onnx", threads=1).input_side == DEFAULT_INPUT_SIDE == 640
    main([str(tmp_path / "small.onnx"), "--look-side", "512", "--out", str(tmp_path / "marked.onnx")])
    assert DiceDetector(tmp_path / "marked.onnx", threads=1).input_side == 512
    assert "look side 512" in capsys.readouterr().out
    for wrong, said in ((["--look-side", "20"], "64 to 4096"), (["--look-side", "x"], "invalid int")):
        with pytest.raises(SystemExit):
            main([str(tmp_path / "small.onnx"), *wrong, "--out", str(tmp_path / "bad.onnx")])
        assert said in capsys.readouterr().err
    assert not (tmp_path / "bad.onnx").exists()
    with pytest.raises(SystemExit):
        main([str(tmp_path / "none.onnx"), "--look-side", "512", "--out", str(tmp_path / "bad.onnx")])
    assert "no such file" in capsys.readouterr().err


def test_a_detector_file_naming_an_input_side_that_is_no_size_is_refused(tmp_path):
    import onnx

    from companion.vision.detector import DiceDetector
    from companion.vision.onnx_model import ModelError

    graph = onnx.load(str(MODELS / "dicenet.onnx"))
    onnx.helper.set_model_props(graph, {"look_side": "big"})
    onnx.save(graph, str(tmp_path / "odd.onnx"))
    with pytest.raises(ModelError, match="input side"):
        DiceDetector(tmp_path / "odd.onnx", threads=1)


@pytest.mark.parametrize("side", ["32", "5000"])
def test_detector_training_refuses_a_look_side_its_file_could_not_name(monkeypatch, capsys, side):
    """Too small to see dice, or beyond what a detector file may name: refused before training."""
    import sys

    from research.training.train import main

    monkeypatch.setattr(sys, "argv", ["train", "--look-side", side, "--minutes", "0"])
    with pytest.raises(SystemExit):
        main()
    assert f"--look-side {side}" in capsys.readouterr().err


def pip_net_with_working_norms(seed: int) -> PipNet:
    """A PipNet whose BatchNorms do something, as after training, in eval mode."""
    torch.manual_seed(seed)
    net = PipNet()
    for module in net.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.weight.data.uniform_(0.5, 1.5)
            module.running_var.uniform_(0.5, 2.0)
            module.running_mean.uniform_(-0.2, 0.2)
    return net.eval()


def test_a_pip_net_narrowed_to_its_own_widths_is_the_same_net():
    from research.training.prune import narrowed_pipnet

    net = pip_net_with_working_norms(9)
    same = narrowed_pipnet(net, net.widths).eval()
    crops = torch.rand(4, 3, 48, 48) * 255
    with torch.no_grad():
        torch.testing.assert_close(same(crops), net(crops))


def test_a_narrower_pip_net_keeps_each_convolutions_strongest_channels_and_what_reads_them():
    """train_pips --widths: each convolution's channels are ranked alone (weight times BatchNorm
    scale); the next convolution, and the classifier after the last, read only those kept."""
    from research.training.prune import narrowed_pipnet

    net = pip_net_with_working_norms(10)
    first, second, third, last = (net.features[i] for i in (0, 1, 3, 9))
    with torch.no_grad():
        for conv, strong in ((first, [2, 7, 20]), (second, [5, 11]), (last, [4, 50])):
            conv[0].weight.mul_(0.01)
            conv[0].weight[strong] *= 1000
        first[1].weight[7] = 0.0  # one strong channel silenced by its BatchNorm
    thin = narrowed_pipnet(net, (2, 48, 80, 2)).eval()
    assert thin.widths == (2, 48, 80, 2)
    torch.testing.assert_close(thin.features[0][0].weight, first[0].weight[[2, 20]])
    torch.testing.assert_close(thin.features[1][0].weight, second[0].weight[[5, 11]][:, [2, 20]])
    torch.testing.assert_close(thin.features[3][0].weight, third[0].weight[:, [5, 11]])
    torch.testing.assert_close(thin.features[9][0].weight, last[0].weight[[4, 50]])
    torch.testing.assert_close(thin.classify[-1].weight, net.classify[-1].weight[:, [4, 50]])
    torch.testing.assert_close(thin.features[6][0].weight, net.features[6][0].weight)  # left as it was
    with torch.no_grad():
        assert thin(torch.rand(3, 3, 48, 48) * 255).shape == (3, 7)


def test_a_pip_net_is_only_narrowed_never_widened():
    from research.training.prune import narrowed_pipnet

    with pytest.raises(ValueError, match="cannot widen"):
        narrowed_pipnet(PipNet(), (32, 48, 80, 112))


def test_a_narrower_pip_net_starts_from_the_shipped_file_and_its_widths_are_read_back(tmp_path):
    from research.training.from_onnx import pip_widths
    from research.training.pipnet import PIP_WIDTHS
    from research.training.train_pips import started_net

    assert pip_widths(MODELS / "pipnet.onnx") == PIP_WIDTHS
    torch.manual_seed(11)
    batches = lambda: [torch.rand(8, 3, 48, 48) * 255]  # noqa: E731
    thin = started_net(MODELS / "pipnet.onnx", (16, 32, 64, 112), batches)
    assert thin.widths == (16, 32, 64, 112)
    export_pipnet(thin, tmp_path / "thin.onnx", 1)
    assert pip_widths(tmp_path / "thin.onnx") == (16, 32, 64, 112)
    torch.save(thin.state_dict(), tmp_path / "thin.pt")
    assert started_net(tmp_path / "thin.pt", None, batches).widths == (16, 32, 64, 112)
    assert started_net(None, None, batches).widths == PIP_WIDTHS
    reader = PipReader(tmp_path / "thin.onnx", threads=1)  # the reader needs no widths: the file has them
    assert reader.infer(np.zeros((2, 48, 48, 3), np.uint8)).shape == (2, 7)


@pytest.mark.parametrize("wrong", ["16,32,64", "16,32,x,112", "0,32,64,112"])
def test_pip_widths_that_are_not_four_whole_numbers_are_refused(wrong):
    import argparse

    from research.training.train_pips import widths_named

    assert widths_named("16,32,64,112") == (16, 32, 64, 112)
    with pytest.raises(argparse.ArgumentTypeError, match="four whole numbers"):
        widths_named(wrong)


def test_pip_training_refuses_widths_wider_than_the_resumed_net_before_mining(monkeypatch, capsys, tmp_path):
    """train_pips --widths only narrows: wider than --resume's (or a --resume that is not there) is
    a parser error naming the file's widths, given before the minutes of mining crops."""
    import sys

    from research.training.from_onnx import pip_widths
    from research.training.train_pips import main

    shipped = MODELS / "pipnet.onnx"
    own = pip_widths(shipped)
    wide = ",".join(str(w + 8) for w in own)
    cases = [
        (
            ["--resume", str(shipped), "--widths", wide],
            f"only narrowed from the --resume file's {','.join(map(str, own))}",
        ),
        (["--resume", str(tmp_path / "none.onnx")], "no such file"),
    ]
    for argv, message in cases:
        monkeypatch.setattr(sys, "argv", ["train_pips", *argv, "--data", str(tmp_path), "--minutes", "0"])
        with pytest.raises(SystemExit):
            main()
        assert message in capsys.readouterr().err


def test_detector_desaturate_takes_the_colour_away_and_shows_the_teacher_it():
    """--desaturate takes the colour from that share of all pictures, real and rendered (fully
    grey or nearly), while the teacher's view keeps each picture in colour."""
    import torch

    from research.training.train import batch

    image = np.zeros((240, 320, 3), np.uint8)
    image[:] = (30, 60, 200)  # a red table
    image[100:140, 100:140] = (200, 80, 20)  # a blue die
    sample = Sample(image, np.array([[100, 100, 140, 140]], np.float32), np.array([2]))

    def saturation(pictures):
        spread = pictures.max(dim=1).values - pictures.min(dim=1).values
        return spread.mean(dim=(1, 2))

    drawn = batch([sample, sample], [0.5, 0.5], 40, 160, random.Random(6), real=1, desaturate=1.0)
    assert drawn.is_real.any() and (~drawn.is_real).any()
    assert (saturation(drawn.images) < 0.55 * saturation(drawn.teacher_view)).all()
    assert (saturation(drawn.images) < 1.0).any()  # some fully grey
    plain = batch([sample, sample], [0.5, 0.5], 40, 160, random.Random(6), real=1)
    assert torch.equal(plain.images, plain.teacher_view)


@pytest.mark.parametrize("share", ["-0.1", "1.5"])
def test_detector_training_refuses_a_desaturate_share_outside_0_to_1(share, monkeypatch, capsys):
    """--desaturate is a share of the pictures: refused as the command line is read."""
    import sys

    from research.training.train import main

    monkeypatch.setattr(sys, "argv", ["train", "--desaturate", share, "--minutes", "0"])
    with pytest.raises(SystemExit):
        main()
    assert "argument --desaturate: a share is from 0 to 1" in capsys.readouterr().err
