"""The real caller's world for qsub and qalter: environment, cwd, files, stdin, host."""

from __future__ import annotations

import os
import socket
import sys
import time

from clients.submit.build import SubmitInputs


def read_text(path: str) -> str | None:
    """A file's text, or ``None`` when it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as handle:
            return handle.read()
    except OSError:
        return None


def real_inputs() -> SubmitInputs:
    """The inputs of this process."""
    return SubmitInputs(
        env=dict(os.environ),
        cwd=os.getcwd(),
        year=time.localtime().tm_year,
        host=socket.gethostname(),
        read_text=read_text,
        read_stdin=sys.stdin.read,
    )
