"""qrsub/qrstat/qrdel as Grid Engine users see them: windows, TIME values, stored names."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from qmaster.testing import RunningCell
from tests.e2e.other_user import nobody_ids, run_as

pytestmark = pytest.mark.timeout(90)


def _date_time(epoch: float) -> str:
    """``CCYYMMDDhhmm.SS`` in local time, as qrsub's -a and -e read it."""
    return time.strftime("%Y%m%d%H%M.%S", time.localtime(epoch))


def _detail(cell: RunningCell, ar_id: int) -> dict[str, str]:
    """qrstat -ar's ``name value`` lines as a dict."""
    shown = cell.run("qrstat", "-ar", str(ar_id))
    assert shown.returncode == 0, shown.stdout + shown.stderr
    lines = [line.split(None, 1) for line in shown.stdout.splitlines() if " " in line]
    return {words[0]: words[1].strip() if len(words) > 1 else "" for words in lines}


def test_end_time_alone_starts_now(shared_served: RunningCell) -> None:
    """qrsub -e alone is granted from now until the end time (no internal error)."""
    end = time.time() + 7200
    made = shared_served.run("qrsub", "-e", _date_time(end))
    assert made.returncode == 0, made.stdout + made.stderr
    ar_id = int(made.stdout.split()[3])
    shown = _detail(shared_served, ar_id)
    assert shown["end_time"] == time.strftime("%m/%d/%Y %H:%M:%S", time.localtime(int(end)))
    assert shown["state"] == "r"
    assert shared_served.run("qrdel", str(ar_id)).returncode == 0


def test_end_and_duration_give_the_start(shared_served: RunningCell) -> None:
    """qrsub -e with -d starts the reservation duration before the end."""
    end = int(time.time()) + 7200
    made = shared_served.run("qrsub", "-e", _date_time(end), "-d", "1:0:0")
    assert made.returncode == 0, made.stdout + made.stderr
    ar_id = int(made.stdout.split()[3])
    shown = _detail(shared_served, ar_id)
    assert shown["start_time"] == time.strftime("%m/%d/%Y %H:%M:%S", time.localtime(end - 3600))
    assert shown["state"] == "w"
    assert shared_served.run("qrdel", str(ar_id)).returncode == 0


@pytest.mark.parametrize(("text", "shown"), [("1::1", "01:00:01"), ("90", "00:01:30"),
                                             ("0x3c", "00:01:00"), ("2k", "00:33:20")])  # fmt: skip
def test_duration_reads_every_time_form(shared_served: RunningCell, text: str, shown: str) -> None:
    """-d takes h:m:s with empty fields, seconds, hex and multipliers, as Grid Engine does."""
    made = shared_served.run("qrsub", "-d", text)
    assert made.returncode == 0, made.stdout + made.stderr
    ar_id = int(made.stdout.split()[3])
    assert _detail(shared_served, ar_id)["duration"] == shown
    assert shared_served.run("qrdel", str(ar_id)).returncode == 0


def test_minutes_and_seconds_duration_is_read_as_sge_types_documents(
    shared_served: RunningCell,
) -> None:
    """-d 1:0 is [[h:]m:]s of sge_types(1): one minute."""
    made = shared_served.run("qrsub", "-d", "1:0")
    assert made.returncode == 0, made.stdout + made.stderr
    ar_id = int(made.stdout.split()[3])
    assert _detail(shared_served, ar_id)["duration"] == "00:01:00"
    assert shared_served.run("qrdel", str(ar_id)).returncode == 0


def test_stored_form_is_grid_engines(shared_served: RunningCell) -> None:
    """qrstat -ar shows hostname=, mail abe, acl/xacl split; without -u no acl_list line."""
    me = shared_served.run("id", "-un").stdout.strip()
    made = shared_served.run(
        "qrsub", "-d", "1:0:0", "-l", "h=host1", "-m", "bea", "-u", f"{me},!nobody"
    )
    assert made.returncode == 0, made.stdout + made.stderr
    first = int(made.stdout.split()[3])
    shown = _detail(shared_served, first)
    assert shown["resource_list"] == "hostname=host1"
    assert shown["mail_options"] == "abe"
    assert (shown["acl_list"], shown["xacl_list"]) == (me, "nobody")
    plain = shared_served.run("qrsub", "-d", "1:0:0")
    second = int(plain.stdout.split()[3])
    assert "acl_list" not in _detail(shared_served, second)
    assert shared_served.run("qrdel", str(first), str(second)).returncode == 0


