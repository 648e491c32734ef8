"""The override rules of the value hierarchy, enforced on configuration."""

from __future__ import annotations

import shutil
from pathlib import Path

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.complexes.levels import HOST, QUEUE, build_level, shadow_equalities
from qmaster.complexes.table import ComplexTable
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


def test_equality_attribute_on_a_lower_level_is_accepted(tmp_path: Path) -> None:
    """arch (==) is a host load value; a queue may still set it, as Grid Engine allows."""
    conf = ClusterConfig.load_dir(_cell(tmp_path, queue="arch=sol-sparc64"))
    assert conf.cqueues["all.q"].attrs["complex_values"] == "arch=sol-sparc64"


def test_equality_attribute_may_be_overridden_on_the_same_level(tmp_path: Path) -> None:
    """A host may override its own arch load value with a fixed one."""
    conf = ClusterConfig.load_dir(_cell(tmp_path, host="arch=sol-sparc64"))
    assert conf.exechost("host1").complex_values == {"arch": "sol-sparc64"}  # type: ignore[union-attr]


def test_less_restrictive_value_on_a_lower_level_is_accepted(tmp_path: Path) -> None:
    """A queue may give fixed_cap (<=) a larger value than its host; matching uses both."""
    conf = ClusterConfig.load_dir(_cell(tmp_path, host="fixed_cap=10", queue="fixed_cap=20"))
    assert conf.cqueues["all.q"].attrs["complex_values"] == "fixed_cap=20"


def test_upper_equality_value_wins_over_a_lower_one() -> None:
    """complex(5): a == value set below an upper level gives way; ordered values stay."""
    table = ComplexTable.parse((DEFAULT_CONF_DIR / "complexes").read_text() + EXTRA)
    host = build_level(HOST, "h", table, loads={"arch": "lx-amd64", "mem_total": "8G"})
    queue = build_level(QUEUE, "q@h", table, complex_values={"arch": "sol", "fixed_cap": "3"},
                        fixed={"mem_total": "1G", "qname": "q"})  # fmt: skip
    shadow_equalities(table, queue, host)
    assert "arch" not in queue.values
    assert queue.values["mem_total"] == 1024**3
    assert queue.values["qname"] == "q"


def test_same_level_fixed_and_load_dominant_is_more_restrictive() -> None:
    """Example 2: custom 1G over a 4G load gives 1G; custom 1G over 0.9G load gives 0.9G."""
    table = ComplexTable.parse((DEFAULT_CONF_DIR / "complexes").read_text())
    a = build_level(HOST, "h", table, loads={"mem_free": "4G"}, complex_values={"mf": "1G"})
    b = build_level(HOST, "h", table, loads={"mem_free": "0.9G"}, complex_values={"mf": "1G"})
    assert (a.values["mem_free"], a.sources["mem_free"]) == (1024**3, "f")
    assert (b.values["mem_free"], b.sources["mem_free"]) == (0.9 * 1024**3, "l")
