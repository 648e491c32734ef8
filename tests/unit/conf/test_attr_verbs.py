"""qconf -aattr/-mattr/-rattr/-dattr/-purge, the name lists and user objects, planned on a store."""

from __future__ import annotations

from typing import Any

import pytest

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.attrs import AttrRefused, edit_value
from qmaster.conf.model import stored_value
from qmaster.conf.queue import QUEUE_FORMAT
from qmaster.conf.store import ClusterConfig


@pytest.fixture
def conf() -> ClusterConfig:
    return ClusterConfig.load_dir(DEFAULT_CONF_DIR)


def _attr(conf: ClusterConfig, kind: str, mode: str, name: str, *pair: str) -> list[str]:
    args: dict[str, Any] = {"kind": kind, "mode": mode, "name": name, "pairs": [list(pair)]}
    change = conf.apply("conf_attr", args, user="root", host="h", is_manager=True)
    return [a.text for a in change.answers]


@pytest.mark.parametrize(
    ("mode", "attr", "old", "value", "new"),
    [
        ("append", "pe_list", "make", "mpi", "make mpi"),
        ("append", "pe_list", "make", "make", "make"),
        ("remove", "pe_list", "make mpi", "make", "mpi"),
        ("remove", "pe_list", "make", "make", "NONE"),
        ("set", "pe_list", "make", "NONE", "NONE"),
        ("change", "complex_values", "a=1,b=2", "b=3", "a=1,b=3"),
        ("append", "complex_values", "NONE", "a=1", "a=1"),
        ("remove", "complex_values", "a=1,b=2", "a=1", "b=2"),
        ("change", "slots", "1", "8", "8"),
        ("append", "user_lists", "NONE", "arusers", "arusers"),
    ],
)
def test_edit_value(mode: str, attr: str, old: str, value: str, new: str) -> None:
    """Each verb changes a list or scalar attribute as qconf(1) describes (as the queue then
    keeps it: lists of names one blank apart)."""
    assert stored_value(QUEUE_FORMAT, attr, edit_value(mode, attr, old, value)) == new


@pytest.mark.parametrize(
    ("mode", "attr", "old", "value", "message"),
    [
        ("remove", "pe_list", "make", "mpi", 'Attribute name ("pe_list") and/or value ("mpi")'),
        ("change", "pe_list", "make", "NONE", '"NONE" is not a valid list attribute value'),
        ("remove", "slots", "1", "1", 'Attribute name ("slots") and/or value ("1") not found'),
    ],
)
def test_edit_value_refused(mode: str, attr: str, old: str, value: str, message: str) -> None:
    """Removing what is not there, or -mattr NONE on a list, is refused."""
    with pytest.raises(AttrRefused, match=message.replace("(", r"\(").replace(")", r"\)")):
        edit_value(mode, attr, old, value)


def test_mattr_on_a_queue_instance_writes_an_override(conf: ClusterConfig) -> None:
    """-mattr queue seq_no 5 all.q@host1 adds [host1=5] and keeps the default."""
    answers = _attr(conf, "cqueue", "change", "all.q@host1", "seq_no", "5")
    assert answers == ['root@h modified "all.q" in cluster queue list']
    assert conf.cqueues["all.q"].attrs["seq_no"] == "0,[host1=5]"
    assert _attr(conf, "cqueue", "purge", "all.q@host1", "seq_no", "") == answers
    assert conf.cqueues["all.q"].attrs["seq_no"] == "0"


