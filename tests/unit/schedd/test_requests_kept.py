"""Requests resolved with the parts kept per complex table: the same as worked out fresh."""

from __future__ import annotations

from schedd.requests import _defaults, _req, compile_requests
from tests.unit.schedd.helpers import table


def _fresh_defaults(tbl: object, names: set[str]) -> list[tuple[str, float]]:
    _req.cache_clear()
    return [(r.name, r.amount) for r in _defaults(tbl, names)]  # type: ignore[arg-type]


def test_a_new_table_brings_its_own_defaults_and_exclusive_attributes() -> None:
    """A changed default and a new ``EXCL`` attribute are seen at once (nothing of the
    old table's kept parts), and each table's result equals a fresh resolution."""
    old = table("tok tok INT <= YES YES 1 0")
    new = table("tok tok INT <= YES YES 3 0", "ex ex BOOL EXCL YES YES 0 0")
    hard = {"h_rt": "60", "mem_free": "1G"}
    for tbl, tok, excl in ((old, 1.0, ()), (new, 3.0, (("ex", False),)), (old, 1.0, ())):
        for _ in range(2):  # worked out, then kept
            made = compile_requests(tbl, hard, {})
            amounts = {r.name: r.amount for r in made.consumables}
            assert amounts["tok"] == tok
            assert made.excl == excl
            assert [(r.name, r.amount) for r in made.consumables if r.default] == (
                _fresh_defaults(tbl, {"h_rt", "mem_free"})
            )
    asked = compile_requests(new, {"ex": "true", "tok": "2"}, {})
    assert asked.excl == (("ex", True),)
    assert [r.name for r in asked.consumables if r.default] == ["slots"]
