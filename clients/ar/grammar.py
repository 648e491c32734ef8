"""qrsub's option grammar: a table from switch to arity and effect, into an ArSpec.

The same table reads the default request files and the command line, applied
in that order to one :class:`ArState`, so later options override earlier ones
(list options such as ``-l``, ``-u``, ``-q`` and ``-M`` accumulate). ArSpec
keys are those of ``qmaster/gdi/ops.py``; times are epoch seconds already
resolved in local time, and only what the user gave is sent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from clients.ar.dates import date_time_epoch, parse_time_value
from clients.common.errors import ClientError, invalid_argument, missing_argument
from clients.submit import values as V

AR_VERIFY_MODES = frozenset({"e", "v"})


@dataclass(slots=True)
class ArState:
    """What the qrsub options have said so far."""

    spec: dict[str, Any] = field(default_factory=dict)
    verify: str = "e"


Effect = Callable[[ArState, list[str], int], None]


@dataclass(frozen=True, slots=True)
class ArOption:
    """One qrsub switch: how many words it takes, what it does, its own missing-value text."""

    arity: int
    effect: Effect
    missing: str | None = None


def _set(key: str, convert: Callable[[str], Any] = str) -> Effect:
    def effect(state: ArState, args: list[str], _year: int) -> None:
        state.spec[key] = convert(args[0])

    return effect


def _extend(key: str, items: Callable[[str], list[str]] = V.name_list) -> Effect:
    def effect(state: ArState, args: list[str], _year: int) -> None:
        state.spec.setdefault(key, []).extend(items(args[0]))

    return effect


def _date(key: str) -> Effect:
    def effect(state: ArState, args: list[str], year: int) -> None:
        state.spec[key] = date_time_epoch(args[0], year)

    return effect


def _duration(state: ArState, args: list[str], _year: int) -> None:
    seconds = parse_time_value(args[0])
    if seconds:
        state.spec["d"] = float(seconds)
    else:
        state.spec.pop("d", None)  # Grid Engine reads a zero duration as "not given"


def _resources(state: ArState, args: list[str], _year: int) -> None:
    state.spec.setdefault("l_hard", {}).update(V.resource_list(args[0]))


def _pe(state: ArState, args: list[str], _year: int) -> None:
    first, last = V.slot_range(args[1])
    state.spec.update(pe_name=args[0], pe_min=first, pe_max=last)


def _verify(state: ArState, args: list[str], _year: int) -> None:
    if args[0] not in AR_VERIFY_MODES:
        raise ClientError(f'invalid option argument "-w {args[0]}"')
    state.verify = args[0]


def ar_mail_options(text: str) -> str:
    """``-m``: letters from ``abe`` (kept in that order, Grid Engine's), or ``n`` alone."""
    letters = text.replace(",", "")
    bad = any(ch not in "bean" for ch in letters) or ("n" in letters and set(letters) != {"n"})
    if not letters or bad:
        raise ClientError(f'ERROR! Wrong mail options list format "{text}" specified to -m option')
    return "".join(ch for ch in "aben" if ch in letters)


def _mail(state: ArState, args: list[str], _year: int) -> None:
    letters = ar_mail_options(args[0])
    if letters != "n":
        old = state.spec.get("m", "").replace("n", "")
        letters = "".join(ch for ch in "abe" if ch in old + letters)
    state.spec["m"] = letters


OPTIONS: dict[str, ArOption] = {
    "-a": ArOption(1, _date("a")),
    "-e": ArOption(1, _date("e")),
    "-d": ArOption(1, _duration),
    "-w": ArOption(1, _verify),
    "-N": ArOption(1, _set("N", V.job_name)),
    "-A": ArOption(1, _set("A")),
    "-l": ArOption(1, _resources),
    "-u": ArOption(1, _extend("u")),
    "-q": ArOption(1, _extend("q_hard"), "ERROR! -q option must have queue list argument"),
    "-pe": ArOption(2, _pe, "ERROR! -pe option must have range as 2nd argument"),
    "-masterq": ArOption(1, _extend("masterq")),
    "-ckpt": ArOption(1, _set("ckpt")),
    "-now": ArOption(1, _set("now", lambda text: V.yes_no("-now", text))),
    "-m": ArOption(1, _mail),
    "-M": ArOption(1, _extend("M", V.mail_list)),
    "-he": ArOption(1, _set("he", lambda text: V.yes_no("-he", text))),
}


def apply_ar_tokens(tokens: Sequence[str], state: ArState, year: int) -> None:
    """Apply qrsub switches to ``state`` in order; any other word is an invalid argument."""
    i = 0
    while i < len(tokens):
        token = tokens[i]
        option = OPTIONS.get(token)
        if option is None:
            raise invalid_argument(token)
        words = list(tokens[i + 1 : i + 1 + option.arity])
        if len(words) < option.arity:
            raise ClientError(option.missing) if option.missing else missing_argument(token)
        option.effect(state, words, year)
        i += 1 + option.arity


MISSING_END = 'missing value for "end time or duration" in advance reservation request'
DURATION_MISMATCH = "difference between end and start time does not correspond to duration"
START_AFTER_END = "start time is later than end time"


def window_problem(spec: dict[str, Any]) -> str | None:
    """Grid Engine's complaint about the time window the switches gave, or ``None``.

    Any two of start/end/duration are enough (with duration alone, the start is
    now); when all three are given they must agree. The qmaster checks again
    and also refuses a start in the past.
    """
    start, end, duration = spec.get("a"), spec.get("e"), spec.get("d")
    if end is None and duration is None:
        return MISSING_END
    if start is not None and end is not None:
        if duration is not None and end - start != duration:
            return DURATION_MISMATCH
        if start > end:
            return START_AFTER_END
    return None