def test_refusals_leave_the_object_alone(conf: ClusterConfig) -> None:
    """Bad values, unknown attributes, names and incomplete instances change nothing."""
    before = conf.cqueues["all.q"].render()
    assert _attr(conf, "cqueue", "change", "all.q", "slots", "x") == [
        'The attribute name ("slots") and/or value ("x") is invalid'
    ]
    assert _attr(conf, "cqueue", "change", "all.q", "bogus", "1") == [
        'The attribute name ("bogus") and/or value ("1") is invalid'
    ]
    assert _attr(conf, "cqueue", "change", "no.q", "slots", "1") == [
        'denied: cluster queue "no.q" does not exist'
    ]
    assert _attr(conf, "cqueue", "purge", "all.q", "slots", "") == [
        'Given object_instance "all.q" is incomplete'
    ]
    assert _attr(conf, "cqueue", "change", "all.q@host1", "qname", "x") == [
        "qconf: cannot change qname"
    ]
    assert _attr(conf, "cqueue", "change", "all.q@host9", "slots", "2") == [
        'Modification of host "host9" not supported'
    ]
    assert _attr(conf, "cqueue", "change", "all.q@@nogroup", "slots", "2") == [
        'Modification of host "@nogroup" not supported'
    ]
    assert conf.cqueues["all.q"].render() == before


def test_hostgroup_and_exechost_lists(conf: ClusterConfig) -> None:
    """-dattr hostgroup hostlist removes a host; -aattr exechost complex_values adds one."""
    assert _attr(conf, "hostgroup", "remove", "@allhosts", "hostlist", "host4") == [
        'root@h modified "@allhosts" in host group list'
    ]
    assert "host4" not in conf.hostgroups["@allhosts"].hostlist
    _attr(conf, "exechost", "append", "host1", "complex_values", "h_vmem=2G")
    assert "h_vmem=2G" in conf.exechosts["host1"].attrs["complex_values"]
    # -dattr names the entry to go: its name alone will do (it was "not of the form name=value")
    _attr(conf, "exechost", "remove", "host1", "complex_values", "h_vmem")
    assert "h_vmem" not in conf.exechosts["host1"].attrs["complex_values"]


def test_name_lists(conf: ClusterConfig) -> None:
    """Operators and host lists: added once, removed once, in Grid Engine's words."""

    def op(op: str, kind: str, name: str) -> list[str]:
        args = {"kind": kind, "members": [name]}
        return [a.text for a in conf.apply(op, args, "root", "h", True).answers]

    assert op("conf_add", "operator", "bob") == ['root@h added "bob" to operator list']
    assert op("conf_add", "operator", "bob") == ['operator "bob" already exists']
    assert conf.state.operators == ("bob",)
    assert op("conf_add", "submithost", "n1") == ["n1 added to submit host list"]
    assert op("conf_delete", "submithost", "n1") == ['root@h removed "n1" from submit host list']
    assert op("conf_delete", "adminhost", "n9") == [
        'denied: administrative host "n9" does not exist'
    ]
    rows = ClusterConfig.from_rows(conf.to_rows())
    assert rows.state.operators == ("bob",)


def test_user_default_project_must_exist(conf: ClusterConfig) -> None:
    """-Auser with an unknown default_project is refused; with NONE it is added."""
    bad = {"kind": "user", "text": "name u1\ndefault_project nope\n", "add": True}
    answers = conf.apply("conf_modify", bad, "root", "h", True).answers
    assert [a.text for a in answers] == ['unknown project "nope"']
    good = {"kind": "user", "text": "name u1\n", "add": True}
    answers = conf.apply("conf_modify", good, "root", "h", True).answers
    assert [a.text for a in answers] == ['root@h added "u1" to user list']
    assert conf.show("user", None) == {"names": ["u1"]}


def test_mattr_of_a_load_value_keeps_the_others(conf: ClusterConfig) -> None:
    """qconf -mattr exechost load_values execution=local host1 adds or changes that entry
    only: the host's arch and num_proc stay (load_values is a list, as complex_values)."""
    assert _attr(conf, "exechost", "change", "host1", "load_values", "execution=local")
    host = conf.exechost("host1")
    assert host is not None
    assert host.load_values["execution"] == "local"
    assert (host.load_values["arch"], host.load_values["num_proc"]) == ("lx-amd64", "4")
