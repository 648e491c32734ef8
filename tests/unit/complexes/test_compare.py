"""Comparison of requested and offered values: every type with every operator it allows."""

from __future__ import annotations

import pytest

from qmaster.complexes.compare import satisfies
from qmaster.complexes.types import Relop, ValueType
from qmaster.complexes.values import parse_value

T, R = ValueType, Relop
# (type, relop, requested, offered, expected): requested relop offered
CASES = [
    (T.INT, R.EQ, "4", "4", True), (T.INT, R.EQ, "4", "5", False),
    (T.INT, R.NE, "4", "5", True), (T.INT, R.NE, "4", "4", False),
    (T.INT, R.LT, "3", "4", True), (T.INT, R.LT, "4", "4", False),
    (T.INT, R.LE, "4", "4", True), (T.INT, R.LE, "5", "4", False),
    (T.INT, R.GT, "5", "4", True), (T.INT, R.GT, "4", "4", False),
    (T.INT, R.GE, "4", "4", True), (T.INT, R.GE, "3", "4", False),
    (T.DOUBLE, R.EQ, "1.5", "1.50", True), (T.DOUBLE, R.NE, "1.5", "1.5", False),
    (T.DOUBLE, R.LT, "0.5", "0.75", True), (T.DOUBLE, R.LE, "0.8", "0.75", False),
    (T.DOUBLE, R.GT, "2", "1.99", True), (T.DOUBLE, R.GE, "1.98", "1.99", False),
    (T.MEMORY, R.EQ, "1G", "1024M", True), (T.MEMORY, R.NE, "1g", "1G", True),
    (T.MEMORY, R.LT, "1G", "2G", True), (T.MEMORY, R.LE, "2G", "1.5G", False),
    (T.MEMORY, R.GT, "4k", "4000", False), (T.MEMORY, R.GE, "4K", "4000", True),
    (T.MEMORY, R.LE, "100G", "INFINITY", True),
    (T.TIME, R.EQ, "1:0:0", "3600", True), (T.TIME, R.NE, "1:0:0", "3600", False),
    (T.TIME, R.LT, "0:59:59", "1:0:0", True), (T.TIME, R.LE, "1:0:1", "1:0:0", False),
    (T.TIME, R.GT, "2:0:0", "1:0:0", True), (T.TIME, R.GE, "0:0:1", "0:0:2", False),
    (T.TIME, R.LE, "999:0:0", "INFINITY", True),
    (T.BOOL, R.EQ, "true", "1", True), (T.BOOL, R.EQ, "TRUE", "false", False),
    (T.BOOL, R.EXCL, "true", "true", True), (T.BOOL, R.EXCL, "true", "false", False),
    (T.BOOL, R.EXCL, "false", "false", True),
    (T.STRING, R.EQ, "linux", "linux", True), (T.STRING, R.EQ, "Linux", "linux", False),
    (T.STRING, R.EQ, "lin*", "linux", True), (T.STRING, R.NE, "sol", "linux", True),
    (T.CSTRING, R.EQ, "LINUX", "linux", True), (T.CSTRING, R.NE, "LINUX", "linux", False),
    (T.RESTRING, R.EQ, "lx-*", "lx-amd64", True), (T.RESTRING, R.EQ, "lx-?", "lx-amd64", False),
    (T.RESTRING, R.EQ, "sol|lx-amd64", "lx-amd64", True),
    (T.RESTRING, R.NE, "sol*", "lx-amd64", True), (T.RESTRING, R.NE, "lx*", "lx-amd64", False),
    (T.HOST, R.EQ, "Node1", "node1", True), (T.HOST, R.NE, "node1", "node2", True),
    (T.STRING, R.EQ, "!sol*&l*", "linux", True), (T.STRING, R.EQ, "!lin*", "linux", False),
    (T.CSTRING, R.EQ, "(SOL*|LIN*)", "linux", True), (T.HOST, R.EQ, "node[1-3]", "node2", True),
    (T.HOST, R.EQ, "node*&!node2", "node2", False), (T.RESTRING, R.EQ, "lx*&*64", "lx-amd64", True),
]  # fmt: skip


@pytest.mark.parametrize(("vtype", "relop", "requested", "offered", "expected"), CASES)
def test_type_and_relop_table(
    vtype: ValueType, relop: Relop, requested: str, offered: str, expected: bool
) -> None:
    """A request matches an offer exactly as the type and operator define."""
    req, off = parse_value(vtype, requested), parse_value(vtype, offered)
    assert satisfies(vtype, relop, req, off) is expected


def test_every_type_and_allowed_relop_is_covered() -> None:
    """The table above exercises every type with every operator the rules allow for it."""
    seen = {(v, r) for v, r, *_ in CASES}
    numeric = {R.EQ, R.NE, R.LT, R.LE, R.GT, R.GE}
    wanted = {(t, r) for t in (T.INT, T.DOUBLE, T.MEMORY, T.TIME) for r in numeric}
    wanted |= {(T.BOOL, R.EQ), (T.BOOL, R.EXCL)}
    wanted |= {(t, r) for t in (T.STRING, T.CSTRING, T.RESTRING, T.HOST) for r in (R.EQ, R.NE)}
    assert wanted <= seen
