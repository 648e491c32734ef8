"""qconf as Grid Engine's testsuite (system_tests/clients/qconf check.60) checks it:
long lines broken where Grid Engine breaks them, names quoted and refused as it does.

The border cases are those of qconf_backslash_space_output_check and
qconf_backslash_comma_output_check: names sized so that lines come to 78, 79, 80
and 81 characters in every order.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from qmaster.cell import DEFAULT_CONF_DIR
from qmaster.conf.access import PeConf, UsersetConf
from qmaster.conf.cluster import GlobalConf, SchedConf
from qmaster.conf.errors import ConfigError
from qmaster.conf.flatfile import add_line_breaks, read_pairs
from qmaster.conf.model import ConfObject
from qmaster.conf.queue import HostgroupConf, QueueConf
from qmaster.conf.store import ClusterConfig

LONG = "@" + "really" * 18 + "longname1"  # longer than a line
MEDIUM = "@thisisareallyreallyreallyreallyreallylongname0"  # 47
SHORT = ["@thisisaveryshortname", "@thisisareallyshortname", "@thisisareallyshortname2"]
PERMUTATIONS = [(m, n) for m in range(4) for n in range(5)]


def _order(items: list[str], medium: str, long: str, m: int, n: int) -> list[str]:
    order = list(items)
    order.insert(m, medium)
    order.insert(n, long)
    return order


def _expected_breaks(names: list[str], offset: int, separator: str) -> list[list[str]]:
    """The testsuite's rule: a name goes on the next line when, with the separators and
    `` \\`` still to come, it would reach column 80; a name longer than a line stays whole."""
    lines: list[list[str]] = [[]]
    length = 0
    for index, name in enumerate(names):
        last = index == len(names) - 1
        if separator == " ":
            reserve = 0 if last else 2
            full = length + len(name) >= 80 - offset - reserve
        else:
            reserve = (1 if length else 0) if last else 4
            full = length + len(name) > 80 - offset - reserve
        if full and length:
            lines.append([])
            length = 0
        length += len(name) + (1 if length else 0)
        lines[-1].append(name)
    return lines


@pytest.mark.parametrize(("m", "n"), PERMUTATIONS)
def test_host_list_breaks_where_the_testsuite_expects(m: int, n: int) -> None:
    """A host group's hostlist ("hostlist " then names) breaks at blanks before column 80."""
    names = _order(SHORT, MEDIUM, LONG, m, n)
    text = add_line_breaks("hostlist " + " ".join(names))
    lines = text.split("\n")
    assert [line.rstrip(" \\").split() for line in lines] == [
        (["hostlist"] if i == 0 else []) + group
        for i, group in enumerate(_expected_breaks(names, 9, " "))
    ]
    assert all(line.startswith(" " * 9) for line in lines[1:])


@pytest.mark.parametrize(("m", "n"), PERMUTATIONS)
def test_comma_list_breaks_where_the_testsuite_expects(m: int, n: int) -> None:
    """complex_values (value column 22) breaks after commas; the comma stays on its line."""
    sized = [
        f"complexvar{i}=".ljust(width, "0") for i, width in enumerate((17, 18, 20, 37, 100), 1)
    ]
    names = _order(sized[:3], sized[3], sized[4], m, n)
    text = add_line_breaks("complex_values".ljust(21) + " " + ",".join(names))
    groups = _expected_breaks(names, 22, ",")
    assert text.split(" \\\n" + " " * 22) == [
        ("complex_values".ljust(22) if i == 0 else "")
        + ",".join(group)
        + ("," * (i < len(groups) - 1))
        for i, group in enumerate(groups)
    ]


def test_short_lines_and_single_long_words_are_left_whole() -> None:
    """Up to 80 characters a line is kept; a word longer than a line is not cut."""
    line = "x".ljust(21) + " " + "a" * 58
    assert add_line_breaks(line) == line
    word = "qname                 " + "q" * 100
    assert add_line_breaks(word) == word


def test_host_group_is_shown_unaligned() -> None:
    """qconf -shgrp: "group_name @g" and "hostlist a b", one blank after each name."""
    group = HostgroupConf.with_values(group_name="@g", hostlist="a b")
    assert group.render() == "group_name @g\nhostlist a b\n"
    assert HostgroupConf.parse(group.render()) == group


def _texts(conf: ClusterConfig, op: str, args: dict[str, Any]) -> list[str]:
    return [a.text for a in conf.apply(op, args, "root", "h", True).answers]


def test_messages_quote_the_first_100_characters_of_a_name() -> None:
    """Grid Engine prints a name in its messages as "%-.100s": a longer one is cut."""
    conf = ClusterConfig.load_dir(DEFAULT_CONF_DIR)
    text = f"group_name {LONG}\nhostlist NONE\n"
    added = _texts(conf, "conf_modify", {"kind": "hostgroup", "text": text, "add": "1"})
    assert added == [f'root@h added "{LONG[:100]}" to host group list']
    removed = _texts(conf, "conf_delete", {"kind": "hostgroup", "name": LONG})
    assert removed == [f'root@h removed "{LONG[:100]}" from host group list']
    assert re.fullmatch(r".*\"@(really)+rea\".*", removed[0])


