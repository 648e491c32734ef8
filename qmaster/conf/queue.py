"""Cluster queues (queue_conf(5)), execution hosts (host_conf(5)) and host groups (hostgroup(5))."""

from __future__ import annotations

import re

from qmaster.complexes.values import parse_memory, parse_time
from qmaster.conf import fields as f
from qmaster.conf.errors import Refused
from qmaster.conf.model import Attr, ConfObject, Format
from qmaster.conf.names import check_key

LIMITS = (
    "s_rt", "h_rt", "s_cpu", "h_cpu", "s_fsize", "h_fsize", "s_data", "h_data",
    "s_stack", "h_stack", "s_core", "h_core", "s_rss", "h_rss", "s_vmem", "h_vmem",
)  # fmt: skip
TIME_LIMITS = frozenset({"s_rt", "h_rt", "s_cpu", "h_cpu"})


def _no_suspension(name: str) -> f.Check:
    """Only ``NONE``: simulated hosts cannot suspend jobs, so the setting is refused."""

    def check(text: str) -> None:
        if not f.is_none(text):
            raise ValueError(
                f'{name} "{text}" is not supported: minige does not suspend jobs (use NONE)'
            )

    return check


_ATOI = re.compile(r"\s*[+-]?\d+")


def _check_priority(text: str) -> None:
    """cqueue_verify_priority(): atoi() of the text from -20 to 20, 0 only as "0..."."""
    found = _ATOI.match(text)
    value = int(found.group()) if found else 0
    if value == 0 and not text.startswith("0"):
        raise Refused("Invalid character")
    if not -20 <= value <= 20:
        raise Refused("Priority not in range -20 to +20")
    f.check_int(text)


def _one_of(what: str, *choices: str) -> f.Check:
    """cqueue_verify_initial_state() and _shell_start_mode(): a word of ``choices``."""
    allowed = {c.lower() for c in choices}

    def check(text: str) -> None:
        if text.lower() not in allowed:
            raise Refused(f'Invalid value "{text}" as {what}')

    return check


_QUEUE_ATTRS = (
    Attr("qname", None, check_key("cqueue")),
    Attr("hostlist", "NONE", f.check_names),
    Attr("seq_no", "0", f.check_uint),
    Attr("load_thresholds", "np_load_avg=1.75", f.check_pairs),
    Attr("suspend_thresholds", "NONE", _no_suspension("suspend_thresholds")),
    Attr("nsuspend", "1", f.check_uint),
    Attr("suspend_interval", "00:05:00", f.check_time),
    Attr("priority", "0", _check_priority),
    Attr("min_cpu_interval", "00:05:00", f.check_time),
    Attr("processors", "UNDEFINED", f.check_any),
    Attr("qtype", "BATCH INTERACTIVE", f.check_word_list("BATCH", "INTERACTIVE")),
    Attr("ckpt_list", "NONE", f.check_names),
    Attr("pe_list", "make", f.check_names),
    Attr("rerun", "FALSE", f.check_bool),
    Attr("slots", "1", f.check_slots),
    Attr("tmpdir", "/tmp", f.check_any),
    Attr("shell", "/bin/csh", f.check_any),
    Attr("prolog", "NONE", f.check_any),
    Attr("epilog", "NONE", f.check_any),
    Attr(
        "shell_start_mode",
        "posix_compliant",
        _one_of("shell start mode", "posix_compliant", "unix_behavior", "script_from_stdin"),
    ),
    Attr("starter_method", "NONE", f.check_any),
    Attr("suspend_method", "NONE", f.check_any),
    Attr("resume_method", "NONE", f.check_any),
    Attr("terminate_method", "NONE", f.check_any),
    Attr("notify", "00:00:60", f.check_time),
    Attr("owner_list", "NONE", f.check_names),
    Attr("user_lists", "NONE", f.check_names),
    Attr("xuser_lists", "NONE", f.check_names),
    Attr("subordinate_list", "NONE", _no_suspension("subordinate_list")),
    Attr("complex_values", "NONE", f.check_pairs),
    Attr("projects", "NONE", f.check_names),
    Attr("xprojects", "NONE", f.check_names),
    Attr("calendar", "NONE", f.check_names),
    Attr("initial_state", "default", _one_of("initial state", "default", "enabled", "disabled")),
    *(
        Attr(name, "INFINITY", f.check_time if name in TIME_LIMITS else f.check_memory)
        for name in LIMITS
    ),
)

