"""What can happen to a cell: the core's typed inputs, one frozen class per kind.

A driver (the daemon, the simulator, a test) turns what it sees into one of
these and hands it to :meth:`Core.handle <qmaster.core.machine.Core.handle>`
with the current time. A client's request carries the caller's
:class:`~qmaster.model.Identity`, as the kernel told the daemon; the daemon
converts the wire's messages in :mod:`qmaster.stimuli_wire`. A new job's
specification is a :class:`~qmaster.core.jobspec.JobSpec` (an AR's an
:class:`~qmaster.core.arspec.ArSpec`), built there once; qalter's changes and a
JSV's corrected job stay dicts keyed by the JSV parameter names of qsub(1).
Queries (:class:`Query`) only read: they never make a scheduling pass
necessary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from qmaster.core.arspec import ArSpec
from qmaster.core.jobspec import JobSpec
from qmaster.model import Identity

Verify = Literal["n", "e", "w", "v", "p"]
ConfOp = Literal["conf_modify", "conf_add", "conf_delete", "conf_attr"]
VerdictState = Literal["ACCEPT", "CORRECT", "REJECT", "REJECT_WAIT"]


@dataclass(frozen=True, slots=True)
class Asked:
    """A stimulus someone asked for: it carries the caller."""

    identity: Identity


@dataclass(frozen=True, slots=True)
class Query(Asked):
    """A stimulus that only reads."""


# -- changes -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Submit(Asked):
    """qsub: a new job and its ``-w`` mode."""

    job: JobSpec
    verify: Verify = "n"
    hold: str | None = None
    """qresub's ``-h`` letters for the copy (qsub's own ``-h`` is the spec's ``h``)."""
    hold_tasks: range | None = None
    """The tasks ``hold`` holds (qresub ``7.1-3 -h o``); None: every task."""


@dataclass(frozen=True, slots=True)
class Resubmit(Asked):
    """qresub: a copy of the job ``job_id`` (``7`` or ``7.1-3``) submitted as a new job,
    with the holds ``hold`` gives (sge_gdi_copy_job())."""

    job_id: str
    hold: str | None = None


@dataclass(frozen=True, slots=True)
class Alter(Asked):
    """qalter: the keys ``job`` sets are changed in the named jobs, or ``users``' jobs."""

    job_ids: list[str]
    job: dict[str, Any]
    verify: Verify = "n"
    hold: str | None = None
    users: list[str] | None = None


@dataclass(frozen=True, slots=True)
class Delete(Asked):
    """qdel."""

    job_ids: list[str] = field(default_factory=list)
    users: list[str] | None = None
    force: bool = False


@dataclass(frozen=True, slots=True)
class Qmod(Asked):
    """qmod: an action on queue instances or jobs."""

    action: str
    targets: list[str]
    force: bool = False


@dataclass(frozen=True, slots=True)
class ConfChange(Asked):
    """A qconf write: ``conf_modify`` (a whole object's text), ``conf_add`` and
    ``conf_delete`` (members of a list), ``conf_attr`` (-mattr and friends)."""

    op: ConfOp
    kind: str
    name: str | None = None
    text: str | None = None
    source: str = ""
    add: bool = False
    select: str = ""
    members: list[str] | None = None
    mode: str | None = None
    pairs: list[tuple[str, str]] | None = None

    def request(self) -> dict[str, Any]:
        """The arguments the configuration store takes for this op."""
        if self.op == "conf_modify":
            args = {"kind": self.kind, "text": self.text, "source": self.source, "add": self.add}
            return {**args, "select": self.select}
        if self.op in ("conf_add", "conf_delete"):
            return {"kind": self.kind, "name": self.name or "", "members": self.members or []}
        return {
            "kind": self.kind,
            "mode": self.mode,
            "name": self.name,
            "pairs": self.pairs,
            "text": self.text,
            "source": self.source,
        }


@dataclass(frozen=True, slots=True)
class ArSubmit(Asked):
    """qrsub: an advance reservation."""

    ar: ArSpec
    verify: Literal["e", "v"] = "e"


