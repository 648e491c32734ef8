"""A sans-I/O codec of the JSV protocol 1.0, for both ends of the pipe.

Theory of operation
-------------------
Nothing here reads a pipe, starts a process or looks at a clock. Bytes go in
with ``receive_data`` (``b""`` means end of file), events come out of
``next_event`` (``NEED_DATA`` when a whole line has not arrived yet), and the
bytes to write come back from the calls that change state. The asyncio worker
of the qmaster and the synchronous client runner of ``qsub`` both drive
:class:`SubmitterConnection`; a Python JSV drives :class:`ScriptConnection`.

The submitter side (client or qmaster) runs one verification at a time::

    IDLE/DONE --start()--> WAIT_STARTED --STARTED--> WAIT_RESULT --RESULT--> DONE
                   SEND ENV, LOG ^                PARAM, ENV, LOG ^

On ``STARTED`` it answers with the ``PARAM`` lines of the job (pseudo
parameters first, ``VERSION`` first of all), ``ENV ADD`` lines if the JSV sent
``SEND ENV``, and ``BEGIN``. ``RESULT`` or ``ERROR`` finishes the job with a
:class:`Verdict`. Anything else, an over-long line or too much output for one
job raises :class:`~qmaster.jsv.errors.JsvProtocolError`; the connection is
then dead and the JSV must be restarted.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from qmaster.gdi.values import ValueRefused
from qmaster.jsv.errors import (
    MSG_REJECTED,
    MSG_TMPREJECT,
    JsvClosed,
    JsvLimitError,
    JsvProtocolError,
    JsvValueError,
    msg_unknown_command,
)
from qmaster.jsv.lines import NEED_DATA, Limits, LineBuffer, _NeedData
from qmaster.jsv.params import (
    apply_params,
    check_read_only,
    escape_env,
    spec_params,
    unescape_env,
)

VERSION: Final = "1.0"
LOG_LEVELS: Final = frozenset({"INFO", "WARNING", "ERROR"})


class ResultState(enum.Enum):
    """What a JSV decided about a job (``RESULT STATE ...``)."""

    ACCEPT = "ACCEPT"
    CORRECT = "CORRECT"
    REJECT = "REJECT"
    REJECT_WAIT = "REJECT_WAIT"


@dataclass(frozen=True, slots=True)
class JsvContext:
    """Who submits, with which client, and where the JSV runs (the pseudo parameters)."""

    user: str
    group: str
    client: str = "qsub"
    context: str = "server"
    job_id: int | None = None


@dataclass(frozen=True, slots=True)
class LogLine:
    """A ``LOG INFO|WARNING|ERROR`` message from a JSV."""

    level: str
    message: str


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of one verification.

    ``spec`` is the job as it stands afterwards (corrected only on CORRECT),
    ``env`` its environment, ``message`` the text for the submitter, ``logs``
    the JSV's LOG lines, and ``restart`` why the JSV must be restarted (None
    when it behaved). ``invalid`` is set when the JSV set a value its qsub
    option refuses: ``message`` is then the text qsub gives for that value.
    """

    state: ResultState
    spec: dict[str, Any]
    env: dict[str, str] | None = None
    message: str = ""
    logs: tuple[LogLine, ...] = ()
    restart: str | None = None
    invalid: bool = False

    @property
    def accepted(self) -> bool:
        """True for ACCEPT and CORRECT."""
        return self.state in (ResultState.ACCEPT, ResultState.CORRECT)

    @classmethod
    def reject(
        cls, spec: Mapping[str, Any], message: str, *, restart: str | None = None
    ) -> Verdict:
        """A rejection that did not come from the JSV's own RESULT (timeouts, crashes)."""
        return cls(ResultState.REJECT, dict(spec), None, message, (), restart)


@dataclass(frozen=True, slots=True)
class Started:
    """The JSV sent STARTED; write ``reply`` (the job's PARAM/ENV lines and BEGIN)."""

    reply: bytes
    send_env: bool


@dataclass(frozen=True, slots=True)
class Logged:
    """The JSV sent a LOG line."""

    line: LogLine


@dataclass(frozen=True, slots=True)
class Finished:
    """The verification is over."""

    verdict: Verdict


SubmitterEvent = Started | Logged | Finished


class _S(enum.Enum):
    IDLE = "IDLE"
    WAIT_STARTED = "WAIT_STARTED"
    WAIT_RESULT = "WAIT_RESULT"
    DONE = "DONE"
    BROKEN = "BROKEN"


