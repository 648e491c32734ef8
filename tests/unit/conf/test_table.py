"""The complex table: qconf -sc layout and validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.complexes.table import ComplexTable
from qmaster.complexes.types import Consumable, ValueType
from qmaster.conf.errors import ConfigError

HEADER = "#name               shortcut   type        relop requestable consumable default  urgency "
SAMPLE = (
    HEADER
    + """
#----------------------------------------------------------------------------------------
arch                a          RESTRING    ==    YES         NO         NONE     0
slots               s          INT         <=    YES         YES        1        1000
# >#< starts a comment but comments are not saved across edits --------
"""
)
LONG_NAMES = "m_topology_inuse utopo RESTRING == YES NO NONE 0\n"


def default_table() -> ComplexTable:
    path = DEFAULT_CONF_DIR / "complexes"
    return ComplexTable.parse(path.read_text(), str(path))


def test_render_matches_ge_sample() -> None:
    """With the default set, header, rows and footer are exactly Grid Engine's."""
    lines = default_table().render().splitlines()
    sample = SAMPLE.splitlines()
    assert lines[:2] == sample[:2]
    assert lines[2] == sample[2]
    assert next(line for line in lines if line.startswith("slots ")) == sample[3]
    assert lines[-1] == sample[-1]


def test_sample_rows_parse() -> None:
    """The sample's own text (header, footer, comments) parses to its two rows."""
    assert ComplexTable.parse(SAMPLE + LONG_NAMES).names == ["arch", "slots", "m_topology_inuse"]


def test_widths_follow_the_data() -> None:
    """Short names give a narrower first column than the default set."""
    table = ComplexTable.parse("ab a INT <= YES NO 0 0\n")
    header, dashes, row, _ = table.render().splitlines()
    assert header.startswith("#name shortcut ")
    assert row == "ab    a        INT    <=    YES         NO         0       0"
    assert len(dashes) == len(header) == 67


def test_default_set_renders_88_dashes() -> None:
    """Grid Engine's default complexes give the familiar 88-dash header line."""
    table = default_table()
    assert table.render().splitlines()[1] == "#" + "-" * 88
    assert table.render() == (DEFAULT_CONF_DIR / "complexes").read_text()


def test_default_set_has_ge_attributes() -> None:
    """The shipped table holds GE's default attributes with their real types."""
    table = default_table()
    assert len(table) == 51
    assert table["slots"].consumable is Consumable.YES
    assert table["h_rt"].type is ValueType.TIME
    assert table["mf"].name == "mem_free"
    assert "hostname" in table
    assert "swap_rsvd" in table


def test_round_trip() -> None:
    """Parsing the rendered table gives the same table."""
    table = default_table()
    assert ComplexTable.parse(table.render()) == table


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("foo f NUMBER <= YES NO 0 0", 'unknown complex attribute type "NUMBER"'),
        ("foo f INT =< YES NO 0 0", 'unknown relational operator "=<"'),
        ("foo f INT <= MAYBE NO 0 0", 'unknown requestable value "MAYBE"'),
        ("foo f INT <= YES SOMETIMES 0 0", 'unknown consumable value "SOMETIMES"'),
        ("foo f MEMORY <= YES NO lots 0", 'wrong type in "foo=lots" - MEMORY expected'),
        ("foo f INT <= YES NO 0", "expected 8 fields, got 7"),
        ("foo s INT <= YES NO 0 0", 'complex with name "foo" or shortcut "s" already exists'),
        ("slots x INT <= YES NO 0 0", 'complex with name "slots" or shortcut "x" already'),
    ],
)
def test_bad_lines_name_path_line_and_reason(line: str, reason: str, tmp_path: Path) -> None:
    """A bad complex line is reported as path:line: reason."""
    text = "#comment\nslots s INT <= YES YES 1 1000\n" + line + "\n"
    with pytest.raises(ConfigError) as info:
        ComplexTable.parse(text, "cx")
    assert str(info.value).startswith(f"cx:3: {reason}")


def test_a_row_may_go_on_after_a_backslash() -> None:
    """The flat-file scanner skips a backslash before the newline: a row continued so is one
    row (it was refused as 'expected 8 fields'); errors name the row's first line."""
    text = "slots s INT <= YES YES 1 1000\nfoo f INT <= \\\n   YES NO 0 0\n"
    assert ComplexTable.parse(text).get("foo") is not None
    with pytest.raises(ConfigError) as info:
        ComplexTable.parse(text.replace("YES NO 0 0", "YES NO 0"), "cx")
    assert str(info.value) == "cx:2: expected 8 fields, got 7"
