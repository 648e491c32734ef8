"""``qstat -j ... -xml`` and ``qstat -j -xml``: Grid Engine's CULL dumps as XML.

Grid Engine writes the job objects it fetched for ``qstat -j`` with its generic
XML writer (``lWriteElemXMLTo``): fields in the order qstat asked for them,
2 blanks of indent per level, empty lists and unset strings left out, every
list element tagged with its list's name (``qmaster_response`` for the objects
the qmaster sent, ``path_list``, ``destin_ident_list``... for sublists, as
``detailed_job_info.xsd`` names them). The document is ``<detailed_job_info>``
with ``<djob_info>`` and ``<messages>``; without a job list, ``<message>``.
Text is escaped properly, where Grid Engine's writer has a bug.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from clients.qstat_render.detail_values import seconds, verify_level
from clients.qstat_render.xml import SCHEMA

Field = tuple[str, Any]
Elem = list[Field]


class Sub:
    """A sublist: its elements' tag and the elements."""

    def __init__(self, tag: str, elements: Sequence[Elem]) -> None:
        self.tag = tag
        self.elements = list(elements)


def write_elem(fields: Elem, level: int) -> str:
    """One element's fields at ``level`` (as ``lWriteElemXML_``)."""
    space = "  " * level
    parts: list[str] = []
    for name, value in fields:
        if value is None or (isinstance(value, Sub) and not value.elements):
            continue
        if isinstance(value, Sub):
            parts.append(f"{space}<{name}>\n{write_list(value, level + 1)}{space}</{name}>\n")
        else:
            parts.append(f"{space}<{name}>{escape(_text(value))}</{name}>\n")
    return "".join(parts)


def write_list(sub: Sub, level: int) -> str:
    """A list's elements, each tagged with the list's name (as ``lWriteListXML_``)."""
    indent = "  " * level
    return "".join(
        f"{indent}<{sub.tag}>\n{write_elem(e, level + 1)}{indent}</{sub.tag}>\n"
        for e in sub.elements
    )


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:f}"
    return str(value)


def document(root: str, sections: Sequence[tuple[str, Sub]]) -> str:
    """The XML head, then each named section of the root element."""
    body = "".join(f"  <{name}>\n{write_list(sub, 2)}  </{name}>\n" for name, sub in sections)
    return f"<?xml version='1.0'?>\n<{root}  xmlns:xsd=\"{SCHEMA}\">\n{body}</{root}>\n"


def _paths(items: Any) -> Sub:
    entries = [items] if isinstance(items, str) else list(items or [])
    elements: list[Elem] = []
    for item in entries:
        host, sep, path = str(item).partition(":")
        if not sep:
            host, path = "", str(item)
        fields: Elem = [("PN_path", path), ("PN_host", host or None), ("PN_file_host", None)]
        elements.append([*fields, ("PN_file_staging", False)])
    return Sub("path_list", elements)


def _names(tag: str, field: str, values: Any) -> Sub:
    return Sub(tag, [[(field, str(v))] for v in values or []])


def _vars(tag: str, mapping: Any) -> Sub:
    return Sub(tag, [[("VA_variable", k), ("VA_value", v)] for k, v in (mapping or {}).items()])


def _env(job: dict[str, Any]) -> Sub:
    env = {
        (f"__SGE_PREFIX__{k[4:]}" if k.startswith("SGE_O_") else k): v
        for k, v in (job.get("v") or {}).items()
    }
    return _vars("element", env)


def _requests(items: Sequence[dict[str, Any]]) -> Sub:
    return Sub(
        "qstat_l_requests",
        [
            [
                ("CE_name", r["name"]),
                ("CE_valtype", r["valtype"]),
                ("CE_stringval", r["stringval"]),
                ("CE_doubleval", float(r["doubleval"])),
                ("CE_relop", r["relop"]),
                ("CE_consumable", bool(r["consumable"])),
                ("CE_dominant", 0),
                ("CE_pj_doubleval", 0.0),
                ("CE_pj_dominant", 0),
                ("CE_requestable", 0),
                ("CE_tagged", 0),
            ]
            for r in items
        ],
    )


def _tasks(detail: dict[str, Any]) -> Sub:
    elements: list[Elem] = []
    for task in detail.get("tasks") or []:
        if task.get("queue") is None and task.get("state") != "Eqw":
            continue
        usage = task.get("usage")
        scaled = Sub(
            "element",
            [[("UA_name", k), ("UA_value", float(v))] for k, v in (usage or {}).items()],
        )
        status = 128 if task.get("queue") else 0
        elements.append(
            [
                ("JAT_status", status),
                ("JAT_task_number", int(task["task_number"])),
                ("JAT_scaled_usage_list", scaled),
            ]
        )
    return Sub("ulong_sublist", elements)


