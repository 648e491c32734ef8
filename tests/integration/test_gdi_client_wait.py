"""The GDI client waits for a qmaster whose listen backlog is full, as Grid Engine's clients wait."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest

from qmaster.gdi import unixpath
from qmaster.gdi.client import Connection, GdiError


def _full_listener(path: Path) -> tuple[socket.socket, list[socket.socket]]:
    """A listening socket nobody accepts on, its backlog filled until connect says EAGAIN."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unixpath.bind(server, path)
    server.listen(0)
    fillers: list[socket.socket] = []
    for _ in range(64):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            unixpath.connect(s, path)
        except BlockingIOError:
            s.close()
            return server, fillers
        fillers.append(s)
    pytest.skip("this kernel never refused a connection for a full backlog")


def test_a_full_backlog_is_waited_for(tmp_path: Path) -> None:
    """Connect succeeds once the qmaster accepts again, instead of failing with EAGAIN."""
    path = tmp_path / "sock"
    server, fillers = _full_listener(path)
    accepted: list[socket.socket] = []

    def drain() -> None:
        time.sleep(0.3)
        for _ in range(len(fillers) + 1):
            accepted.append(server.accept()[0])

    thread = threading.Thread(target=drain)
    thread.start()
    started = time.monotonic()
    with Connection(path, timeout=5):
        assert time.monotonic() - started >= 0.2
    thread.join()
    for s in [server, *fillers, *accepted]:
        s.close()


def test_a_full_backlog_fails_after_the_timeout(tmp_path: Path) -> None:
    """A qmaster that never accepts makes the client give up with Grid Engine's words."""
    path = tmp_path / "sock"
    server, fillers = _full_listener(path)
    with pytest.raises(GdiError, match="unable to contact qmaster"):
        Connection(path, timeout=0.3)
    for s in [server, *fillers]:
        s.close()
