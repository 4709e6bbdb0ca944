"""8-bit copies of DiceNet and PipNet for the CPU (onnxruntime's static quantisation).

    python -m research.training.quantize --out build/q8 \\
        --dicenet build/dicenet.onnx --pipnet build/pipnet.onnx \\
        --frames ../shared/datasets/roboflow-dice/train:100 ../shared/datasets/webcam-white-dice/train:100 \\
                 build/synth_busy15:50 build/synth_lens:50

Training writes float models (``build/``); ``models/`` holds the pair the reader runs
(copies of the float pair: 8-bit copies made by this command were no faster on its CPUs).
Activations are calibrated by their smallest and largest values: DiceNet's on the frames at the
three scales of the reader's image pyramid, PipNet's on the reader's crops of the same frames
(boxes found by the float detector, moved toward the top face as the reader moves them). QDQ format,
weights per channel, activations unsigned 8-bit. The detector's convolutions, additions,
resizes and ReLUs are quantised; its three heads (heatmap, box size, offset), sigmoid and peak
filter stay float. Weights lie within ±64 (``WEIGHT_RANGE``), so onnxruntime's AVX2 kernel
cannot saturate on them (checked on an AVX2-only CPU). On a CPU with AVX-512 VNNI
the 8-bit pair read a 640×640 photo about a quarter faster than the float pair; on
an AVX2-only CPU it was no faster, and the float pair ships (``models/README.md``).
Needs onnx (the ``train`` extra); the reader needs only onnxruntime.
"""

import argparse
from collections.abc import Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np
import onnx
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

from companion.vision.detector import SCALES, DiceDetector
from companion.vision.pips import reader_crops
from companion.vision.reader import CANDIDATE_THRESHOLD
from research.reader.dataset import read_yolo_folder

DICENET_OPS = ["Conv", "Add", "Resize", "Relu"]
#: DiceNet's last convolutions (the exported graph's node names), kept float
DICENET_HEADS = ("/net/heat/", "/net/size/", "/net/offset/")
PIPNET_OPS = ["Conv", "Relu", "MaxPool", "Gemm", "GlobalAveragePool"]
#: the weights' range (onnxruntime's reduced range). On an x86 CPU without 8-bit dot-product
#: instructions (AVX-512 VNNI; most laptops) onnxruntime multiplies unsigned 8-bit activations by
#: signed 8-bit weights with AVX2, which adds each pair of products in 16 bits: 255 × 127 × 2
#: overflows and saturates (webcam valid read 0.13 instead of 0.89); 255 × 64 × 2 =
#: 32,640 does not.
WEIGHT_RANGE = (-64, 64)
#: crops per PipNet calibration batch
CROP_BATCH = 32


class Batches(CalibrationDataReader):
    """Feeds onnxruntime's calibration one input tensor at a time."""

    def __init__(self, input_name: str, tensors: list[np.ndarray]) -> None:
        self.input_name = input_name
        self.tensors: Iterator[np.ndarray] = iter(tensors)

    def get_next(self) -> dict[str, np.ndarray] | None:
        tensor = next(self.tensors, None)
        return None if tensor is None else {self.input_name: tensor}


def folder_and_count(text: str) -> tuple[Path, int]:
    """``FOLDER:COUNT`` (how many of the folder's images, evenly spread) for argparse."""
    folder, _, count = text.rpartition(":")
    if not folder or not count.isdigit() or int(count) < 1:
        raise argparse.ArgumentTypeError(f"expected FOLDER:COUNT, like build/synth_lens:50, got {text!r}")
    return Path(folder), int(count)