_MAIL_BITS = {"a": 0x40000, "b": 0x80000, "e": 0x100000, "n": 0x200000, "s": 0x400000}
_CKPT_BITS = {"m": 0x01, "s": 0x02, "x": 0x04, "n": 0x08}


def _bits(letters: object, table: dict[str, int]) -> int:
    return sum(bit for ch, bit in table.items() if ch in str(letters or ""))


def _epoch(value: object) -> int:
    from clients.qstat_render.times import date_time_epoch

    if isinstance(value, int | float):
        return int(value)
    epoch = date_time_epoch(str(value)) if value else None
    return int(epoch) if epoch is not None else 0


def _job_type(job: dict[str, Any]) -> int:
    kind = 0x40 if job.get("b") else 0
    kind |= 0x80 if job.get("t_min") is not None else 0
    kind |= 0x100 if job.get("shell") is False else 0
    return kind | (0x01 if job.get("now") else 0)


def _restart(job: dict[str, Any]) -> int:
    if "r" not in job or job["r"] is None:
        return 0
    return 1 if job["r"] else 2


def _structure(job: dict[str, Any]) -> Sub:
    first = int(job.get("t_min") or 1)
    last = int(job.get("t_max") or first)
    step = int(job.get("t_step") or 1)
    return Sub("task_id_range", [[("RN_min", first), ("RN_max", last), ("RN_step", step)]])


def _pe_range(job: dict[str, Any]) -> Sub | None:
    if not job.get("pe_name"):
        return None
    low = int(job.get("pe_min") or 1)  # a spec spooled before ranges were completed
    high = int(job.get("pe_max") or low)
    return Sub("ranges", [[("RN_min", low), ("RN_max", high), ("RN_step", 1)]])


def _mail(detail: dict[str, Any]) -> Sub:
    elements: list[Elem] = []
    for address in detail.get("mail_list") or []:
        user, _, host = str(address).partition("@")
        elements.append([("MR_user", user), ("MR_host", host or None)])
    return Sub("element", elements)


def _binding(job: dict[str, Any]) -> Sub:
    fields: Elem = [
        ("BN_strategy", str(job.get("binding_strategy") or "no_job_binding")),
        ("BN_parameter_n", int(job.get("binding_amount") or 0)),
        ("BN_parameter_socket_offset", int(job.get("binding_socket") or 0)),
        ("BN_parameter_core_offset", int(job.get("binding_core") or 0)),
        ("BN_parameter_striding_first_core", 0),
        ("BN_parameter_striding_last_core", 0),
        ("BN_parameter_striding_step_size", int(job.get("binding_step") or 0)),
    ]
    return Sub("binding", [fields])


