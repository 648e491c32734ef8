"""The test kit's guard against internal errors in a daemon's messages file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qmaster.cell import Cell
from qmaster.testing import RunningCell, fail_on_internal_errors


def _cell(tmp_path: Path, *events: dict[str, object]) -> RunningCell:
    cell = RunningCell(Cell(tmp_path, "default"), {})
    cell.cell.spool.mkdir(parents=True)
    with cell.cell.messages.open("a") as fh:
        fh.writelines(json.dumps(e) + "\n" for e in events)
    return cell


def test_internal_errors_in_the_messages_file_are_found_once(tmp_path: Path) -> None:
    """A core_tick_failed or a logged traceback fails the test; ordinary events do not."""
    cell = _cell(
        tmp_path,
        {"event": "qmaster_started", "level": "info"},
        {"event": "core_tick_failed", "level": "error", "exception": "Traceback..."},
        {"event": "spool_commit_failed", "level": "error", "reason": "disk full"},
        {"event": "something_odd", "level": "error", "exception": "Traceback..."},
    )
    assert [e["event"] for e in cell.internal_errors()] == ["core_tick_failed", "something_odd"]
    assert cell.internal_errors() == []
    with cell.cell.messages.open("a") as fh:
        fh.write(json.dumps({"event": "core_request_failed", "level": "error"}) + "\n")
        fh.write('{"event": "core_tick_fai')  # a line still being written is read next time
    found = cell.internal_errors()
    assert [e["event"] for e in found] == ["core_request_failed"]
    with pytest.raises(pytest.fail.Exception, match="core_request_failed"):
        fail_on_internal_errors(found, None)