def calibration_frames(sources: list[tuple[Path, int]]) -> list[np.ndarray]:
    """``count`` images spread evenly over each YOLO folder, as BGR frames."""
    frames = []
    for folder, count in sources:
        items = list(read_yolo_folder(folder))
        if not items:
            raise SystemExit(f"no labelled images in {folder}")
        step = max(1, len(items) // count)
        for item in items[::step][:count]:
            frame = cv2.imread(str(item.image_path), cv2.IMREAD_COLOR)
            if frame is not None:
                frames.append(frame)
    return frames


def pyramid_tensors(detector: DiceDetector, frames: list[np.ndarray]) -> list[np.ndarray]:
    """Each frame as the detector sees it at each scale of the reader's image pyramid."""
    return [detector.prepare(frame, detector.input_side // s).tensor for frame in frames for s in SCALES]


def crop_batches(detector: DiceDetector, frames: list[np.ndarray]) -> list[np.ndarray]:
    """The reader's crops of what ``detector`` finds in the frames (low-score candidates too: the
    reader reads those), in N×3×48×48 batches."""
    found = [(frame, [d.box for d in detector.detect(frame)]) for frame in frames]
    crops = [reader_crops(frame, boxes) for frame, boxes in found if boxes]
    if not crops:
        raise SystemExit("the detector found no dice in the calibration frames")
    every = np.concatenate(crops)
    return [
        np.ascontiguousarray(every[i : i + CROP_BATCH].transpose(0, 3, 1, 2), dtype=np.float32)
        for i in range(0, len(every), CROP_BATCH)
    ]


def head_nodes(model: Path) -> list[str]:
    """The names of DiceNet's head convolutions in ``model``."""
    names = [node.name for node in onnx.load(str(model)).graph.node if node.op_type == "Conv"]
    heads = [name for name in names if name.startswith(DICENET_HEADS)]
    if len(heads) != len(DICENET_HEADS):
        raise SystemExit(f"{model} has no heads named {', '.join(DICENET_HEADS)}: is it DiceNet?")
    return heads


def quantize(
    model: Path,
    out: Path,
    input_name: str,
    tensors: list[np.ndarray],
    ops: list[str],
    keep: Sequence[str] = (),
) -> None:
    """Write the 8-bit copy of ``model`` calibrated on ``tensors``; the nodes named ``keep`` stay float."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".onnx.tmp")
    quantize_static(
        str(model),
        str(tmp),
        Batches(input_name, tensors),
        quant_format=QuantFormat.QDQ,
        per_channel=True,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        reduce_range=True,  # weights within ±64: see WEIGHT_RANGE
        op_types_to_quantize=ops,
        nodes_to_exclude=list(keep),
    )
    source, copy = onnx.load(str(model)), onnx.load(str(tmp))
    if source.metadata_props:  # what the file says of how to read it (input side, quarter turns)
        onnx.helper.set_model_props(copy, {p.key: p.value for p in source.metadata_props})
        onnx.save(copy, str(tmp))
    tmp.replace(out)  # never leave a half-written model where the reader looks


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--dicenet", type=Path, help="the float detector to quantise")
    parser.add_argument("--pipnet", type=Path, help="the float pip reader to quantise")
    parser.add_argument("--frames", type=folder_and_count, nargs="+", required=True, help="FOLDER:COUNT ...")
    parser.add_argument("--finder", type=Path, help="detector that finds PipNet's crops (default --dicenet)")
    parser.add_argument("--out", type=Path, default=Path("build/q8"))
    args = parser.parse_args(argv)
    if args.dicenet is None and args.pipnet is None:
        parser.error("give --dicenet, --pipnet or both")
    finder = args.finder or args.dicenet
    if args.pipnet is not None and finder is None:
        parser.error("--pipnet needs --finder (or --dicenet) to find the crops")
    frames = calibration_frames(args.frames)
    print(f"{len(frames)} calibration frames", flush=True)
    if args.dicenet is not None:
        tensors = pyramid_tensors(DiceDetector(args.dicenet, threads=2), frames)
        heads = head_nodes(args.dicenet)
        quantize(args.dicenet, args.out / "dicenet.onnx", "image", tensors, DICENET_OPS, heads)
        print(f"wrote {args.out / 'dicenet.onnx'}", flush=True)
    if args.pipnet is not None:
        crops = crop_batches(DiceDetector(finder, threads=2, floor=CANDIDATE_THRESHOLD), frames)
        quantize(args.pipnet, args.out / "pipnet.onnx", "crops", crops, PIPNET_OPS)
        print(f"wrote {args.out / 'pipnet.onnx'}", flush=True)


if __name__ == "__main__":
    main()
