"""A server JSV that hangs, crashes, babbles or floods, and disks that fill up: each fault
costs at most the one request it hits; the daemon answers everyone else meanwhile."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.attacks import ping_seconds, ping_while
from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.testing import RunningCell, create_cell, fail_on_internal_errors
from tests.e2e import cells
from tests.integration.jsv.conftest import EXAMPLES, MISBEHAVING, write_script

pytestmark = pytest.mark.timeout(150)


@pytest.fixture
def jsv_cell(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[RunningCell]:
    """A served cell whose server JSV misbehaves as each job's -N says, jsv_timeout 2 s."""
    conf = tmp_path / "conf"
    shutil.copytree(DEFAULT_CONF_DIR, conf)
    script = write_script(
        tmp_path / "bad_jsv.sh", MISBEHAVING.format(include=EXAMPLES / "jsv_include.sh")
    )
    text = (conf / "configuration").read_text()
    text = text.replace(
        "jsv_url                      none", f"jsv_url                      {script}"
    )
    text = text.replace("jsv_timeout=10", "jsv_timeout=2")
    (conf / "configuration").write_text(text)
    running = create_cell(tmp_path / "sge", conf)
    running.start()
    try:
        yield running
    finally:
        cells.stop_quietly(running)
    fail_on_internal_errors(running.internal_errors(), request.node)


FAULTS = {
    "hang": 'got no response from JSV script "',
    "crash": "",
    "garbage": "master got unknown command from JSV",
    "binary": "master got unknown command from JSV",
    "flood": "JSV sent more than",
    "bigline": "JSV sent a line longer than",
    "stderr": "JSV stderr is - oops from the jsv",
}


def test_every_jsv_fault_rejects_only_its_job_and_never_stalls_the_daemon(
    jsv_cell: RunningCell,
) -> None:
    """Hang, crash, garbage, binary, endless LOG lines, a 10 MB line, stderr: each job is
    rejected with the reason, a good job is accepted after each, and pings are answered
    within 1 s throughout."""
    cell = jsv_cell
    stop = threading.Event()
    waits: list[float] = []
    pinger = threading.Thread(target=ping_while, args=(cell.cell.socket, stop, waits))
    pinger.start()
    try:
        for fault, words in FAULTS.items():
            bad = cell.run("qsub", "-N", fault, "-b", "y", "-h", "sleep", "1")
            assert bad.returncode != 0, (fault, bad.stdout)
            assert words in bad.stdout + bad.stderr, (fault, bad.stdout, bad.stderr)
            good = cell.run("qsub", "-N", "fine", "-b", "y", "-h", "sleep", "1")
            assert good.returncode == 0, (fault, good.stdout, good.stderr)
    finally:
        stop.set()
        pinger.join()
    assert max(waits) < 1.0, sorted(waits)[-5:]
    assert len(waits) > 20


