"""From a trace job to the job specification the core is handed, as qsub would build it.

The cell's ``sge_request`` file (its default submit options) comes first, read
with qsub's own grammar; the trace job's values override it as a command line
would: the runtime as the first job argument (Grid Engine's job-simulation
convention), ``h_rt`` and the per-slot memory as ``-l`` requests, the queue as
``-q``, and more than one slot as ``-pe PE n``. An accounting trace's
``category`` (the qsub options Grid Engine recorded) is read with the same
grammar, so its requests are replayed as they were made.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clients.submit.grammar import ParseContext, SubmitState, apply_tokens
from clients.submit.words import request_tokens
from qmaster.gdi.values import ValueRefused
from qmaster.sim.jobs import TraceJob
from qmaster.sim.swf import whole

COMMAND = "sim_job"
"""The job's command name: minige runs no process for it, it only needs a name."""
DEFAULT_PE = "mpi"


class MappingError(ValueError):
    """The cell's default options or a trace job's category are not valid qsub options."""


@dataclass(frozen=True, slots=True)
class Defaults:
    """The submit options every job starts from, and the PE that multi-slot jobs use."""

    spec: dict[str, Any]
    pe: str = DEFAULT_PE


def _context(where: Path) -> ParseContext:
    return ParseContext(env={}, cwd=str(where), year=2026)


def parse_options(text: str, where: Path, state: SubmitState | None = None) -> SubmitState:
    """qsub options in sge_request(5) form applied to ``state`` (a new one if not given)."""
    state = state or SubmitState()
    try:
        apply_tokens(request_tokens(text), state, _context(where), allow_script=False)
    except ValueRefused as exc:
        raise MappingError(exc.message) from None
    return state


def cell_defaults(cell: Path, pe: str = DEFAULT_PE) -> Defaults:
    """The cell's ``sge_request`` (when it has one) as the options every job starts from."""
    path = cell / "sge_request"
    if not path.exists():
        return Defaults({}, pe)
    try:
        state = parse_options(path.read_text(), cell)
    except MappingError as exc:
        raise MappingError(f"{path}: {exc}") from None
    state.spec.pop("jsv", None)
    return Defaults(state.spec, pe)


def job_spec(job: TraceJob, defaults: Defaults) -> dict[str, Any]:
    """The JobSpec dict (JSV parameter names) of one trace job."""
    spec = _copy(defaults.spec)
    if job.category:
        spec = parse_options(job.category, Path("."), SubmitState(spec=spec)).spec
    spec["CMDNAME"] = COMMAND
    spec["CMDARGS"] = [_seconds(job.runtime)]
    spec["b"] = True
    spec["N"] = job.name
    if job.requests:
        spec["l_hard"] = {**(spec.get("l_hard") or {}), **job.requests}
    if job.queue:
        spec["q_hard"] = [job.queue]
    if job.slots > 1 or job.pe:
        spec["pe_name"] = job.pe or spec.get("pe_name") or defaults.pe
        spec["pe_min"] = spec["pe_max"] = job.slots
    return spec


def _seconds(value: float) -> str:
    return whole(value) if value == int(value) else repr(value)


def _copy(spec: dict[str, Any]) -> dict[str, Any]:
    """A copy deep enough that one job's requests never leak into the next."""
    return {
        k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
        for k, v in spec.items()
    }
