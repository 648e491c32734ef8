"""The simulated execd enters a job's working directory as its owner would."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from qmaster.model import Identity
from qmaster.workdirs import workdir_error

STRANGER = Identity(os.getuid() + 4321, os.getgid() + 4321, "nosuchuser-minige", "nogroup")


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    """A directory every user may search (pytest's own are 0700, closed to the stranger)."""
    made = Path(tempfile.mkdtemp(prefix="minige-workdirs-", dir="/tmp"))
    made.chmod(0o755)
    yield made
    shutil.rmtree(made, ignore_errors=True)


def test_a_path_under_a_closed_directory_says_permission_denied_whether_it_exists_or_not(
    tmp_path: Path,
) -> None:
    """Under a 0700 directory of someone else, an existing and a missing path read alike:
    the owner learns nothing about what lies there (it used to be checked as the daemon)."""
    closed = tmp_path / "closed"
    (closed / "exists").mkdir(parents=True)
    closed.chmod(0o700)
    assert workdir_error(str(closed / "exists"), STRANGER) == "Permission denied"
    assert workdir_error(str(closed / "missing"), STRANGER) == "Permission denied"


def test_an_open_path_is_entered_and_a_missing_one_is_named(tmp_path: Path) -> None:
    """A searchable directory is fine; a missing one or a file is the execd's usual error."""
    (tmp_path / "open").mkdir()
    (tmp_path / "file").write_text("")
    assert workdir_error(str(tmp_path / "open"), STRANGER) is None
    assert workdir_error(str(tmp_path / "gone"), STRANGER) == "No such file or directory"
    assert workdir_error(str(tmp_path / "file"), STRANGER) == "Not a directory"


def test_the_owner_of_a_closed_directory_may_enter_it(tmp_path: Path) -> None:
    """The directory's own user (and root) searches it; others may not."""
    closed = tmp_path / "mine"
    closed.mkdir(mode=0o700)
    me = Identity(os.getuid(), os.getgid(), "me", "mygroup")
    assert workdir_error(str(closed), me) is None
    assert workdir_error(str(closed), STRANGER) == "Permission denied"
