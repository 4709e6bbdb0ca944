"""What the benchmarks print about the CPU they ran on: its name and whether it has 8-bit dot
products (AVX-512 VNNI), which make the reader's models about twice as fast (sessions 21, 38)."""

import os
import platform
from pathlib import Path

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
