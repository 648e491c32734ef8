"""Property tests of the submit grammar: argv built from a spec parses back to it."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from clients.submit.build import SubmitInputs, build_qalter, build_qsub
from clients.submit.dates import parse_date_time
from clients.submit.words import request_tokens

WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_.", min_size=1, max_size=8)
RESOURCES = st.dictionaries(WORD, WORD, min_size=1, max_size=4)


def _inputs() -> SubmitInputs:
    files = {"/w/job.sh": "true\n"}
    return SubmitInputs({"SGE_ROOT": "/none"}, "/w", 2026, "h", files.get)


@st.composite
def specs(draw: st.DrawFn) -> dict[str, Any]:
    spec: dict[str, Any] = {}
    if draw(st.booleans()):
        spec["N"] = draw(WORD)
    if draw(st.booleans()):
        spec["p"] = draw(st.integers(-1023, 1024))
    if draw(st.booleans()):
        spec["l_hard"] = draw(RESOURCES)
    if draw(st.booleans()):
        spec["l_soft"] = draw(RESOURCES)
    if draw(st.booleans()):
        spec["q_hard"] = draw(st.lists(WORD, min_size=1, max_size=3))
    if draw(st.booleans()):
        first = draw(st.integers(1, 100))
        spec.update(t_min=first, t_max=first + draw(st.integers(0, 50)))
        spec["t_step"] = draw(st.integers(1, 5))
    if draw(st.booleans()):
        low = draw(st.integers(1, 16))
        spec.update(pe_name=draw(WORD), pe_min=low, pe_max=low + draw(st.integers(0, 16)))
    for key in ("j", "r", "R"):
        if draw(st.booleans()):
            spec[key] = draw(st.booleans())
    if draw(st.booleans()):
        spec["ac"] = draw(st.dictionaries(WORD, WORD, min_size=1, max_size=3))
    return spec


def to_argv(spec: dict[str, Any]) -> list[str]:
    argv: list[str] = []
    simple = {"N": "-N", "p": "-p"}
    for key, option in simple.items():
        if key in spec:
            argv += [option, str(spec[key])]
    if "l_soft" in spec:
        argv += ["-soft", "-l", ",".join(f"{k}={v}" for k, v in spec["l_soft"].items()), "-hard"]
    if "l_hard" in spec:
        argv += ["-l", ",".join(f"{k}={v}" for k, v in spec["l_hard"].items())]
    if "q_hard" in spec:
        argv += ["-q", ",".join(spec["q_hard"])]
    if "t_min" in spec:
        argv += ["-t", f"{spec['t_min']}-{spec['t_max']}:{spec['t_step']}"]
    if "pe_name" in spec:
        argv += ["-pe", spec["pe_name"], f"{spec['pe_min']}-{spec['pe_max']}"]
    for key in ("j", "r", "R"):
        if key in spec:
            argv += [f"-{key}", "y" if spec[key] else "n"]
    if "ac" in spec:
        argv += ["-ac", ",".join(f"{k}={v}" for k, v in spec["ac"].items())]
    return argv


@given(specs())
def test_qalter_argv_round_trips_to_the_same_spec(spec: dict[str, Any]) -> None:
    """Any set of submit options written as argv parses back to exactly that spec (but -t,
    which in qalter names the tasks of the job word before it, not a new task range)."""
    spec = {k: v for k, v in spec.items() if not k.startswith("t_")}
    request = build_qalter([*to_argv(spec), "1"], _inputs())
    expected = dict(spec)
    if "ac" in expected:  # qalter sends -ac as operations on each job's own context
        expected["context_ops"] = [["+", k, v] for k, v in expected.pop("ac").items()]
    assert request.spec == expected


@given(specs())
def test_request_file_and_argv_give_the_same_spec(spec: dict[str, Any]) -> None:
    """Options read from a request file mean what they mean on the command line."""
    argv = to_argv(spec)
    line = " ".join(f"'{word}'" for word in argv)
    from_argv = build_qsub([*argv, "job.sh"], _inputs()).spec
    files = {"/w/job.sh": "true\n", "/w/.sge_request": f"# defaults\n\n{line}\n"}
    with_file = SubmitInputs({"SGE_ROOT": "/none"}, "/w", 2026, "h", files.get)
    assert build_qsub(["job.sh"], with_file).spec == from_argv
    assert request_tokens(f"{line}\n") == argv


@given(
    st.integers(1970, 2037),
    st.integers(1, 12),
    st.integers(1, 28),
    st.integers(0, 23),
    st.integers(0, 59),
    st.integers(0, 59),
)
def test_full_date_time_round_trips(
    year: int, month: int, day: int, hour: int, minute: int, second: int
) -> None:
    """A CCYYMMDDhhmm.SS value is returned unchanged by the -a parser."""
    text = f"{year:04d}{month:02d}{day:02d}{hour:02d}{minute:02d}.{second:02d}"
    assert parse_date_time(text, 2000) == text


@given(st.text(max_size=14))
def test_date_parser_never_crashes(text: str) -> None:
    """Arbitrary text is either accepted or refused with a ClientError."""
    from clients.common.errors import ClientError

    message = ""
    result = ""
    try:
        result = parse_date_time(text, 2026)
    except ClientError as exc:
        message = exc.message
    assert "specified to -a option" in message or len(result) == 15
