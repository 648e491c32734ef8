"""The figures of a replay: jobs, makespan, utilisation, waits and bounded slowdown.

Definitions (all times in seconds):

- makespan: from the first submission to the last end;
- utilisation: slot-seconds used by the jobs that ended, over the cell's slots
  times the makespan;
- wait: start minus submission, over the jobs that started; its median and
  95th percentile by the nearest-rank method (no interpolation);
- bounded slowdown: ``max(1, (wait + run) / max(run, TAU))`` with ``TAU`` 10 s,
  averaged over the jobs that ended.

Per queue (the cluster queue a job ran in) and per user, the same figures for
the jobs of that group. Floats are rounded to 3 decimals, so the text and JSON
are the same bytes for the same replay.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from qmaster.conf.store import ClusterConfig
from qmaster.sim.driver import JobResult

TAU = 10.0


def capacity(config: ClusterConfig) -> int:
    """The cell's slots: per host, its queue instances' slots, capped by the host's ``slots``."""
    per_host: dict[str, int] = {}
    for qi in config.queue_instances():
        per_host[qi.host] = per_host.get(qi.host, 0) + qi.slots
    total = 0
    for host, slots in per_host.items():
        conf = config.exechosts.get(host)
        cap = _int(conf.complex_values.get("slots")) if conf else None
        total += min(slots, cap) if cap is not None else slots
    globals_ = config.exechosts.get("global")
    cap = _int(globals_.complex_values.get("slots")) if globals_ else None
    return min(total, cap) if cap is not None else total


def _int(text: str | None) -> int | None:
    try:
        return int(float(text)) if text is not None else None
    except ValueError:
        return None


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile of sorted ``values`` (``share`` in 0..1); 0 when empty."""
    if not values:
        return 0.0
    rank = max(1, math.ceil(share * len(values)))
    return values[rank - 1]


def slowdown(wait: float, run: float) -> float:
    """Bounded slowdown of one job (``TAU`` = 10 s)."""
    return max(1.0, (wait + run) / max(run, TAU))


@dataclass(frozen=True, slots=True)
class Figures:
    """The figures of one group of jobs."""

    jobs: int
    ended: int
    mean_wait: float
    median_wait: float
    p95_wait: float
    mean_slowdown: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "jobs": self.jobs,
            "ended": self.ended,
            "mean_wait": round(self.mean_wait, 3),
            "median_wait": round(self.median_wait, 3),
            "p95_wait": round(self.p95_wait, 3),
            "mean_bounded_slowdown": round(self.mean_slowdown, 3),
        }


def figures(results: Iterable[JobResult]) -> Figures:
    """The figures of a group of jobs."""
    jobs = list(results)
    waits = sorted(w for r in jobs if (w := r.wait) is not None)
    ended = [r for r in jobs if r.end is not None and r.start is not None]
    slow = [slowdown(r.wait or 0.0, (r.end or 0.0) - (r.start or 0.0)) for r in ended]
    return Figures(
        jobs=len(jobs),
        ended=len(ended),
        mean_wait=sum(waits) / len(waits) if waits else 0.0,
        median_wait=percentile(waits, 0.5),
        p95_wait=percentile(waits, 0.95),
        mean_slowdown=sum(slow) / len(slow) if slow else 0.0,
    )


def summarise(results: Sequence[JobResult], slots: int) -> dict[str, Any]:
    """The whole summary as plain data (what summary.json holds)."""
    submitted = [r.submitted for r in results if r.submitted is not None]
    ends = [r.end for r in results if r.end is not None]
    first = min(submitted) if submitted else 0.0
    makespan = max(ends) - first if ends else 0.0
    used = sum(r.slots * ((r.end or 0.0) - (r.start or 0.0)) for r in results if r.end is not None)
    by_queue: dict[str, list[JobResult]] = {}
    by_user: dict[str, list[JobResult]] = {}
    for r in results:
        if r.queue is not None:
            by_queue.setdefault(r.queue.partition("@")[0], []).append(r)
        by_user.setdefault(r.job.user, []).append(r)
    refusals: dict[str, int] = {}
    for r in results:
        if r.refusal is not None:
            refusals[r.refusal] = refusals.get(r.refusal, 0) + 1
    return {
        "refusals": dict(sorted(refusals.items())),
        "jobs": len(results),
        "submitted": len(submitted),
        "refused": sum(1 for r in results if r.refusal is not None),
        "ended": len(ends),
        "not_started": sum(1 for r in results if r.job_id is not None and r.start is None),
        "slots": slots,
        "makespan": round(makespan, 3),
        "utilisation": round(used / (slots * makespan), 6) if slots and makespan else 0.0,
        "all": figures(results).as_dict(),
        "per_queue": {q: figures(rs).as_dict() for q, rs in sorted(by_queue.items())},
        "per_user": {u: figures(rs).as_dict() for u, rs in sorted(by_user.items())},
    }


def ar_figures(asked: Sequence[tuple[Any, int | None, str | None]]) -> dict[str, Any]:
    """How the advance reservations went: granted ids and refusals by their file line."""
    return {
        "granted": [ar_id for _, ar_id, _ in asked if ar_id is not None],
        "refused": {str(line.line): why for line, ar_id, why in asked if ar_id is None},
    }


def to_json(summary: dict[str, Any]) -> str:
    """summary.json's text."""
    return json.dumps(summary, indent=2, sort_keys=True) + "\n"


_COLUMNS = ("jobs", "ended", "mean_wait", "median_wait", "p95_wait", "mean_bounded_slowdown")


def to_text(summary: dict[str, Any], *, users: bool = True) -> str:
    """summary.txt's text: the totals, then one table per queue and (``users``) per user."""
    lines = [
        f"jobs            {summary['jobs']}",
        f"submitted       {summary['submitted']}",
        f"refused         {summary['refused']}",
        f"ended           {summary['ended']}",
        f"never started   {summary['not_started']}",
        f"slots           {summary['slots']}",
        f"makespan        {summary['makespan']:.0f} s",
        f"utilisation     {summary['utilisation'] * 100:.2f} %",
        "",
    ]
    refusals = [f"  {count:>6} x {text}" for text, count in summary["refusals"].items()]
    lines[3:3] = refusals
    ars = summary.get("ars")
    if ars and (ars["granted"] or ars["refused"]):
        lines.insert(-1, f"ARs granted     {len(ars['granted'])}")
        lines[-1:-1] = [f"AR refused      line {n}: {why}" for n, why in ars["refused"].items()]
    lines += _table("all", {"all": summary["all"]})
    lines += _table("queue", summary["per_queue"])
    if users:
        lines += _table("user", summary["per_user"])
    return "\n".join(lines) + "\n"


def _table(title: str, rows: dict[str, dict[str, Any]]) -> list[str]:
    width = max([len(title), *(len(k) for k in rows)])
    head = f"{title:<{width}} " + " ".join(
        f"{c:>21}" if c.startswith("mean_b") else f"{c:>11}" for c in _COLUMNS
    )
    out = [head, "-" * len(head)]
    for name, row in rows.items():
        cells = []
        for c in _COLUMNS:
            w = 21 if c.startswith("mean_b") else 11
            value = row[c]
            cells.append(f"{value:>{w}}" if isinstance(value, int) else f"{value:>{w}.2f}")
        out.append(f"{name:<{width}} " + " ".join(cells))
    out.append("")
    return out