QUEUE_FORMAT = Format(
    kind="cqueue",
    attrs=_QUEUE_ATTRS,
    column=22,
    host_overrides=frozenset(a.name for a in _QUEUE_ATTRS[2:]),
    spaced=frozenset(
        {"hostlist", "qtype", "ckpt_list", "pe_list", "owner_list", "user_lists", "xuser_lists"}
        | {"projects", "xprojects"}
    ),
)


def limit_value(name: str, text: str) -> float | None:
    """A limit in seconds or bytes; None for ``INFINITY``."""
    value = parse_time(text) if name in TIME_LIMITS else parse_memory(text)
    return None if value == float("inf") else value


class QueueConf(ConfObject):
    """A cluster queue; attributes other than qname/hostlist may carry ``[host=value]``."""

    FORMAT = QUEUE_FORMAT

    @property
    def hostlist(self) -> list[str]:
        """Host names and ``@hostgroup`` names the queue spans."""
        return f.split_list(self.attrs["hostlist"])


def _check_factors(text: str) -> None:
    """``NONE`` or ``name=factor`` items with decimal factors (``load_scaling``)."""
    for value in f.split_pairs(text).values():
        f.check_double(value)


EXECHOST_FORMAT = Format(
    kind="exechost",
    attrs=(
        Attr("hostname", None, f.check_name),
        Attr("load_scaling", "NONE", _check_factors),
        Attr("complex_values", "NONE", f.check_pairs),
        Attr("load_values", "NONE", f.check_pairs),
        Attr("processors", "0", f.check_uint),
        Attr("user_lists", "NONE", f.check_names),
        Attr("xuser_lists", "NONE", f.check_names),
        Attr("projects", "NONE", f.check_names),
        Attr("xprojects", "NONE", f.check_names),
        Attr("usage_scaling", "NONE", f.check_pairs),
        Attr("report_variables", "NONE", f.check_names),
    ),
    column=22,
    spaced=frozenset({"user_lists", "xuser_lists", "projects", "xprojects"}),
)


class ExecHostConf(ConfObject):
    """An execution host; in minige its static load values are configured here."""

    FORMAT = EXECHOST_FORMAT

    @property
    def complex_values(self) -> dict[str, str]:
        """Host-level complex values (``name=value``)."""
        return f.split_pairs(self.attrs["complex_values"])

    @property
    def load_values(self) -> dict[str, str]:
        """The simulated host's load report (``arch``, ``num_proc``, ``mem_total``...)."""
        return f.split_pairs(self.attrs["load_values"])

    @property
    def load_scaling(self) -> dict[str, str]:
        """Factors for the host's load values (``np_load_avg=1.5``)."""
        return f.split_pairs(self.attrs["load_scaling"])

    def render(self) -> str:
        """As ``qconf -se`` shows it: ``processors`` is what the host reports (its num_proc)."""
        reported = self.load_values.get("num_proc")
        if reported is None or self.attrs["processors"] == reported:
            return super().render()
        return self.model_copy(update={"attrs": {**self.attrs, "processors": reported}}).render()


HOSTGROUP_FORMAT = Format(
    kind="hostgroup",
    attrs=(
        Attr("group_name", None, f.check_name),
        Attr("hostlist", "NONE", f.check_names),
    ),
    column=0,  # Grid Engine prints a host group unaligned: "hostlist host1 host2"
    spaced=frozenset({"hostlist"}),
)


class HostgroupConf(ConfObject):
    """A host group (``@name``); its hostlist may name hosts and other host groups."""

    FORMAT = HOSTGROUP_FORMAT

    @property
    def hostlist(self) -> list[str]:
        """Member hosts and host groups."""
        return f.split_list(self.attrs["hostlist"])
