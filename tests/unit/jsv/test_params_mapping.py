"""The mapping between job-spec values and JSV protocol text."""

from __future__ import annotations

import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clients.submit.grammar import ParseContext, SubmitState, apply_tokens
from qmaster.gdi.specvalues import check_spec
from qmaster.gdi.values import ValueRefused
from qmaster.jsv.errors import JsvProtocolError, JsvValueError
from qmaster.jsv.params import (
    apply_params,
    check_read_only,
    decode_value,
    encode_value,
    escape_env,
    spec_params,
    unescape_env,
)
from qmaster.jsv.url import parse_jsv_url

word = st.text(
    st.characters(whitelist_categories=("L", "N"), whitelist_characters="_.-/:"),
    min_size=1,
    max_size=12,
)
specs = st.fixed_dictionaries(
    {"CMDNAME": word},
    optional={
        "CMDARGS": st.lists(
            st.text(st.characters(blacklist_characters="\n\r"), max_size=8), max_size=4
        ),
        "b": st.booleans(),
        "r": st.booleans(),
        "h": st.booleans(),
        "N": word.filter(lambda w: "/" not in w),  # -N refuses a /
        "p": st.integers(-1023, 1024),
        "pe_name": word,
        "pe_min": st.integers(1, 9999999),
        "l_hard": st.dictionaries(word, word, min_size=1, max_size=4),
        "ac": st.dictionaries(word, st.one_of(st.just(""), word), min_size=1, max_size=3),
        "q_hard": st.lists(word, min_size=1, max_size=3),
        "M": st.lists(word, min_size=1, max_size=3, unique=True),  # as -M leaves it
        "a": st.just("202601011000.00"),
    },
)


@given(specs)
def test_spec_round_trips_through_protocol_text(spec: dict[str, Any]) -> None:
    """Every value sent as PARAM text and sent back unchanged gives the same job."""
    changes = dict(spec_params(spec))
    base = {k: v for k, v in spec.items() if k in ("CMDNAME", "b") or k not in changes}
    assert apply_params(base, changes) == {
        **spec,
        "CMDARGS": list(spec.get("CMDARGS", [])),
    }


def test_text_forms_follow_grid_engine() -> None:
    """Switches are y/n, -h is u, lists are comma-joined, arguments are counted."""
    sent = dict(
        spec_params(
            {
                "CMDNAME": "x.sh",
                "CMDARGS": ["a", "b c"],
                "j": True,
                "h": True,
                "l_hard": {"a": "1", "b": "5"},
                "ac": {"k": ""},
                "q_hard": ["all.q", "big.q"],
                "v": {"A": "1"},
                "script": "...",
            }
        )
    )
    assert sent == {
        "CMDNAME": "x.sh",
        "CMDARGS": "2",
        "CMDARG0": "a",
        "CMDARG1": "b c",
        "j": "y",
        "h": "u",
        "l_hard": "a=1,b=5",
        "ac": "k",
        "q_hard": "all.q,big.q",
    }


def test_empty_value_deletes_and_pe_name_takes_its_range() -> None:
    """PARAM name with no value removes the parameter (pe_name takes pe_min/pe_max)."""
    spec = {"CMDNAME": "x", "pe_name": "mpi", "pe_min": 1, "pe_max": 4, "N": "job"}
    assert apply_params(spec, {"pe_name": "", "N": ""}) == {"CMDNAME": "x"}


def test_cmdargs_resize_pads_with_empty_arguments() -> None:
    """A bigger CMDARGS than the CMDARG<i> given pads with empty arguments."""
    assert apply_params({"CMDNAME": "x", "CMDARGS": ["1"]}, {"CMDARGS": "3", "CMDARG2": "z"})[
        "CMDARGS"
    ] == ["1", "", "z"]


def test_scoped_names_are_aliases() -> None:
    """global_l_hard and master_q_hard from newer JSVs land on l_hard and masterq."""
    out = apply_params({"CMDNAME": "x"}, {"global_l_hard": "h_rt=60", "master_q_hard": "io.q"})
    assert (out["l_hard"], out["masterq"]) == ({"h_rt": "60"}, ["io.q"])


def test_malformed_hold_value_is_refused_in_ge_words() -> None:
    """A hold value other than u/n names the parameter and the value."""
    with pytest.raises(JsvValueError, match='JSV tries to set "h" to "s"'):
        decode_value("h", "s")


@pytest.mark.parametrize(
    ("name", "argv"),
    [
        ("p", ["-p", "high"]),
        ("b", ["-b", "maybe"]),
        ("m", ["-m", "xyz"]),
        ("N", ["-N", "a/b"]),
        ("l_hard", ["-l", "=1"]),
        ("ar", ["-ar", "0"]),
        ("a", ["-a", "troete"]),
    ],
)
def test_jsv_values_are_refused_as_qsub_refuses_them(name: str, argv: list[str]) -> None:
    """A JSV's bad PARAM value gets the very message qsub gives for the typed option."""
    with pytest.raises(ValueRefused) as typed:
        apply_tokens(argv, SubmitState(), ParseContext({}, "/", 2026), allow_script=False)
    with pytest.raises(ValueRefused) as from_jsv:
        check_spec(apply_params({"CMDNAME": "x"}, {name: argv[1]}), 2026)
    assert from_jsv.value.message == typed.value.message


