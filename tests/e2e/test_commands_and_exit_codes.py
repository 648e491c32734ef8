"""The installed commands against a daemon process: limits, refusals, states and exit codes."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from qmaster.testing import RunningCell, create_cell
from tests.e2e.cells import stop

pytestmark = pytest.mark.timeout(60)


def set_global(cell: RunningCell, tmp_path: Path, key: str, value: str) -> None:
    """Change one global configuration attribute with qconf -Mconf."""
    text = cell.run("qconf", "-sconf", check=True).stdout
    lines = [f"{key} {value}" if ln.split()[:1] == [key] else ln for ln in text.splitlines()]
    path = tmp_path / "global.conf"
    path.write_text("\n".join(lines) + "\n")
    result = cell.run("qconf", "-Mconf", str(path))
    assert result.returncode == 0, result.stderr


def qsub(cell: RunningCell, *argv: str) -> tuple[int, str, str]:
    result = cell.run("qsub", *argv)
    return result.returncode, result.stdout, result.stderr


def test_max_u_jobs_refuses_the_third_job_with_exit_25(served: RunningCell, tmp_path: Path) -> None:
    """With max_u_jobs 2 the third qsub exits 25: 'Only 2 jobs are allowed per user'."""
    set_global(served, tmp_path, "max_u_jobs", "2")
    assert qsub(served, "-b", "y", "sleep", "100")[0] == 0
    assert qsub(served, "-b", "y", "sleep", "100")[0] == 0
    code, out, err = qsub(served, "-b", "y", "sleep", "100")
    assert code == 25
    assert out == ""
    assert err == (
        "Unable to run job: job rejected: Only 2 jobs are allowed per user "
        "(current job count: 2).\nExiting.\n"
    )


def test_qsub_w_e_with_too_many_slots_is_refused(shared_served: RunningCell) -> None:
    """qsub -w e asking 1000 slots of a 16-slot cluster: 'error: no suitable queues', exit 1."""
    code, _out, err = qsub(shared_served, "-w", "e", "-pe", "mpi", "1000", "-b", "y", "sleep", "1")
    assert code == 1
    assert err == "Unable to run job: error: no suitable queues.\nExiting.\n"
    assert shared_served.run("qstat", "-u", "*").stdout == ""


def test_qsub_w_e_with_an_unknown_queue_is_refused(shared_served: RunningCell) -> None:
    """qsub -w e -q 'nosuch*' names the unknown queue and exits 1, submitting nothing."""
    code, _out, err = qsub(shared_served, "-w", "e", "-q", "nosuch*", "-b", "y", "sleep", "1")
    assert code == 1
    assert err == (
        'Unable to run job: job was rejected because job requests unknown queue "nosuch*".\n'
        "Exiting.\n"
    )
    assert shared_served.run("qstat", "-u", "*").stdout == ""


def test_qsub_of_an_unknown_resource_is_refused(shared_served: RunningCell) -> None:
    """qsub -l nosuch=1: 'Unable to run job: unknown resource "nosuch".' / 'Exiting.', exit 1."""
    code, _out, err = qsub(shared_served, "-l", "nosuch=1", "-b", "y", "sleep", "1")
    assert code == 1
    assert err == 'Unable to run job: unknown resource "nosuch".\nExiting.\n'


def test_qsub_names_each_path_list_with_a_host_it_cannot_resolve(
    shared_served: RunningCell,
) -> None:
    """-o and -e naming unknown hosts: the qmaster answers both lists (sge_job_verify_adjust)
    and qsub prints every answer in its one refusal (japi_send_job()), exit 1."""
    code, out, err = qsub(shared_served, "-o", "o1:/x", "-e", "e1:/x", "-b", "y", "sleep", "1")
    assert (code, out) == (1, "")
    assert err == (
        'Unable to run job: can\'t resolve hostname "o1"\ncan\'t resolve hostname "e1".\nExiting.\n'
    )


def test_qsub_w_w_warns_but_submits(served: RunningCell) -> None:
    """qsub -w w of an unschedulable job prints 'warning: no suitable queues' and submits it."""
    code, out, err = qsub(served, "-w", "w", "-pe", "mpi", "1000", "-b", "y", "sleep", "1")
    assert code == 0
    assert "warning: no suitable queues" in out + err
    assert 'Your job 1 ("sleep") has been submitted' in out


def test_qsub_w_v_verifies_without_submitting(shared_served: RunningCell) -> None:
    """qsub -w v prints 'verification: found suitable queue(s)' and submits nothing."""
    before = shared_served.run("qstat", "-u", "*", "-xml").stdout.count("<JB_job_number>")
    code, out, _err = qsub(shared_served, "-w", "v", "-b", "y", "sleep", "1")
    assert code == 0
    assert out.strip() == "verification: found suitable queue(s)"
    after = shared_served.run("qstat", "-u", "*", "-xml").stdout.count("<JB_job_number>")
    assert after <= before  # the cell is shared: other tests' jobs may only have ended


def test_qsub_w_v_without_a_suitable_queue_lists_reasons_and_exits_1(
    shared_served: RunningCell,
) -> None:
    """qsub -w v -pe mpi 100: the PE line, then 'verification: no suitable queues', exit 1."""
    code, out, err = qsub(shared_served, "-w", "v", "-pe", "mpi", "100", "-b", "y", "sleep", "1")
    assert code == 1
    assert 'cannot run in PE "mpi" because it only offers 16 slots' in out
    assert err.strip() == "verification: no suitable queues"


def test_qsub_of_a_request_that_cannot_compile_is_refused(shared_served: RunningCell) -> None:
    """qsub -w v -l 'arch=[z-a]x' is refused with the reason, not an internal error."""
    code, _out, err = qsub(shared_served, "-w", "v", "-l", "arch=[z-a]x", "-b", "y", "sleep", "1")
    assert code == 1
    assert err.startswith('Unable to run job: invalid expression "[z-a]x"')
    assert "internal error" not in err


def test_qdel_of_an_unknown_job_is_denied(shared_served: RunningCell) -> None:
    """qdel 99 prints 'denied: job "99" does not exist' and exits 1."""
    result = shared_served.run("qdel", "99")
    assert result.returncode == 1
    assert (result.stdout + result.stderr).strip() == 'denied: job "99" does not exist'


def test_qresub_submits_a_copy_without_the_originals_hold(shared_served: RunningCell) -> None:
    """qresub of a held job: 'Your job N ("orig") has been submitted', exit 0; the copy is
    not held, and has the original's context."""
    orig = qsub(shared_served, "-terse", "-h", "-N", "orig", "-ac", "a=1", "-b", "y", "sleep", "9")
    jid = orig[1].strip()
    done = shared_served.run("qresub", jid)
    copy = str(int(jid) + 1)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, f'Your job {copy} ("orig") has been submitted\n', ""
    )  # fmt: skip
    rows = {r.split()[0]: r.split()[4] for r in shared_served.run("qstat").stdout.splitlines()[2:]}
    assert rows[jid] == "hqw"
    assert rows[copy] in ("qw", "r", "t")
    assert "context:                    a=1" in shared_served.run("qstat", "-j", copy).stdout
    shared_served.run("qdel", jid, copy)


