"""A job's specification is typed in the core and reads back as the dict it was given."""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from qmaster.core.errors import InvalidRequest
from qmaster.core.jobspec import FIELDS, JobSpec, from_spooled, from_wire
from qmaster.core.specs import altered_spec, checked_spec
from qmaster.gdi.messages import JobSpec as WireSpec
from qmaster.gdi.specvalues import check_spec
from qmaster.gdi.values import ValueRefused

from .helpers import ALICE, T0, make_core, submit

_TEXT = st.text(st.characters(codec="ascii", exclude_categories=("Cc",)), max_size=8)
_WORDS = st.lists(_TEXT, max_size=3)
_PAIRS = st.dictionaries(_TEXT, _TEXT, max_size=3)
_BOOL = st.booleans()
_SMALL = st.integers(0, 20)
_ONE_UP = st.integers(1, 20)

_BY_KEY: dict[str, st.SearchStrategy[Any]] = {
    "CMDARGS": _WORDS, "script": _TEXT, "b": _BOOL, "N": _TEXT, "o": _WORDS, "e": _WORDS,
    "j": _BOOL, "cwd": _TEXT, "wd": _TEXT, "v": _PAIRS, "V": _BOOL, "ac": _PAIRS, "A": _TEXT,
    "P": _TEXT, "p": st.integers(-1023, 1024), "h": _BOOL, "hold_jid": _WORDS,
    "l_hard": _PAIRS, "l_soft": _PAIRS, "q_hard": _WORDS, "q_soft": _WORDS, "pe_name": _TEXT,
    "pe_min": _ONE_UP, "pe_max": _ONE_UP, "masterq": _WORDS, "now": _BOOL, "r": _BOOL,
    "m": st.sampled_from(["n", "b", "bea", "ea"]), "M": _WORDS, "t_min": _ONE_UP,
    "t_max": _ONE_UP, "t_step": _ONE_UP, "R": _BOOL, "S": _WORDS,
    "a": st.sampled_from(["203001011200.00", "203001011200"]), "ar": _SMALL, "jsv": _WORDS,
    "notify": _BOOL, "shell": _BOOL, "ckpt": _TEXT, "c_interval": _SMALL,
    "c_occasion": st.sampled_from(["n", "s", "msx"]), "dl": st.integers(0, 2**31),
    "i": _WORDS, "js": _SMALL, "ot": _SMALL, "tc": _SMALL, "hold_jid_ad": _WORDS,
    "binding_type": st.sampled_from(["set", "env", "pe"]),
    "binding_strategy": st.sampled_from(["linear", "linear_automatic", "explicit"]),
    "binding_amount": _SMALL, "binding_step": _SMALL, "binding_socket": _SMALL,
    "binding_core": _SMALL, "binding_exp_n": _SMALL,
    "binding_exp_socket0": _SMALL, "binding_exp_core0": _SMALL,
}  # fmt: skip


@st.composite
def wire_specs(draw: st.DrawFn) -> dict[str, Any]:
    """A specification as the daemon's validation passes it to the core."""
    keys = draw(st.lists(st.sampled_from(sorted(_BY_KEY)), unique=True, max_size=12))
    raw = {"CMDNAME": draw(_TEXT), **{key: draw(_BY_KEY[key]) for key in keys}}
    try:
        return WireSpec.model_validate(raw).model_dump(exclude_none=True)
    except ValidationError:
        assume(False)
        raise


