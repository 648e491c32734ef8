"""qevent -sm against a live qmaster: the subscription moves on mid-stream and events follow it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from tests.integration.live import LiveDaemon, job

pytestmark = pytest.mark.timeout(60)

# the delivery interval shortened so that a test walks the type cycle in seconds
_RUN = "import sys, clients.qevent as q; q.DELIVERY_INTERVAL = 0.1; sys.exit(q.main(['-sm']))"


class Lines:
    """The output lines of a running qevent, collected by a reader thread."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.lines: list[str] = []
        assert proc.stdout is not None
        self._stdout = proc.stdout
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self._stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, text: str, times: int = 1, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while self.lines.count(text) < times:
            assert time.monotonic() < deadline, f"no {text!r} in {self.lines[-5:]}"
            time.sleep(0.02)


@pytest.fixture
def qevent(live: LiveDaemon) -> Iterator[Lines]:
    """``qevent -sm`` run as a process against the live daemon."""
    env = {**os.environ, "SGE_ROOT": str(live.cell.root), "SGE_CELL": live.cell.name}
    proc = subprocess.Popen(
        [sys.executable, "-c", _RUN], env=env, stdout=subprocess.PIPE, text=True
    )
    lines = Lines(proc)
    try:
        yield lines
    finally:
        proc.kill()
        proc.wait()
        lines.reader.join(5)
        lines._stdout.close()


def test_job_events_print_once_the_job_type_is_subscribed(live: LiveDaemon, qevent: Lines) -> None:
    """Before type 8 (JOB) no job event is printed; after it, a submission shows as ADD JOB."""
    live.call("submit", job("100"))  # before JOB is subscribed: never printed
    qevent.wait_for("Subscribe event_type: 8")
    second = live.call("submit", job("100")).data["job_id"]
    added = [line for line in qevent.lines if " EVENT ADD JOB " in line]
    deadline = time.monotonic() + 10
    while not added and time.monotonic() < deadline:
        time.sleep(0.05)
        added = [line for line in qevent.lines if " EVENT ADD JOB " in line]
    assert [line.split()[-1] for line in added] == [str(second)]  # not the first job's


def test_the_cycle_wraps_and_the_qmaster_going_down_is_the_last_event(
    live: LiveDaemon, qevent: Lines
) -> None:
    """After type 32 every subscription is dropped; a qmaster stop then ends qevent quietly."""
    qevent.wait_for("Unsubscribe all event_types")
    qevent.wait_for("Subscribe event_type: 19", times=2)  # SHUTDOWN again
    started = time.monotonic()
    live.stop()
    assert time.monotonic() - started < 4  # the stream does not hold the stop up
    assert qevent.proc.wait(10) == 0
    qevent.reader.join(5)
    assert qevent.lines[-1].endswith(". EVENT QMASTER GOES DOWN")


def test_qconf_kec_ends_qevent_with_a_shutdown_event(live: LiveDaemon, qevent: Lines) -> None:
    """Killing the event client (qconf -kec) prints its SHUTDOWN event and qevent exits 0."""
    qevent.wait_for("Subscribe event_type: 1")
    reply = live.call("event_kill", {"ids": ["all"]})
    assert reply.ok, reply.answers
    assert qevent.proc.wait(10) == 0
    qevent.reader.join(5)
    assert qevent.lines[-1] == "1. EVENT SHUTDOWN"
