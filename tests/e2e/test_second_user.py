"""A second user (``nobody``) against the first user's jobs: Grid Engine's refusals, exit 1."""

from __future__ import annotations

import os

import pytest

from qmaster.testing import RunningCell
from tests.e2e.other_user import nobody_ids, run_as

pytestmark = [
    pytest.mark.timeout(90),
    pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run commands as user nobody"),
]


@pytest.fixture
def cell(world_readable_cell: RunningCell) -> RunningCell:
    """A served cell holding job 1, a held job owned by the test's (root) user."""
    result = world_readable_cell.run("qsub", "-h", "-N", "mine", "-b", "y", "sleep", "1000")
    assert result.returncode == 0, result.stderr
    return world_readable_cell


def as_nobody(cell: RunningCell, *argv: str) -> tuple[int, str, str]:
    result = run_as(cell, *nobody_ids(), *argv)
    return result.returncode, result.stdout, result.stderr


def test_other_user_cannot_delete_the_job(cell: RunningCell) -> None:
    """qdel of root's job by nobody prints the privileges message, exits 1, job stays."""
    code, out, err = as_nobody(cell, "qdel", "1")
    assert code == 1
    assert (out + err).strip() == (
        'nobody - you do not have the necessary privileges to delete the job "1"'
    )
    assert "mine" in cell.run("qstat").stdout


def test_other_user_cannot_alter_the_job(cell: RunningCell) -> None:
    """qalter of root's job by nobody is denied as 'must be at least owner', name unchanged."""
    code, out, err = as_nobody(cell, "qalter", "-N", "stolen", "1")
    assert code == 1
    assert (out + err).strip() == (
        'denied: "nobody" must be at least owner of job 1 to change job attributes'
    )
    detail = cell.run("qstat", "-j", "1").stdout
    assert "job_name:                   mine" in detail


def test_other_user_cannot_shut_the_qmaster_down(cell: RunningCell) -> None:
    """qconf -km by a non-manager is refused with exit 1 and the qmaster keeps answering."""
    code, out, err = as_nobody(cell, "qconf", "-km")
    assert code == 1, out + err
    assert cell.run("qmaster", "status").returncode == 0


def test_other_user_shutdown_refusal_uses_grid_engines_words(cell: RunningCell) -> None:
    """qconf -km by nobody prints 'denied: "nobody" must be manager for this operation'."""
    _code, out, err = as_nobody(cell, "qconf", "-km")
    assert (out + err).strip() == 'denied: "nobody" must be manager for this operation'


def test_other_user_owns_and_deletes_their_own_job(cell: RunningCell) -> None:
    """nobody's qsub is owned by nobody, and nobody may delete it."""
    code, out, err = as_nobody(cell, "qsub", "-h", "-b", "y", "sleep", "1000")
    assert code == 0, err
    assert out.strip() == 'Your job 2 ("sleep") has been submitted'
    listing = cell.run("qstat", "-u", "nobody").stdout
    assert "nobody" in listing
    code, out, err = as_nobody(cell, "qdel", "2")
    assert (code, out.strip()) == (0, "nobody has deleted job 2")


def test_a_manager_may_delete_another_users_job(cell: RunningCell) -> None:
    """root (a manager) deletes nobody's job: 'root has deleted job 2'."""
    assert as_nobody(cell, "qsub", "-h", "-b", "y", "sleep", "1000")[0] == 0
    result = cell.run("qdel", "2")
    assert (result.returncode, result.stdout.strip()) == (0, "root has deleted job 2")


def test_the_request_cannot_claim_to_be_someone_else(cell: RunningCell) -> None:
    """MINIGE_DEBUG_FAKE_USER=root does not let nobody delete root's job."""
    cell.env["MINIGE_DEBUG_FAKE_USER"] = "root"
    try:
        code, out, err = as_nobody(cell, "qdel", "1")
    finally:
        del cell.env["MINIGE_DEBUG_FAKE_USER"]
    assert code == 1
    assert "nobody - you do not have the necessary privileges" in out + err


def test_qresub_and_qconf_tsm_of_a_user_who_is_no_manager(cell: RunningCell) -> None:
    """nobody's qresub of root's job: 'job rejected: nobody@host is not allowed to resubmit
    jobs of user root', exit 4; root (a manager) copies nobody's job and owns the copy.
    nobody's qconf -tsm: the qmaster's warning on stderr, exit 0 (parse_qconf.c goes on)."""
    code, out, _err = as_nobody(cell, "qresub", "1")
    assert code == 4
    assert out.startswith("job rejected: nobody@")
    assert out.endswith(" is not allowed to resubmit jobs of user root\n")
    assert as_nobody(cell, "qsub", "-h", "-b", "y", "sleep", "1000")[0] == 0
    done = cell.run("qresub", "-h", "u", "2")
    assert (done.returncode, done.stdout) == (0, 'Your job 3 ("sleep") has been submitted\n')
    assert "owner:                      root\n" in cell.run("qstat", "-j", "3").stdout
    assert as_nobody(cell, "qconf", "-tsm") == (
        0, "", "starting scheduler monitoring requires manager privileges\n"
    )  # fmt: skip
