"""Grid Engine flat-file formats: round trips, per-host values, wrapping and bad files."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.access import PeConf, UsersetConf, parse_managers, render_managers
from qmaster.conf.cluster import GlobalConf, SchedConf
from qmaster.conf.errors import ConfigError
from qmaster.conf.hostvalues import HostValues
from qmaster.conf.model import ConfObject
from qmaster.conf.projects import CkptConf, ProjectConf
from qmaster.conf.queue import ExecHostConf, HostgroupConf, QueueConf
from qmaster.conf.users import UserConf

FILES: list[tuple[type[ConfObject], str]] = [
    (QueueConf, "cqueues/all.q"),
    (ExecHostConf, "exechosts/host1"),
    (HostgroupConf, "hostgroups/@allhosts"),
    (PeConf, "pe/mpi"),
    (UsersetConf, "usersets/arusers"),
    (GlobalConf, "configuration"),
    (SchedConf, "sched_configuration"),
]


@pytest.mark.parametrize(("cls", "name"), FILES)
def test_shipped_files_round_trip(cls: type[ConfObject], name: str) -> None:
    """Each shipped file parses, renders to the same text, and parses back equal."""
    text = (DEFAULT_CONF_DIR / name).read_text()
    obj = cls.parse(text, name)
    assert obj.render() == text
    assert cls.parse(obj.render()) == obj


def test_queue_layout_is_qconf_sq() -> None:
    """qconf -sq puts values in column 22 and shows defaults like NONE and INFINITY."""
    lines = QueueConf.with_values(qname="q").render().splitlines()
    assert lines[0] == "qname                 q"
    assert "h_vmem                INFINITY" in lines
    assert "user_lists            NONE" in lines


def test_host_overrides_resolve_per_host() -> None:
    """slots 1,[host1=4],[@grp=2]: host override, then group override, then default."""
    values = QueueConf.with_values(qname="q", slots="1,[host1=4],[@grp=2]").host_values("slots")
    groups = {"host2": ["@grp"]}
    assert values.for_host("host1", lambda h: groups.get(h, [])) == "4"
    assert values.for_host("host2", lambda h: groups.get(h, [])) == "2"
    assert values.for_host("host3", lambda h: groups.get(h, [])) == "1"


@given(
    st.dictionaries(
        st.from_regex(r"[a-z][a-z0-9]{0,8}", fullmatch=True),
        st.integers(0, 99).map(str),
        max_size=5,
    ),
    st.integers(0, 99).map(str),
)
def test_host_values_round_trip(overrides: dict[str, str], default: str) -> None:
    """A host-value list renders and parses back to the same default and overrides."""
    values = HostValues(default, overrides)
    assert HostValues.parse(values.render()) == values


def test_long_values_wrap_with_backslash_and_read_back() -> None:
    """Long lists wrap at commas with ' \\' and continuation lines read back as one value."""
    hosts = ",".join(f"[node{i:03d}=4]" for i in range(20))
    queue = QueueConf.with_values(qname="q", slots="1," + hosts)
    text = queue.render()
    slot_lines = text.split("slots ", 1)[1].split("tmpdir", 1)[0].splitlines()
    assert len(slot_lines) > 2
    assert all(line.endswith(" \\") for line in slot_lines[:-1])
    assert all(len(line) <= 80 for line in text.splitlines())
    assert QueueConf.parse(text) == queue


@pytest.mark.parametrize(
    ("cls", "text", "line", "reason"),
    [
        (QueueConf, "qname q\nbogus 1\n", 2, 'unknown attribute name "bogus"'),
        (QueueConf, "qname q\n\nslots many\n", 3, '"many" is not an integer'),
        (QueueConf, "qname q\nslots 1,[h=x]\n", 2, '"x" is not an integer'),
        (QueueConf, "qname q\nslots 1,[h=2\n", 2, "malformed host override"),
        (QueueConf, "qname q\nh_rt 1:2:3:4\n", 2, '"1:2:3:4" is not a valid time value'),
        (QueueConf, "qname q\nqtype BATCH FAST\n", 2, '"FAST" is not one of BATCH'),
        (QueueConf, "qname q\nslots 1\nslots 2\n", 3, 'Attribute "slots" appears more than once'),
        (QueueConf, "hostlist NONE\n", 1, 'Required attribute "qname" is missing'),
        (QueueConf, "qname q\nslots\n", 2, 'missing value for attribute "slots"'),
        (PeConf, "pe_name p\nallocation_rule any\n", 2, "not a valid allocation rule"),
        (ExecHostConf, "hostname h\nload_values arch\n", 2, "not of the form name=value"),
        (GlobalConf, "#global:\nmax_jobs -1\n", 2, '"-1" is not an unsigned integer'),
        # object_parse_ulong32_from_string(): past 2**32 - 1 it is refused, not stored
        (QueueConf, "qname q\nseq_no 4294967296\n", 2, '"4294967296" is not an u_long32 value'),
        (PeConf, "pe_name p\nslots 99999999999999999999\n", 2, "is not an u_long32 value"),
        (SchedConf, "schedule_interval soon\n", 1, '"soon" is not a valid time value'),
        (UsersetConf, "name u\ntype GROUP\n", 2, '"GROUP" is not one of ACL, DEPT'),
    ],
)
def test_bad_files_give_path_line_reason(
    cls: type[ConfObject], text: str, line: int, reason: str
) -> None:
    """Every bad file is reported as path:line: reason."""
    with pytest.raises(ConfigError) as info:
        cls.parse(text, "some/file")
    assert info.value.path == "some/file"
    assert info.value.line == line
    assert reason in info.value.reason
    assert str(info.value).startswith(f"some/file:{line}: ")


def test_global_typed_accessors_and_defaults() -> None:
    """Global configuration accessors give GE's defaults when keys are left out."""
    conf = GlobalConf.parse("max_u_jobs 5\njsv_url /bin/jsv.sh\n")
    assert conf.max_u_jobs == 5
    assert conf.max_jobs == 0
    assert conf.max_aj_tasks == 75000
    assert conf.finished_jobs == 100
    assert conf.jsv_timeout == 10
    assert conf.jsv_threshold == 5000
    assert conf.jsv_url == "/bin/jsv.sh"
    assert conf.jsv_allowed_mod == ["ac", "h", "i", "e", "o", "j", "M", "N", "p", "w"]
    assert conf.render().startswith("#global:\n")


