"""Decoded requests and spool rows share equal strings, within bounds."""

from __future__ import annotations

import json

from qmaster.gdi.client import request_body
from qmaster.gdi.server import parse_envelope
from qmaster.sharedstrings import SharedStrings


def _submit(name: str, path: str) -> bytes:
    job = {"CMDNAME": "sleep", "N": name, "l_hard": {"arch": "lx-amd64"}, "SGE_O_PATH": path}
    return request_body("submit", {"job": job, "verify": "n"})


def test_two_submissions_hold_one_copy_of_their_equal_strings() -> None:
    """Jobs submitted with the same names and requests share those strings in the daemon."""
    path = "/usr/local/bin:" + "x" * 40
    a = parse_envelope(_submit("waiter", path)).args["job"]
    b = parse_envelope(_submit("waiter", path)).args["job"]
    assert a == b
    assert a["N"] is b["N"]
    assert a["SGE_O_PATH"] is b["SGE_O_PATH"]
    assert a["l_hard"]["arch"] is b["l_hard"]["arch"]
    assert next(iter(a["l_hard"])) is next(iter(b["l_hard"]))


def test_the_bounded_table_starts_afresh_and_skips_long_strings() -> None:
    """No stream of distinct names grows the table past its limit; long strings are not kept."""
    shared = SharedStrings(limit=8, longest=10)
    for n in range(100):
        assert shared.decode(json.dumps({"N": f"job{n}"})) == {"N": f"job{n}"}
        assert len(shared._seen) <= 8
    long = "y" * 11
    first = shared.decode(json.dumps({"k": long}))["k"]
    second = shared.decode(json.dumps({"k": long}))["k"]
    assert first == second
    assert first is not second


def test_recovery_decoder_shares_every_string() -> None:
    """The spool's decoder (no limit) shares long strings too: recovered specs hold one copy."""
    shared = SharedStrings()
    long = "z" * 5000
    first = shared.decode(json.dumps({"SGE_O_PATH": long}))
    second = shared.decode(json.dumps({"SGE_O_PATH": long}))
    assert first["SGE_O_PATH"] is second["SGE_O_PATH"]
