"""The Job State Monitor driving a real ``seg`` process."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path

import pytest

from qmaster.events.seg import ACTIVE, DONE, PENDING
from qmaster.events.testing import acct, job_log
from qmaster.jsm import JobStateMonitor
from tests.integration.events.files import seg_command, write

Call = tuple[Hashable, int, int, int]


class Recorder:
    """A listener that lets a test wait for calls."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self._cond = threading.Condition()

    def __call__(self, key: Hashable, ts: int, state: int, code: int) -> None:
        with self._cond:
            self.calls.append((key, ts, state, code))
            self._cond.notify_all()

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Call]:
        with self._cond:
            assert self._cond.wait_for(lambda: len(self.calls) >= count, timeout), self.calls
            return list(self.calls)


def wait_until(cond: Callable[[], bool], timeout: float = 10.0) -> None:
    """Poll until ``cond()`` holds."""
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "condition never became true"
        time.sleep(0.02)


@pytest.fixture
def monitors() -> Iterator[list[JobStateMonitor]]:
    """Monitors a test starts, stopped afterwards."""
    started: list[JobStateMonitor] = []
    yield started
    for jsm in started:
        jsm.stop()


def start(monitors: list[JobStateMonitor], cmd: list[str], tmp_path: Path,
          listener: Recorder, **kw: float) -> JobStateMonitor:  # fmt: skip
    """Start a monitor replaying from the beginning of time."""
    from qmaster.events.seg import Cursor

    jsm = JobStateMonitor(cmd, tmp_path / "datum", listener, start=Cursor(0), **kw)  # type: ignore[arg-type]
    jsm.start()
    monitors.append(jsm)
    return jsm


def test_events_reach_the_listener_with_the_registered_key(
    tmp_path: Path, monitors: list[JobStateMonitor]
) -> None:
    """A registered job's seg events come to the listener with its key, in order."""
    rec = Recorder()
    jsm = start(monitors, seg_command(tmp_path / "reporting"), tmp_path, rec)
    jsm.register("7", "mjr-7")
    write(tmp_path, job_log(10, "pending", 7), job_log(11, "running", 7), acct(19, 7))
    assert rec.wait_for(3) == [
        ("mjr-7", 10, PENDING, 0),
        ("mjr-7", 11, ACTIVE, 0),
        ("mjr-7", 19, DONE, 0),
    ]


def test_late_registration_replays_cached_events(
    tmp_path: Path, monitors: list[JobStateMonitor]
) -> None:
    """Events seen before registration are delivered when the job is registered."""
    rec = Recorder()
    jsm = start(monitors, seg_command(tmp_path / "reporting"), tmp_path, rec)
    write(tmp_path, job_log(10, "running", 8))
    wait_until(lambda: bool(jsm.cached("8")))
    jsm.register("8", "k8")
    assert rec.wait_for(1) == [("k8", 10, ACTIVE, 0)]


def test_killed_seg_is_restarted_without_loss_or_repeats(
    tmp_path: Path, monitors: list[JobStateMonitor]
) -> None:
    """When seg dies, the monitor starts it again from its datum; nothing is lost or doubled."""
    rec = Recorder()
    jsm = start(monitors, seg_command(tmp_path / "reporting"), tmp_path, rec, restart_delay=0.05)
    jsm.register("1", "k")
    write(tmp_path, job_log(10, "pending", 1))
    rec.wait_for(1)
    pid = jsm.seg_pid
    assert pid is not None
    os.kill(pid, 9)
    wait_until(lambda: jsm.seg_starts == 2 and jsm.seg_pid not in (None, pid))
    write(tmp_path, job_log(10, "running", 1), acct(12, 1))
    time.sleep(0.3)
    assert rec.wait_for(3) == [("k", 10, PENDING, 0), ("k", 10, ACTIVE, 0), ("k", 12, DONE, 0)]


def test_seg_that_keeps_ending_keeps_being_restarted(
    tmp_path: Path, monitors: list[JobStateMonitor]
) -> None:
    """A seg command that exits at once is started again and again."""
    fake = tmp_path / "fake-seg"
    fake.write_text("#!/bin/sh\nexit 3\n")
    fake.chmod(0o755)
    jsm = start(monitors, [str(fake)], tmp_path, Recorder(), restart_delay=0.02)
    wait_until(lambda: jsm.seg_starts >= 3)


def test_restarted_monitor_replays_unclaimed_events(
    tmp_path: Path, monitors: list[JobStateMonitor]
) -> None:
    """An event nobody claimed before the JSM stopped reaches a new JSM's registrant."""
    cmd = seg_command(tmp_path / "reporting")
    first = start(monitors, cmd, tmp_path, Recorder())
    first.register("1", "k1")
    write(tmp_path, job_log(10, "running", 1), job_log(20, "running", 2), job_log(30, "running", 1))
    wait_until(lambda: bool(first.cached("2")) and first.datum is not None)
    first.stop()
    rec = Recorder()
    second = JobStateMonitor(cmd, tmp_path / "datum", rec)
    second.start()
    monitors.append(second)
    second.register("2", "k2")
    assert rec.wait_for(1) == [("k2", 20, ACTIVE, 0)]
