"""The scale benchmark's table: each figure of one size beside issue 11's target."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bench.common import Row, print_table

if TYPE_CHECKING:
    from bench.scale_bench import SizeResult

MIB = 1024 * 1024
#: Issue 11's targets (2-core machine, 1,000 hosts; most are stated for 1M pending jobs).
RATE_RATIO = 0.8
IDLE_CPU_PCT = 5.0
PASS_MS = 50.0
QSUB_P99_MS = 200.0
QSTAT_MS = 1_500.0
QSTAT_AT = 100_000
RECOVERY_MS = 15_000.0
RSS_MIB = 1_536.0
RESTART_GROWTH = 1.1


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1000.0


def _us(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1e6


def _at_most(value: float | None, limit: float) -> bool | None:
    return None if value is None else value <= limit


def _rows(r: SizeResult) -> list[Row | str]:
    """The rows of one size; a string stands for a figure that could not be measured."""
    rows: list[Row | str] = []

    def add(figure: str, value: float | None, unit: str, **kw: object) -> None:
        if value is None:
            rows.append(f"{figure}: not measured (see the notes)")
        else:
            rows.append(Row(figure, value, unit, **kw))  # type: ignore[arg-type]

    ratio = r.rate_last / r.rate_empty if r.rate_last and r.rate_empty else None
    add("submissions/s, first 10 % of this fill", r.rate_first, "/s", baseline=r.rate_empty,
        baseline_name="into the empty cell")  # fmt: skip
    add("submissions/s, last 10 % of this fill", r.rate_last, "/s", baseline=r.rate_empty,
        baseline_name="into the empty cell", target=f"≥ {RATE_RATIO}× empty",
        met=None if ratio is None else ratio >= RATE_RATIO)  # fmt: skip
    cpu_ratio = r.cpu_last_s / r.cpu_empty_s if r.cpu_last_s and r.cpu_empty_s else None
    add("daemon CPU per submission, first 10 % of this fill", _us(r.cpu_first_s), "µs",
        baseline=_us(r.cpu_empty_s), baseline_name="into the empty cell")  # fmt: skip
    add("daemon CPU per submission, last 10 % of this fill", _us(r.cpu_last_s), "µs",
        baseline=_us(r.cpu_empty_s), baseline_name="into the empty cell",
        target=f"≤ {1 / RATE_RATIO:g}× empty (the rate target in CPU)",
        met=None if cpu_ratio is None else cpu_ratio <= 1 / RATE_RATIO)  # fmt: skip
    add("daemon CPU while idle (% of one CPU)", r.idle_cpu_pct, "%",
        target=f"≤ {IDLE_CPU_PCT:g} %", met=_at_most(r.idle_cpu_pct, IDLE_CPU_PCT))  # fmt: skip
    waits = [w for w in r.dispatch_after_delete_s if w is not None]
    add(f"qdel -f → next job sent, daemon, worst of {len(r.dispatch_after_delete_s)} "
        "(incl. ≤ 1 s wait for the pass)", _ms(max(waits)) if waits else None, "ms")  # fmt: skip
    add("core.tick after one job finishes (in-process)", _ms(r.tick_after_finish_s), "ms",
        target=f"≤ {PASS_MS:g} ms", met=_at_most(_ms(r.tick_after_finish_s), PASS_MS))  # fmt: skip
    add("core.tick, idle pass (in-process)", _ms(r.tick_idle_s), "ms")
    add(f"qsub round trip p50 of {len(r.qsub_s)}", _ms(r.qsub_p50_s), "ms")
    add(f"qsub round trip p99 of {len(r.qsub_s)}", _ms(r.qsub_p99_s), "ms",
        target=f"≤ {QSUB_P99_MS:g} ms", met=_at_most(_ms(r.qsub_p99_s), QSUB_P99_MS))  # fmt: skip
    qstat_met = _at_most(_ms(r.qstat_s), QSTAT_MS) if r.pending_jobs <= QSTAT_AT else None
    add(f"qstat -u '*' ({r.qstat_bytes / MIB:,.1f} MiB)", _ms(r.qstat_s), "ms",
        target=f"≤ {QSTAT_MS:,.0f} ms at 100k" if qstat_met is not None else "", met=qstat_met)  # fmt: skip
    add("qmaster stop", _ms(r.stop_s), "ms")
    add("qmaster start (recovery, until it answers)", _ms(r.start_s), "ms",
        target=f"≤ {RECOVERY_MS:,.0f} ms", met=_at_most(_ms(r.start_s), RECOVERY_MS))  # fmt: skip
    add("recovery as the daemon logs it", _ms(r.recovery_logged_s), "ms")
    rss = r.rss_bytes / MIB if r.rss_bytes else None
    add("daemon RSS", rss, "MiB", baseline=r.rss_empty_bytes / MIB, baseline_name="empty cell",
        target=f"≤ {RSS_MIB:,.0f} MiB", met=_at_most(rss, RSS_MIB))  # fmt: skip
    after = r.rss_after_restart_bytes / MIB if r.rss_after_restart_bytes else None
    add("daemon RSS after the restart", after, "MiB", baseline=rss, baseline_name="before",
        target=f"≤ {RESTART_GROWTH}× before",
        met=None if after is None or rss is None else after <= rss * RESTART_GROWTH)  # fmt: skip
    per_job = (r.rss_bytes - r.rss_empty_bytes) / r.pending_jobs if r.pending_jobs else None
    add("daemon RSS per pending job", per_job if r.rss_bytes else None, "B")
    return rows


def print_size(r: SizeResult) -> None:
    """Print one size's table and its notes."""
    rows = _rows(r)
    budget = " — OVER BUDGET" if r.over_budget else ""
    budget += " — THE DAEMON STOPPED ANSWERING" if r.stalled else ""
    title = (
        f"scale: {r.pending_jobs:,} pending jobs ({r.pending_tasks:,} tasks) of {r.size:,}, "
        f"filled in {r.fill_seconds:,.0f} s{budget}"
    )
    print_table(title, [row for row in rows if isinstance(row, Row)])
    for row in rows:
        if isinstance(row, str):
            print(f"  {row}")
    if r.refused:
        print(f"  {r.refused:,} submissions refused")
    if r.core_pending_jobs and r.core_pending_jobs != r.pending_jobs:
        print(f"  core.tick measured on {r.core_pending_jobs:,} pending jobs")
    for note in r.notes:
        print(f"  {note}")
