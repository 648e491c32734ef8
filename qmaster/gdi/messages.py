"""pydantic models of the wire messages: the daemon validates every frame with them.

The envelope carries the protocol version and the op; each op's ``args`` has a
model of its own. :data:`ARGS` maps op names to those models. Clients do not
import this module (see ``qmaster.gdi.client``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StringConstraints,
    field_validator,
    model_validator,
)

from qmaster.gdi.binding import BINDING_EXP_KEY
from qmaster.gdi.ops import CONF_KINDS

Name = Annotated[str, StringConstraints(max_length=4096)]
Verify = Literal["n", "e", "w", "v", "p"]
ConfKind = Literal[
    "complex", "cqueue", "exechost", "pe", "userset", "global", "sched", "manager", "hostgroup",
    "project", "ckpt", "user", "operator", "adminhost", "submithost", "calendar", "rqs"
]  # fmt: skip
assert set(ConfKind.__args__) == set(CONF_KINDS)  # type: ignore[attr-defined]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Binding(BaseModel):
    """Lets the explicit binding pairs through as extra keys (checked by JobSpec)."""

    model_config = ConfigDict(extra="allow", frozen=True)


U_LONG32_MAX = 2**32 - 1
ULong32 = Annotated[int, Field(ge=0, le=U_LONG32_MAX)]
"""Grid Engine's u_long32: counts, ids and seconds cannot go beyond it (sge_types(1))."""
PositiveULong32 = Annotated[int, Field(ge=1, le=U_LONG32_MAX)]
EpochSeconds = Annotated[float, Field(ge=0, le=U_LONG32_MAX, allow_inf_nan=False)]
"""A time or a duration in seconds: finite, and within Grid Engine's 32-bit times."""


class Envelope(BaseModel):
    """A request frame: version, op, args (validated again per op)."""

    model_config = ConfigDict(extra="forbid")
    v: StrictInt  # true is not 1
    op: str
    args: dict[str, Any] = Field(default_factory=dict)
    user: str | None = None

    @field_validator("v")
    @classmethod
    def _version_one(cls, v: int) -> int:
        if v != 1:
            raise ValueError("Input should be 1")
        return v


_FIELD_NAMES: dict[type[BaseModel], frozenset[str]] = {}
"""The field names of each job model, read once (``model_fields`` is built per access)."""


class JobSpec(_Binding):
    """A job's specification, keyed by the JSV parameter names of qsub(1)."""

    CMDNAME: Name
    CMDARGS: list[str] = Field(default_factory=list)
    script: str | None = None
    b: bool | None = None
    N: Name | None = None
    o: list[str] | None = None
    e: list[str] | None = None
    j: bool | None = None
    cwd: str | None = None
    wd: str | None = None
    v: dict[str, str] | None = None
    V: bool | None = None
    ac: dict[str, str] | None = None
    A: Name | None = None
    P: Name | None = None
    p: Annotated[int, Field(ge=-1023, le=1024)] | None = None
    h: bool | None = None
    hold_jid: list[str] | None = None
    l_hard: dict[str, str] | None = None
    l_soft: dict[str, str] | None = None
    q_hard: list[str] | None = None
    q_soft: list[str] | None = None
    pe_name: Name | None = None
    pe_min: PositiveULong32 | None = None
    pe_max: PositiveULong32 | None = None
    masterq: list[str] | None = None
    now: bool | None = None
    r: bool | None = None
    m: str | None = None
    M: list[str] | None = None
    t_min: Annotated[int, Field(ge=1)] | None = None  # over max_aj_tasks: the core's words
    t_max: Annotated[int, Field(ge=1)] | None = None  # over max_aj_tasks: the core's words
    t_step: Annotated[int, Field(ge=1)] | None = None  # over max_aj_tasks: the core's words
    R: bool | None = None
    S: list[str] | None = None
    a: str | None = None
    ar: PositiveULong32 | None = None
    jsv: list[str] | None = None
    notify: bool | None = None
    shell: bool | None = None
    # jsv(1) parameters of the qsub options -ckpt, -c, -dl, -i, -js, -hold_jid_ad,
    # -ot, -tc and -binding (stored, shown and passed to JSVs); dl is stored as
    # seconds since the epoch (the qmaster converts the date_time a client sends)
    ckpt: Name | None = None
    c_interval: ULong32 | None = None
    c_occasion: Name | None = None
    dl: ULong32 | Name | None = None
    i: list[str] | None = None
    js: ULong32 | None = None
    ot: ULong32 | None = None
    tc: ULong32 | None = None
    hold_jid_ad: list[str] | None = None
    binding_type: Name | None = None
    binding_strategy: Name | None = None
    binding_amount: ULong32 | None = None
    binding_step: ULong32 | None = None
    binding_socket: ULong32 | None = None
    binding_core: ULong32 | None = None
    binding_exp_n: ULong32 | None = None

    @model_validator(mode="before")
    @classmethod
    def _explicit_binding_pairs(cls, data: Any) -> Any:
        """``binding_exp_socket<i>``/``binding_exp_core<i>`` are the only open-ended keys."""
        if isinstance(data, dict):
            names = _FIELD_NAMES.get(cls) or _FIELD_NAMES.setdefault(
                cls, frozenset(cls.model_fields)
            )
            for key, value in data.items():
                if key in names:
                    continue
                if not BINDING_EXP_KEY.fullmatch(str(key)) or type(value) is not int:
                    raise ValueError(f"Extra inputs are not permitted: {key}")
        return data


class JobChanges(JobSpec):
    """qalter's partial specification: every key optional.

    ``context_ops`` are qalter's ``-ac``/``-dc``/``-sc`` in order, ``[op, name,
    value]`` with op ``+`` (add), ``-`` (delete) or ``=`` (clear), applied by the
    qmaster to each job's own context.
    """

    CMDNAME: Name | None = None  # type: ignore[assignment]
    context_ops: list[Annotated[list[str], Field(min_length=3, max_length=3)]] | None = None


