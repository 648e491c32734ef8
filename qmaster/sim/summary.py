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
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import repeat
from math import isnan
from typing import Any

from qmaster.conf.store import ClusterConfig
from qmaster.sim.results import NO_ID, Results

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


class Group:
    """One group's jobs as they are read: its count, waits and bounded slowdowns (8 bytes each)."""

    __slots__ = ("jobs", "slow", "waits")

    def __init__(self) -> None:
        self.jobs = 0
        self.waits = array("d")
        self.slow = array("d")

    def add(self, submitted: float, start: float, end: float) -> None:
        """One job's times (NaN: not known, see :data:`qmaster.sim.results.NOT_YET`)."""
        self.jobs += 1
        if isnan(start):  # never started
            return
        wait = start - submitted if not isnan(submitted) else None
        if wait is not None:
            self.waits.append(wait)
        if not isnan(end):
            self.slow.append(slowdown(wait or 0.0, end - start))

    def figures(self) -> Figures:
        waits = sorted(self.waits)
        slow = self.slow
        return Figures(
            jobs=self.jobs,
            ended=len(slow),
            mean_wait=sum(waits) / len(waits) if waits else 0.0,
            median_wait=percentile(waits, 0.5),
            p95_wait=percentile(waits, 0.95),
            mean_slowdown=sum(slow) / len(slow) if slow else 0.0,
        )


def grouped(results: Results, keys: Iterable[str | None]) -> dict[str, Figures]:
    """The figures of each group, by name in order; ``keys`` names each job's group in trace
    order (``None``: in none). Only the groups' waits and slowdowns are kept, not the jobs."""
    groups: dict[str, Group] = {}
    submitted, start, end = results.submitted, results.start, results.end
    for at, key in enumerate(keys):
        if key is not None:
            group = groups.get(key)
            if group is None:
                group = groups[key] = Group()
            group.add(submitted[at], start[at], end[at])
    return {key: group.figures() for key, group in sorted(groups.items())}


def figures(results: Results) -> Figures:
    """The figures of all the jobs."""
    return grouped(results, repeat("all", len(results))).get("all") or Group().figures()


def summarise(results: Results, slots: int) -> dict[str, Any]:
    """The whole summary as plain data (what summary.json holds), read from the columns."""
    submitted, start, end = results.submitted, results.start, results.end
    first = min((x for x in submitted if not isnan(x)), default=0.0)
    last = max((x for x in end if not isnan(x)), default=None)
    makespan = last - first if last is not None else 0.0
    sizes = results.slots
    used = sum(
        sizes[at] * (x - (0.0 if isnan(start[at]) else start[at]))
        for at, x in enumerate(end)
        if not isnan(x)
    )
    queues = [None if n is None else n.partition("@")[0] for n in results.names]
    owners, users = results.jobs.user_codes()
    refusals: dict[str, int] = {}
    for text in results.refusals.values():
        refusals[text] = refusals.get(text, 0) + 1
    waiting = sum(1 for at, x in enumerate(start) if isnan(x) and results.job_id[at] != NO_ID)
    return {
        "refusals": dict(sorted(refusals.items())),
        "jobs": len(results),
        "submitted": sum(1 for x in submitted if not isnan(x)),
        "refused": len(results.refusals),
        "ended": sum(1 for x in end if not isnan(x)),
        "not_started": waiting,
        "slots": slots,
        "makespan": round(makespan, 3),
        "utilisation": round(used / (slots * makespan), 6) if slots and makespan else 0.0,
        "all": figures(results).as_dict(),
        "per_queue": {
            q: f.as_dict() for q, f in grouped(results, (queues[c] for c in results.queue)).items()
        },
        "per_user": {
            u: f.as_dict() for u, f in grouped(results, (users[c] for c in owners)).items()
        },
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
