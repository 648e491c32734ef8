"""The override rules of the value hierarchy, enforced on configuration."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.complexes.levels import HOST, OverrideError, build_level, check_override
from qmaster.conf.errors import ConfigError
from qmaster.conf.store import ClusterConfig

EXTRA = "fixed_cap fc INT <= YES NO 0 0\nlabel lb STRING == YES NO NONE 0\n"


def _cell(tmp_path: Path, host: str = "NONE", queue: str = "NONE") -> Path:
    conf = shutil.copytree(DEFAULT_CONF_DIR, tmp_path / "conf")
    (conf / "complexes").write_text((conf / "complexes").read_text() + EXTRA)
    h = conf / "exechosts" / "host1"
    h.write_text(
        h.read_text().replace("complex_values        NONE", f"complex_values        {host}")
    )
    q = conf / "cqueues" / "all.q"
    q.write_text(
        q.read_text().replace("complex_values        NONE", f"complex_values        {queue}")
    )
    return conf


def test_equality_attribute_cannot_be_overridden_on_a_lower_level(tmp_path: Path) -> None:
    """arch is a host load value (==): a queue may not set it."""
    with pytest.raises(ConfigError) as info:
        ClusterConfig.load_dir(_cell(tmp_path, queue="arch=sol-sparc64"))
    assert 'attribute "arch" (relop ==) is already defined on host level' in str(info.value)


def test_equality_attribute_may_be_overridden_on_the_same_level(tmp_path: Path) -> None:
    """A host may override its own arch load value with a fixed one."""
    conf = ClusterConfig.load_dir(_cell(tmp_path, host="arch=sol-sparc64"))
    assert conf.exechost("host1").complex_values == {"arch": "sol-sparc64"}  # type: ignore[union-attr]


def test_less_restrictive_value_on_a_lower_level_is_refused(tmp_path: Path) -> None:
    """A queue may lower the host's fixed_cap (<=) but not raise it."""
    ClusterConfig.load_dir(_cell(tmp_path / "a", host="fixed_cap=10", queue="fixed_cap=5"))
    with pytest.raises(ConfigError) as info:
        ClusterConfig.load_dir(_cell(tmp_path / "b", host="fixed_cap=10", queue="fixed_cap=20"))
    assert '"fixed_cap=20" is less restrictive than the one of host level host1' in str(info.value)


def test_more_restrictive_mem_total_below_load_is_fine() -> None:
    """Example 2: mem_total reported 8G on the host; a queue may offer 1G, not 16G."""
    from qmaster.complexes.table import ComplexTable

    table = ComplexTable.parse((DEFAULT_CONF_DIR / "complexes").read_text())
    host = build_level(HOST, "h", table, loads={"mem_total": "8G"})
    check_override(table, host, {"mem_total": "1G"}, "queue q")
    with pytest.raises(OverrideError):
        check_override(table, host, {"mem_total": "16G"}, "queue q")


def test_same_level_fixed_and_load_dominant_is_more_restrictive() -> None:
    """Example 2: custom 1G over a 4G load gives 1G; custom 1G over 0.9G load gives 0.9G."""
    from qmaster.complexes.table import ComplexTable

    table = ComplexTable.parse((DEFAULT_CONF_DIR / "complexes").read_text())
    a = build_level(HOST, "h", table, loads={"mem_free": "4G"}, complex_values={"mf": "1G"})
    b = build_level(HOST, "h", table, loads={"mem_free": "0.9G"}, complex_values={"mf": "1G"})
    assert (a.values["mem_free"], a.sources["mem_free"]) == (1024**3, "f")
    assert (b.values["mem_free"], b.sources["mem_free"]) == (0.9 * 1024**3, "l")
