"""Resource quota sets as qconf sees them: the file format, the qmaster's checks, the answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from qmaster.conf.errors import ConfigError, ConfNotFound
from qmaster.conf.store import ClusterConfig
from qmaster.rqs.model import parse_sets

CELL = Path(__file__).resolve().parents[3] / "conf"
TWO = """{
name max_u_slots
enabled true
limit users {*} to slots=2
}
{
   name         per_host
   description  "two per core"
   enabled      TRUE
   limit        name r1 hosts {!host2,*} to slots=$num_proc*2
   limit        queues all.q,!other.q to s_vmem=1G
}
"""


def _apply(conf: ClusterConfig, **args: object) -> list[str]:
    change = conf.apply("conf_modify", {"kind": "rqs", **args}, "root", "h", True)
    return [a.text for a in change.answers]


def test_sets_print_as_qconf_srqs_prints_them() -> None:
    """Each set between braces, values at column 16, TRUE/FALSE, a filter's names before
    its excluded ones (rqs_append_filter_to_dstring())."""
    sets = parse_sets(TWO)
    assert [s.name for s in sets] == ["max_u_slots", "per_host"]
    assert sets[0].render() == (
        "{\n   name         max_u_slots\n   description  NONE\n   enabled      TRUE\n"
        "   limit        users {*} to slots=2\n}\n"
    )
    assert sets[1].rules[0].render() == "name r1 hosts {*,!host2} to slots=$num_proc*2"
    assert sets[1].rule_name(0) == "per_host/r1"
    assert sets[1].rule_name(1) == "per_host/2"
    assert parse_sets("".join(s.render() for s in sets)) == sets


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{\nlimit to slots=1\n}\n", "resource quota set has no name"),
        ("{\nname a\n}\n", "resource quota set has no rules"),
        ("{\nname a\nlimit users {a to slots=1\n}\n", "no valid expanded list"),
        ("{\nname a\nlimit users a\n}\n", 'Required attribute "to" is missing'),
        ("{\nname a\nlimit owners a to slots=1\n}\n", 'unknown attribute name "owners"'),
        ("{\nname a\nlimit to slots=1\n", 'missing "}"'),
    ],
)
def test_bad_files_are_refused(text: str, reason: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_sets(text, "f")
    assert caught.value.reason == reason


def test_add_modify_replace_delete_answer_in_grid_engines_words() -> None:
    conf = ClusterConfig.load_dir(CELL)
    assert _apply(conf, text=TWO, source="f", add=True) == [
        'root@h added "max_u_slots" to resource quota set list',
        'root@h added "per_host" to resource quota set list',
    ]
    assert conf.show("rqs", None) == {"names": ["max_u_slots", "per_host"]}
    again = _apply(conf, text=TWO, source="f", add=True)
    assert again == ['resource quota set "max_u_slots" already exists']
    changed = TWO.replace("slots=2", "slots=3")
    assert _apply(conf, text=changed, source="f", select="max_u_slots") == [
        'root@h modified "max_u_slots" in resource quota set list'
    ]
    assert "slots=3" in conf.show("rqs", "max_u_slots")["text"]
    missing = _apply(conf, text=TWO, source="f", select="nosuch")
    assert missing == ['resource quota set "nosuch" not found in file "f"']
    only = TWO.split("}\n{", maxsplit=1)[0] + "}\n"
    assert _apply(conf, text=only, source="f") == [
        'root@h removed "max_u_slots" from resource quota set list',
        'root@h removed "per_host" from resource quota set list',
        'root@h added "max_u_slots" to resource quota set list',
    ]
    gone = conf.apply("conf_delete", {"kind": "rqs", "name": "max_u_slots"}, "root", "h", True)
    assert [a.text for a in gone.answers] == [
        'root@h removed "max_u_slots" from resource quota set list'
    ]
    assert conf.show("rqs", None) == {"names": []}
    with pytest.raises(ConfNotFound, match="No resource quota set found"):
        conf.show("rqs", "max_u_slots")


@pytest.mark.parametrize(
    ("limit", "refusal"),
    [
        ("to nosuch=1", '"resource_quota" references not existing complex attribute "nosuch"'),
        ("users {*} to slots=$num_proc", "dynamic limits are only supported for per host rules"),
        ("to slots=many", None),
    ],
)
def test_the_qmaster_checks_each_limit(limit: str, refusal: str | None) -> None:
    conf = ClusterConfig.load_dir(CELL)
    answers = _apply(conf, text=f"{{\nname a\nlimit {limit}\n}}\n", add=True)
    assert len(answers) == 1
    assert answers[0] == refusal if refusal else "added" not in answers[0]
    assert conf.show("rqs", None) == {"names": []}


def test_sets_survive_the_spool_rows_and_short_names_become_full_ones() -> None:
    conf = ClusterConfig.load_dir(CELL)
    _apply(conf, text="{\nname a\nenabled true\nlimit hosts {*} to s=4\n}\n", add=True)
    rows = [row for row in conf.to_rows() if row[0] == "rqs"]
    assert rows == [("rqs", "a", conf.show("rqs", "a")["text"])]
    assert "to slots=4" in rows[0][2]
    back = ClusterConfig.from_rows(conf.to_rows())
    assert back.show("rqs", "")["text"] == conf.show("rqs", "")["text"]


def test_a_complex_attribute_a_set_limits_cannot_be_deleted() -> None:
    """centry_is_referenced(): a set's limit keeps its attribute."""
    conf = ClusterConfig.load_dir(CELL)
    text = str(conf.show("complex", None)["text"])
    lic = text + "lic lic INT <= YES YES 0 0\n"
    assert conf.apply("conf_modify", {"kind": "complex", "text": lic}, "root", "h", True).ok
    _apply(conf, text="{\nname caps\nlimit to lic=2\n}\n", add=True)
    change = conf.apply("conf_modify", {"kind": "complex", "text": text}, "root", "h", True)
    assert [a.text for a in change.answers] == [
        'Complex attribute "lic" is still referenced in resource quota set "caps".'
    ]


