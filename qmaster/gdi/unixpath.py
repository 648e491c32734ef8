"""Unix socket addresses of any length.

A Unix socket's address holds at most 107 bytes (``sun_path``), so a cell under
a deep directory (a CI workspace, a test's temporary directory) could not bind
or reach its ``qmaster.sock``: ``AF_UNIX path too long``. Grid Engine talks
TCP and knows no such limit. A longer path is reached through a descriptor of
its directory instead: ``/proc/self/fd/N/qmaster.sock`` names the same file and
is short whatever the directory's depth (Linux).

Standard library only: every client command imports this.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator
from pathlib import Path

SUN_PATH_BYTES = 107
"""The longest Unix socket path the kernel takes (``sun_path`` less its terminating NUL)."""


@contextlib.contextmanager
def address(where: str | os.PathLike[str]) -> Iterator[str]:
    """A name for ``where`` that fits a Unix socket address, valid inside the block."""
    path = Path(where)
    if len(os.fsencode(path)) <= SUN_PATH_BYTES or not hasattr(os, "O_PATH"):
        # short enough, or no /proc/self/fd (not Linux): the kernel takes or refuses it
        yield str(path)
        return
    directory = os.open(path.parent, os.O_PATH | os.O_DIRECTORY)
    try:
        yield f"/proc/self/fd/{directory}/{path.name}"
    finally:
        os.close(directory)


def bind(sock: socket.socket, path: str | os.PathLike[str]) -> None:
    """Bind ``sock`` at ``path``, however long."""
    with address(path) as name:
        sock.bind(name)


def connect(sock: socket.socket, path: str | os.PathLike[str]) -> None:
    """Connect ``sock`` to the socket at ``path``, however long."""
    with address(path) as name:
        sock.connect(name)
