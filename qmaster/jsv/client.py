"""Client JSVs for qsub/qalter: synchronous and standard library only.

``qsub`` pays for every import, so this module uses neither asyncio nor
pydantic: plain ``subprocess`` and ``selectors`` drive the same sans-I/O
codec the qmaster uses. Each script runs as its own process for one job, as
in Grid Engine: the scripts run in order, each sees the corrections of the one
before, and the first rejection ends the chain with that JSV's message. The
timeout is ``SGE_JSV_TIMEOUT`` (seconds, default 10); a script that times out
(or dies mid-job) is restarted once, then the job is rejected with
``got no response from JSV script "<path>"``.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from qmaster.jsv.errors import (
    JsvClosed,
    JsvError,
    JsvValueError,
    last_said,
    msg_no_response,
    msg_stderr,
)
from qmaster.jsv.protocol import (
    NEED_DATA,
    Finished,
    JsvContext,
    Limits,
    ResultState,
    Started,
    SubmitterConnection,
    Verdict,
)
from qmaster.jsv.url import check_script, parse_jsv_url

DEFAULT_TIMEOUT = 10.0


@dataclass(slots=True)
class ClientJsvOutcome:
    """What the client JSVs decided.

    ``spec`` is the job after all corrections; ``message`` the rejection text
    ("" when accepted); ``messages`` the LOG lines the submitting command prints
    on stdout (unless ``-terse``), in order. The message of an ACCEPT or CORRECT
    result is ignored, as in Grid Engine.
    """

    accepted: bool
    spec: dict[str, Any]
    message: str = ""
    messages: list[str] = field(default_factory=list)
    state: ResultState | None = None
    invalid: bool = False


def jsv_timeout(environ: Mapping[str, str] | None = None) -> float:
    """The client JSV timeout from ``SGE_JSV_TIMEOUT`` (must be > 0; default 10 s)."""
    text = (os.environ if environ is None else environ).get("SGE_JSV_TIMEOUT", "")
    try:
        value = float(text)
    except ValueError:
        return DEFAULT_TIMEOUT
    return value if value > 0 else DEFAULT_TIMEOUT


def run_client_jsvs(
    spec: Mapping[str, Any],
    scripts: list[str],
    *,
    user: str,
    group: str,
    cmdname: str,
    cmdargs: list[str],
    client: str = "qsub",
    timeout: float | None = None,
) -> ClientJsvOutcome:
    """Run each client JSV in order on the job; stop at the first rejection."""
    job = {**spec, "CMDNAME": cmdname, "CMDARGS": list(cmdargs)}
    ctx = JsvContext(user=user, group=group, client=client, context="client")
    limit = jsv_timeout() if timeout is None else timeout
    outcome = ClientJsvOutcome(True, job)
    for url in scripts:
        verdict = _verify_with(url, outcome.spec, ctx, limit)
        outcome.messages += [line.message for line in verdict.logs]
        outcome.state = verdict.state
        if not verdict.accepted:
            outcome.accepted, outcome.message = False, verdict.message
            outcome.invalid = verdict.invalid
            return outcome
        # as in Grid Engine, the message of an ACCEPT or CORRECT is not shown
        outcome.spec = verdict.spec
    return outcome


def _verify_with(url: str, spec: dict[str, Any], ctx: JsvContext, timeout: float) -> Verdict:
    try:
        path = parse_jsv_url(url, client=True).path
        check_script(path)
    except JsvError as exc:
        return Verdict.reject(spec, str(exc))
    for _attempt in (1, 2):
        try:
            return _run_once(path, spec, ctx, timeout)
        except (TimeoutError, JsvClosed):
            continue
        except JsvValueError as exc:
            return Verdict.reject(spec, str(exc))
        except JsvError as exc:
            return Verdict.reject(spec, str(exc))
    return Verdict.reject(spec, msg_no_response(path))


def _run_once(path: str, spec: dict[str, Any], ctx: JsvContext, timeout: float) -> Verdict:
    conn = SubmitterConnection(Limits())
    start = conn.start(spec, ctx)
    try:
        proc = subprocess.Popen(
            [path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        raise JsvError(f'JSV file "{path}" can\'t be started: {exc.strerror}') from None
    try:
        return _converse(proc, conn, start, time.monotonic() + timeout)
    finally:
        _stop(proc)


def _converse(
    proc: subprocess.Popen[bytes], conn: SubmitterConnection, start: bytes, deadline: float
) -> Verdict:
    assert proc.stdin is not None
    assert proc.stdout is not None
    assert proc.stderr is not None
    _send(proc, start)
    out_fd, err_fd = proc.stdout.fileno(), proc.stderr.fileno()
    os.set_blocking(err_fd, False)
    stderr = bytearray()
    with selectors.DefaultSelector() as sel:
        sel.register(out_fd, selectors.EVENT_READ)
        sel.register(err_fd, selectors.EVENT_READ)
        try:
            return _exchange(proc, conn, sel, (out_fd, err_fd), stderr, deadline)
        except JsvClosed:
            # a JSV that dies says why on stderr: show that rather than "no response"
            _read_stderr(sel, err_fd, stderr)
            if stderr:
                return Verdict.reject(conn.spec, _stderr_text(stderr))
            raise


def _stderr_text(stderr: bytearray) -> str:
    return msg_stderr(last_said(stderr.decode("utf-8", "backslashreplace")) or "")


def _exchange(
    proc: subprocess.Popen[bytes],
    conn: SubmitterConnection,
    sel: selectors.BaseSelector,
    fds: tuple[int, int],
    stderr: bytearray,
    deadline: float,
) -> Verdict:
    out_fd, err_fd = fds
    while True:
        event = conn.next_event()
        if event is NEED_DATA:
            ready = sel.select(max(0.0, deadline - time.monotonic()))
            if not ready:
                raise TimeoutError
            for key, _ in ready:
                if key.fd == err_fd:
                    _read_stderr(sel, err_fd, stderr)
                else:
                    conn.receive_data(os.read(out_fd, 65536))
        elif isinstance(event, Started):
            _send(proc, event.reply)
        elif isinstance(event, Finished):
            _read_stderr(sel, err_fd, stderr)
            if stderr:  # as in Grid Engine: any stderr output rejects the job
                return Verdict.reject(event.verdict.spec, _stderr_text(stderr))
            return event.verdict


def _read_stderr(sel: selectors.BaseSelector, fd: int, into: bytearray) -> None:
    """Take what the JSV wrote to stderr so far (kept up to 4 KiB)."""
    while True:
        try:
            data = os.read(fd, 4096)
        except (BlockingIOError, OSError):
            return
        if not data:
            with contextlib.suppress(KeyError, ValueError):
                sel.unregister(fd)
            return
        into += data[: max(0, 4096 - len(into))]


def _send(proc: subprocess.Popen[bytes], data: bytes) -> None:
    assert proc.stdin is not None
    try:
        proc.stdin.write(data)
        proc.stdin.flush()
    except (BrokenPipeError, ConnectionResetError):
        raise JsvClosed("JSV closed its input") from None


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """QUIT, a short wait, then kill the whole process group."""
    with contextlib.suppress(OSError, ValueError, JsvError):
        _send(proc, b"QUIT\n")
    with contextlib.suppress(OSError, ValueError):
        if proc.stdin is not None:
            proc.stdin.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=1.0)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    for pipe in (proc.stdout, proc.stderr):
        if pipe is not None:
            pipe.close()
