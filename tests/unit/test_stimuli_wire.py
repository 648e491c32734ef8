"""The daemon's boundary: every wire request becomes the core's stimulus with the same content."""

from __future__ import annotations

from typing import Any

import pytest

from qmaster.core import stimuli as S
from qmaster.core.arspec import ArSpec
from qmaster.core.jobspec import JobSpec
from qmaster.events.clients import EVENT_CLIENT_OPS
from qmaster.gdi.messages import ARGS
from qmaster.jsv.protocol import ResultState, Verdict
from qmaster.model import Identity
from qmaster.stimuli_wire import KINDS, MalformedRequest, parse, verdict_of

ALICE = Identity(1000, 1000, "alice", "users")
DAEMON_OPS = {"subscribe", *EVENT_CLIENT_OPS}
"""Ops the daemon answers itself (event clients): they never reach the core."""


def test_every_op_of_the_wire_has_a_stimulus_or_is_the_daemons() -> None:
    """A request the wire accepts is never dropped: the core or the daemon handles its op."""
    assert set(ARGS) == set(KINDS) | DAEMON_OPS
    assert not set(KINDS) & DAEMON_OPS


@pytest.mark.parametrize(
    ("op", "args"),
    [
        ("conf_modify", {"kind": "global", "text": "x 1\n", "source": "f", "add": True}),
        ("conf_add", {"kind": "userset", "name": "arusers", "members": ["a", "b"]}),
        ("conf_delete", {"kind": "manager", "members": ["bob"]}),
        ("conf_attr", {"kind": "cqueue", "mode": "change", "name": "all.q", "pairs": [["a", "b"]]}),
        ("conf_attr", {"kind": "cqueue", "mode": "set", "name": "all.q", "text": "t"}),
    ],
)
def test_a_configuration_write_reaches_the_store_as_the_wire_sent_it(
    op: str, args: dict[str, Any]
) -> None:
    """qconf's writes: the store gets exactly the arguments of the wire's message."""
    stimulus = parse(ALICE, op, args)
    assert isinstance(stimulus, S.ConfChange)
    assert stimulus.op == op
    assert stimulus.request() == ARGS[op].model_validate(args).model_dump()


def test_specifications_lose_their_unset_keys() -> None:
    """qsub's job drops unset keys (a JobSpec built once, here); qalter's changes keep only
    the keys the client sent."""
    submit = parse(ALICE, "submit", {"job": {"CMDNAME": "a.sh", "N": "x"}, "verify": "e"})
    assert submit == S.Submit(
        ALICE, JobSpec.from_dict({"CMDNAME": "a.sh", "CMDARGS": [], "N": "x"}), "e"
    )
    alter = parse(ALICE, "alter", {"job_ids": ["1"], "job": {"p": -3}, "hold": "u"})
    assert alter == S.Alter(ALICE, ["1"], {"p": -3}, "n", "u")
    ar = parse(ALICE, "ar_submit", {"ar": {"d": 60.0}})
    assert ar == S.ArSubmit(ALICE, ArSpec.from_dict({"d": 60.0}), "e")


def test_a_malformed_request_says_where() -> None:
    """What the wire refuses never becomes a stimulus; the text names the field."""
    with pytest.raises(MalformedRequest, match=r"malformed request: job\.p: "):
        parse(ALICE, "submit", {"job": {"CMDNAME": "a", "p": 5000}})


def test_a_verdict_keeps_its_state_and_message() -> None:
    """ACCEPT, REJECT and REJECT_WAIT pass as they are, without a job."""
    for state in (ResultState.ACCEPT, ResultState.REJECT, ResultState.REJECT_WAIT):
        verdict = verdict_of(ALICE, 7, Verdict(state, {"CMDNAME": "a"}, message="m"))
        assert verdict == S.JsvVerdict(ALICE, 7, state.value, message="m")


def test_a_correction_is_validated_with_its_environment_and_w() -> None:
    """CORRECT: the job as the wire would take it, the JSV's environment, its -w mode."""
    spec = {"CMDNAME": "a", "p": "-5", "w": "v", "UNKNOWN_KEY": "x"}
    verdict = verdict_of(ALICE, 7, Verdict(ResultState.CORRECT, spec, {"E": "1"}))
    assert verdict.state == "CORRECT"
    assert verdict.spec is not None
    assert verdict.spec.to_dict() == {"CMDNAME": "a", "CMDARGS": [], "p": -5, "v": {"E": "1"}}
    assert verdict.verify == "v"


def test_a_correction_into_a_w_that_is_no_mode_is_a_rejection() -> None:
    """A JSV's w must be one of qsub's -w modes; anything else rejects the job, saying so."""
    verdict = verdict_of(ALICE, 7, Verdict(ResultState.CORRECT, {"CMDNAME": "a", "w": "x"}))
    assert verdict.state == "REJECT"
    assert verdict.message == "JSV corrected the job into an invalid one: w: 'x' is no -w mode"


def test_a_correction_into_an_invalid_job_is_a_rejection_saying_why() -> None:
    """A JSV that corrects a job into one the wire refuses rejects it, naming the field."""
    verdict = verdict_of(ALICE, 7, Verdict(ResultState.CORRECT, {"CMDNAME": "a", "p": 5000}))
    assert verdict.state == "REJECT"
    assert verdict.message.startswith("JSV corrected the job into an invalid one: p: ")
