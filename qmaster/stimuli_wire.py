"""The daemon's boundary: the wire's validated messages become the core's stimuli.

The GDI validates every request with its pydantic model
(:mod:`qmaster.gdi.messages`); :func:`stimulus_of` turns it into the typed,
frozen stimulus of :mod:`qmaster.core.stimuli`, so the core never sees
pydantic. :func:`verdict_of` does the same for the server JSV's answer: a
corrected job is validated here as any job from the wire is. The daemon and
the test helpers use this one module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from pydantic import BaseModel, ValidationError

from qmaster.core import arspec, jobspec
from qmaster.core import stimuli as S
from qmaster.gdi.messages import (
    ARGS,
    AlterArgs,
    ArSubmitArgs,
    JobSpec,
    SubmitArgs,
)
from qmaster.jsv.protocol import ResultState, Verdict
from qmaster.model import Identity

KINDS: dict[str, type[S.Asked]] = {
    "ping": S.Ping,
    "submit": S.Submit,
    "job_list": S.JobList,
    "job_detail": S.JobDetail,
    "delete": S.Delete,
    "alter": S.Alter,
    "resubmit": S.Resubmit,
    "conf_show": S.ConfShow,
    "conf_modify": S.ConfChange,
    "conf_add": S.ConfChange,
    "conf_delete": S.ConfChange,
    "conf_attr": S.ConfChange,
    "shutdown": S.Shutdown,
    "sched_monitor": S.SchedMonitor,
    "kill_execd": S.KillExecd,
    "ar_submit": S.ArSubmit,
    "ar_list": S.ArList,
    "ar_delete": S.ArDelete,
    "host_list": S.HostList,
    "queue_select": S.QueueSelect,
    "qmod": S.Qmod,
}
"""The stimulus of each op the core handles (the others are the daemon's own)."""


STATES: dict[ResultState, S.VerdictState] = {
    ResultState.ACCEPT: "ACCEPT",
    ResultState.CORRECT: "CORRECT",
    ResultState.REJECT: "REJECT",
    ResultState.REJECT_WAIT: "REJECT_WAIT",
}


class MalformedRequest(ValueError):
    """The arguments do not fit the op's message: the text says where and why."""


_NAMES: dict[type[BaseModel], tuple[str, ...]] = {}
"""Each message's field names, read once (``model_fields`` is built per access)."""


def stimulus_of(who: Identity, op: str, args: BaseModel) -> S.Asked:
    """The stimulus of one validated request of an op in :data:`KINDS`."""
    names = _NAMES.get(type(args)) or _NAMES.setdefault(type(args), tuple(type(args).model_fields))
    fields: dict[str, Any] = {name: getattr(args, name) for name in names}
    if isinstance(args, SubmitArgs):
        fields["job"] = jobspec.from_wire(args.job)
    elif isinstance(args, AlterArgs):
        fields["job"] = args.job.model_dump(exclude_none=True, exclude_unset=True)
    elif isinstance(args, ArSubmitArgs):
        fields["ar"] = arspec.from_wire(args.ar)
    kind = KINDS[op]
    if kind is S.ConfChange:
        fields["op"] = op
    return kind(who, **fields)


def parse(who: Identity, op: str, args: Mapping[str, Any]) -> S.Asked:
    """Validate raw arguments as the daemon does and convert them (tests, benchmarks)."""
    try:
        model = ARGS[op].model_validate(args)
    except ValidationError as exc:
        raise MalformedRequest(malformed(exc)) from None
    return stimulus_of(who, op, model)


def malformed(exc: ValidationError) -> str:
    """The daemon's text for arguments its models refuse."""
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    return f"malformed request: {where}: {err['msg']}"


VERIFY_MODES = ("n", "e", "w", "v", "p")


def verdict_of(who: Identity, token: int, verdict: Verdict) -> S.JsvVerdict:
    """The server JSV's answer as a stimulus; a CORRECT's job is validated as any job.

    A job the JSV corrected into one the wire would refuse is a rejection with the
    reason; the JSV's ``w`` (the ``-w`` mode) stays in the job for the core.
    """
    state = STATES[verdict.state]
    if verdict.state is not ResultState.CORRECT:
        return S.JsvVerdict(who, token, state, message=verdict.message)
    spec = {k: v for k, v in verdict.spec.items() if k in JobSpec.model_fields}
    if verdict.env is not None:
        spec["v"] = dict(verdict.env)
    invalid = "JSV corrected the job into an invalid one"
    try:
        checked = jobspec.from_wire(JobSpec.model_validate(spec))
    except ValidationError as exc:
        text = malformed(exc).replace("malformed request", invalid)
        return S.JsvVerdict(who, token, "REJECT", message=text)
    mode = str(verdict.spec.get("w", "n"))
    if mode not in VERIFY_MODES:
        text = f"{invalid}: w: {mode!r} is no -w mode"
        return S.JsvVerdict(who, token, "REJECT", message=text)
    return S.JsvVerdict(who, token, "CORRECT", checked, cast(S.Verify, mode), verdict.message)