def test_two_hung_jsvs_stall_no_other_submission(jsv_cell: RunningCell) -> None:
    """Two qsubs whose server JSV hangs (pool of 2, jsv_timeout 2 s): a third qsub is
    accepted while they still wait for their rejection, which comes after 2 x the timeout."""
    cell = jsv_cell
    argv = ["qsub", "-N", "hang", "-b", "y", "-h", "sleep", "1"]
    hung = [
        subprocess.Popen(argv, env=cell.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        for _ in range(2)
    ]
    time.sleep(0.5)  # both are in their JSVs
    good = cell.run("qsub", "-N", "fine", "-b", "y", "-h", "sleep", "1")
    assert good.returncode == 0, good.stdout + good.stderr
    assert [p.poll() for p in hung] == [None, None], "the good qsub waited for the hung ones"
    for p in hung:
        out, _ = p.communicate(timeout=60)
        assert p.returncode != 0
        assert b'got no response from JSV script "' in out


def test_accounting_on_a_full_disk_costs_no_job_and_no_answer(served: RunningCell) -> None:
    """The accounting and reporting files on /dev/full (ENOSPC on every write): jobs still
    run and finish, queries are answered, and nothing is logged as an internal error."""
    cell = served
    for name in ("accounting", "reporting"):
        path = cell.cell.common / name
        path.unlink(missing_ok=True)
        path.symlink_to("/dev/full")
    assert cell.run("qsub", "-b", "y", "sleep", "0").returncode == 0
    deadline = time.monotonic() + 30
    while cell.run("qstat", "-u", "*").stdout.strip() and time.monotonic() < deadline:
        time.sleep(0.3)
    assert cell.run("qstat", "-u", "*").stdout.strip() == ""
    assert ping_seconds(cell.cell.socket) < 1.0


@pytest.fixture
def small_disk(stopped_cell: RunningCell) -> Iterator[RunningCell]:
    """The cell's spool directory on its own 4 MiB tmpfs (root only)."""
    spool = stopped_cell.cell.spool
    saved = spool.with_name("saved-spool")
    shutil.copytree(spool, saved)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(spool)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs: {mounted.stderr.strip()}")
    try:
        shutil.copytree(saved, spool, dirs_exist_ok=True)
        yield stopped_cell
    finally:
        cells.stop_quietly(stopped_cell)
        subprocess.run(["umount", "-l", str(spool)], check=False)


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_a_full_spool_disk_refuses_writes_keeps_answering_and_recovers(
    small_disk: RunningCell,
) -> None:
    """The spool's filesystem filled up: submits are refused as Grid Engine refuses a job it
    cannot write, the jobs already acknowledged stay listed, queries are answered, and once
    space is freed submits work again; nothing acknowledged is lost across a restart."""
    cell = small_disk
    cell.start()
    acked = []
    for _ in range(3):
        out = cell.run("qsub", "-terse", "-h", "-b", "y", "sleep", "1")
        assert out.returncode == 0, out.stderr
        acked.append(int(out.stdout))
    filler = cell.cell.spool / "filler"
    subprocess.run(
        ["dd", "if=/dev/zero", f"of={filler}", "bs=64k"], capture_output=True, check=False
    )
    refused = 0
    for _ in range(8):
        out = cell.run("qsub", "-terse", "-h", "-b", "y", "-v", "X=" + "x" * 20000, "sleep", "1")
        if out.returncode == 0:
            acked.append(int(out.stdout))
        else:
            refused += 1
            assert "couldn't be written" in out.stdout + out.stderr, out.stdout + out.stderr
    assert refused
    assert ping_seconds(cell.cell.socket) < 1.0
    listed = cell.run("qstat", "-u", "*")
    assert listed.returncode == 0
    filler.unlink()
    out = cell.run("qsub", "-terse", "-h", "-b", "y", "sleep", "1")
    assert out.returncode == 0, out.stdout + out.stderr
    acked.append(int(out.stdout))
    cells.stop(cell)
    cell.start()
    ids = [int(ln.split()[0]) for ln in cell.run("qstat", "-u", "*").stdout.splitlines()[2:]]
    assert set(acked) <= set(ids)


def test_a_spool_at_its_page_cap_refuses_writes_and_serves_on(stopped_cell: RunningCell) -> None:
    """A daemon process whose database may not grow (SQLite max_page_count): a job too big
    to fit is refused as Grid Engine refuses a job it cannot write, the refused job is not
    listed, the held ones are, and the daemon answers and restarts with them."""
    cell = stopped_cell
    with sqlite3.connect(cell.cell.database) as db:
        (pages,) = db.execute("PRAGMA page_count").fetchone()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.capped_qmaster", str(pages + 8)],
        env=cell.env, cwd=Path(__file__).parents[2],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while ping_seconds(cell.cell.socket, timeout=0.5) == float("inf"):
            assert proc.poll() is None, "the capped daemon did not start"
            assert time.monotonic() < deadline, "the capped daemon did not answer"
            time.sleep(0.05)
        small = cell.run("qsub", "-terse", "-h", "-b", "y", "sleep", "1")
        assert small.returncode == 0, small.stdout + small.stderr
        big = cell.run("qsub", "-h", "-b", "y", "-v", "X=" + "x" * 100_000, "sleep", "1")
        assert big.returncode != 0
        assert "couldn't be written" in big.stdout + big.stderr, big.stdout + big.stderr
        assert ping_seconds(cell.cell.socket) < 1.0
        listed = cell.run("qstat", "-u", "*").stdout.splitlines()[2:]
        assert [ln.split()[0] for ln in listed] == [small.stdout.strip()]
    finally:
        proc.terminate()
        assert proc.wait(30) == 0
    cell.start()
    listed = cell.run("qstat", "-u", "*").stdout.splitlines()[2:]
    assert [ln.split()[0] for ln in listed] == [small.stdout.strip()]