def test_sched_typed_accessors() -> None:
    """Scheduler configuration gives schedule_interval in seconds and INFINITY as inf."""
    conf = SchedConf.parse("schedule_interval 0:1:5\nmax_reservation 20\n")
    assert conf.schedule_interval == 65
    assert conf.max_reservation == 20
    assert conf.default_duration == float("inf")
    assert conf.flush_submit_sec == 0


def test_managers_file() -> None:
    """The managers file is one name per line; comments and duplicates are dropped."""
    names = parse_managers("# managers\nroot\n\nalice\nroot\n")
    assert names == ["root", "alice"]
    assert parse_managers(render_managers(names)) == names


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("maybe", 'attribute "schedd_job_info " is not a valid parameter'),
        ("TRUE", 'attribute "schedd_job_info " is not a valid parameter'),  # strcmp()
        ("job_list", 'attribute "schedd_job_info" is not a valid job_list'),
        ("job_list 1-x", 'attribute "schedd_job_info" is not a valid job_list'),
        ("job_list 1,3-5", None),
        ("true", None),
    ],
)
def test_schedd_job_info_is_checked_as_sconf_validate_config(
    value: str, reason: str | None
) -> None:
    """true, false or job_list with job ids; anything else was stored and read as false."""
    text = f"schedd_job_info {value}\n"
    if reason is None:
        assert SchedConf.parse(text).attrs["schedd_job_info"] == value
        return
    with pytest.raises(ConfigError) as info:
        SchedConf.parse(text, "f")
    assert reason in info.value.reason


