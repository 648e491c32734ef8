"""ClusterConfig: loading a cell, spool rows, conf_show and all-or-nothing changes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.errors import ConfigError, ConfNotFound
from qmaster.conf.queue import QueueConf
from qmaster.conf.store import ClusterConfig
from qmaster.gdi.answers import Status


@pytest.fixture
def conf() -> ClusterConfig:
    return ClusterConfig.load_dir(DEFAULT_CONF_DIR)


@pytest.fixture
def cell(tmp_path: Path) -> Path:
    target = tmp_path / "conf"
    shutil.copytree(DEFAULT_CONF_DIR, target)
    return target


def test_shipped_cell_loads(conf: ClusterConfig) -> None:
    """The default cell has 4 hosts with 4 slots in all.q, two PEs and root as manager."""
    instances = conf.queue_instances()
    assert [qi.name for qi in instances] == [f"all.q@host{i}" for i in range(1, 5)]
    assert {qi.slots for qi in instances} == {4}
    assert instances[0].pe_list == ("make", "mpi")
    assert instances[0].h_rt is None
    assert conf.managers == frozenset({"root"})
    assert conf.global_conf.max_advance_reservations == 10
    assert conf.sched_conf.schedule_interval == 1
    assert set(conf.usersets) == {"arusers", "deadlineusers", "defaultdepartment"}
    assert conf.exechost("host1") is not None
    assert conf.exechost("host1").load_values["arch"] == "lx-amd64"  # type: ignore[union-attr]


def test_rows_round_trip(conf: ClusterConfig) -> None:
    """to_rows and from_rows give back the same configuration."""
    rows = conf.to_rows()
    assert {kind for kind, _, _ in rows} == {
        "complex", "cqueue", "exechost", "hostgroup", "pe", "userset", "global", "sched",
        "manager", "operator", "adminhost", "submithost",
    }  # fmt: skip
    assert ClusterConfig.from_rows(rows).to_rows() == rows


@pytest.mark.parametrize(
    ("file", "old", "new", "reason"),
    [
        ("cqueues/all.q", "@allhosts", "@allhosts,nosuch", 'unknown host "nosuch" in hostlist'),
        ("cqueues/all.q", "@allhosts", "@nogroup", 'unknown host group "@nogroup" in hostlist'),
        ("cqueues/all.q", "make mpi", "make fast", 'Parallel environment "fast" does not exist'),
        ("exechosts/host2", "complex_values        NONE", "complex_values        gpu=1",
         'unknown resource "gpu"'),
        ("exechosts/host2", "complex_values        NONE", "complex_values        h_vmem=big",
         'wrong type in "h_vmem=big" - MEMORY expected'),
        ("pe/make", "user_lists         NONE", "user_lists         nolist",
         'unknown userset "nolist"'),
    ],
)  # fmt: skip
def test_cross_checks_name_file_and_line(
    cell: Path, file: str, old: str, new: str, reason: str
) -> None:
    """A reference to an unknown object is reported with the file, its line and the name."""
    path = cell / file
    text = path.read_text()
    path.write_text(text.replace(old, new, 1))
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if new in t)
    with pytest.raises(ConfigError) as info:
        ClusterConfig.load_dir(cell)
    assert str(info.value) == f"{path}:{line}: {reason}"


def test_bad_file_in_cell_is_reported(cell: Path) -> None:
    """A syntax error in one file of the cell names that file."""
    (cell / "usersets" / "arusers").write_text("name arusers\nfshare lots\n")
    with pytest.raises(ConfigError, match=r"usersets/arusers:2: .*\"lots\" is not an integer"):
        ClusterConfig.load_dir(cell)


def test_show_lists_and_texts(conf: ClusterConfig) -> None:
    """conf_show gives names for lists and Grid Engine text for single objects."""
    assert conf.show("cqueue", None) == {"names": ["all.q"]}
    assert conf.show("exechost", None)["names"] == ["host1", "host2", "host3", "host4"]
    assert conf.show("cqueue", "all.q")["text"].startswith("qname                 all.q\n")
    assert conf.show("manager", None) == {"names": ["root"]}
    assert conf.show("complex", None)["text"].startswith("#name ")


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("exechost", "nosuch is not an execution host"),
        ("pe", "nosuch is not a parallel environment"),
        ("userset", 'access list "nosuch" doesn\'t exist'),
    ],
)
def test_show_unknown_names_use_ge_messages(conf: ClusterConfig, kind: str, message: str) -> None:
    """Asking for an unknown object gives Grid Engine's message."""
    with pytest.raises(ConfNotFound) as info:
        conf.show(kind, "nosuch")
    assert str(info.value) == message


def test_non_manager_is_denied(conf: ClusterConfig) -> None:
    """A non-manager's change is refused with GE's words and nothing changes."""
    rows = conf.to_rows()
    change = conf.apply("conf_add", {"kind": "manager", "name": "bob"}, "bob", "h", False)
    assert [a.text for a in change.answers] == ['denied: "bob" must be manager for this operation']
    assert change.answers[0].status == Status.ENOMGR
    assert change.upserts == []
    assert conf.to_rows() == rows


def test_modify_queue_answers_and_upserts(conf: ClusterConfig) -> None:
    """Replacing all.q answers 'modified' and gives the row to spool; instances follow."""
    text = conf.show("cqueue", "all.q")["text"].replace(
        "1,[host1=4],[host2=4],[host3=4],[host4=4]", "2,[host1=8]"
    )
    change = conf.apply(
        "conf_modify", {"kind": "cqueue", "text": text, "source": "q"}, "root", "master", True
    )
    assert [a.text for a in change.answers] == [
        'root@master modified "all.q" in cluster queue list'
    ]
    assert change.upserts == [("cqueue", "all.q", text)]
    assert [qi.slots for qi in conf.queue_instances()] == [8, 2, 2, 2]


