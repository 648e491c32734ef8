"""The restriction rules of complex definitions, enforced when a table is loaded or changed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.complexes.table import ComplexTable
from qmaster.conf.errors import ConfigError
from qmaster.conf.store import ClusterConfig

BASE = (DEFAULT_CONF_DIR / "complexes").read_text()


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("s1 s1 STRING <= YES NO NONE 0", 'relational operator "<=" is not valid for STRING'),
        ("h1 h1 HOST >= YES NO NONE 0", 'relational operator ">=" is not valid for HOST'),
        ("b1 b1 BOOL != YES NO 0 0", 'relational operator "!=" is not valid for BOOL'),
        ("c1 c1 INT >= YES YES 0 0", 'consumable attribute "c1" needs the relational operator <='),
        ("c2 c2 STRING == YES YES NONE 0", "cannot be consumable"),
        ("c3 c3 INT <= NO YES 0 0", 'non-requestable consumable "c3" needs a default'),
        ("c4 c4 INT <= FORCED YES 2 0", 'forced consumable "c4" must not have a default'),
        ("d1 d1 INT <= YES NO 5 0", 'only consumables may have a default value ("d1=5")'),
        ("x1 x1 INT EXCL YES YES 0 0", "EXCL is only valid for BOOL"),
        ("x2 x2 BOOL EXCL YES NO 0 0", 'attribute "x2" with relational operator EXCL must be'),
        ("arch a INT == YES NO 0 0", 'the type of built-in complex "arch" cannot be changed'),
    ],
)
def test_invalid_definitions_are_refused_with_line_and_reason(line: str, reason: str) -> None:
    """Each rule of the specification refuses its bad combination, naming it."""
    kept = "\n".join(
        r for r in BASE.splitlines() if not r.startswith(line.split(maxsplit=1)[0] + " ")
    )
    text = kept + "\n" + line + "\n"
    with pytest.raises(ConfigError) as info:
        ComplexTable.parse(text, "cx")
    assert reason in str(info.value)
    assert str(info.value).startswith(f"cx:{len(text.splitlines())}: ")


@pytest.mark.parametrize(
    "line",
    [
        "arch a CSTRING == YES NO NONE 0",
        "arch a STRING == YES NO NONE 0",
        "lic lic INT <= YES JOB 0 0",
        "ex ex BOOL EXCL YES YES 0 0",
        "mem mem MEMORY <= NO YES 1G 0",
        "cnt cnt DOUBLE < YES NO 0 0",
        "gpu gpu INT <= FORCED YES 0 0",
    ],
)
def test_valid_definitions_are_accepted(line: str) -> None:
    """Allowed combinations load, string built-ins may switch among the string types."""
    kept = "\n".join(
        r for r in BASE.splitlines() if not r.startswith(line.split(maxsplit=1)[0] + " ")
    )
    table = ComplexTable.parse(kept + "\n" + line + "\n")
    assert line.split(maxsplit=1)[0] in table


def _cell(tmp_path: Path) -> ClusterConfig:
    shutil.copytree(DEFAULT_CONF_DIR, tmp_path / "conf")
    return ClusterConfig.load_dir(tmp_path / "conf")


def test_qconf_mc_cannot_delete_a_builtin(tmp_path: Path) -> None:
    """Removing a built-in attribute with qconf -Mc is refused and nothing changes."""
    conf = _cell(tmp_path)
    text = "\n".join(r for r in BASE.splitlines() if not r.startswith("h_rt "))
    change = conf.apply("conf_modify", {"kind": "complex", "text": text}, "root", "h", True)
    assert not change.ok
    assert 'The built-in complex "h_rt" cannot be deleted' in [a.text for a in change.answers]
    assert "h_rt" in conf.complexes


def test_qconf_mc_refuses_retyping_a_builtin(tmp_path: Path) -> None:
    """Changing h_rt from TIME to INT is refused with a clear reason."""
    conf = _cell(tmp_path)
    rows = [r for r in BASE.splitlines() if not r.startswith("h_rt ")]
    text = "\n".join([*rows, "h_rt h_rt INT <= YES NO 0 0"]) + "\n"
    change = conf.apply("conf_modify", {"kind": "complex", "text": text}, "root", "h", True)
    assert not change.ok
    assert 'the type of built-in complex "h_rt" cannot be changed' in change.answers[0].text