def test_qresub_refusals_and_their_exit_codes(shared_served: RunningCell) -> None:
    """qresub 99: 'job "99" does not exist' on stdout, exit 4 (STATUS_EUNKNOWN); an option
    qresub does not take: 'Unknown option -N x', exit 5; no argument: usage, exit 1."""
    done = shared_served.run("qresub", "99")
    assert (done.returncode, done.stdout) == (4, 'job "99" does not exist\n')
    done = shared_served.run("qresub", "-N", "x", "99")
    assert (done.returncode, done.stdout, done.stderr) == (5, "", "Unknown option -N x\n")
    done = shared_served.run("qresub")
    assert done.returncode == 1
    assert done.stderr.startswith("GE 6.2u5\nusage: qresub [options] job_task_list\n")
    assert done.stderr.endswith("ERROR! no option argument\n")


def test_qstat_j_of_an_unknown_job_fails(shared_served: RunningCell) -> None:
    """qstat -j 99 says the job does not exist and exits 1."""
    result = shared_served.run("qstat", "-j", "99")
    assert result.returncode == 1
    assert "Following jobs do not exist" in result.stdout + result.stderr
    assert "99" in result.stdout + result.stderr


def test_qstat_shows_a_job_pending_then_running(served: RunningCell) -> None:
    """Before its -a start time the job is 'qw'; then the scheduler makes it 'r'. (The start
    time keeps it waiting however slowly qstat starts: the cell schedules every second.)"""
    start = time.strftime("%Y%m%d%H%M.%S", time.localtime(time.time() + 8))
    assert qsub(served, "-N", "watched", "-a", start, "-b", "y", "sleep", "100")[0] == 0
    first = served.run("qstat").stdout.splitlines()
    assert first[2].split()[2:5] == ["watched", "root", "qw"]
    deadline = time.monotonic() + 25
    while True:
        rows = served.run("qstat").stdout.splitlines()[2:]
        if rows and rows[0].split()[4] == "r":
            break
        assert time.monotonic() < deadline, f"job never ran: {rows}"
        time.sleep(0.1)
    assert rows[0].split()[7].startswith("all.q@")


def test_qsub_terse_prints_only_the_id(served: RunningCell) -> None:
    """qsub -terse prints '1', and '2.1-4:1' for an array job."""
    assert qsub(served, "-terse", "-b", "y", "sleep", "1")[1] == "1\n"
    assert qsub(served, "-terse", "-t", "1-4", "-b", "y", "sleep", "1")[1] == "2.1-4:1\n"


def test_qconf_km_stops_the_daemon(served: RunningCell) -> None:
    """qconf -km by root prints 'root@host kills qmaster' and the daemon goes away."""
    pid = served.pid()
    result = served.run("qconf", "-km")
    assert result.returncode == 0
    assert result.stdout.strip().endswith("kills qmaster")
    deadline = time.monotonic() + 10
    while served.cell.pidfile.exists():
        assert time.monotonic() < deadline, "qmaster did not stop"
        time.sleep(0.05)
    status = served.run("qmaster", "status")
    assert status.returncode == 1
    assert pid > 0


def test_commands_without_a_daemon_say_they_cannot_reach_it(served: RunningCell) -> None:
    """With the daemon stopped, qstat exits 1 and names the socket it could not reach."""
    stop(served)
    result = served.run("qstat")
    assert result.returncode == 1
    assert str(served.cell.socket) in result.stderr


def test_a_cell_under_a_deep_directory_serves_its_commands(tmp_path: Path) -> None:
    """A socket path past the kernel's 107 bytes still binds and is reached (no 'path too long')."""
    running = create_cell(tmp_path / ("deep-" * 12) / ("er-" * 10) / "sge")
    assert len(str(running.cell.socket)) > 107
    running.start()
    try:
        assert qsub(running, "-terse", "-b", "y", "sleep", "100")[1] == "1\n"
        listed = running.run("qstat")
        assert listed.returncode == 0
        assert " sleep " in listed.stdout
        assert running.run("qmaster", "status").returncode == 0
    finally:
        stop(running)
    assert not running.cell.socket.exists()
    assert running.internal_errors() == []
