"""The texts qacct prints: usage, messages and the shepherd failure descriptions.

Facts of Grid Engine 6.2u5 (``msg_history.h``, ``qacct.c``,
``execution_states.h``/``get_sstate_description``); the wording is Grid
Engine's because scripts parse it.
"""

from __future__ import annotations

from clients.common.conventions import VERSION_LINE

_OPTIONS = (
    ("[-ar [ar_id]]", "list [matching] advance reservations"),
    ("[-A account_string]", "jobs accounted to the given account"),
    ("[-b begin_time]", "jobs started after"),
    ("[-d days]", "jobs started during the last d days"),
    ("[-D [department]]", "list [matching] department"),
    ("[-e end_time]", "jobs started before"),
    ("[-g [groupid|groupname]]", "list [matching] group"),
    ("[-h [host]]", "list [matching] host"),
    ("[-help]", "display this message"),
    ("[-j [job_id|job_name|pattern]]", "list all [matching] jobs"),
    ("[-l attr=val,...]", "request given complex attributes"),
    ("[-o [owner]]", "list [matching] owner"),
    ("[-pe [pe_name]]", "list [matching] parallel environment"),
    ("[-P [project]]", "list [matching] project"),
    ("[-q [queue]]", "list [matching] queue"),
    ("[-slots [slots]]", "list [matching] job slots"),
    ("[-t taskid[-taskid[:step]]]", "list all [matching] tasks (requires -j option)"),
    ("[[-f] acctfile]", "use alternate accounting file"),
)


def usage_text() -> str:
    """qacct's usage, with the version line Grid Engine prints first."""
    lines = [VERSION_LINE, "usage: qacct [options]"]
    lines += [f" {opt:<34}{text}" for opt, text in _OPTIONS]
    lines += [
        "",
        f" {'begin_time, end_time':<34}[[CC]YYMMDDhhmm[.SS]",
        f" {'queue':<34}[cluster_queue|queue_instance|queue_domain|pattern]",
    ]
    return "\n".join(lines) + "\n"


NO_JOBS = "no jobs running since startup"
UNABLE_TO_OPEN = "error unable to open {}"
T_NEEDS_RANGES = "ERROR! -t option must have a list of task id ranges"
T_INVALID_RANGES = "ERROR! invalid list of task id ranges: {}"
T_NEEDS_J = "-t option requires -j option"
AR_MUST_BE_UINT = "ERROR! invalid advance reservation id, must be an unsigned integer"
NO_QUEUES = "No queues remaining after -q queue selection"
INVALID_ENTRY = "ignoring invalid entry in line {}"
JOB_ID_NOT_FOUND = "job id {} not found"
JOB_NAME_NOT_FOUND = "job name {} not found"
TASKS_ID_NOT_FOUND = "Job-array tasks {}.{}-{}:{} not found"
TASKS_NAME_NOT_FOUND = 'Job-array tasks "{}".{}-{}:{} not found'
IGNORED_JOBS = "{} jobs ignored for accounting. Jobs master queue no longer exists."
TOTAL = "Total System Usage"

# Column titles of the grouped table, in the order they are printed.
HOST, QUEUE, GROUP, OWNER = "HOST", "CLUSTER QUEUE", "GROUP", "OWNER"
PROJECT, DEPARTMENT, PE, SLOTS, AR = "PROJECT", "DEPARTMENT", "PE", "SLOTS", "AR"

# get_sstate_description(): the shepherd failure codes written in ``failed``.
FAILED_TEXTS: dict[int, str] = {
    0: "",
    1: "assumedly before job",
    2: "on executing shepherd",
    3: "before writing config",
    4: "before writing pid",
    5: "on reading config file",
    6: "setting processor set",
    7: "before prolog",
    8: "in prolog",
    9: "before pestart",
    10: "in pestart",
    11: "before job",
    12: "before pestop",
    13: "in pestop",
    14: "before epilog",
    15: "in epilog",
    16: "releasing processor set",
    17: "through signal",
    18: "shepherd returned error",
    19: "before writing exit_status",
    20: "found unexpected error file",
    21: "in recognizing job",
    22: "removed manually",
    24: "migrating",
    25: "rescheduling",
    26: "opening input/output file",
    27: "searching requested shell",
    28: "changing into working directory",
    30: "rescheduling on application error",
    31: "accessing sgepasswd file",
    32: "entry is missing in password file",
    33: "wrong password",
    34: "communicating with Sun Grid Engine Helper Service",
    35: "before job in Sun Grid Engine Helper Service",
    36: "checking configured daemons",
    37: "qmaster enforced h_rt limit",
    100: "assumedly after job",
}


def failed_text(code: int) -> str:
    """The description Grid Engine prints after a ``failed`` code."""
    return FAILED_TEXTS.get(code, "invalid execution state")
