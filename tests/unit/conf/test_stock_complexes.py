"""The complex table: Grid Engine 6.2u5's stock table loads back unchanged; refusals are whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.complexes.rules import BUILTIN_TYPES
from qmaster.complexes.table import ComplexTable
from qmaster.conf.store import ClusterConfig

STOCK = Path(__file__).parents[2] / "data" / "ge62u5_complexes"


@pytest.fixture
def conf() -> ClusterConfig:
    return ClusterConfig.load_dir(DEFAULT_CONF_DIR)


def _modify(conf: ClusterConfig, text: str) -> list[str]:
    change = conf.apply("conf_modify", {"kind": "complex", "text": text}, "root", "h", True)
    return [a.text for a in change.answers]


def test_stock_table_has_the_51_builtins() -> None:
    """Grid Engine 6.2u5's table holds exactly its 51 built-in attributes, none other."""
    table = ComplexTable.parse(STOCK.read_text())
    assert len(table) == 51
    assert set(table.names) == set(BUILTIN_TYPES)
    assert "m_thread" not in table


def test_default_cell_uses_the_stock_table(conf: ClusterConfig) -> None:
    """qconf -sc of a fresh cell prints Grid Engine 6.2u5's stock table."""
    assert conf.show("complex", None)["text"] == STOCK.read_text()


def test_loading_the_stock_table_changes_nothing(conf: ClusterConfig) -> None:
    """-Mc of the stock table is accepted and -sc prints it back identically."""
    conf.apply("conf_modify", {"kind": "complex", "text": conf.complexes.render() +
               "gpu gpu INT <= YES YES 0 0\n"}, "root", "h", True)  # fmt: skip
    assert _modify(conf, STOCK.read_text()) == ['root@h removed "gpu" from complex list']
    assert conf.show("complex", None)["text"] == STOCK.read_text()
    assert _modify(conf, STOCK.read_text()) == [
        "Complex attribute configuration has not been changed"
    ]


def test_refused_table_prints_no_added_lines(conf: ClusterConfig) -> None:
    """A table that drops a built-in is refused whole: no 'added' line, nothing changed."""
    before = conf.to_rows()
    lines = [ln for ln in STOCK.read_text().splitlines() if not ln.startswith("arch ")]
    text = "\n".join([*lines, "gpu gpu INT <= YES YES 0 0"]) + "\n"
    assert _modify(conf, text) == ['The built-in complex "arch" cannot be deleted']
    assert conf.to_rows() == before
    assert "gpu" not in conf.complexes


@pytest.mark.parametrize(
    ("kind", "name", "attr", "value", "where"),
    [
        ("exechost", "global", "complex_values", "gpu=2", 'host "global".'),
        ("exechost", "global", "report_variables", "gpu", 'host "global".'),
        ("exechost", "host1", "load_values", "gpu=2", 'host "host1".'),
        ("cqueue", "all.q", "complex_values", "NONE,[@allhosts=gpu=1]", 'queue "all.q".'),
        ("sched", None, "job_load_adjustments", "gpu=1", "scheduler configuration."),
    ],
)
def test_removing_a_complex_still_set_is_refused(
    conf: ClusterConfig, kind: str, name: str | None, attr: str, value: str, where: str
) -> None:
    """-Mc without a complex that a host, queue or the scheduler still sets: the qmaster's
    centry_is_referenced() answer, and the complex stays."""
    conf.apply("conf_modify", {"kind": "complex", "text": conf.complexes.render() +
               "gpu gpu INT <= YES YES 0 0\n"}, "root", "h", True)  # fmt: skip
    if kind == "sched":
        text = conf.sched_conf.render().replace("job_load_adjustments", "#", 1)
        text += f"{attr} {value}\n"
        done = conf.apply("conf_modify", {"kind": "sched", "text": text}, "root", "h", True)
    else:
        args = {"kind": kind, "mode": "set", "name": name, "pairs": [(attr, value)]}
        done = conf.apply("conf_attr", args, "root", "h", True)
    assert not any(a.is_error for a in done.answers), done.answers
    assert _modify(conf, STOCK.read_text()) == [
        f'Complex attribute "gpu" is still referenced in {where}'
    ]
    assert "gpu" in conf.complexes


@pytest.mark.parametrize("line", ["complex1161", "complex1161 c1161"])
def test_a_complex_line_without_type_is_type_0(conf: ClusterConfig, line: str) -> None:
    """Issue 1161: -mc with a line of only a name; the qmaster answers for type 0."""
    assert _modify(conf, conf.complexes.render() + line + "\n") == [
        "unknown complex attribute type 0"
    ]
    assert "complex1161" not in conf.complexes


def test_the_scheduler_configuration_is_named_before_a_queue(conf: ClusterConfig) -> None:
    """centry_is_referenced() looks at the scheduler configuration first: a complex set in
    both it and a queue is answered for the scheduler configuration."""
    conf.apply("conf_modify", {"kind": "complex", "text": conf.complexes.render() +
               "gpu gpu INT <= YES YES 0 0\n"}, "root", "h", True)  # fmt: skip
    args = {
        "kind": "cqueue",
        "mode": "set",
        "name": "all.q",
        "pairs": [("complex_values", "gpu=1")],
    }
    conf.apply("conf_attr", args, "root", "h", True)
    text = conf.sched_conf.render().replace("job_load_adjustments", "#", 1)
    conf.apply("conf_modify", {"kind": "sched", "text": text + "job_load_adjustments gpu=1\n"},
               "root", "h", True)  # fmt: skip
    assert _modify(conf, STOCK.read_text()) == [
        'Complex attribute "gpu" is still referenced in scheduler configuration.'
    ]


def test_a_complex_only_thresholds_name_may_be_removed(conf: ClusterConfig) -> None:
    """centry_is_referenced() does not look at a queue's load_thresholds: -Mc removes a
    complex only they name; a new threshold of an unknown complex is still refused, and
    the qmaster's spool with the dangling threshold loads back."""
    conf.apply("conf_modify", {"kind": "complex", "text": conf.complexes.render() +
               "lt lt DOUBLE >= YES NO 0 0\n"}, "root", "h", True)  # fmt: skip
    args = {"kind": "cqueue", "mode": "set", "name": "all.q",
            "pairs": [("load_thresholds", "np_load_avg=1.75,lt=5")]}  # fmt: skip
    assert not any(a.is_error for a in conf.apply("conf_attr", args, "root", "h", True).answers)
    assert _modify(conf, STOCK.read_text()) == ['root@h removed "lt" from complex list']
    assert "lt" not in conf.complexes
    assert ClusterConfig.from_rows(conf.to_rows()).complexes.names == conf.complexes.names
    args["pairs"] = [("load_thresholds", "lt=6")]
    answers = conf.apply("conf_attr", args, "root", "h", True).answers
    assert [a.text for a in answers] == ['unknown resource "lt"']
    assert "lt=5" in conf.show("cqueue", "all.q")["text"]
