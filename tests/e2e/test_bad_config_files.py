"""qconf -M* with a bad file: refused with path, line and reason; the object and daemon unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.testing import RunningCell

pytestmark = pytest.mark.timeout(60)


def edited(cell: RunningCell, show: list[str], path: Path, edit: dict[str, str]) -> tuple[str, int]:
    """Write the shown object to ``path`` with lines replaced per ``edit`` (by first word).

    Returns the original text and the 1-based line number of the first edited line.
    """
    original = cell.run("qconf", *show, check=True).stdout
    lines = original.splitlines()
    first = 0
    for i, line in enumerate(lines):
        word = line.split(maxsplit=1)[0] if line.strip() else ""
        if word in edit:
            lines[i] = edit[word]
            first = first or i + 1
    if "+" in edit:
        lines.append(edit["+"])
        first = first or len(lines)
    path.write_text("\n".join(lines) + "\n")
    return original, first


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        pytest.param(
            {"+": "frobnicate 1"}, 'unknown attribute name "frobnicate"', id="unknown-key"
        ),
        pytest.param(
            {"seq_no": "seq_no bogus"},
            'invalid value for attribute "seq_no": "bogus" is not an integer',
            id="bad-value",
        ),
    ],
)
def test_bad_queue_file_is_refused_and_the_queue_is_unchanged(
    shared_served: RunningCell, tmp_path: Path, edit: dict[str, str], reason: str
) -> None:
    """qconf -Mq with a bad line prints 'path:line: reason', exits 1; qconf -sq is unchanged."""
    path = tmp_path / "all.q.txt"
    before, line = edited(shared_served, ["-sq", "all.q"], path, edit)
    result = shared_served.run("qconf", "-Mq", str(path))
    assert result.returncode == 1
    assert f"{path}:{line}: {reason}" in result.stderr
    assert shared_served.run("qconf", "-sq", "all.q").stdout == before
    assert shared_served.run("qmaster", "status").returncode == 0


def test_bad_complex_type_is_refused_and_the_table_is_unchanged(
    shared_served: RunningCell, tmp_path: Path
) -> None:
    """qconf -Mc with type FLOAT names the file, the line and the bad type; qconf -sc unchanged."""
    before = shared_served.run("qconf", "-sc", check=True).stdout
    lines = before.splitlines()
    (index,) = [i for i, ln in enumerate(lines) if ln.startswith("slots ")]
    lines[index] = lines[index].replace("INT", "FLOAT", 1)
    path = tmp_path / "complexes.txt"
    path.write_text("\n".join(lines) + "\n")
    result = shared_served.run("qconf", "-Mc", str(path))
    assert result.returncode == 1
    assert f'{path}:{index + 1}: unknown complex attribute type "FLOAT"' in result.stderr
    assert shared_served.run("qconf", "-sc").stdout == before
    assert shared_served.run("qmaster", "status").returncode == 0


def test_good_queue_file_is_taken_and_shown_back(
    shared_served: RunningCell, tmp_path: Path
) -> None:
    """qconf -Mq with a valid change is accepted and qconf -sq shows the new value."""
    path = tmp_path / "all.q.txt"
    edited(shared_served, ["-sq", "all.q"], path, {"seq_no": "seq_no 7"})
    result = shared_served.run("qconf", "-Mq", str(path))
    assert result.returncode == 0, result.stderr
    shown = shared_served.run("qconf", "-sq", "all.q").stdout.splitlines()
    assert [ln.split() for ln in shown if ln.startswith("seq_no")] == [["seq_no", "7"]]


def test_missing_file_is_reported(shared_served: RunningCell, tmp_path: Path) -> None:
    """qconf -Mq of a file that does not exist says so and exits 1."""
    result = shared_served.run("qconf", "-Mq", str(tmp_path / "nope"))
    assert result.returncode == 1
    assert "nope" in result.stderr