def test_refused_modify_leaves_store_unchanged(conf: ClusterConfig) -> None:
    """A queue naming an unknown PE is refused and the old configuration stays."""
    rows = conf.to_rows()
    text = conf.show("cqueue", "all.q")["text"].replace("make mpi", "nope")
    change = conf.apply("conf_modify", {"kind": "cqueue", "text": text}, "root", "h", True)
    assert change.answers[0].is_error
    assert 'Parallel environment "nope" does not exist' in change.answers[0].text
    assert change.upserts == []
    assert conf.to_rows() == rows


def test_syntax_error_names_the_source(conf: ClusterConfig) -> None:
    """A file with a bad value is refused naming the source file and line."""
    args = {"kind": "pe", "text": "pe_name p\nslots x\n", "source": "/tmp/pe.txt"}
    change = conf.apply("conf_modify", args, "root", "h", True)
    assert change.answers[0].text.startswith("/tmp/pe.txt:2: ")


def test_userset_add_and_delete(conf: ClusterConfig) -> None:
    """-au/-du answer as Grid Engine does and users end up in the list."""
    added = conf.apply("conf_add", {"kind": "userset", "name": "arusers", "members": ["alice"]},
                       "root", "h", True)  # fmt: skip
    assert [a.text for a in added.answers] == ['added "alice" to access list "arusers"']
    assert conf.user_in_lists("alice", "staff", ["arusers"])
    again = conf.apply("conf_add", {"kind": "userset", "name": "arusers",
                                    "members": ["bob", "alice"]}, "root", "h", True)  # fmt: skip
    assert [a.text for a in again.answers] == ['"alice" is already in access list "arusers"']
    assert not conf.user_in_lists("bob", "staff", ["arusers"])
    gone = conf.apply("conf_delete", {"kind": "userset", "name": "arusers",
                                      "members": ["alice"]}, "root", "h", True)  # fmt: skip
    assert [a.text for a in gone.answers] == ['deleted user "alice" from access list "arusers"']
    assert not conf.user_in_lists("alice", "staff", ["arusers"])


def test_group_entries_match_members(conf: ClusterConfig) -> None:
    """A userset entry @group admits users of that group."""
    conf.apply("conf_add", {"kind": "userset", "name": "deadlineusers", "members": ["@staff"]},
               "root", "h", True)  # fmt: skip
    assert conf.user_in_lists("carol", "staff", ["deadlineusers"])
    assert not conf.user_in_lists("carol", "other", ["deadlineusers"])


def test_managers_add_and_remove(conf: ClusterConfig) -> None:
    """Adding and removing managers answers with user@host; root cannot be removed."""
    added = conf.apply("conf_add", {"kind": "manager", "name": "alice"}, "root", "h", True)
    assert added.answers[0].text == 'root@h added "alice" to manager list'
    assert conf.managers == {"root", "alice"}
    refused = conf.apply("conf_delete", {"kind": "manager", "members": ["alice", "root"]},
                         "root", "h", True)  # fmt: skip
    assert refused.answers[-1].is_error
    assert conf.managers == {"root", "alice"}


def test_complex_modify_reports_each_change(conf: ClusterConfig) -> None:
    """-Mc answers added/modified lines per attribute; deleting a built-in is refused."""
    text = conf.show("complex", None)["text"]
    text = text.replace(
        "slots               s          INT         <=    YES         YES        1        1000",
        "slots s INT <= YES YES 1 500",
    )
    text += "gpu gpu INT <= YES YES 0 0\n"
    change = conf.apply("conf_modify", {"kind": "complex", "text": text}, "root", "h", True)
    assert [a.text for a in change.answers] == [
        'root@h modified "slots" in complex entry list',
        'root@h added "gpu" to complex entry list',
    ]
    assert "gpu" in conf.complexes
    no_arch = "\n".join(ln for ln in text.splitlines() if not ln.startswith("arch "))
    refused = conf.apply("conf_modify", {"kind": "complex", "text": no_arch}, "root", "h", True)
    assert refused.answers[0].text == 'The built-in complex "arch" cannot be deleted'
    assert "arch" in conf.complexes


def test_delete_queue(conf: ClusterConfig) -> None:
    """Deleting a queue answers 'removed' and gives the row to delete."""
    change = conf.apply("conf_delete", {"kind": "cqueue", "name": "all.q"}, "root", "h", True)
    assert change.answers[0].text == 'root@h removed "all.q" from cluster queue list'
    assert change.deletes == [("cqueue", "all.q")]
    assert conf.queue_instances() == []


def test_a_spool_keeps_values_only_the_verifiers_refuse() -> None:
    """A queue spooled by an earlier minige with priority 25 and 10,000,000 slots (taken
    then) still loads from the spool: Grid Engine runs cqueue_verify_priority() and the slot
    cap on add and modify, not when it reads its spool. The same text as a file is refused."""
    rows = ClusterConfig.load_dir(DEFAULT_CONF_DIR).to_rows()
    old = [
        (kind, name, text.replace("priority              0", "priority              25")
         .replace("slots                 1,", "slots                 10000000,"))
        if (kind, name) == ("cqueue", "all.q") else (kind, name, text)
        for kind, name, text in rows
    ]  # fmt: skip
    queue = next(text for kind, name, text in old if (kind, name) == ("cqueue", "all.q"))
    assert "priority              25" in queue
    loaded = ClusterConfig.from_rows(old)
    assert loaded.cqueues["all.q"].attrs["priority"] == "25"
    assert loaded.cqueues["all.q"].attrs["slots"].startswith("10000000")
    with pytest.raises(ConfigError):
        QueueConf.parse(queue, "all.q")
