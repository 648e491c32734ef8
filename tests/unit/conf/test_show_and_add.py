"""qconf -s*/-A*/-M* answers of the configuration store, as Grid Engine 6.2u5 gives them."""

from __future__ import annotations

import pytest

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.errors import ConfNotFound
from qmaster.conf.store import ClusterConfig


@pytest.fixture
def conf() -> ClusterConfig:
    return ClusterConfig.load_dir(DEFAULT_CONF_DIR)


def _lines(text: str) -> dict[str, str]:
    pairs = (line.split(None, 1) for line in text.splitlines() if not line.startswith(" "))
    return {pair[0]: pair[1] for pair in pairs}


def test_template_queue_has_grid_engine_defaults(conf: ClusterConfig) -> None:
    """-sq alone shows the queue called template with Grid Engine's default values."""
    shown = _lines(conf.show("cqueue", None, template=True)["text"])
    assert shown["qname"] == "template"
    assert shown["hostlist"] == "NONE"
    assert shown["shell"] == "/bin/csh"
    assert shown["pe_list"] == "make"
    assert shown["slots"] == "1"
    assert shown["load_thresholds"] == "np_load_avg=1.75"


def test_queue_instance_view_resolves_host_values(conf: ClusterConfig) -> None:
    """-sq all.q@host1 shows the instance: qname, hostname, and its own slots value."""
    data = conf.show("cqueue", "all.q@host1")
    lines = data["text"].splitlines()
    assert lines[:2] == ["qname                 all.q", "hostname              host1"]
    assert _lines(data["text"])["slots"] == "4"
    assert "hostlist" not in _lines(data["text"])
    assert data["missing"] == []


def test_queue_patterns_and_misses(conf: ClusterConfig) -> None:
    """Patterns select cluster queues and instances; one matching nothing is reported."""
    data = conf.show("cqueue", "all.q@host[12],nosuch.q,*@@allhosts")
    assert data["text"].count("qname ") == 2 + 4
    assert data["missing"] == ['No cluster queue or queue instance matches the phrase "nosuch.q"']
    assert conf.show("cqueue", "all.q@nohost")["text"] == ""


def test_local_configuration_is_not_defined(conf: ClusterConfig) -> None:
    """-sconf host1 says there is no such configuration; -sconf global shows the global one."""
    with pytest.raises(ConfNotFound, match=r"^configuration host1 not defined$"):
        conf.show("global", "host1")
    assert conf.show("global", "global")["text"].startswith("#global:\n")


@pytest.mark.parametrize(
    ("kind", "name", "what"),
    [
        ("cqueue", "all.q", "cluster queue"),
        ("exechost", "host1", "execution host"),
        ("pe", "mpi", "parallel environment"),
        ("userset", "arusers", "userset"),
        ("hostgroup", "@allhosts", "host group"),
    ],
)
def test_add_of_an_existing_object_is_refused(
    conf: ClusterConfig, kind: str, name: str, what: str
) -> None:
    """-A* of an object that exists says it already exists and changes nothing."""
    before = conf.to_rows()
    text = conf.show(kind, name)["text"]
    change = conf.apply("conf_modify", {"kind": kind, "text": text, "add": True},
                        "root", "h", True)  # fmt: skip
    assert [a.text for a in change.answers] == [f'{what} "{name}" already exists']
    assert conf.to_rows() == before


def test_modify_of_a_missing_object_is_refused(conf: ClusterConfig) -> None:
    """-Mq of a queue that does not exist is refused instead of adding it."""
    text = conf.show("cqueue", "all.q")["text"].replace("all.q", "new.q", 1)
    change = conf.apply("conf_modify", {"kind": "cqueue", "text": text}, "root", "h", True)
    assert [a.text for a in change.answers] == ['denied: cluster queue "new.q" does not exist']
    assert "new.q" not in conf.cqueues


def test_exec_host_shows_its_processors(conf: ClusterConfig) -> None:
    """-se shows processors as the host's reported num_proc, whatever the file said."""
    text = conf.show("exechost", "host1")["text"]
    text = text.replace("num_proc=4", "num_proc=8").replace("processors            4",
                                                            "processors            0")  # fmt: skip
    change = conf.apply("conf_modify", {"kind": "exechost", "text": text}, "root", "h", True)
    assert change.ok, change.answers
    assert _lines(conf.show("exechost", "host1")["text"])["processors"] == "8"


def test_global_host_always_exists(conf: ClusterConfig) -> None:
    """A fresh cell has the global host: -se global works, -sel omits it, -Me changes it."""
    assert "global" not in conf.show("exechost", None)["names"]
    text = conf.show("exechost", "global")["text"]
    assert text.splitlines()[0].split() == ["hostname", "global"]
    text = text.replace("complex_values        NONE", "complex_values        h_vmem=100G")
    change = conf.apply("conf_modify", {"kind": "exechost", "text": text}, "root", "h", True)
    assert [a.text for a in change.answers] == ['root@h modified "global" in execution host list']
    assert conf.exechosts["global"].complex_values == {"h_vmem": "100G"}
    assert ClusterConfig.from_rows(conf.to_rows()).exechosts["global"] == conf.exechosts["global"]


def test_global_host_cannot_be_deleted(conf: ClusterConfig) -> None:
    """-de global is refused with Grid Engine's words."""
    change = conf.apply("conf_delete", {"kind": "exechost", "name": "global"}, "root", "h", True)
    assert [a.text for a in change.answers] == ['denied: pseudo host "global" may not be deleted']
    assert "global" in conf.exechosts


def test_load_scaling_factors_must_be_numbers(conf: ClusterConfig) -> None:
    """-Me with load_scaling np_load_avg=fast is refused; np_load_avg=1.5 is taken."""
    text = conf.show("exechost", "host1")["text"]
    bad = text.replace("load_scaling          NONE", "load_scaling          np_load_avg=fast")
    change = conf.apply("conf_modify", {"kind": "exechost", "text": bad}, "root", "h", True)
    assert change.answers[0].is_error
    assert '"fast" is not a number' in change.answers[0].text
    good = text.replace("load_scaling          NONE", "load_scaling          np_load_avg=1.5")
    change = conf.apply("conf_modify", {"kind": "exechost", "text": good}, "root", "h", True)
    assert change.ok, change.answers