@dataclass(frozen=True, slots=True)
class ArDelete(Asked):
    """qrdel."""

    ar_ids: list[str] = field(default_factory=list)
    users: list[str] | None = None
    force: bool = False


@dataclass(frozen=True, slots=True)
class Shutdown(Asked):
    """qconf -km."""


@dataclass(frozen=True, slots=True)
class SchedMonitor(Asked):
    """qconf -tsm."""


@dataclass(frozen=True, slots=True)
class KillExecd(Asked):
    """qconf -ke[j]."""

    hosts: list[str]
    jobs: bool = False


@dataclass(frozen=True, slots=True)
class JsvVerdict(Asked):
    """The server JSV's answer to a :class:`~qmaster.core.effects.VerifyJob` of that ``token``:
    ``spec`` is the job a CORRECT leaves (the JSV's environment in it), built at the
    driver's boundary as any job from the wire is; ``verify`` its parameter ``w``."""

    token: int
    state: VerdictState
    spec: JobSpec | None = None
    verify: Verify | None = None
    message: str = ""


@dataclass(frozen=True, slots=True)
class TaskEnded(Asked):
    """A local execution host reports that a task's process ended (``execution = "local"``):
    its exit status (128 + signal when ``signalled``) and the child's resource usage
    (seconds, ``maxrss`` in kilobytes); ``error``: the task could not be started, why,
    and ``failed`` Grid Engine's code for it when its shepherd tried (26 output file, 27
    shell, 28 working directory)."""

    job_id: int
    task_id: int
    exit_status: int
    signalled: bool = False
    ru_utime: float = 0.0
    ru_stime: float = 0.0
    ru_maxrss: float = 0.0
    error: str = ""
    failed: int = 0


@dataclass(frozen=True, slots=True)
class TimeAdvanced:
    """Time passed: due timers fire and a scheduling pass runs when one is due."""


# -- queries -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class JobList(Query):
    """qstat's listings (see qmaster/core/qstat_*.py for each option)."""

    users: list[str] | None = None
    states: str | None = None
    full: bool = False
    columns: list[str] = field(default_factory=list)
    requirements: bool = False
    group: str = ""
    queue_resources: list[str] | None = None
    queues: list[str] | None = None
    resources: list[str] | None = None
    pes: list[str] | None = None
    queue_users: list[str] | None = None
    queue_states: str | None = None
    no_empty: bool = False
    explain: str | None = None
    compact: bool = False
    chunk: int | None = None
    running_first: bool = False


@dataclass(frozen=True, slots=True)
class JobDetail(Query):
    """qstat -j (``story``: with each job's story, ``-story``)."""

    job_ids: list[str] | None = None
    story: bool = False


@dataclass(frozen=True, slots=True)
class ConfShow(Query):
    """qconf -s*."""

    kind: str
    name: str | None = None
    template: bool = False
    usage: bool = False


@dataclass(frozen=True, slots=True)
class HostList(Query):
    """qhost."""

    hosts: list[str] | None = None
    resources: dict[str, str] | None = None
    users: list[str] | None = None
    queues: bool = False
    jobs: bool = False


@dataclass(frozen=True, slots=True)
class QueueSelect(Query):
    """qselect."""

    queues: list[str] | None = None
    resources: dict[str, str] | None = None
    pes: list[str] | None = None
    users: list[str] | None = None
    states: str | None = None


@dataclass(frozen=True, slots=True)
class ArList(Query):
    """qrstat."""

    users: list[str] | None = None
    ar_ids: list[str] | None = None


@dataclass(frozen=True, slots=True)
class Ping(Query):
    """Is the qmaster there?"""


Stimulus = (
    Submit
    | Resubmit
    | Alter
    | Delete
    | Qmod
    | ConfChange
    | ArSubmit
    | ArDelete
    | Shutdown
    | SchedMonitor
    | KillExecd
    | JsvVerdict
    | TaskEnded
    | TimeAdvanced
    | JobList
    | JobDetail
    | ConfShow
    | HostList
    | QueueSelect
    | ArList
    | Ping
)
"""Everything the core takes."""
