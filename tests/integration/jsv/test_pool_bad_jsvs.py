"""The server JSV pool against real misbehaving JSV processes (reliability R12-R18)."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest
from structlog.testing import capture_logs

from qmaster.jsv.pool import JsvPool
from qmaster.jsv.protocol import JsvContext, Limits, Verdict

from .conftest import group_gone, write_script

CTX = JsvContext(user="alice", group="staff", client="qsub", context="server", job_id=1)
TIMEOUT = 0.5


def job(name: str) -> dict[str, Any]:
    """A minimal job named ``name`` (the bad JSV reads its orders from -N)."""
    return {"CMDNAME": "job.sh", "N": name}


def stamped_pid(verdict: Verdict) -> int:
    """The PID the JSV wrote into the job context."""
    assert verdict.accepted, verdict.message
    return int(verdict.spec["ac"]["JSV_PID"])


@pytest.fixture
async def pool(bad_jsv: str) -> Any:
    """A started pool of two bad JSVs with short limits."""
    p = JsvPool(
        bad_jsv,
        size=2,
        timeout=TIMEOUT,
        limits=Limits(max_line=64 * 1024, max_lines=1000, max_bytes=256 * 1024),
        quit_timeout=1.0,
    )
    await p.start()
    yield p
    await p.close()


async def test_good_job_is_corrected_with_the_jsv_pid(pool: JsvPool) -> None:
    """A well-behaved verification applies the JSV's correction."""
    verdict = await pool.verify(job("fine"), CTX)
    assert stamped_pid(verdict) in pool.pids


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("garbage", 'master got unknown command from JSV: "{pid}"'),
        ("unknown", 'master got unknown command from JSV: "HELLO"'),
        ("binary", 'master got unknown command from JSV: "\\xff\\xfe\\x01"'),
        ("flood", "JSV sent more than 1000 lines for one job"),
        ("bigline", "JSV sent a line longer than 65536 bytes"),
        ("stderr", "JSV stderr is - oops from the jsv"),
        ("error", "database is down"),
    ],
)
async def test_bad_output_rejects_job_and_restarts_jsv(
    bad_jsv: str, name: str, message: str
) -> None:
    """Each kind of bad output rejects the job with a clear text; a new JSV serves the next."""
    pool = JsvPool(bad_jsv, size=1, timeout=5.0, limits=Limits(max_lines=1000))
    await pool.start()
    try:
        (before,) = pool.pids
        verdict = await pool.verify(job(name), CTX)
        assert not verdict.accepted
        assert verdict.message == message.format(pid=before)
        after = stamped_pid(await pool.verify(job("fine"), CTX))
        assert after != before
    finally:
        await pool.close()


async def test_crash_mid_job_is_retried_then_rejected(bad_jsv: str) -> None:
    """A JSV dying in every attempt gets the job rejected; the next job gets a new JSV."""
    pool = JsvPool(bad_jsv, size=1, timeout=5.0)
    await pool.start()
    try:
        first = stamped_pid(await pool.verify(job("fine"), CTX))
        verdict = await pool.verify(job("crash"), CTX)
        assert verdict.message == f'JSV "{bad_jsv}" exited during verification'
        assert stamped_pid(await pool.verify(job("fine"), CTX)) != first
    finally:
        await pool.close()


async def test_killed_jsv_is_replaced_before_next_job(pool: JsvPool) -> None:
    """kill -9 of an idle JSV: the next jobs are accepted by new PIDs."""
    old = set(pool.pids)
    for pid in old:
        os.kill(pid, 9)
    await asyncio.sleep(0.1)
    pids = {stamped_pid(await pool.verify(job("fine"), CTX)) for _ in range(4)}
    assert pids.isdisjoint(old)


async def test_hang_times_out_twice_then_rejects_while_others_proceed(
    pool: JsvPool, bad_jsv: str
) -> None:
    """A hung JSV is killed, retried once, then the job is rejected; others keep going."""
    began = time.monotonic()
    hung = asyncio.create_task(pool.verify(job("hang"), CTX))
    await asyncio.sleep(0.05)
    done_meanwhile = 0
    while not hung.done():
        verdict = await pool.verify(job("fine"), CTX)
        assert verdict.accepted
        done_meanwhile += 1
    verdict = await hung
    assert verdict.message == f'got no response from JSV script "{bad_jsv}"'
    assert 2 * TIMEOUT <= time.monotonic() - began < 2 * TIMEOUT + 2.0
    assert done_meanwhile >= 5


async def test_as_many_hung_jsvs_as_workers_stall_no_other_job(bad_jsv: str) -> None:
    """Two hung scripts in a pool of two: a third job is verified by a new worker while
    they wait out their timeouts (it used to wait 2 x jsv_timeout for one of them), and
    the pool shrinks back to two scripts afterwards."""
    pool = JsvPool(bad_jsv, size=2, timeout=2.0, quit_timeout=1.0)
    await pool.start()
    try:
        hung = [asyncio.create_task(pool.verify(job("hang"), CTX)) for _ in range(2)]
        await asyncio.sleep(0.05)
        fine = [await pool.verify(job("fine"), CTX) for _ in range(3)]
        assert all(v.accepted for v in fine)
        assert not any(h.done() for h in hung), "the good jobs waited for the hung ones"
        verdicts = await asyncio.gather(*hung)
        assert {v.message for v in verdicts} == {f'got no response from JSV script "{bad_jsv}"'}
        await asyncio.sleep(0.5)  # the extra workers are stopped in the background
        assert len(pool.pids) == 2
    finally:
        await pool.close()