def test_read_only_parameters_cannot_change() -> None:
    """USER may be echoed back but not changed."""
    check_read_only("USER", "alice", {"USER": "alice"})
    with pytest.raises(JsvProtocolError):
        check_read_only("USER", "root", {"USER": "alice"})


@pytest.mark.parametrize(
    ("text", "path", "user"),
    [
        ("/a/jsv.sh", "/a/jsv.sh", None),
        ("script:/a/j", "/a/j", None),
        ("script:sgeadmin@/a/j", "/a/j", "sgeadmin"),
        ("bob@/x", "/x", "bob"),
        ("script:@/a/j", "/a/j", None),
    ],
)
def test_jsv_url_forms(text: str, path: str, user: str | None) -> None:
    """[type:][user@]path as in sge_types(1)."""
    url = parse_jsv_url(text)
    assert (url.path, url.user) == (path, user)


def test_jsv_url_unknown_type() -> None:
    """Only the script type exists."""
    with pytest.raises(Exception, match='type "java" in JSV URL is invalid'):
        parse_jsv_url("java:/a/b")


@given(st.text())
def test_env_escaping_round_trips_without_new_lines(value: str) -> None:
    """An escaped ENV value holds no line break; unescaping gives back a value without backslashes."""
    text = escape_env(value)
    assert "\n" not in text
    assert "\r" not in text
    if "\\" not in value:
        assert unescape_env(text) == value


def test_wd_is_sent_and_changed_as_cwd() -> None:
    """-wd reaches a JSV as PARAM cwd (Grid Engine's one attribute), and a JSV's cwd replaces it."""
    spec = {"CMDNAME": "x", "cwd": "/home/a", "wd": "/scratch"}
    sent = dict(spec_params(spec))
    assert sent["cwd"] == "/scratch"
    assert "wd" not in sent
    changed = apply_params(spec, {"cwd": "/tmp"})
    assert (changed["cwd"], "wd" in changed) == ("/tmp", False)
    assert "wd" not in apply_params(spec, {"cwd": ""})


@pytest.mark.parametrize(
    ("changes", "argv"),
    [
        ({"pe_name": "mpi", "pe_min": "x"}, ["-pe", "mpi", "x"]),
        ({"pe_name": "mpi", "pe_min": "4", "pe_max": "2"}, ["-pe", "mpi", "4-2"]),
        ({"t_min": "1", "t_max": "5", "t_step": "0"}, ["-t", "1-5:0"]),
        ({"t_min": "5", "t_max": "2"}, ["-t", "5-2"]),
    ],
)
def test_jsv_ranges_are_refused_as_qsub_refuses_them(
    changes: dict[str, str], argv: list[str]
) -> None:
    """A JSV's bad slot or task range gets the message qsub gives for the typed -pe or -t."""
    with pytest.raises(ValueRefused) as typed:
        apply_tokens(argv, SubmitState(), ParseContext({}, "/", 2026), allow_script=False)
    with pytest.raises(ValueRefused) as from_jsv:
        check_spec(apply_params({"CMDNAME": "x"}, changes), 2026)
    assert from_jsv.value.message == typed.value.message


def test_defaults_are_not_sent_as_grid_engine_does() -> None:
    """b/j/r/h go to a JSV only when set, shell only as n, now never: jsv_is_param says so."""
    spec = {"CMDNAME": "x", "b": False, "j": True, "r": False, "h": False, "shell": True}
    sent = dict(spec_params({**spec, "now": True, "m": "n", "p": 0}))
    assert "j" in sent
    assert not {"b", "r", "h", "shell", "now", "m", "p"} & set(sent)
    assert dict(spec_params({"CMDNAME": "x", "shell": False}))["shell"] == "n"


def test_deadline_is_stored_as_epoch_and_read_back_as_a_date() -> None:
    """-dl 203001011200 is kept as the epoch the scheduler reads; a JSV reads the date back."""
    stored = check_spec({"CMDNAME": "x", "dl": "203001011200"}, 2026)["dl"]
    assert stored == int(time.mktime((2030, 1, 1, 12, 0, 0, 0, 0, -1)))
    assert check_spec({"CMDNAME": "x", "dl": stored}, 2026)["dl"] == stored  # kept as it is
    assert encode_value("dl", stored) == "203001011200.00"
    assert check_spec(apply_params({"CMDNAME": "x"}, {"dl": "203001011200.00"}), 2026)["dl"] == (
        stored
    )
