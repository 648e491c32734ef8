"""Loaded by every Python process started with this folder on ``PYTHONPATH`` (see
:mod:`bench.gc_bench`); acts only in a qmaster daemon given ``MINIGE_GC_PROBE``.

It times each collection of the cyclic garbage collector in the daemon's thread
CPU time, per generation, and writes the totals and the longest pause as one
JSON line to the file ``MINIGE_GC_PROBE`` names every second.
``MINIGE_GC_PROBE_NO_POLICY`` keeps the daemon from installing its policy
(:mod:`qmaster.gcpolicy`), for the baseline.
"""

from __future__ import annotations

import os
import sys


def _probe(path: str) -> None:
    import gc
    import json
    import threading
    import time

    if os.environ.get("MINIGE_GC_PROBE_NO_POLICY"):
        from qmaster import gcpolicy

        gcpolicy.install = lambda: None
    stats = {g: [0, 0.0, 0.0] for g in range(3)}  # collections, CPU seconds, longest
    began = [0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.thread_time()
            return
        took = time.thread_time() - began[0]
        entry = stats[info["generation"]]
        entry[0] += 1
        entry[1] += took
        entry[2] = max(entry[2], took)

    gc.callbacks.insert(0, timed)

    def dump() -> None:
        while True:
            time.sleep(1.0)
            line = {"gc": stats, "frozen": gc.get_freeze_count(), "cpu": time.process_time()}
            with open(path, "a") as fh:
                fh.write(json.dumps(line) + "\n")

    threading.Thread(target=dump, name="gc-probe", daemon=True).start()


if "--foreground" in sys.argv and os.environ.get("MINIGE_GC_PROBE"):
    _probe(os.environ["MINIGE_GC_PROBE"])
