"""qstat's and qselect's usage, as Grid Engine 6.2u5's ``qstat_usage()`` prints them.

Grid Engine's qselect is qstat in qselect mode (``source/clients/qstat``): the
same function prints both usages, qselect's with only the queue selecting
options, and both end with the same argument lists. The texts are
``msg_qstat.h``'s (``MSG_QSTAT_USAGE_*``); one of them ends in a blank. minige's
own options (``-json``, ``-story``) follow Grid Engine's.
"""

from __future__ import annotations

_BOTH = frozenset({"qstat", "qselect"})
_QSTAT = frozenset({"qstat"})
_INDENT = " " * 34  # after the 8 every line starts with: column 42

# (programs, line), in qstat_usage()'s order
_OPTIONS: tuple[tuple[frozenset[str], str], ...] = (
    (_QSTAT, "[-cb]                             view additional binding specific parameters"),
    (_QSTAT, "[-ext]                            view additional attributes"),
    (
        _QSTAT,
        "[-explain a|c|A|E]                show reason for c(onfiguration ambiguous), a(larm),"
        " suspend A(larm), E(rror) state",
    ),
    (_QSTAT, "[-f]                              full output"),
    (
        _QSTAT,
        "[-F [resource_attributes]]        full output and show (selected) resources of queue(s)",
    ),
    (_QSTAT, "[-g {c}]                          display cluster queue summary"),
    (_QSTAT, "[-g {d}]                          display all job-array tasks (do not group)"),
    (_QSTAT, "[-g {t}]                          display all parallel job tasks (do not group)"),
    (_BOTH, "[-help]                           print this help"),
    (_QSTAT, "[-j job_identifier_list ]         show scheduler job information"),
    (_BOTH, "[-l resource_list]                request the given resources"),
    (_QSTAT, "[-ne]                             hide empty queues"),
    (
        _BOTH,
        "[-pe pe_list]                     select only queues with one of these parallel"
        " environments",
    ),
    (_BOTH, "[-q wc_queue_list]                print information on given queue"),
    (_BOTH, "[-qs {a|c|d|o|s|u|A|C|D|E|S}]     selects queues, which are in the given state(s)"),
    (_QSTAT, "[-r]                              show requested resources of job(s)"),
    (
        _QSTAT,
        "[-s {p|r|s|z|hu|ho|hs|hd|hj|ha|h|a}] show pending, running, suspended, zombie jobs,",
    ),
    (_QSTAT, _INDENT + "jobs with a user/operator/system/array-dependency hold, "),
    (_QSTAT, _INDENT + "jobs with a start time in future or any combination only."),
    (_QSTAT, _INDENT + "h is an abbreviation for huhohshdhjha"),
    (_QSTAT, _INDENT + "a is an abbreviation for prsh"),
    (_QSTAT, "[-t]                              show task information (implicitly -g t)"),
    (_QSTAT, "[-u user_list]                    view only jobs of this user"),
    (_BOTH, "[-U user_list]                    select only queues where these users have access"),
    (_QSTAT, "[-urg]                            display job urgency information"),
    (_QSTAT, "[-pri]                            display job priority information"),
    (_QSTAT, "[-xml]                            display the information in XML-Format"),
    # minige's own
    (_QSTAT, "[-json]                           display the information as a JSON document"),
    (
        _QSTAT,
        "[-story]                          show each job's story (with -j; a minige addition)",
    ),
)

_ARGUMENT_LISTS = (
    "pe_list                  pe[,pe,...]",
    "job_identifier_list      [job_id|job_name|pattern]{, [job_id|job_name|pattern]}",
    "resource_list            resource[=value][,resource[=value],...]",
    "user_list                user|@group[,user|@group],...]",
    "resource_attributes      resource,resource,...",
    "wc_cqueue                wildcard expression matching a cluster queue",
    "wc_host                  wildcard expression matching a host",
    "wc_hostgroup             wildcard expression matching a hostgroup",
    "wc_qinstance             wc_cqueue@wc_host",
    "wc_qdomain               wc_cqueue@wc_hostgroup",
    "wc_queue                 wc_cqueue|wc_qdomain|wc_qinstance",
    "wc_queue_list            wc_queue[,wc_queue,...]",
)


def qstat_usage(prog: str) -> str:
    """The usage of ``prog`` (``qstat`` or ``qselect``) after the version line."""
    lines = [f"usage: {prog} [options]"]
    lines.extend(" " * 8 + line for programs, line in _OPTIONS if prog in programs)
    lines.append("")
    lines.extend(_ARGUMENT_LISTS)
    return "\n".join(lines) + "\n"