async def test_touching_the_script_restarts_it(pool: JsvPool, bad_jsv: str) -> None:
    """A changed mtime makes the next verification use a new process."""
    before = set(pool.pids)
    st = os.stat(bad_jsv)
    os.utime(bad_jsv, (st.st_atime, st.st_mtime + 10))
    with capture_logs() as logs:
        pid = stamped_pid(await pool.verify(job("fine"), CTX))
    assert pid not in before
    reasons = [e["reason"] for e in logs if e["event"] == "jsv_restarted"]
    assert reasons == [f'JSV modification time in "{bad_jsv}" has changed']


async def test_reconfigure_to_another_url_restarts(pool: JsvPool, tmp_path: Any) -> None:
    """Changing jsv_url starts new processes; None turns verification off."""
    before = set(pool.pids)
    copy = tmp_path / "copy.sh"
    copy.write_bytes(Path(pool.url or "").read_bytes())
    copy.chmod(0o755)
    await pool.reconfigure(str(copy), TIMEOUT, 5000)
    assert stamped_pid(await pool.verify(job("fine"), CTX)) not in before
    await pool.reconfigure(None)
    verdict = await pool.verify(job("hang"), CTX)
    assert verdict.accepted
    assert "ac" not in verdict.spec


async def test_threshold_zero_logs_every_job(bad_jsv: str) -> None:
    """jsv_threshold 0 logs each verification as jsv_slow."""
    pool = JsvPool(bad_jsv, size=1, threshold_ms=0)
    await pool.start()
    try:
        with capture_logs() as logs:
            await pool.verify(job("fine"), CTX)
            await pool.verify(job("reject"), CTX)
        slow = [e for e in logs if e["event"] == "jsv_slow"]
        assert [e["state"] for e in slow] == ["CORRECT", "REJECT"]
    finally:
        await pool.close()


async def test_missing_script_rejects_with_ge_text(tmp_path: Any) -> None:
    """A jsv_url naming no file rejects jobs with Grid Engine's text."""
    path = str(tmp_path / "nope.sh")
    pool = JsvPool(path, size=1)
    await pool.start()
    try:
        verdict = await pool.verify(job("fine"), CTX)
        assert verdict.message == f'JSV file "{path}" does not exist'
    finally:
        await pool.close()


async def test_close_stops_a_jsv_that_ignores_quit(quit_ignoring_jsv: str) -> None:
    """QUIT, TERM, then KILL: shutdown is bounded and leaves no process of the group."""
    pool = JsvPool(quit_ignoring_jsv, size=2, quit_timeout=1.0)
    await pool.start()
    assert (await pool.verify(job("x"), CTX)).accepted
    pids = pool.pids
    began = time.monotonic()
    await pool.close()
    assert time.monotonic() - began < 3.0
    assert all(group_gone(pid) for pid in pids)


DIES_SAYING_WHY = """#!/bin/sh
read line; echo STARTED
while read line; do [ "$line" = BEGIN ] && break; done
echo "warming up" >&2
echo "fatal: policy database unreachable" >&2
exit 3
"""


async def test_server_jsv_dying_after_stderr_shows_the_text(tmp_path: Path) -> None:
    """A server JSV that writes to stderr and dies rejects with its last stderr line, at once."""
    script = write_script(tmp_path / "dies.sh", DIES_SAYING_WHY)
    pool = JsvPool(script, size=1, timeout=5.0)
    await pool.start()
    try:
        verdict = await pool.verify(job("x"), CTX)
    finally:
        await pool.close()
    assert verdict.message == "JSV stderr is - fatal: policy database unreachable"


FLOODS_STDERR = """#!/bin/sh
(head -c 60000 /dev/zero >&2; touch "$0.flooding"; head -c 100000000 /dev/zero >&2) &
read line; echo STARTED
while read line; do
  case "$line" in BEGIN) echo "RESULT STATE ACCEPT";; QUIT) exit 0;; esac
done
"""


async def test_an_idle_jsv_flooding_its_stderr_costs_no_cpu_and_no_garbage(
    tmp_path: Path,
) -> None:
    """A server JSV pouring NUL bytes into its stderr between jobs: the daemon reads 4 KiB
    and stops (it used to spend half a core reading), restarts the JSV before the next job
    and says why without the NULs (they used to reach the log and the user's message)."""
    script = write_script(tmp_path / "floods.sh", FLOODS_STDERR)
    pool = JsvPool(script, size=1, timeout=5.0)
    await pool.start()
    try:
        deadline = time.monotonic() + 20
        while not Path(f"{script}.flooding").exists() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        cpu = time.process_time()
        await asyncio.sleep(1.0)
        assert time.process_time() - cpu < 0.2
        with capture_logs() as logs:
            verdict = await pool.verify(job("x"), CTX)
    finally:
        await pool.close()
    reasons = [e["reason"] for e in logs if e["event"] == "jsv_restarted"]
    assert reasons[0] == "JSV stderr is - "
    assert "\x00" not in verdict.message