def _attr(conf: ClusterConfig, mode: str, attr: str, value: str, name: str) -> list[str]:
    args = {"kind": "rqs", "mode": mode, "name": name, "pairs": [[attr, value]]}
    return [a.text for a in conf.apply("conf_attr", args, "root", "h", True).answers]


def test_attribute_verbs_change_a_set_or_one_rules_limits() -> None:
    """-mattr/-aattr/-dattr/-rattr resource_quota: enabled and description of the set,
    limit of the rule named set/rule (by name or number), checked as -Mrqs checks."""
    conf = ClusterConfig.load_dir(CELL)
    _apply(conf, text=TWO, add=True)
    done = 'root@h modified "per_host" in resource quota set list'
    assert _attr(conf, "change", "enabled", "false", "per_host") == [done]
    assert _attr(conf, "change", "limit", "s_vmem=2G", "per_host/2") == [done]
    assert _attr(conf, "append", "limit", "slots=4", "per_host/2") == [done]
    assert _attr(conf, "change", "limit", "slots=8", "per_host/r1") == [done]
    shown = conf.show("rqs", "per_host")["text"]
    assert "   enabled      FALSE\n" in shown
    assert "hosts {*,!host2} to slots=8\n" in shown
    assert "queues all.q,!other.q to s_vmem=2G,slots=4\n" in shown
    assert _attr(conf, "remove", "limit", "s_vmem", "per_host/2") == [done]
    assert _attr(conf, "set", "limit", "slots=1", "per_host/2") == [done]
    assert "queues all.q,!other.q to slots=1\n" in conf.show("rqs", "per_host")["text"]
    assert _attr(conf, "change", "limit", "slots=1", "per_host") == [
        "no resource quota rule specified for modification"
    ]
    assert _attr(conf, "change", "limit", "nosuch=1", "per_host/1") == [
        '"resource_quota" references not existing complex attribute "nosuch"'
    ]
    assert _attr(conf, "change", "enabled", "true", "nosuch") == [
        'denied: resource quota set "nosuch" does not exist'
    ]