class NoArgs(_Strict):
    """An op without arguments."""


class SubmitArgs(_Strict):
    job: JobSpec
    verify: Verify = "n"


class JobListArgs(_Strict):
    users: list[str] | None = None
    states: str | None = None
    full: bool = False
    # qstat's further options; each adds only what it asks for (qmaster/core/qstat_*.py)
    columns: list[Literal["ext", "pri", "urg"]] = Field(default_factory=list)
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
    # the reply's job rows as lists (qmaster/core/qstat_rows.py); with ``chunk``, streamed
    # in frames of that many rows, running rows first (``running_first``)
    compact: bool = False
    chunk: int | None = Field(default=None, ge=1)
    running_first: bool = False


class JobDetailArgs(_Strict):
    job_ids: list[str] | None = None
    story: bool = False


class DeleteArgs(_Strict):
    job_ids: list[str] = Field(default_factory=list)
    users: list[str] | None = None
    force: bool = False


class AlterArgs(_Strict):
    job_ids: list[str]
    job: JobChanges
    verify: Verify = "n"
    hold: Annotated[str, StringConstraints(pattern="^[uosnUOS]*$")] | None = (
        None  # qalter -h ("": none)
    )
    users: list[str] | None = None  # qalter -u: every job of these users


class ResubmitArgs(_Strict):
    job_id: str  # qresub's job word: 7 or 7.1-3
    hold: Annotated[str, StringConstraints(pattern="^[uosnUOS]*$")] | None = None  # -h


class ConfShowArgs(_Strict):
    kind: ConfKind
    name: str | None = None
    template: bool = False
    usage: bool = False
    """qquota: with the resource quota sets, what running jobs use of each limit."""


class ConfModifyArgs(_Strict):
    kind: ConfKind
    text: str
    source: str = ""
    add: bool = False
    select: str = ""
    """qconf -Mrqs FILE NAME,..: the resource quota sets of the file to modify."""


class ConfMembersArgs(_Strict):
    kind: ConfKind
    name: str = ""
    members: list[str]


class ConfAttrArgs(_Strict):
    kind: ConfKind
    mode: Literal["set", "change", "append", "remove", "purge"]
    name: Name
    pairs: list[tuple[str, str]] | None = None
    text: str | None = None
    source: str = ""


class KillExecdArgs(_Strict):
    hosts: list[str]
    jobs: bool = False


class EventKillArgs(_Strict):
    ids: list[str]


class SubscribeArgs(_Strict):
    kinds: list[str] | None = None


class JsvVerdictArgs(_Strict):
    """The server JSV's later answer for a job waiting for verification (internal op)."""

    job_id: int
    state: Literal["ACCEPT", "CORRECT", "REJECT", "REJECT_WAIT"]
    job: JobSpec | None = None
    message: str = ""


class ArSpec(_Strict):
    """An advance reservation request: qrsub's switches (see ``qmaster.gdi.ops``)."""

    a: EpochSeconds | None = None
    e: EpochSeconds | None = None
    d: EpochSeconds | None = None
    N: Name | None = None
    A: Name | None = None
    l_hard: dict[str, str] | None = None
    u: list[str] | None = None
    q_hard: list[str] | None = None
    pe_name: Name | None = None
    pe_min: PositiveULong32 | None = None
    pe_max: PositiveULong32 | None = None
    masterq: list[str] | None = None
    ckpt: Name | None = None
    now: bool | None = None
    m: str | None = None
    M: list[str] | None = None
    he: bool | None = None


class ArSubmitArgs(_Strict):
    ar: ArSpec
    verify: Literal["e", "v"] = "e"


class ArListArgs(_Strict):
    users: list[str] | None = None
    ar_ids: list[str] | None = None


class ArDeleteArgs(_Strict):
    ar_ids: list[str] = Field(default_factory=list)
    users: list[str] | None = None
    force: bool = False


class HostListArgs(_Strict):
    hosts: list[str] | None = None
    resources: dict[str, str] | None = None
    users: list[str] | None = None
    queues: bool = False
    jobs: bool = False


class QueueSelectArgs(_Strict):
    queues: list[str] | None = None
    resources: dict[str, str] | None = None
    pes: list[str] | None = None
    users: list[str] | None = None
    states: str | None = None


QmodAction = Literal[
    "c", "cj", "cq", "d", "e", "r", "rj", "rq", "s", "sj", "sq", "us", "usj", "usq"
]  # fmt: skip


class QmodArgs(_Strict):
    action: QmodAction
    targets: list[str]
    force: bool = False


ARGS: dict[str, type[BaseModel]] = {
    "ping": NoArgs,
    "submit": SubmitArgs,
    "job_list": JobListArgs,
    "job_detail": JobDetailArgs,
    "delete": DeleteArgs,
    "alter": AlterArgs,
    "resubmit": ResubmitArgs,
    "conf_show": ConfShowArgs,
    "conf_modify": ConfModifyArgs,
    "conf_add": ConfMembersArgs,
    "conf_delete": ConfMembersArgs,
    "conf_attr": ConfAttrArgs,
    "shutdown": NoArgs,
    "sched_monitor": NoArgs,
    "subscribe": SubscribeArgs,
    "event_clients": NoArgs,
    "event_kill": EventKillArgs,
    "kill_execd": KillExecdArgs,
    "ar_submit": ArSubmitArgs,
    "ar_list": ArListArgs,
    "ar_delete": ArDeleteArgs,
    "host_list": HostListArgs,
    "queue_select": QueueSelectArgs,
    "qmod": QmodArgs,
}
