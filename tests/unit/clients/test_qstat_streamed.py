"""qstat printing a listing frame by frame prints exactly what it prints from one reply."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from clients import qstat
from qmaster.core import Core
from qmaster.core.qstat_rows import ChunkedListing
from qmaster.gdi.client import Reply
from qmaster.stimuli_wire import parse
from tests.unit.core.helpers import ALICE, ROOT, T0, make_core, submit
from tests.unit.core.test_qstat_compact_rows import varied_cell

NOW = T0 + 9

ARGVS = [
    [],
    ["-s", "z"],
    ["-s", "prz"],
    ["-s", "hu"],
    ["-f"],
    ["-f", "-s", "prz"],
    ["-ext"],
    ["-pri"],
    ["-urg"],
    ["-r"],
    ["-t"],
    ["-g", "t"],
    ["-g", "d"],
    ["-g", "c"],
    ["-f", "-ext"],
    ["-f", "-r", "-pri"],
    ["-F", "slots"],
    ["-explain", "a"],
    ["-q", "all.q@host1"],
    ["-xml"],
    ["-xml", "-f", "-s", "prz"],
    ["-xml", "-r", "-ext"],
    ["-json"],
    ["-json", "-f", "-s", "z"],
    ["-u", "bob"],
    ["-u", "nobody"],
]


def _wire(data: Any) -> Any:
    return json.loads(json.dumps(data))


class FakeConnection:
    """A connection whose qmaster is a core in this process, at a fixed time."""

    core: Core

    def __init__(self, *_: object, **__: object) -> None:
        self.frames: Iterator[dict[str, Any]] = iter(())

    def __enter__(self) -> FakeConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def call(self, op: str, args: dict[str, Any]) -> Reply:
        now = max(NOW, self.core.now)  # the core's time only moves forward
        out = self.core.handle(parse(ROOT, op, args), now)
        data = out.data
        if isinstance(data, ChunkedListing):
            self.frames = data.frames()
            data = next(self.frames)
        return Reply(list(out.answers), _wire(data))

    def receive(self) -> Reply | None:
        data = next(self.frames, None)
        return None if data is None else Reply([], _wire(data))


@pytest.fixture(scope="module")
def cell() -> Core:
    return varied_cell()


@pytest.mark.parametrize("argv", ARGVS, ids=" ".join)
def test_streamed_output_is_byte_identical(
    cell: Core,
    argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every layout prints the same bytes and exit code whether the rows came in frames
    or in one reply."""
    _compare(cell, argv, monkeypatch, capsys)


@pytest.fixture(scope="module")
def fractional_cell() -> Core:
    """Jobs submitted and started at times with a fraction of a second."""
    core = make_core()
    for n in range(4):
        submit(core, ALICE, CMDARGS=["30"], N=f"run{n}", now=T0 + 0.75)
    for t in (1.3, 2.6, 3.9, 5.2):  # dispatched and started at fractional times
        core.tick(T0 + t)
    for n in range(5):
        submit(core, ALICE, CMDARGS=["30"], N=f"wait{n}", h=True, now=T0 + 5.999)
    return core


@pytest.mark.parametrize("argv", [[], ["-xml"], ["-json"], ["-ext"], ["-f"]], ids=" ".join)
def test_times_with_fractions_print_alike(
    fractional_cell: Core,
    argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Submit and start times print the same second whether the rows came in frames (whole
    seconds on the wire) or in one reply."""
    _compare(fractional_cell, argv, monkeypatch, capsys)


def _compare(
    cell: Core,
    argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(FakeConnection, "core", cell, raising=False)
    monkeypatch.setattr(qstat, "Connection", FakeConnection)
    monkeypatch.setattr(qstat, "CHUNK_ROWS", 3)

    def whole(op: str, args: dict[str, Any]) -> Reply:
        out = cell.handle(parse(ROOT, op, args), NOW)
        return Reply(list(out.answers), _wire(out.data))

    argv = argv if "-u" in argv else [*argv, "-u", "*"]
    code_whole = qstat.main(argv, transport=whole)
    once = capsys.readouterr()
    code_streamed = qstat.main(argv)
    streamed = capsys.readouterr()
    assert (code_streamed, streamed.out, streamed.err) == (code_whole, once.out, once.err)
    if argv[0] not in ("-u", "-q", "-g"):
        assert once.out, "the cell should show something"
