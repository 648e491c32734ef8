"""Effects of the submit options that store values for the qmaster to show and pass on.

``-binding``, ``-c``, ``-ckpt``, ``-dl``, ``-i``, ``-js``, ``-ot``, ``-tc`` and
``-hold_jid_ad`` as Grid Engine 6.2u5 parses them (``parse_qsub.c``). The
parsers are those the qmaster checks every job specification with
(:mod:`qmaster.gdi.values`, :mod:`qmaster.gdi.binding`), so a value means the
same from the command line, a request file, a ``#$`` line, qalter or a JSV.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from clients.submit import values as V
from clients.submit.dates import parse_date_time
from qmaster.gdi import binding as B

if TYPE_CHECKING:
    from clients.submit.grammar import ParseContext, SubmitState

BINDING_TYPES = frozenset(B.BINDING_TYPES)


def binding_words(tokens: Sequence[str]) -> int:
    """How many words ``-binding`` takes: the strategy, after an optional type."""
    return 2 if tokens and tokens[0] in BINDING_TYPES else 1


def binding(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
    """``-binding``: a new binding replaces the whole previous one."""
    found = B.binding(args)
    for key in [k for k in state.spec if k.startswith("binding_")]:
        del state.spec[key]
    state.spec.update(found)


def checkpoint(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
    """``-c``: the occasion letters or the interval; each -c sets its own key."""
    state.spec.update(V.checkpoint(args[0]))


def deadline(state: SubmitState, args: list[str], ctx: ParseContext) -> None:
    """``-dl date_time``: the deadline, as ``CCYYMMDDhhmm.SS``."""
    state.spec["dl"] = parse_date_time(args[0], ctx.year, "-dl")


def paths(key: str, option: str) -> Callable[..., None]:
    """``-o``, ``-e``, ``-i``, ``-S``: ``[host:]path`` lists. qsub merges a later list into
    the one it has (cull_merge_definition_list(): a path for a host already there, or for
    no host, replaces that path; the cell's, the home and the current sge_request files,
    the script and the command line so override each other); qalter appends."""

    def effect(state: SubmitState, args: list[str], ctx: ParseContext) -> None:
        items = state.spec.setdefault(key, [])
        earlier = [] if ctx.qalter else items[:]  # one list keeps its own repeats
        for item in V.path_list(args[0], option):
            at = _same_host(earlier, _host_of(item))
            if at is None:
                items.append(item)
            else:
                items[at] = item

    return effect


def _host_of(item: str) -> str:
    return item.partition(":")[0] if ":" in item[1:] else ""


def _same_host(items: list[str], host: str) -> int | None:
    return next((i for i, item in enumerate(items) if _host_of(item) == host), None)


def number(key: str, convert: Callable[[str], int]) -> Callable[..., None]:
    """``-js``, ``-ot``, ``-tc``: one checked integer."""

    def effect(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
        state.spec[key] = convert(args[0])

    return effect


def job_refs(key: str, option: str) -> Callable[..., None]:
    """``-hold_jid`` and ``-hold_jid_ad``: job ids, names or patterns to wait for."""

    def effect(state: SubmitState, args: list[str], _ctx: ParseContext) -> None:
        state.spec.setdefault(key, []).extend(V.job_refs(args[0], option))

    return effect


def hold_list(text: str, prog: str) -> str | None:
    """sge_parse_hold_list() (parse_qsub.c): the -h letters minige sends (``u o s`` set,
    ``U O S`` remove, ``n`` remove all), or None where Grid Engine refuses the list.

    One list either sets or removes holds: ``uU`` and ``un`` are refused, and so is
    any other character (``u,o``). qhold and qrls take only ``u o s``, qrls to
    remove them; ``n`` and the capitals are qalter's."""
    release = prog == "qrls"
    removing: bool | None = None
    letters = []
    for ch in text:
        if ch in "uos":
            letter, removes = (ch.upper(), True) if release else (ch, False)
        elif ch in "nUSO" and prog not in ("qhold", "qrls"):
            letter, removes = ch, True
        else:
            return None
        if removing is not None and removing != removes:
            return None
        removing = removes
        letters.append(letter)
    return "".join(letters)
