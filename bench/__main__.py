"""``python -m bench`` (``make bench``): every benchmark part in turn.

The parts are ``gdi`` (job submission through the qmaster), then ``sched``,
``jsv``, ``seg`` and ``qacct`` when their modules exist. Each part runs guarded, so one that crashes
does not hide the others; the exit status is 1 only if a part crashed. A part
that cannot be imported is reported as "skipped: not available". Parts can be
chosen by name: ``python -m bench gdi seg``.
"""

from __future__ import annotations

import importlib
import inspect
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

PARTS: dict[str, str] = {
    "gdi": "bench.gdi_bench",
    "sched": "bench.sched_bench",
    "tick": "bench.tick_bench",
    "jsv": "bench.jsv_bench",
    "ar": "bench.ar_bench",
    "seg": "bench.seg_bench",
    "scale": "bench.scale_bench",
    "qacct": "bench.qacct_bench",
    "array": "bench.array_bench",
    "query": "bench.query_bench",
    "qstat": "bench.qstat_stages",
    "spec": "bench.spec_bench",
    "story": "bench.story_bench",
    "sim": "bench.sim_bench",
    "local": "bench.local_bench",
}


def _entry(module: str) -> Callable[..., Any] | None:
    """The part's ``main`` (or ``run``), or ``None`` when the module is not there."""
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module.startswith(exc.name):
            return None
        raise
    fn = getattr(mod, "main", None) or getattr(mod, "run", None)
    return fn if callable(fn) else None


def _call(fn: Callable[..., Any]) -> int:
    """Call a part with no arguments of its own (``main([])`` keeps it off our argv)."""
    params = inspect.signature(fn).parameters
    result = fn([]) if params else fn()
    return result if isinstance(result, int) else 0


def run_part(name: str, module: str) -> str:
    """Run one part; its verdict: ``ok``, ``skipped: not available`` or ``crashed``."""
    print(f"\n=== {name} ({module}) ===", flush=True)
    started = time.perf_counter()
    try:
        fn = _entry(module)
        if fn is None:
            print("skipped: not available", flush=True)
            return "skipped: not available"
        status = _call(fn)
    except Exception:
        traceback.print_exc()
        return "crashed"
    except SystemExit as exc:  # argparse and friends
        status = exc.code if isinstance(exc.code, int) else 1
    seconds = time.perf_counter() - started
    verdict = "ok" if status == 0 else f"crashed (exit status {status})"
    print(f"--- {name}: {verdict} in {seconds:.1f} s", flush=True)
    return verdict


def main(argv: list[str]) -> int:
    unknown = [a for a in argv if a not in PARTS]
    if unknown:
        print(f"unknown benchmark part(s): {', '.join(unknown)}; known: {', '.join(PARTS)}")
        return 2
    chosen = argv or list(PARTS)
    import structlog  # in-process parts (the JSV pool) log through structlog: keep it quiet

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
    verdicts = {name: run_part(name, PARTS[name]) for name in chosen}
    print("\n=== summary ===")
    for name, verdict in verdicts.items():
        print(f"{name:<5} {verdict}")
    return 1 if any(v.startswith("crashed") for v in verdicts.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
