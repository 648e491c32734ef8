"""One validation path for the values of a job specification, whatever their source.

Standard library only. A value reaches a job from the command line, a ``#$``
line, a request file, a client JSV, the server JSV or qalter; every one of
them is checked here with the parser of the qsub option it belongs to
(:mod:`qmaster.gdi.values`), so it is refused with the same text wherever it
came from. The grammar parses option text; a JSV's ``PARAM`` text goes
through :func:`parse_param`; and :func:`check_spec`, which the qmaster runs on
every submission and alteration (and qsub after its client JSVs), checks the
typed values of a whole specification by parsing their protocol text again,
then completes it as a submitted one would be (a PE request without a slot
range asks for 1 slot).

The deadline ``dl`` is stored as seconds since the epoch (what the scheduler
reads): its ``date_time`` text is converted here, once, and a stored number
is kept as it is. A JSV reads it back as ``CCYYMMDDhhmm.SS``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from qmaster.gdi import values as V
from qmaster.gdi.binding import check_binding
from qmaster.gdi.localtime import date_time_epoch

Parser = Callable[[str, int], Any]

_YES_NO: Final = ("b", "j", "now", "notify", "R", "r", "shell")


def _path_list(key: str) -> Parser:
    def parse(text: str, _year: int) -> list[str]:
        return V.path_list(text, f"-{key}")

    return parse


def _yes_no(key: str) -> Parser:
    def parse(text: str, _year: int) -> bool:
        return V.yes_no(f"-{key}", text)

    return parse


PARSERS: Final[dict[str, Parser]] = {
    "N": lambda text, _y: V.job_name(text),
    "p": lambda text, _y: V.priority(text),
    "m": lambda text, _y: V.mail_options(text),
    "M": lambda text, _y: V.mail_list(text),
    "ar": lambda text, _y: V.ar_id(text),
    "w": lambda text, _y: V.verify_mode(text),
    "l_hard": lambda text, _y: V.resource_list(text),
    "l_soft": lambda text, _y: V.resource_list(text),
    "ac": lambda text, _y: V.context_list("-ac", text),
    "a": lambda text, year: V.parse_date_time(text, year, "-a"),
    "dl": lambda text, year: date_time_epoch(text, year, "-dl"),
    "pe_min": lambda text, _y: V.slot_range(text)[0],
    "pe_max": lambda text, _y: V.slot_range(text)[1],
    "t_min": lambda text, _y: V.task_range(text)[0],
    "t_max": lambda text, _y: V.task_range(text)[0],
    "t_step": lambda text, _y: V.task_range(f"1-1:{text}")[2],
    "tc": lambda text, _y: V.task_concurrency(text),
    "js": lambda text, _y: V.job_share(text),
    "ot": lambda text, _y: V.override_tickets(text),
    "c_interval": lambda text, _y: V.checkpoint_interval(text),
    "c_occasion": lambda text, _y: V.occasion(text),
    "hold_jid": lambda text, _y: V.job_refs(text, "-hold_jid"),
    "hold_jid_ad": lambda text, _y: V.job_refs(text, "-hold_jid_ad"),
    **{key: _path_list(key) for key in ("o", "e", "i", "S")},
    **{key: _yes_no(key) for key in _YES_NO},
}

#: Parameters whose stored form is a number of seconds (kept as it is when typed so).
EPOCHS: Final = frozenset({"dl"})

#: Parameters whose check needs the current year (read where a clock is).
NEEDS_YEAR: Final = frozenset({"a", "dl"})


def as_text(value: Any) -> str:
    """The protocol text of a typed value (``y``/``n``, ``a=1,b``, ``a,b``)."""
    if isinstance(value, bool):
        return "y" if value else "n"
    if isinstance(value, Mapping):
        return ",".join(f"{k}={v}" if v != "" else str(k) for k, v in value.items())
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def parse_param(name: str, text: str, year: int | None = None) -> Any:
    """The value of parameter ``name`` from its text, checked as its qsub option checks it.

    Returns ``text`` unchanged for a parameter without a parser here, and for
    a date when ``year`` is None (checked later by :func:`check_spec`).
    Raises :class:`~qmaster.gdi.values.ValueRefused` with Grid Engine's text.
    """
    parser = PARSERS.get(name)
    if parser is None or (year is None and name in NEEDS_YEAR):
        return text
    return parser(text, year or 0)


def check_spec(spec: Mapping[str, Any], year: int, *, complete: bool = True) -> dict[str, Any]:
    """A checked (and, unless it is a partial qalter change, completed) copy of ``spec``.

    Raises ValueRefused for a bad value.
    """
    out = dict(spec)
    for name, value in spec.items():
        if name in PARSERS and value is not None and value != []:
            out[name] = check_value(name, value, year)
    if complete:
        _complete_pe(out)
    _check_ranges(out)
    check_binding(out)
    return out


def check_value(name: str, value: Any, year: int) -> Any:
    """One given value of a parameter :data:`PARSERS` has, checked (and converted) as
    :func:`check_spec` checks each; raises ValueRefused for a bad value."""
    if name in EPOCHS and _is_number(value):
        return _epoch(name, value)
    return PARSERS[name](as_text(value), year)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _epoch(name: str, value: float) -> int:
    if value < 0:
        raise V.bad_value(f'ERROR! Wrong date/time format "{value}" specified to -{name} option')
    return int(value)


def _check_ranges(spec: dict[str, Any]) -> None:
    """A slot or task range as a whole, checked as ``-pe``/``-t`` check it."""
    if spec.get("pe_min") is not None and spec.get("pe_max") is not None:
        V.slot_range(f"{spec['pe_min']}-{spec['pe_max']}")
    if spec.get("t_min") is not None:
        last = spec.get("t_max", spec["t_min"])
        V.task_range(f"{spec['t_min']}-{last}:{spec.get('t_step', 1)}")


def _complete_pe(spec: dict[str, Any]) -> None:
    """A PE request without a slot range asks for 1 slot; a range without a PE means nothing."""
    if not spec.get("pe_name"):
        spec.pop("pe_name", None)
        spec.pop("pe_min", None)
        spec.pop("pe_max", None)
        return
    if spec.get("pe_min") is None:
        spec["pe_min"] = 1
    if spec.get("pe_max") is None:
        spec["pe_max"] = spec["pe_min"]
