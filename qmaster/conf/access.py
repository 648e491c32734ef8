"""Parallel environments (sge_pe(5)), access lists (access_list(5)) and the manager list."""

from __future__ import annotations

from qmaster.conf import fields as f
from qmaster.conf.errors import Refused
from qmaster.conf.model import Attr, ConfObject, Format
from qmaster.conf.names import check_key, variables_problem

ALLOCATION_VARIABLES = frozenset({"pe_slots", "fill_up", "round_robin"})


def _check_allocation_rule(text: str) -> None:
    """pe_validate(): the ``$`` words are pe_alloc_rule_variables; minige also wants
    what is left to be a number (Grid Engine stores any other word)."""
    if text in ("$pe_slots", "$fill_up", "$round_robin"):
        return
    if (problem := variables_problem(text, ALLOCATION_VARIABLES)) is not None:
        raise Refused(f'parameter allocation_rule of pe "{{name}}": {problem}', named=True)
    try:
        f.check_uint(text)
    except ValueError:
        raise ValueError(
            f'"{text}" is not a valid allocation rule ($pe_slots, $fill_up, $round_robin '
            "or a number)"
        ) from None


def _check_urgency_slots(text: str) -> None:
    """pe_validate_urgency_slots(): min, max, avg or a number (minige: a whole one)."""
    if text.lower() in ("min", "max", "avg"):
        return
    if not text[:1].isdigit():
        raise Refused(f'rejecting invalid urgency_slots setting "{text}"')
    f.check_uint(text)


PE_FORMAT = Format(
    kind="pe",
    attrs=(
        Attr("pe_name", None, check_key("pe")),
        Attr("slots", "0", f.check_slots),
        Attr("user_lists", "NONE", f.check_names),
        Attr("xuser_lists", "NONE", f.check_names),
        Attr("start_proc_args", "NONE", f.check_any),
        Attr("stop_proc_args", "NONE", f.check_any),
        Attr("allocation_rule", "$pe_slots", _check_allocation_rule),
        Attr("control_slaves", "FALSE", f.check_bool),
        Attr("job_is_first_task", "TRUE", f.check_bool),
        Attr("urgency_slots", "min", _check_urgency_slots),
        Attr("accounting_summary", "FALSE", f.check_bool),
    ),
    column=19,
    spaced=frozenset({"user_lists", "xuser_lists"}),
)


class PeConf(ConfObject):
    """A parallel environment."""

    FORMAT = PE_FORMAT

    @property
    def slots(self) -> int:
        """Slots the PE may use in the whole cluster."""
        return int(self.attrs["slots"], 0)

    @property
    def allocation_rule(self) -> str:
        """``$pe_slots``, ``$fill_up``, ``$round_robin`` or a number of slots per host."""
        return self.attrs["allocation_rule"]


USERSET_FORMAT = Format(
    kind="userset",
    attrs=(
        Attr("name", None, check_key("userset")),
        Attr("type", "ACL", f.check_word_list("ACL", "DEPT")),
        Attr("fshare", "0", f.check_uint),
        Attr("oticket", "0", f.check_uint),
        Attr("entries", "NONE", f.check_names),
    ),
    column=8,
)


class UsersetConf(ConfObject):
    """An access list: users and ``@group`` entries."""

    FORMAT = USERSET_FORMAT

    @property
    def entries(self) -> list[str]:
        """User names and ``@unix_group`` names."""
        return f.split_list(self.attrs["entries"])

    def with_entries(self, entries: list[str]) -> UsersetConf:
        """A copy holding ``entries``."""
        text = ",".join(entries) if entries else "NONE"
        return UsersetConf(attrs={**self.attrs, "entries": text})


def parse_managers(text: str) -> list[str]:
    """The manager file: one user name per line (``#`` comments and blanks skipped)."""
    names: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and stripped not in names:
            names.append(stripped)
    return names


def render_managers(names: list[str]) -> str:
    """One manager per line, as ``qconf -sm`` prints them."""
    return "".join(f"{name}\n" for name in names)
