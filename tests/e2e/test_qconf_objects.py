"""qconf's list, add and delete switches for whole objects, against a running qmaster."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(60)


def test_lists_of_usersets_and_host_groups(minige_cell: RunningCell) -> None:
    """-sul lists the usersets, -shgrpl the host groups, -shgrp shows one."""
    assert minige_cell.run("qconf", "-sul").stdout.split() == [
        "arusers",
        "deadlineusers",
        "defaultdepartment",
    ]
    assert minige_cell.run("qconf", "-shgrpl").stdout.split() == ["@allhosts"]
    shown = minige_cell.run("qconf", "-shgrp", "@allhosts").stdout
    assert shown.splitlines()[0].split() == ["group_name", "@allhosts"]


def test_add_then_delete_a_queue(minige_cell: RunningCell, tmp_path: Path) -> None:
    """-Aq adds a queue from a file and -dq removes it, in Grid Engine's words."""
    text = minige_cell.run("qconf", "-sq", "all.q").stdout.replace("all.q", "short.q", 1)
    (tmp_path / "q").write_text(text)
    added = minige_cell.run("qconf", "-Aq", str(tmp_path / "q"))
    assert added.returncode == 0
    assert added.stdout.strip().endswith('added "short.q" to cluster queue list')
    assert minige_cell.run("qconf", "-sql").stdout.split() == ["all.q", "short.q"]
    removed = minige_cell.run("qconf", "-dq", "short.q")
    assert removed.stdout.strip().endswith('removed "short.q" from cluster queue list')
    assert minige_cell.run("qconf", "-sql").stdout.split() == ["all.q"]


def test_truncated_modify_is_refused(minige_cell: RunningCell, tmp_path: Path) -> None:
    """-Mq of a file with only its name is refused; the queue keeps its hosts."""
    (tmp_path / "q").write_text("qname all.q\n")
    result = minige_cell.run("qconf", "-Mq", str(tmp_path / "q"))
    assert result.returncode == 1
    assert 'Required attribute "hostlist" is missing' in result.stdout + result.stderr
    assert "@allhosts" in minige_cell.run("qconf", "-sq", "all.q").stdout