def _same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (``True`` is not ``1``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@settings(max_examples=300, suppress_health_check=[HealthCheck.filter_too_much])
@given(wire_specs())
def test_any_accepted_spec_reads_back_as_it_was_given(spec: dict[str, Any]) -> None:
    """A spool row, a JSV and qstat -j see exactly the keys and values that were sent."""
    assert _same(JobSpec.from_dict(spec).to_dict(), spec)
    year = time.localtime(T0).tm_year
    try:
        checked = check_spec(spec, year)
    except ValueRefused:
        return
    assert _same(JobSpec.from_dict(checked).to_dict(), checked)


@settings(max_examples=300, suppress_health_check=[HealthCheck.filter_too_much])
@given(wire_specs())
def test_the_core_checks_a_jobspec_as_the_dict_is_checked(spec: dict[str, Any]) -> None:
    """checked_spec refuses what check_spec refuses, with its words, and completes alike."""
    year = time.localtime(T0).tm_year
    try:
        in_order = JobSpec.from_dict(spec).to_dict()  # several bad values: the first is named
        expected: JobSpec | str = JobSpec.from_dict(check_spec(in_order, year))
    except ValueRefused as exc:
        expected = exc.message
    try:
        got: JobSpec | str = checked_spec(JobSpec.from_dict(spec), T0)
    except InvalidRequest as exc:
        got = str(exc)
    assert got == expected


def _checked_or_refusal(spec: dict[str, Any]) -> JobSpec | str:
    year = time.localtime(T0).tm_year
    try:
        return JobSpec.from_dict(check_spec(JobSpec.from_dict(spec).to_dict(), year))
    except ValueRefused as exc:
        return exc.message


_REPLAYED = {
    "CMDNAME": "sim_job", "CMDARGS": ["60"], "b": True, "N": "swf1",
    "l_hard": {"h_rt": "60"}, "q_hard": ["all.q"], "pe_name": "mpi", "pe_min": 2, "pe_max": 2,
}  # fmt: skip


@settings(max_examples=80)
@given(st.one_of(st.none(), _TEXT), st.one_of(st.none(), _PAIRS), st.one_of(st.none(), _PAIRS))
def test_a_job_like_one_accepted_before_is_judged_as_check_spec_judges_it(
    name: str | None, hard: dict[str, str] | None, soft: dict[str, str] | None
) -> None:
    """The core keeps what it accepted; a next job alike but for its name and ``-l`` lists
    (a replay's jobs) is still refused for them, with check_spec's words, or accepted."""
    assert isinstance(checked_spec(JobSpec.from_dict(_REPLAYED), T0), JobSpec)  # kept
    given = {"N": name, "l_hard": hard, "l_soft": soft}
    spec = {**_REPLAYED, **{k: v for k, v in given.items() if v is not None}}
    for k in [k for k, v in given.items() if v is None]:
        spec.pop(k, None)
    try:
        got: JobSpec | str = checked_spec(JobSpec.from_dict(spec), T0)
    except InvalidRequest as exc:
        got = str(exc)
    assert got == _checked_or_refusal(spec)


def test_every_attribute_has_one_key() -> None:
    """The table names each attribute once and each JSV key once."""
    attrs = [f.name for f in dataclasses.fields(JobSpec)]
    assert [attr for attr, _, _ in FIELDS] == attrs
    keys = [key for _, key, _ in FIELDS]
    assert len(set(keys)) == len(keys)


def test_a_spec_is_frozen_and_its_containers_immutable() -> None:
    """Nothing holding a spec can change it behind the core's back."""
    spec = JobSpec.from_dict({"CMDNAME": "x", "o": ["/tmp/o"], "l_hard": {"h_rt": "60"}})
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.name = "y"  # type: ignore[misc]
    assert spec.stdout == ("/tmp/o",)
    assert spec.hard_resources == (("h_rt", "60"),)
    assert spec.resource("h_rt") == "60"
    assert spec.resource("arch") is None


def test_jobs_of_one_submitter_share_their_environment() -> None:
    """Equal environments and paths are kept once, however many jobs carry them."""
    env = {"SGE_O_HOME": "/home/alice", "SGE_O_PATH": "/usr/bin:/bin"}
    first = JobSpec.from_dict({"CMDNAME": "a.sh", "v": dict(env), "o": ["/tmp/out"]})
    second = JobSpec.from_dict({"CMDNAME": "b.sh", "v": dict(env), "o": ["/tmp/out"]})
    assert first.env is second.env
    assert first.stdout is second.stdout
    assert JobSpec().args is None  # not given
    assert JobSpec.from_dict({"CMDARGS": []}).args == ()  # given empty


def test_an_unknown_key_is_refused() -> None:
    """A key that is no JSV parameter of qsub cannot slip into a stored job."""
    with pytest.raises(ValueError, match="unknown job specification parameter"):
        JobSpec.from_dict({"CMDNAME": "x", "bogus": 1})


def test_changes_keep_the_dict_keys_exact() -> None:
    """A None removes a key; a new -binding replaces every key of the old one."""
    spec = JobSpec.from_dict(
        {"CMDNAME": "x", "N": "n", "binding_type": "set", "binding_strategy": "explicit",
         "binding_exp_n": 1, "binding_exp_socket0": 0, "binding_exp_core0": 1}
    )  # fmt: skip
    assert "N" not in spec.with_dict_changes({"N": None}).to_dict()
    linear = {"binding_type": "set", "binding_strategy": "linear_automatic", "binding_amount": 2}
    assert altered_spec(spec, linear).to_dict() == {"CMDNAME": "x", "N": "n", **linear}
    context = altered_spec(spec, {"context_ops": [["+", "a", "1"], ["+", "b", "2"]]})
    assert context.to_dict()["ac"] == {"a": "1", "b": "2"}


def test_the_wire_model_becomes_a_spec_without_the_client_jsvs() -> None:
    """-jsv scripts run in the client; the stored job does not carry them."""
    model = WireSpec.model_validate({"CMDNAME": "x", "jsv": ["/j.sh"], "N": "n"})
    assert from_wire(model).to_dict() == {"CMDNAME": "x", "CMDARGS": [], "N": "n"}


def test_jobs_submitted_alike_share_one_spec() -> None:
    """A million jobs submitted with the same options keep one specification, not one each."""
    core = make_core()
    for name in ("a", "a", "b"):
        submit(core, ALICE, N=name, CMDARGS=["30"], l_hard={"h_rt": "60"})
    first, second, other = (core.jobs[i].spec for i in (1, 2, 3))
    assert first is second
    assert other is not first
    assert other.name == "b"


def test_an_older_spooled_spec_is_shared_like_a_new_one() -> None:
    """A job row spooled with its spec as an object recovers to the same shared spec as one
    spooled as text."""
    spec = {"CMDNAME": "sleep", "N": "x", "l_hard": {"h_rt": "60"}}
    older = from_spooled(dict(spec))
    assert older is from_spooled(json.dumps(spec)) is from_spooled(dict(spec))
    assert older.to_dict() == spec
