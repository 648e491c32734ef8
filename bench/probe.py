"""A well-behaved client in a process of its own: ``python -m bench.probe SOCKET``.

It pings the qmaster every 0.1 s on a new connection and prints each wait in seconds
(``inf``: no answer) until it is sent SIGTERM. The soak times the daemon this way, not
from a thread of its own: there the ping waited for the soak's 200 client threads
to hand over the GIL as much as for the daemon.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import FrameType

from bench.attacks import ping_seconds


class Probe:
    """A running probe process; :meth:`finish` stops it and returns its waits."""

    def __init__(self, socket: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bench.probe", str(socket)],
            stdout=subprocess.PIPE,
            text=True,
        )
        time.sleep(0.3)  # the interpreter starting is not a wait for the daemon

    def finish(self) -> list[float]:
        self.proc.send_signal(signal.SIGTERM)
        out, _ = self.proc.communicate(timeout=30)
        return [float(line) for line in out.split()]


def main() -> None:
    stop = threading.Event()

    def ended(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, ended)
    socket = Path(sys.argv[1])
    while not stop.is_set():
        print(ping_seconds(socket), flush=True)
        stop.wait(0.1)


if __name__ == "__main__":
    main()