# (state, command) -> next state. A pair not listed is a protocol violation.
_SUBMITTER_TABLE: Final = {
    (_S.IDLE, "start"): _S.WAIT_STARTED,
    (_S.DONE, "start"): _S.WAIT_STARTED,
    (_S.WAIT_STARTED, "SEND"): _S.WAIT_STARTED,
    (_S.WAIT_STARTED, "LOG"): _S.WAIT_STARTED,
    (_S.WAIT_STARTED, "STARTED"): _S.WAIT_RESULT,
    (_S.WAIT_STARTED, "ERROR"): _S.DONE,
    (_S.WAIT_RESULT, "PARAM"): _S.WAIT_RESULT,
    (_S.WAIT_RESULT, "ENV"): _S.WAIT_RESULT,
    (_S.WAIT_RESULT, "LOG"): _S.WAIT_RESULT,
    (_S.WAIT_RESULT, "RESULT"): _S.DONE,
    (_S.WAIT_RESULT, "ERROR"): _S.DONE,
}
_KNOWN: Final = frozenset(cmd for _, cmd in _SUBMITTER_TABLE if cmd != "start")


@dataclass(slots=True)
class _Job:
    spec: dict[str, Any]
    ctx: JsvContext
    env: dict[str, str]
    sent: dict[str, str] = field(default_factory=dict)
    params: list[str] = field(default_factory=list)
    env_lines: list[str] = field(default_factory=list)
    send_env: bool = False
    changes: dict[str, str] = field(default_factory=dict)
    env_ops: list[tuple[str, str, str]] = field(default_factory=list)
    logs: list[LogLine] = field(default_factory=list)
    lines: int = 0
    nbytes: int = 0


class SubmitterConnection:
    """The client/qmaster end of a JSV pipe: one job at a time, many jobs per process."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self._lines = LineBuffer(self.limits.max_line)
        self._state = _S.IDLE
        self._job: _Job | None = None

    @property
    def state(self) -> str:
        """The protocol state's name (IDLE, WAIT_STARTED, WAIT_RESULT, DONE, BROKEN)."""
        return self._state.value

    @property
    def spec(self) -> dict[str, Any]:
        """The job being verified, as it was sent (empty before the first)."""
        return dict(self._job.spec) if self._job is not None else {}

    def start(
        self, spec: Mapping[str, Any], ctx: JsvContext, env: Mapping[str, str] | None = None
    ) -> bytes:
        """Begin verifying ``spec``; returns the ``START`` line to write.

        Raises JsvValueError (and leaves the JSV untouched) when a value cannot
        be sent, e.g. one holding a new line.
        """
        job_env = dict(env if env is not None else spec.get("v") or {})
        job = _Job(dict(spec), ctx, job_env)
        job.params = self._param_lines(job)
        job.env_lines = [_env_line(k, v) for k, v in job_env.items()]
        self._move("start")
        self._job = job
        return b"START\n"

    def receive_data(self, data: bytes) -> None:
        """Feed bytes read from the JSV's stdout (``b""`` at end of file)."""
        self._lines.feed(data)

    def next_event(self) -> SubmitterEvent | _NeedData:
        """The next event, NEED_DATA, or a raised JsvProtocolError."""
        try:
            while True:
                line = self._lines.next_line()
                if line is None:
                    if self._lines.eof and self._state in (_S.WAIT_STARTED, _S.WAIT_RESULT):
                        raise JsvClosed("JSV closed its output during a verification")
                    return NEED_DATA
                event = self._handle(line)
                if event is not None:
                    return event
        except JsvProtocolError:
            self._state = _S.BROKEN
            raise

    def _move(self, command: str) -> None:
        nxt = _SUBMITTER_TABLE.get((self._state, command))
        if nxt is None:
            if self._state is _S.BROKEN:
                raise JsvProtocolError("JSV connection is broken and must be restarted")
            raise JsvProtocolError(f'JSV sent "{command}" in state {self._state.value}')
        self._state = nxt

    def _count(self, job: _Job, line: str) -> None:
        job.lines += 1
        job.nbytes += len(line) + 1
        if job.lines > self.limits.max_lines:
            raise JsvLimitError(f"JSV sent more than {self.limits.max_lines} lines for one job")
        if job.nbytes > self.limits.max_bytes:
            raise JsvLimitError(f"JSV sent more than {self.limits.max_bytes} bytes for one job")

    def _handle(self, line: str) -> SubmitterEvent | None:
        command, _, rest = line.partition(" ")
        job = self._job
        if command not in _KNOWN or job is None:
            context = job.ctx.context if job else "server"
            raise JsvProtocolError(msg_unknown_command(command[:200], context))
        self._count(job, line)
        self._move(command)
        return _HANDLERS[command](self, job, rest)

    def _on_send(self, job: _Job, rest: str) -> None:
        if rest != "ENV":
            raise JsvProtocolError(f'got "{rest}" as object for SEND command')
        job.send_env = True

    def _on_log(self, job: _Job, rest: str) -> Logged:
        level, _, message = rest.partition(" ")
        if level not in LOG_LEVELS:
            raise JsvProtocolError(f'received "{message}" from JSV with invalid type "{level}"')
        logged = LogLine(level, message)
        job.logs.append(logged)
        return Logged(logged)

    def _on_started(self, job: _Job, rest: str) -> Started:
        out = job.params + job.env_lines if job.send_env else job.params
        return Started(("\n".join([*out, "BEGIN"]) + "\n").encode(), job.send_env)

    @staticmethod
    def _param_lines(job: _Job) -> list[str]:
        """The PARAM lines of a job; raises JsvValueError for a value that cannot be sent."""
        ctx = job.ctx
        pseudo = [("VERSION", VERSION), ("CONTEXT", ctx.context), ("CLIENT", ctx.client)]
        pseudo += [("USER", ctx.user), ("GROUP", ctx.group)]
        if ctx.context == "server" and ctx.job_id is not None:
            pseudo.append(("JOB_ID", str(ctx.job_id)))
        job.sent = dict(pseudo)
        return [f"PARAM {k} {v}" for k, v in [*pseudo, *spec_params(job.spec)]]

    def _on_param(self, job: _Job, rest: str) -> None:
        name, _, value = rest.partition(" ")
        if not name:
            raise JsvProtocolError('JSV sent "PARAM" without a parameter name')
        check_read_only(name, value, job.sent)
        job.changes[name] = value

    def _on_env(self, job: _Job, rest: str) -> None:
        modifier, _, tail = rest.partition(" ")
        name, _, value = tail.partition(" ")
        if modifier not in ("ADD", "MOD", "DEL") or not name:
            raise JsvProtocolError(f'JSV sent an invalid ENV command "ENV {rest[:200]}"')
        job.env_ops.append((modifier, name, value))

    def _on_error(self, job: _Job, rest: str) -> Finished:
        verdict = Verdict(
            ResultState.REJECT,
            job.spec,
            None,
            rest or MSG_REJECTED,
            tuple(job.logs),
            restart=f"JSV sent ERROR: {rest}",
        )
        return Finished(verdict)

    def _on_result(self, job: _Job, rest: str) -> Finished:
        kind, _, tail = rest.partition(" ")
        state_text, _, message = tail.partition(" ")
        if kind != "STATE" or state_text not in ResultState.__members__:
            raise JsvProtocolError(f'JSV sent unknown result "{rest[:200]}"')
        return Finished(_verdict(job, ResultState[state_text], message))


