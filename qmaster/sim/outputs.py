"""What a replay leaves in its output folder besides the event files.

- ``trace.swf``: the trace back in SWF 2.2, each job line with the simulated
  submit time, wait time, run time and allocated processors, and its status
  (1 ended normally, 0 failed, 5 never ran: refused or still pending at the end);
- ``summary.txt`` and ``summary.json`` (see :mod:`qmaster.sim.summary`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from qmaster.sim import summary as summ
from qmaster.sim import swf
from qmaster.sim.results import JobResult, Results
from qmaster.sim.trace import Trace, job_lines

COMPLETED, FAILED, CANCELLED = "1", "0", "5"
SUBMIT, STATUS = 1, 10


def swf_fields(result: JobResult, line: str | None = None) -> list[str]:
    """The job's SWF fields (of its ``line``, else of the one its trace job keeps) with what
    the simulation decided."""
    fields = (result.job.swf if line is None else line).split()
    if result.submitted is not None:
        fields[SUBMIT] = swf.whole(result.submitted)
    if result.start is None or result.end is None:
        fields[swf.WAIT] = str(swf.UNKNOWN)
        fields[STATUS] = CANCELLED
        return fields
    fields[swf.WAIT] = swf.whole(result.wait or 0.0)
    fields[swf.RUN] = swf.whole(result.end - result.start)
    fields[swf.ALLOCATED] = str(result.slots)
    fields[STATUS] = FAILED if result.failed else COMPLETED
    return fields


def write_swf(path: Path, trace: Trace, results: Results) -> None:
    """The trace back as SWF with the simulated waits (written as made: a million jobs'
    lines are never all in memory at once)."""
    header = [*trace.header] if trace.header else ["; Version: 2.2"]
    header.append(f"; Note: replayed by qsim from a {trace.kind} trace; wait times simulated")
    with path.open("w") as stream:
        stream.writelines(f"{line}\n" for line in header)
        for result, line in zip(results, job_lines(trace), strict=True):
            stream.write(f"{swf.format_record(swf_fields(result, line))}\n")


def write_summary(out: Path, summary: dict[str, Any]) -> None:
    """summary.txt and summary.json."""
    (out / "summary.txt").write_text(summ.to_text(summary))
    (out / "summary.json").write_text(summ.to_json(summary))
