"""qconf's attribute verbs, host lists, operators and users against a running qmaster."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.testing import RunningCell
from tests.e2e import cells

pytestmark = pytest.mark.timeout(60)


def _queue_line(cell: RunningCell, queue: str, attr: str) -> str:
    for line in cell.run("qconf", "-sq", queue).stdout.splitlines():
        if line.split()[:1] == [attr]:
            return line.split(None, 1)[1]
    raise AssertionError(f"{attr} not shown")


def test_mattr_writes_a_host_override(minige_cell: RunningCell) -> None:
    """-mattr queue slots 8 all.q@host writes [host=8]; -purge takes it away again."""
    host = minige_cell.run("qconf", "-sel").stdout.split()[0]
    done = minige_cell.run("qconf", "-mattr", "queue", "slots", "8", f"all.q@{host}")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith('modified "all.q" in cluster queue list')
    assert f"[{host}=8]" in _queue_line(minige_cell, "all.q", "slots")
    assert _queue_line(minige_cell, f"all.q@{host}", "slots") == "8"
    purged = minige_cell.run("qconf", "-purge", "queue", "slots", f"all.q@{host}")
    assert purged.returncode == 0, purged.stderr
    assert f"[{host}=" not in _queue_line(minige_cell, "all.q", "slots")
    again = minige_cell.run("qconf", "-purge", "queue", "slots", f"all.q@{host}")
    assert again.returncode == 1
    assert f'Attribute name ("slots") and/or value ("{host}") not found' in again.stderr


def test_aattr_dattr_on_list_attributes(minige_cell: RunningCell) -> None:
    """-aattr adds a complex value, -dattr removes it; a missing value is reported."""
    added = minige_cell.run("qconf", "-aattr", "exechost", "complex_values", "h_vmem=4G", "global")
    assert added.returncode == 0, added.stderr
    assert "h_vmem=4G" in minige_cell.run("qconf", "-se", "global").stdout
    gone = minige_cell.run("qconf", "-dattr", "exechost", "complex_values", "h_vmem=4G", "global")
    assert gone.returncode == 0, gone.stderr
    assert "h_vmem" not in minige_cell.run("qconf", "-se", "global").stdout
    missing = minige_cell.run("qconf", "-dattr", "queue", "pe_list", "nope", "all.q")
    assert missing.returncode == 1
    assert 'Attribute name ("pe_list") and/or value ("nope") not found' in missing.stderr


def test_attr_verbs_validate_like_modify(minige_cell: RunningCell, tmp_path: Path) -> None:
    """A bad value, an unknown attribute or object is refused and nothing changes."""
    before = minige_cell.run("qconf", "-sq", "all.q").stdout
    bad = minige_cell.run("qconf", "-mattr", "queue", "slots", "many", "all.q")
    assert bad.returncode == 1
    assert "slots" in bad.stderr
    unknown = minige_cell.run("qconf", "-mattr", "queue", "nosuch", "1", "all.q")
    assert unknown.returncode == 1
    assert 'The attribute name ("nosuch") and/or value ("1") is invalid' in unknown.stderr
    pe = minige_cell.run("qconf", "-aattr", "queue", "pe_list", "nope", "all.q")
    assert pe.returncode == 1
    assert 'Parallel environment "nope" does not exist' in pe.stderr
    obj = minige_cell.run("qconf", "-mattr", "calendar", "x", "1", "c")
    assert obj.returncode == 1
    assert 'Modification of object "calendar" not supported' in obj.stderr
    none = minige_cell.run("qconf", "-mattr", "queue", "nosuchq", "1", "x.q")
    assert none.returncode == 1
    assert minige_cell.run("qconf", "-sq", "all.q").stdout == before
    (tmp_path / "a").write_text("slots 3\nseq_no 7\n")
    filed = minige_cell.run("qconf", "-Mattr", "queue", str(tmp_path / "a"), "all.q")
    assert filed.returncode == 0, filed.stderr
    assert _queue_line(minige_cell, "all.q", "seq_no") == "7"


def test_admin_and_submit_hosts(minige_cell: RunningCell) -> None:
    """-ah/-sh/-dh and -as/-ss/-ds keep the host lists, in Grid Engine's words."""
    added = minige_cell.run("qconf", "-ah", "nodeA")
    assert added.returncode == 0
    assert added.stdout.strip() == "nodeA added to administrative host list"
    assert "nodeA" in minige_cell.run("qconf", "-sh").stdout.split()
    twice = minige_cell.run("qconf", "-ah", "nodeA")
    assert twice.returncode == 1
    assert 'adminhost "nodeA" already exists' in twice.stderr
    assert minige_cell.run("qconf", "-as", "nodeB").returncode == 0
    assert "nodeB" in minige_cell.run("qconf", "-ss").stdout.split()
    assert minige_cell.run("qconf", "-ds", "nodeB").returncode == 0
    assert "nodeB" not in minige_cell.run("qconf", "-ss").stdout.split()
    missing = minige_cell.run("qconf", "-dh", "nodeZ")
    assert missing.returncode == 1
    assert 'denied: administrative host "nodeZ" does not exist' in missing.stderr


def test_users_and_operators(minige_cell: RunningCell, tmp_path: Path) -> None:
    """-Auser adds a user object, -suser shows it, -duser deletes it; -ao/-so/-do operators."""
    (tmp_path / "u").write_text("name alice\noticket 0\nfshare 5\n")
    added = minige_cell.run("qconf", "-Auser", str(tmp_path / "u"))
    assert added.returncode == 0, added.stderr
    assert added.stdout.strip().endswith('added "alice" to user list')
    assert "fshare" in minige_cell.run("qconf", "-suser", "alice").stdout
    assert minige_cell.run("qconf", "-suserl").stdout.split() == ["alice"]
    assert minige_cell.run("qconf", "-duser", "alice").returncode == 0
    gone = minige_cell.run("qconf", "-suser", "alice")
    assert gone.returncode == 1
    assert "alice is not known as user" in gone.stderr
    assert minige_cell.run("qconf", "-ao", "bob").returncode == 0
    assert "bob" in minige_cell.run("qconf", "-so").stdout.split()
    assert minige_cell.run("qconf", "-do", "bob").returncode == 0


def test_lists_users_and_overrides_survive_a_restart(stopped_cell: RunningCell) -> None:
    """Operators, host lists, user objects and -mattr overrides are spooled and come back."""
    cell = stopped_cell
    cell.start()
    cell.run("qconf", "-ao", "bob", check=True)
    cell.run("qconf", "-as", "nodeS", check=True)
    cell.run("qconf", "-ah", "nodeA", check=True)
    cell.run("qconf", "-mattr", "queue", "seq_no", "9", "all.q@host1", check=True)
    user = cell.cell.root / "user"
    user.write_text("name carol\n")
    cell.run("qconf", "-Auser", str(user), check=True)
    cells.stop(cell)
    cell.start()
    assert cell.run("qconf", "-so").stdout.split() == ["bob"]
    assert cell.run("qconf", "-ss").stdout.split() == ["nodeS"]
    assert cell.run("qconf", "-sh").stdout.split() == ["nodeA"]
    assert cell.run("qconf", "-suserl").stdout.split() == ["carol"]
    assert _queue_line(cell, "all.q@host1", "seq_no") == "9"
