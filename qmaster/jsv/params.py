"""How job specification values map to JSV protocol text, both ways.

Standard library only. A job specification (``JobSpec`` in
``qmaster.gdi.ops``) is a dict keyed by the JSV parameter names of qsub(1);
the protocol carries every value as one line of text. The mapping:

============================  ======================  =====================
keys                          Python value            protocol text
============================  ======================  =====================
b j now notify R r shell      ``bool``                ``y`` / ``n``
h                             ``bool``                ``u`` / ``n``
p pe_min pe_max t_* ar js tc  ``int``                 decimal
ot c_interval binding_<n>
dl                            ``int`` (epoch seconds) ``CCYYMMDDhhmm.SS``
l_hard l_soft ac              ``dict[str, str]``      ``a=1,b=5`` (``b`` if "")
q_hard q_soft masterq M       ``list[str]``           ``a,b``
hold_jid hold_jid_ad o e S i
CMDARGS                       ``list[str]``           ``CMDARGS n`` + ``CMDARG<i>``
anything else                 ``str``                 as is
============================  ======================  =====================

``w`` (the ``-w`` mode) is sent when it is not ``n`` and a JSV may change it.

As in Grid Engine, ``b j notify R r h`` are sent only when set, ``shell``
only as ``n``, ``m`` not as ``n``, ``p`` not as 0, and ``now`` never.
``wd`` (``-wd``) is sent as ``cwd``, the one parameter of -cwd and -wd in
jsv(1); a JSV's ``cwd`` replaces both. ``v`` (the job environment) travels as ``ENV`` lines, and ``script``, ``jsv``
and ``V`` never reach a JSV. An empty value sent back by a JSV deletes the
parameter. ``binding_<n>`` are the integer binding parameters
(``binding_amount``, ``binding_step``, ``binding_socket``, ``binding_core``,
``binding_exp_n``, ``binding_exp_socket<i>``, ``binding_exp_core<i>``, see
:mod:`qmaster.gdi.binding`). Scoped names of newer Grid Engines (``global_l_hard``,
``master_q_hard``, ...) are accepted as aliases.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from qmaster.digits import is_digits
from qmaster.gdi.binding import BINDING_EXP_KEY, BINDING_INTS
from qmaster.gdi.specvalues import EPOCHS, PARSERS, parse_param
from qmaster.gdi.values import date_time_text
from qmaster.jsv.errors import JsvProtocolError, JsvValueError

YES_NO: Final = frozenset({"b", "j", "now", "notify", "R", "r", "shell"})
INTS: Final = frozenset(
    {"p", "pe_min", "pe_max", "t_min", "t_max", "t_step", "ar", "js", "tc", "ot", "c_interval"}
    | BINDING_INTS
)
DICTS: Final = frozenset({"l_hard", "l_soft", "ac"})
LISTS: Final = frozenset(
    {"q_hard", "q_soft", "masterq", "M", "hold_jid", "hold_jid_ad", "o", "e", "S", "i"}
)
NOT_SENT: Final = frozenset({"v", "V", "script", "jsv", "CMDNAME", "CMDARGS", "context_ops"})

#: Pseudo parameters a JSV may read but never change.
READ_ONLY: Final = frozenset({"CLIENT", "CONTEXT", "VERSION", "USER", "GROUP", "JOB_ID"})

ALIASES: Final = {
    "global_l_hard": "l_hard",
    "global_l_soft": "l_soft",
    "global_q_hard": "q_hard",
    "global_q_soft": "q_soft",
    "master_q_hard": "masterq",
}


def encode_value(name: str, value: Any) -> str:
    """The protocol text of one parameter value."""
    if name == "h":
        text = "u" if value else "n"
    elif name in EPOCHS and isinstance(value, int | float) and not isinstance(value, bool):
        text = date_time_text(value)
    elif isinstance(value, bool):
        text = "y" if value else "n"
    elif isinstance(value, Mapping):
        text = ",".join(f"{k}={v}" if v != "" else str(k) for k, v in value.items())
    elif isinstance(value, list | tuple):
        text = ",".join(str(v) for v in value)
    else:
        text = str(value)
    if "\n" in text or "\r" in text:
        raise JsvValueError(f'value of parameter "{name}" contains a new line character')
    return text


def decode_value(name: str, text: str) -> Any:
    """The Python value of one parameter from its protocol text (not empty).

    A parameter of a qsub option is checked by that option's parser, so a bad
    value is refused (ValueRefused) with the text qsub gives for it.
    """
    if name in PARSERS:
        return parse_param(name, text)
    if name in YES_NO:
        return _yes_no(name, text)
    if name == "h":
        if text in ("u", "y", "n"):
            return text != "n"
        raise JsvValueError(f'JSV tries to set "{name}" to "{text}"')
    if name in INTS or BINDING_EXP_KEY.fullmatch(name):
        try:
            return int(text)
        except ValueError:
            raise JsvValueError(f'JSV tries to set "{name}" to "{text}"') from None
    if name in DICTS:
        return dict(_pairs(text))
    if name in LISTS:
        return [part for part in text.split(",") if part]
    return text


def _yes_no(name: str, text: str) -> bool:
    if text in ("y", "yes"):
        return True
    if text in ("n", "no"):
        return False
    raise JsvValueError(f'JSV tries to set "{name}" to "{text}"')


def _pairs(text: str) -> Iterator[tuple[str, str]]:
    for part in text.split(","):
        if part:
            key, _, val = part.partition("=")
            yield key, val


def spec_params(spec: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """The ``(name, text)`` pairs sent for a job, after the pseudo parameters.

    ``CMDNAME`` and the arguments come first, as Grid Engine sends them.
    """
    yield "CMDNAME", encode_value("CMDNAME", spec.get("CMDNAME", ""))
    args = list(spec.get("CMDARGS", ()))
    yield "CMDARGS", str(len(args))
    for i, arg in enumerate(args):
        yield f"CMDARG{i}", encode_value(f"CMDARG{i}", arg)
    for name, value in spec.items():
        if name == "wd" or (name == "cwd" and spec.get("wd")):
            continue
        if name not in NOT_SENT and name not in READ_ONLY and not _unsent(name, value):
            yield name, encode_value(name, value)
    if spec.get("wd"):  # Grid Engine keeps -wd and -cwd in one attribute, sent as cwd
        yield "cwd", encode_value("cwd", spec["wd"])


#: Switches Grid Engine sends only when set (``b y``, ``h u``...; ``shell`` only as ``n``).
_ONLY_WHEN_SET: Final = frozenset({"b", "j", "notify", "R", "r", "h"})


def _unsent(name: str, value: Any) -> bool:
    """True for a value Grid Engine does not send: a default, or ``now`` (not a JSV parameter)."""
    if value is None or name == "now":
        return True
    if name in _ONLY_WHEN_SET:
        return not value
    if name == "shell":
        return bool(value)
    return (name, value) in (("m", "n"), ("p", 0))


def apply_params(spec: Mapping[str, Any], changes: Mapping[str, str]) -> dict[str, Any]:
    """A copy of ``spec`` with the JSV's ``PARAM`` lines (last value wins) applied."""
    out = dict(spec)
    args = list(out.get("CMDARGS", ()))
    for raw, text in changes.items():
        name = ALIASES.get(raw, raw)
        if name == "CMDARGS":
            args = _resize(args, text)
        elif name.startswith("CMDARG") and is_digits(name[6:]):
            args = _set_arg(args, int(name[6:]), text)
        elif name == "CMDNAME":
            _check_cmdname(out, text)
        elif text == "":
            _delete(out, name)
        else:
            if name == "cwd":  # the JSV's cwd replaces -wd as well (one attribute)
                out.pop("wd", None)
            out[name] = decode_value(name, text)
    if args or "CMDARGS" in out or "CMDARGS" in changes:
        out["CMDARGS"] = args
    return out