@pytest.mark.parametrize(
    ("name", "key_text"),
    [("bad,x", "Comma (',') not allowed in objectname"), ("bad x", "Space (' ') not allowed")],
)
@pytest.mark.parametrize(
    ("cls", "key", "checked"),
    [
        (QueueConf, "qname", 'cluster queue name "{}" is not valid'),
        (PeConf, "pe_name", 'Invalid character in pe name of pe "{}"'),
        (UsersetConf, "name", ""),
        (ExecHostConf, "hostname", None),
        (HostgroupConf, "group_name", None),
        (ProjectConf, "name", None),
        (CkptConf, "ckpt_name", ""),
        (UserConf, "name", None),
    ],
)
def test_an_objects_name_is_one_name(
    cls: type[ConfObject], key: str, checked: str | None, name: str, key_text: str
) -> None:
    """qconf -Aprj/-Aq/... of 'bad,x' or 'bad x' added an object no list could name; the
    key check refuses a list's separators in a name (in verify_str_key()'s words, and the
    qmaster's second line, for the kinds it checks so)."""
    value = f"@{name}" if key == "group_name" else name
    with pytest.raises(ConfigError) as info:
        cls.parse(f"{key} {value}\n", "f")
    if checked is None:
        assert info.value.reason.endswith(f'"{value}" is not a valid object name')
    else:
        assert info.value.verbatim
        lines = info.value.reason.split("\n")
        assert lines[0].startswith(key_text)
        assert lines[1:] == ([checked.format(value)] if checked else [])


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("algorithm bogus", 'attribute "bogus" is not a valid algorithm name.'),
        ("policy_hierarchy OFSO", "Invalid policy hierachy string. Disabling policy hierachy."),
        ("policy_hierarchy XYZ", "Invalid policy hierachy string. Disabling policy hierachy."),
        ("halflife_decay_list garbage", "Invalid halflife_day_list. Ignoring the setting."),
        ("max_pending_tasks_per_job 0", '"max_pending_tasks_per_job"(should be ">0")'),
        ("algorithm ext_mine", None),
        ("policy_hierarchy NONE", None),
        ("policy_hierarchy FD", None),
        ("halflife_decay_list cpu=10:mem=x", None),
    ],
)
def test_scheduler_values_checked_as_sconf_validate_config(line: str, reason: str | None) -> None:
    """qconf -Msconf took any algorithm, policy string or decay list; Grid Engine refuses."""
    if reason is None:
        SchedConf.parse(line + "\n")
        return
    with pytest.raises(ConfigError) as info:
        SchedConf.parse(line + "\n", "f")
    assert info.value.reason.endswith(reason)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("prolog relative/x.sh", 'denied: the path given for "prolog" must start with a "/"'),
        ("epilog sgeadmin@rel.sh", 'denied: the path given for "epilog" must start with a "/"'),
        ("gid_range abc", 'incorrect value "abc" given for configuration attribute "gid_range"'),
        ("gid_range 50-60", "minimum group id in gid_range may not be less than 100"),
        ("prolog sgeadmin@/abs.sh", None),
        ("gid_range 20000-20100,30000", None),
        ("gid_range none", None),
    ],
)
def test_global_values_checked_as_grid_engine_reads_them(line: str, reason: str | None) -> None:
    """qconf -Mconf took a relative prolog or any gid_range; Grid Engine refuses them."""
    text = "#global:\n" + line + "\n"
    if reason is None:
        GlobalConf.parse(text)
        return
    with pytest.raises(ConfigError) as info:
        GlobalConf.parse(text, "f")
    assert reason in info.value.reason


@pytest.mark.parametrize(
    ("cls", "values", "shown"),
    [
        (QueueConf, {"qname": "q", "hostlist": "NONE", "user_lists": "a,b",
                     "pe_list": "make,mpi,[h1=mpi,smp]", "xprojects": "none"},
         {"user_lists": "a b", "pe_list": "make mpi,[h1=mpi smp]", "xprojects": "NONE"}),
        (ExecHostConf, {"hostname": "h", "xuser_lists": "a, b", "complex_values": "x=1,y=2"},
         {"xuser_lists": "a b", "complex_values": "x=1,y=2"}),
        (PeConf, {"pe_name": "p", "user_lists": "a,b,c"}, {"user_lists": "a b c"}),
        (QueueConf, {"qname": "q", "qtype": "interactive,batch,[h1=batch]"},
         {"qtype": "BATCH INTERACTIVE,[h1=BATCH]"}),  # a mask, printed in its order
        (ProjectConf, {"name": "pr", "acl": "a,b"}, {"acl": "a b"}),
        (UsersetConf, {"name": "u", "type": "ACL", "entries": "a,b"}, {"entries": "a,b"}),
    ],
)  # fmt: skip
def test_name_lists_are_kept_one_blank_apart(
    cls: type[ConfObject], values: dict[str, str], shown: dict[str, str]
) -> None:
    """Grid Engine keeps queue, host, PE and project name lists as lists and prints them
    one blank apart (userset_list_append_to_dstring()), whatever the file used; pairs and a
    userset's entries keep their commas."""
    conf = cls.with_values(**values)
    assert {key: conf.attrs[key] for key in shown} == shown
    assert all(f"{key} " in conf.render() for key in shown)
    assert cls.parse(conf.render()).attrs == conf.attrs
