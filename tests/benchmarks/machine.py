"""What the benchmarks print about the CPU they ran on: its name and whether it has 8-bit dot
products (AVX-512 VNNI), which make the reader's models about twice as fast (sessions 21, 38),
and how fast it runs the detector right now: the same machine read the same photos in a median
62 ms and, minutes later, 37 ms (session 46), so a median means little without its hour's pace."""

import os
import platform
import statistics
import time
from pathlib import Path

import numpy as np

from companion.vision.detector import DiceDetector

CPUINFO = Path("/proc/cpuinfo")


def cpu_line(cpuinfo: Path = CPUINFO) -> str:
    """ "AMD EPYC, 2 cores, AVX2 without VNNI" or the like; what the platform says elsewhere."""
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
    name = fields.get("model name", platform.machine())
    return f"{name}, {os.cpu_count()} cores, {vector}"


def look_pace(detector: DiceDetector, side: int = 640, runs: int = 20) -> float:
    """The median ms of one look of ``detector`` at a blank ``side``×``side`` frame (after two
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
