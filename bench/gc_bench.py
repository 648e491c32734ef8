"""``python -m bench.gc_bench`` — the daemon's garbage-collector policy, A/B in one run.

Two qmasters on the scale benchmark's cell (:mod:`bench.scale_cell`: 1,000
hosts × 8 slots, every slot busy): A as shipped, B without its policy
(:mod:`qmaster.gcpolicy`: the survivors of each full collection are frozen).
Both are filled with the same pending jobs in alternating chunks (``--chunk``,
up to ``--upto``), so the machine's load falls on both alike. After each chunk
it prints, per daemon, the fill rate, RSS, the daemon's CPU, and its full
(generation 2) collections: how many, their CPU time and the longest, as
:mod:`bench.gc_probe` measures them inside the daemon.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import scale_daemon as d
from bench.scale_bench import start_runners
from bench.scale_cell import write_conf
from qmaster.testing import RunningCell, create_cell

PROBE = Path(__file__).parent / "gc_probe"


def _last(path: Path) -> dict[str, Any]:
    try:
        line = path.read_text().splitlines()[-1]
    except (OSError, IndexError):
        return {}
    found: dict[str, Any] = json.loads(line)
    return found


def _summary(path: Path) -> str:
    last = _last(path)
    if not last:
        return "(no probe figures yet)"
    count, cpu, longest = last["gc"]["2"]
    return (f"full collections {count:>3}, {cpu:6.2f} s CPU, longest {longest * 1000:5.0f} ms; "
            f"daemon CPU {last['cpu']:6.1f} s")  # fmt: skip


def _start(root: Path, conf: Path, name: str, policy: bool) -> tuple[RunningCell, Path]:
    cell = create_cell(root / name, conf)
    probe = root / f"gc-{name}.jsonl"
    cell.env.update(MINIGE_GC_PROBE=str(probe), PYTHONPATH=str(PROBE))
    if not policy:
        cell.env["MINIGE_GC_PROBE_NO_POLICY"] = "1"
    cell.start(timeout=120)
    return cell, probe


def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="minige-gc-") as tmp:
        root = Path(tmp)
        conf = write_conf(root / "conf")
        daemons = {"A (policy)": _start(root, conf, "a", True),
                   "B (none)": _start(root, conf, "b", False)}  # fmt: skip
        try:
            done = min(start_runners(cell, args).pending for cell, _ in daemons.values())
            while done < args.upto:
                for name, (cell, probe) in daemons.items():
                    got = d.fill(cell.cell.socket, done, done + args.chunk, runners=False,
                                 deadline=time.monotonic() + args.budget, stall=args.stall)  # fmt: skip
                    time.sleep(1.5)  # the probe's next line
                    print(f"{name:10} {done + len(got.job_ids):>9,} pending  "
                          f"{got.overall() or 0:6,.0f}/s  RSS {d.rss_bytes(cell.pid()) >> 20:5,} MiB  "
                          f"{_summary(probe)}", flush=True)  # fmt: skip
                done += args.chunk
        finally:
            for cell, _ in daemons.values():
                cell.run("qmaster", "stop", "--timeout", "60")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gc_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--upto", type=int, default=100_000, help="pending jobs in each daemon")
    parser.add_argument("--chunk", type=int, default=10_000, help="jobs per turn")
    parser.add_argument("--budget", type=float, default=1800.0, help="seconds per chunk")
    parser.add_argument("--stall", type=float, default=120.0, help="seconds without a reply")
    args = parser.parse_args(argv)
    args.size_list = [2 * args.chunk]  # start_runners' first pending jobs: half a chunk at most
    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