def _env_line(name: str, value: str) -> str:
    if "\n" in name or "\r" in name:
        raise JsvValueError(
            f'name of environment variable "{name!r}" contains a new line character'
        )
    text = escape_env(str(value))
    return f"ENV ADD {name} {text}" if text else f"ENV ADD {name}"


def _verdict(job: _Job, state: ResultState, message: str) -> Verdict:
    logs = tuple(job.logs)
    if state is ResultState.REJECT:
        return Verdict(state, job.spec, None, message or MSG_REJECTED, logs)
    if state is ResultState.REJECT_WAIT:
        return Verdict(state, job.spec, None, message or MSG_TMPREJECT, logs)
    if state is ResultState.ACCEPT:
        return Verdict(state, job.spec, job.env, message, logs)
    try:
        spec = apply_params(job.spec, job.changes)
    except JsvValueError as exc:
        return Verdict(ResultState.REJECT, job.spec, None, str(exc), logs)
    except ValueRefused as exc:
        return Verdict(ResultState.REJECT, job.spec, None, exc.message, logs, invalid=True)
    env = _apply_env(job.env, job.env_ops)
    if env != job.env:
        spec["v"] = env
    return Verdict(state, spec, env, message, logs)


def _apply_env(env: Mapping[str, str], ops: list[tuple[str, str, str]]) -> dict[str, str]:
    out = dict(env)
    for modifier, name, value in ops:
        if modifier == "DEL":
            out.pop(name, None)
        else:
            out[name] = unescape_env(value)
    return out


_HANDLERS: Final[dict[str, Callable[[SubmitterConnection, _Job, str], SubmitterEvent | None]]] = {
    "SEND": SubmitterConnection._on_send,
    "LOG": SubmitterConnection._on_log,
    "STARTED": SubmitterConnection._on_started,
    "PARAM": SubmitterConnection._on_param,
    "ENV": SubmitterConnection._on_env,
    "ERROR": SubmitterConnection._on_error,
    "RESULT": SubmitterConnection._on_result,
}


# the line framing lives in qmaster.jsv.lines; these names stay importable from here
__all__ = [
    "LOG_LEVELS",
    "NEED_DATA",
    "VERSION",
    "Finished",
    "JsvContext",
    "Limits",
    "LineBuffer",
    "LogLine",
    "Logged",
    "ResultState",
    "Started",
    "SubmitterConnection",
    "SubmitterEvent",
    "Verdict",
    "_NeedData",
]