def job_fields(detail: dict[str, Any], binding: bool = False) -> Elem:
    """One job in the field order ``qstat -j`` asks the qmaster for (``-cb``: with binding)."""
    job: dict[str, Any] = detail.get("job") or {}
    return [
        ("JB_job_number", detail["job_id"]),
        ("JB_ar", int(job.get("ar") or 0)),
        ("JB_exec_file", detail.get("exec_file")),
        ("JB_submission_time", int(float(detail["submission_time"]))),
        ("JB_owner", detail.get("owner")),
        ("JB_uid", detail.get("uid", 0)),
        ("JB_group", detail.get("group")),
        ("JB_gid", detail.get("gid", 0)),
        ("JB_account", detail.get("account")),
        ("JB_merge_stderr", bool(job.get("j"))),
        ("JB_mail_list", _mail(detail)),
        ("JB_project", job.get("P")),
        ("JB_notify", bool(job.get("notify"))),
        ("JB_job_name", job.get("N", "")),
        ("JB_stdout_path_list", _paths(job.get("o"))),
        ("JB_jobshare", int(job.get("js") or 0)),
        ("JB_hard_resource_list", _requests(detail.get("l_hard") or [])),
        ("JB_soft_resource_list", _requests(detail.get("l_soft") or [])),
        ("JB_hard_queue_list", _names("destin_ident_list", "QR_name", job.get("q_hard"))),
        ("JB_soft_queue_list", _names("destin_ident_list", "QR_name", job.get("q_soft"))),
        ("JB_shell_list", _paths(job.get("S"))),
        ("JB_env_list", _env(job)),
        ("JB_job_args", _names("element", "ST_name", job.get("CMDARGS"))),
        ("JB_script_file", job.get("CMDNAME")),
        ("JB_ja_tasks", _tasks(detail)),
        ("JB_context", _vars("context_list", job.get("ac"))),
        ("JB_cwd", job.get("wd") or job.get("cwd")),
        ("JB_stderr_path_list", _paths(job.get("e"))),
        (
            "JB_jid_predecessor_list",
            _names("job_predecessors", "JRE_job_number", detail.get("predecessors")),
        ),
        (
            "JB_jid_successor_list",
            _names("ulong_sublist", "JRE_job_number", detail.get("successors")),
        ),
        ("JB_deadline", _epoch(job.get("dl"))),
        ("JB_execution_time", _epoch(job.get("a"))),
        ("JB_checkpoint_name", job.get("ckpt")),
        ("JB_checkpoint_attr", _bits(job.get("c_occasion"), _CKPT_BITS)),
        ("JB_checkpoint_interval", seconds(job.get("c_interval") or 0)),
        ("JB_directive_prefix", job.get("C")),
        ("JB_reserve", bool(job.get("R"))),
        ("JB_mail_options", _bits(job.get("m"), _MAIL_BITS)),
        ("JB_stdin_path_list", _paths(job.get("i"))),
        ("JB_priority", int(job.get("p") or 0) + 1024),
        ("JB_restart", _restart(job)),
        ("JB_verify", 0),
        ("JB_master_hard_queue_list", _names("destin_ident_list", "QR_name", job.get("masterq"))),
        ("JB_script_size", 0),
        ("JB_pe", job.get("pe_name")),
        ("JB_pe_range", _pe_range(job)),
        (
            "JB_jid_request_list",
            Sub(
                "element",
                [
                    [("JRE_job_number", 0), ("JRE_job_name", str(r))]
                    for r in job.get("hold_jid") or []
                ],
            ),
        ),
        ("JB_verify_suitable_queues", verify_level(job.get("w"))),
        ("JB_soft_wallclock_gmt", 0),
        ("JB_hard_wallclock_gmt", 0),
        ("JB_override_tickets", int(job.get("ot") or 0)),
        ("JB_version", 0),
        ("JB_ja_structure", _structure(job)),
        ("JB_type", _job_type(job)),
        ("JB_binding", _binding(job) if binding else None),
    ]


def _message(number: int, text: str, job_ids: Sequence[int] | None) -> Elem:
    fields: Elem = []
    if job_ids is not None:
        fields.append(("MES_job_number_list", _names("ulong_sublist", "ULNG_value", job_ids)))
    return [*fields, ("MES_message_number", number), ("MES_message", text)]


def _sme(job_messages: Sequence[Elem], global_messages: Sequence[dict[str, Any]]) -> Sub:
    globals_ = [_message(int(m["number"]), str(m["text"]), None) for m in global_messages]
    return Sub(
        "qmaster_response",
        [
            [
                ("SME_message_list", Sub("element", list(job_messages))),
                ("SME_global_message_list", Sub("element", globals_)),
            ]
        ],
    )


def render_details_xml(
    details: Sequence[dict[str, Any]],
    global_messages: Sequence[dict[str, Any]],
    binding: bool = False,
) -> str:
    """``qstat -j <jobs> -xml`` (``binding``: ``-cb``, with each job's binding)."""
    jobs = Sub("qmaster_response", [job_fields(d, binding) for d in details])
    by_text: dict[tuple[int, str], list[int]] = {}
    for d in details:
        for m in d.get("messages") or []:
            if int(m["number"]) not in (28, 29):
                by_text.setdefault((int(m["number"]), str(m["text"])), []).append(int(d["job_id"]))
    job_messages = [_message(n, t, ids) for (n, t), ids in by_text.items()]
    return document(
        "detailed_job_info",
        [("djob_info", jobs), ("messages", _sme(job_messages, global_messages))],
    )


def render_unknown_xml(missing: Sequence[str]) -> str:
    """``qstat -j <jobs> -xml`` when none of them exists."""
    sub = Sub("element", [[("ST_name", m)] for m in missing])
    return (
        f"<?xml version='1.0'?>\n<unknown_jobs  xmlns:xsd=\"{SCHEMA}\">\n"
        f"{write_list(sub, 1)}</unknown_jobs>\n"
    )


def render_summary_xml(summary: dict[str, Any]) -> str:
    """``qstat -j -xml``: the scheduler's messages with the jobs each applies to."""
    job_messages = [
        _message(int(m["number"]), str(m["text"]), m["job_ids"]) for m in summary["messages"]
    ]
    sme = _sme(job_messages, summary.get("global_messages") or [])
    return (
        f"<?xml version='1.0'?>\n<message  xmlns:xsd=\"{SCHEMA}\">\n"
        f"{write_list(sme, 1)}</message>\n"
    )