def _resize(args: list[str], text: str) -> list[str]:
    if not is_digits(text):
        raise JsvValueError(f'JSV tries to set "CMDARGS" to "{text}"')
    count = int(text)
    return (args + [""] * count)[:count]


def _set_arg(args: list[str], index: int, text: str) -> list[str]:
    if index >= len(args):
        args = args + [""] * (index + 1 - len(args))
    args[index] = text
    return args


def _check_cmdname(spec: dict[str, Any], text: str) -> None:
    if text == spec.get("CMDNAME"):
        return
    if not text:
        raise JsvValueError('JSV tries to delete "CMDNAME"')
    if not spec.get("b"):
        raise JsvProtocolError('JSV tries to modify read-only parameter "CMDNAME"')
    spec["CMDNAME"] = text


def _delete(spec: dict[str, Any], name: str) -> None:
    spec.pop(name, None)
    if name == "cwd":
        spec.pop("wd", None)
    if name == "pe_name":
        spec.pop("pe_min", None)
        spec.pop("pe_max", None)


def check_read_only(name: str, text: str, sent: Mapping[str, str]) -> None:
    """Refuse a change to a pseudo parameter; echoing its value back is allowed."""
    if name in READ_ONLY and sent.get(name) != text:
        raise JsvProtocolError(f'JSV tries to modify read-only parameter "{name}"')


# Grid Engine escapes these control characters in the ENV values it sends a JSV
# (sge_jsv_script.c); a backslash itself is sent as it is.
_ENV_ESCAPES: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\a": "\\a", "\b": "\\b", "\v": "\\v"}
_ENV_UNESCAPES: Final = {text[1]: char for char, text in _ENV_ESCAPES.items()}


def escape_env(value: str) -> str:
    """An environment value as it travels in an ``ENV`` line (new lines, tabs... escaped)."""
    return "".join(_ENV_ESCAPES.get(c, c) for c in value)


def unescape_env(text: str) -> str:
    """The environment value an ``ENV`` line carries: the escapes of :func:`escape_env` undone."""
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text) and text[i + 1] in _ENV_UNESCAPES:
            out.append(_ENV_UNESCAPES[text[i + 1]])
            i += 2
            continue
        out.append(char)
        i += 1
    return "".join(out)