def test_job_that_cannot_fit_the_ar_is_refused_at_submission(shared_served: RunningCell) -> None:
    """qsub -ar implies -w e: a request the AR's queues cannot meet is refused, not left waiting."""
    made = shared_served.run("qrsub", "-d", "1:0:0", "-l", "h=host1", "-pe", "mpi", "2")
    assert made.returncode == 0, made.stdout + made.stderr
    ar_id = made.stdout.split()[3]
    for extra in (["-l", "h=host3"], ["-pe", "mpi", "2", "-masterq", "all.q@host2"]):
        sub = shared_served.run("qsub", "-ar", ar_id, *extra, "-b", "y", "sleep", "1")
        assert sub.returncode == 1, sub.stdout + sub.stderr
        assert "error: no suitable queues" in sub.stdout + sub.stderr
    fits = ["-pe", "mpi", "2", "-masterq", "all.q@host1", "-b", "y", "sleep", "1"]
    assert shared_served.run("qsub", "-ar", ar_id, *fits).returncode == 0
    assert shared_served.run("qrdel", "-f", ar_id).returncode == 0


def test_qrdel_id_zero_asks_for_a_user_or_ids(shared_served: RunningCell) -> None:
    """qrdel 0 answers Grid Engine's 'specify a username or ids' line and exits 1."""
    gone = shared_served.run("qrdel", "0")
    assert gone.returncode == 1
    assert gone.stdout.strip() == "You have to specify a username or advance_reservation ids"


def test_non_manager_may_not_delete_by_user_pattern(world_readable_cell: RunningCell) -> None:
    """qrdel -u '*' by an ordinary user is refused as a whole, in Grid Engine's words."""
    made = world_readable_cell.run("qrsub", "-d", "1:0:0")
    assert made.returncode == 0, made.stdout + made.stderr
    uid, gid = nobody_ids()
    refused = run_as(world_readable_cell, uid, gid, "qrdel", "-u", "*")
    assert refused.returncode == 1
    text = 'denied: "nobody" must be manager to modify all advance reservations'
    assert text in refused.stdout + refused.stderr
    assert "ar-id" in world_readable_cell.run("qrstat", "-u", "*").stdout


def set_queue(
    cell: RunningCell, tmp_path: Path, key: str, value: str
) -> subprocess.CompletedProcess[str]:
    """Change one attribute of all.q with qconf -Mq; the result for the test to judge."""
    text = cell.run("qconf", "-sq", "all.q", check=True).stdout
    lines = [f"{key} {value}" if ln.split()[:1] == [key] else ln for ln in text.splitlines()]
    path = tmp_path / "all.q"
    path.write_text("\n".join(lines) + "\n")
    return cell.run("qconf", "-Mq", str(path))


def test_running_ar_in_error_shows_e(served: RunningCell, tmp_path: Path) -> None:
    """qrstat shows E for a running AR whose reserved host left its queue (W is for waiting)."""
    assert served.run("qrsub", "-d", "1:0:0", "-l", "h=host2").returncode == 0
    later = _date_time(time.time() + 3600)
    assert served.run("qrsub", "-a", later, "-d", "1:0:0", "-l", "h=host2").returncode == 0
    changed = set_queue(served, tmp_path, "hostlist", "host1 host3 host4")
    assert changed.returncode == 0, changed.stdout + changed.stderr
    rows = served.run("qrstat").stdout.splitlines()[2:]
    states = {row[:7].strip(): row[32:37].strip() for row in rows}  # %7u %-10.10s %-12.12s %-5.5s
    assert states == {"1": "E", "2": "W"}


def test_queue_change_that_breaks_an_ar_is_refused(served: RunningCell, tmp_path: Path) -> None:
    """qconf -Mq taking the AR's PE out of pe_list is refused; the AR stays as it was."""
    made = served.run("qrsub", "-d", "1:0:0", "-pe", "mpi", "2")
    assert made.returncode == 0, made.stdout + made.stderr
    refused = set_queue(served, tmp_path, "pe_list", "make")
    assert refused.returncode == 1
    text = 'denied: removing "mpi" from pe_list would break advance reservation 1'
    assert text in refused.stdout + refused.stderr
    assert "mpi" in served.run("qconf", "-sq", "all.q").stdout.split("pe_list", 1)[1].split("\n")[0]
    assert _detail(served, 1)["state"] == "r"