@pytest.mark.parametrize(
    ("kind", "text", "refusals"),
    [
        (
            "pe",
            "pe_name .mytestpe\n",
            [
                "Dot ('.') not allowed as first character of objectname",
                'Invalid character in pe name of pe ".mytestpe"',
            ],
        ),
        (
            "cqueue",
            "qname template\n",
            [
                'Keyword ("TEMPLATE") not allowed as objectname',
                'cluster queue name "template" is not valid',
            ],
        ),
        ("ckpt", "ckpt_name #c\n", ["Hash ('#') not allowed as first character of objectname"]),
        ("calendar", "calendar_name none\n", ['Keyword ("NONE") not allowed as objectname']),
    ],
)
def test_new_object_names_follow_grid_engines_key_rule(
    kind: str, text: str, refusals: list[str]
) -> None:
    """qconf_issue1767: the qmaster refuses a PE called ".mytestpe" (each line once); a
    queue left called "template", a leading "#" and the keywords are refused too."""
    conf = ClusterConfig.load_dir(DEFAULT_CONF_DIR)
    assert _texts(conf, "conf_modify", {"kind": kind, "text": text, "add": "1"}) == refusals
    assert _texts(conf, "conf_add", {"kind": "userset", "name": "ALL", "members": ["u"]}) == [
        'Keyword ("ALL") not allowed as objectname'
    ]


@pytest.mark.parametrize("attr", ["start_proc_args", "stop_proc_args"])
def test_pe_commands_may_name_only_grid_engines_variables(attr: str) -> None:
    """qconf_issue1767: "'$invalid'" is refused once, naming the PE and the variable;
    $pe_hostfile and the other variables execd fills in are accepted."""
    conf = ClusterConfig.load_dir(DEFAULT_CONF_DIR)

    def add(value: str) -> list[str]:
        text = f"pe_name t\n{attr} {value}\n"
        return _texts(conf, "conf_modify", {"kind": "pe", "text": text, "add": True})

    assert add("'$invalid'") == [f'parameter {attr} of pe "t": unknown variable "invalid"']
    assert add("/bin/sh $ x") == [
        f'parameter {attr} of pe "t": variables need at least one character'
    ]
    assert add("/bin/sh $pe_hostfile $host $job_id $fs_stdin_tmp_path") == [
        'root@h added "t" to parallel environment list'
    ]


# Files of qconf_backslash_*_check (check.60): continuations, commas and tabs as Grid
# Engine's flatfile scanner joins them (a continued part ends in one blank, none after
# a comma; a line that is only a backslash adds nothing).
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("hostlist @a \\\n@b @c\n", "@a @b @c"),
        ("hostlist @a\\\n @b\n", "@a @b"),
        ("hostlist @a \\\n\\\n\\\n@b\n", "@a @b"),
        ("hostlist @a \\\n   \\\n@b\n", "@a @b"),
        ("hostlist \\\n@a \\\n@b\n", "@a @b"),
        ("hostlist\t@a @b\n", "@a @b"),
        ("hostlist\t\t   \t\t@a\n", "@a"),
        ("hostlist \t\\\t\n\t\\\t\n@a,@b, \\\n@c\n", "@a,@b,@c"),
        ("hostlist @a,\\ \n \\ \n @b\n", "@a,@b"),
    ],
)
def test_continued_lines_join_as_grid_engines_scanner(text: str, value: str) -> None:
    """One logical line per attribute, tab or blanks between name and value."""
    (pair,) = read_pairs(text, "f")
    assert (pair.key, pair.value) == ("hostlist", value)


# What the qmaster's verifiers answer for a value they refuse (pe_validate(),
# cqueue_verify_*(), verify_str_key(), the host resolution of issue 1715): their own
# sentence, without the file's path and line.
@pytest.mark.parametrize(
    ("cls", "text", "answer"),
    [
        (PeConf, "pe_name p\nurgency_slots invalid\n", 'rejecting invalid urgency_slots setting "invalid"'),
        (PeConf, "pe_name p\nallocation_rule $fill\n", 'parameter allocation_rule of pe "p": unknown variable "fill"'),
        (PeConf, "pe_name p\nslots 10000000\n", '10000000 is an invalid value for the "slots" attribute - it must be a value between 0 and 9999999'),
        (PeConf, "pe_name a:b\n", "Colon (':') not allowed in objectname\nInvalid character in pe name of pe \"a:b\""),
        (QueueConf, "qname q\npriority 21\n", "Priority not in range -20 to +20"),
        (QueueConf, "qname q\npriority x\n", "Invalid character"),
        (QueueConf, "qname q\npriority 0,[h=-21]\n", "Priority not in range -20 to +20"),
        (QueueConf, "qname q\ninitial_state on\n", 'Invalid value "on" as initial state'),
        (QueueConf, "qname q\nshell_start_mode sh\n", 'Invalid value "sh" as shell start mode'),
        (QueueConf, "qname q\nslots 1,[=1]\n", 'invalid hostname ""'),
        (QueueConf, "qname q/r\n", "Slash ('/') not allowed in objectname\ncluster queue name \"q/r\" is not valid"),
        (UsersetConf, "name u%\n", "Percent ('%') not allowed in objectname"),
        (SchedConf, "algorithm foo\n", 'attribute "foo" is not a valid algorithm name.'),
        (GlobalConf, "#global:\ngid_range 5-10\n", "minimum group id in gid_range may not be less than 100 in cluster configuration"),
    ],
)  # fmt: skip
def test_verifier_refusals_answer_in_the_qmasters_words(
    cls: type[ConfObject], text: str, answer: str
) -> None:
    with pytest.raises(ConfigError) as info:
        cls.parse(text, "f")
    assert info.value.verbatim
    assert info.value.answer == answer


@pytest.mark.parametrize(
    ("cls", "text"),
    [
        (PeConf, "pe_name p\nurgency_slots AVG\nallocation_rule $round_robin\nslots 9999999\n"),
        (QueueConf, "qname q\npriority -20\ninitial_state Disabled\nshell_start_mode UNIX_BEHAVIOR\n"),
    ],
)  # fmt: skip
def test_verifiers_take_what_grid_engine_takes(cls: type[ConfObject], text: str) -> None:
    cls.parse(text, "f")
