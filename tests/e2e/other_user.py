"""Run a client command as another user (``nobody``) against a cell.

As a real process when that user can execute this interpreter; otherwise (the
interpreter lives under a home directory only root can enter) in a forked
child that drops to the user's uid/gid and runs the command's ``main`` — the
daemon sees the same peer credentials either way.
"""

from __future__ import annotations

import grp
import io
import os
import pwd
import subprocess
import sys
import traceback
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

import clients.qalter
import clients.qconf
import clients.qdel
import clients.qrdel
import clients.qresub
import clients.qstat
import clients.qsub
from qmaster.testing import RunningCell

MAINS: dict[str, Callable[[Sequence[str]], int]] = {
    "qsub": clients.qsub.main,
    "qdel": clients.qdel.main,
    "qalter": clients.qalter.main,
    "qstat": clients.qstat.main,
    "qconf": clients.qconf.main,
    "qrdel": clients.qrdel.main,
    "qresub": clients.qresub.main,
}


def nobody_ids() -> tuple[int, int]:
    user = pwd.getpwnam("nobody")
    try:
        gid = grp.getgrnam("nogroup").gr_gid
    except KeyError:
        gid = user.pw_gid
    return user.pw_uid, gid


@cache
def interpreter_reachable(uid: int, gid: int) -> bool:
    """Whether ``uid`` can start this Python (it may sit under a 0700 home)."""
    try:
        result = subprocess.run(
            [sys.executable, "-c", "pass"],
            user=uid,
            group=gid,
            extra_groups=[],
            capture_output=True,
            check=False,
            timeout=30,
            cwd="/",
        )
    except OSError:
        return False
    return result.returncode == 0


def run_as(cell: RunningCell, uid: int, gid: int, *argv: str) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` (a client command) as ``uid``/``gid`` against ``cell``."""
    if interpreter_reachable(uid, gid):
        return cell.run(*argv, user=uid, group=gid, extra_groups=[], cwd=str(cell.cell.root))
    return _forked(cell, uid, gid, argv)


def _forked(
    cell: RunningCell, uid: int, gid: int, argv: Sequence[str]
) -> subprocess.CompletedProcess[str]:
    r_out, w_out = os.pipe()
    r_err, w_err = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(r_out)
        os.close(r_err)
        _child(cell, uid, gid, argv, w_out, w_err)
    os.close(w_out)
    os.close(w_err)
    with os.fdopen(r_out) as fo, os.fdopen(r_err) as fe:
        stdout, stderr = fo.read(), fe.read()
    _, status = os.waitpid(pid, 0)
    return subprocess.CompletedProcess(
        list(argv), os.waitstatus_to_exitcode(status), stdout, stderr
    )


def _child(
    cell: RunningCell, uid: int, gid: int, argv: Sequence[str], w_out: int, w_err: int
) -> None:  # pragma: no cover - runs in the forked child
    code = 99
    out = io.TextIOWrapper(io.FileIO(w_out, "w"), write_through=True)
    err = io.TextIOWrapper(io.FileIO(w_err, "w"), write_through=True)
    try:
        sys.stdout, sys.stderr = out, err
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
        os.environ.clear()
        os.environ.update(cell.env)
        os.chdir(Path(cell.cell.root))
        code = MAINS[argv[0]](list(argv[1:]))
    except BaseException:
        traceback.print_exc(file=err)
    finally:
        out.flush()
        err.flush()
        os._exit(code)
