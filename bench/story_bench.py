"""``python -m bench story`` — what stimulus ids and job stories cost.

Two figures, each measured in an in-process core (no daemon, no spool):

- **bytes per pending job**: ``--jobs`` jobs (100,000 by default) submitted
  through ``Core.handle`` into the default cell, held so that no pass moves
  them; tracemalloc's memory after the submissions minus before, per job. A
  job that only waits must cost no story object: its first line is derived
  from its submission time and the one int it keeps.
- **a pass that dispatches a full cell**: 1,000 hosts × 8 slots and 8,000
  waiting jobs; one tick dispatches them all and one more starts them. Its
  time, and the memory the story lines of those 16,000 moves keep, per task.

- **a tick after one job ends** on ``tick_bench``'s loaded cell (``--pending``
  waiting jobs), CPU time, alternating with and without stories on one core.

The baseline is the same figures without stories: run this file on a checkout
from before them (``git archive <commit> | tar -x -C DIR; cd DIR; python
/path/to/bench/story_bench.py``). Memory figures are exact; times on a shared
machine are noisy (take the best of ``--repeat``).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import sys
import time
import tracemalloc
from collections.abc import Iterator, Sequence

from bench.tick_bench import HOSTS, SLOTS, config, loaded_core
from qmaster.core import Core, CoreSettings, Identity
from qmaster.core.stimuli import Asked
from qmaster.stimuli_wire import parse

T0 = 1_767_225_600.0
ALICE = Identity(1000, 1000, "alice", "users")


def _submit_args(held: bool) -> Asked:
    spec = {"CMDNAME": "job.sh", "CMDARGS": ["1000"], "l_hard": {"h_rt": "3600"}}
    return parse(ALICE, "submit", {"job": {**spec, "h": held} if held else spec})


def pending_bytes(jobs: int) -> float:
    """Bytes each of ``jobs`` held jobs adds to a core (tracemalloc, after a full collection)."""
    core = Core(config(4), CoreSettings())
    request = _submit_args(held=True)
    core.handle(request, T0)  # first-use caches out of the figure
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(jobs):
            core.handle(request, T0)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(core.jobs) == jobs + 1
    kept = len(getattr(getattr(core, "journal", None), "lines", ()))
    print(f"{jobs:,} held jobs: {kept} of them have story lines kept in memory")
    return (after - before) / jobs


def _filled_core() -> Core:
    core = Core(config(HOSTS), CoreSettings())
    request = _submit_args(held=False)
    for _ in range(HOSTS * SLOTS):
        core.handle(request, T0)
    gc.collect()
    return core


def _dispatch_all(core: Core) -> float:
    """CPU milliseconds of the tick that dispatches every job and the one that starts them
    (CPU time: other processes on a shared machine stretch wall time far more)."""
    start = time.process_time()
    core.tick(T0 + 1)
    core.tick(T0 + 1)
    took = (time.process_time() - start) * 1000.0
    assert sum(len(j.tasks) for j in core.jobs.values()) == HOSTS * SLOTS
    return took


@contextlib.contextmanager
def _no_stories() -> Iterator[None]:
    """The baseline in the same process: moves and stimuli record nothing (the job still
    keeps its stimulus id)."""
    from qmaster.core import jobs, story

    def unrecorded(*_: object, **__: object) -> contextlib.nullcontext[None]:
        return contextlib.nullcontext()

    moved, stimulus = vars(jobs)["task_moved"], vars(story.Journal)["stimulus"]
    setattr(jobs, "task_moved", lambda *_: None)  # noqa: B010
    setattr(story.Journal, "stimulus", unrecorded)  # noqa: B010
    try:
        yield
    finally:
        setattr(jobs, "task_moved", moved)  # noqa: B010
        setattr(story.Journal, "stimulus", stimulus)  # noqa: B010


def same_run_baseline(repeat: int) -> tuple[float, float]:
    """Best milliseconds of the full dispatch with and without stories, runs alternating."""
    with_story: list[float] = []
    without: list[float] = []
    for _ in range(repeat):
        with_story.append(_dispatch_all(_filled_core()))
        with _no_stories():
            without.append(_dispatch_all(_filled_core()))
    return min(with_story), min(without)


def full_dispatch(repeat: int) -> tuple[float, float]:
    """Best milliseconds of a pass dispatching 8,000 jobs plus their starts, and the story
    bytes kept per dispatched task (0 without stories)."""
    best = min(_dispatch_all(_filled_core()) for _ in range(repeat))
    core = _filled_core()
    tracemalloc.start()
    try:
        _dispatch_all(core)
        snap = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    story = snap.filter_traces([tracemalloc.Filter(True, "*/qmaster/core/story.py")])
    return best, sum(s.size for s in story.statistics("filename")) / (HOSTS * SLOTS)


def after_one_end(pending: int, repeat: int) -> tuple[float, float]:
    """Best CPU milliseconds of a tick after one job ends (its end timer, then a pass that
    dispatches one job) on ``tick_bench``'s loaded cell, with and without stories, the
    ticks alternating on one core."""
    core = loaded_core(pending)
    told: list[float] = []
    untold: list[float] = []
    end_at = T0 + 101.0  # job 1 ends at T0+101, job 2 at T0+102, ...
    for n in range(repeat * 2):
        end_at += 1.0
        gc.collect()
        with contextlib.nullcontext() if n % 2 == 0 else _no_stories():
            start = time.process_time()
            core.tick(end_at)
            took = (time.process_time() - start) * 1000.0
        (told if n % 2 == 0 else untold).append(took)
    return min(told), min(untold)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.story_bench")
    parser.add_argument("--jobs", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pending", type=int, nargs="*", default=[10_000, 100_000])
    args = parser.parse_args(argv)
    per_job = pending_bytes(args.jobs)
    print(f"bytes per pending job: {per_job:,.0f}")
    took, per_task = full_dispatch(args.repeat)
    print(
        f"pass dispatching 8,000 jobs + their starts: {took:,.0f} ms CPU; "
        f"story bytes kept per dispatched task: {per_task:,.0f}"
    )
    if hasattr(Core, "story"):
        told, untold = same_run_baseline(args.repeat)
        print(
            f"same run, alternating: {told:,.0f} ms CPU with stories, {untold:,.0f} ms without "
            f"({told / untold:.2f}x)"
        )
        for pending in args.pending:
            told, untold = after_one_end(pending, args.repeat)
            print(
                f"tick after one job ends, {pending:,} pending (CPU time, alternating): "
                f"{told:,.1f} ms with stories, {untold:,.1f} ms without ({told / untold:.2f}x)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
