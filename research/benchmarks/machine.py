"""What the benchmarks print about the machine they ran on: the CPU's name and vector units (the
CPUs with AVX-512 VNNI ran the reader's float models 2–3× as fast as an AVX2-only EPYC), the
Python and onnxruntime that ran the models, and how fast it runs the detector right now: the
same machine read the same photos in a median 62 ms and, minutes later, 37 ms, so a median means
little without its hour's pace."""

import os
import platform
import statistics
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort

from companion.vision.detector import DiceDetector

CPUINFO = Path("/proc/cpuinfo")


def cpu_line(cpuinfo: Path = CPUINFO) -> str:
    """ "AMD EPYC, 2 cores, AVX2 without VNNI" or "Intel(R) Xeon(R) Processor, 2 cores, AVX-512 VNNI,
    AMX" or the like; what the platform says where there is no /proc/cpuinfo."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    fields = dict(
        (key.strip(), value.strip()) for key, _, value in (line.partition(":") for line in text.splitlines())
    )
    flags = set(fields.get("flags", "").split())
    if "avx512_vnni" in flags:
        vector = "AVX-512 VNNI"
    elif "avx_vnni" in flags:
        vector = "AVX-VNNI"
    elif "avx2" in flags:
        vector = "AVX2 without VNNI"
    else:
        vector = "no AVX2"
    if "amx_int8" in flags:
        vector += ", AMX"
    name = fields.get("model name", platform.machine())
    return f"{name}, {os.cpu_count()} cores, {vector}"


def runtime_line() -> str:
    """ "Python 3.11.7, onnxruntime 1.32.0": what ran the models (their speed moves with both)."""
    return f"Python {platform.python_version()}, onnxruntime {ort.__version__}"


def full_scale_pace(detector: DiceDetector, side: int = 640, runs: int = 20) -> float:
    """The median ms of one full-scale run of ``detector`` on a blank ``side``×``side`` frame (after two
    runs to warm up): the machine's pace at the moment, to print beside a benchmark's medians."""
    frame = np.zeros((side, side, 3), np.uint8)
    for _ in range(2):
        detector.detect_at(frame, side)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        detector.detect_at(frame, side)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
