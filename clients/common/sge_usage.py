"""The usage Grid Engine 6.2u5's ``sge_usage(prog_number)`` prints, for the job and AR clients.

``source/common/usage.c``: the line ``usage: <prog> [options]`` (with ``job_task_list``
for the programs that take one), then one line an option valid for the program
(``VALID_OPT``, ``sge_options.c``), ``"   %-40.40s %s"``, in usage.c's order, with
the texts of ``msg_common.h`` (``MSG_GDI_USAGE_*`` / ``MSG_GDI_UTEXT_*``; some
differ between programs); then an empty line and the syntax of every argument
the printed options marked, in the order of usage.h's ``OA_*`` enumeration.
qconf's usage is :mod:`clients.qconf_usage`; qmod, qstat, qselect, qhost and
qacct print usages of their own.
"""

from __future__ import annotations

from collections.abc import Sequence

# usage.h's OA_* order; msg_common.h's MSG_GDI_ARGUMENTSYNTAX_* texts
_ARGUMENTS: dict[str, str] = {
    "account_string": "account_string          account_name",
    "complex_list": "complex_list            complex[,complex,...]",
    "context_list": "context_list            variable[=value][,variable[=value],...]",
    "ckpt_selector": "ckpt_selector           `n' `s' `m' `x' <interval> ",
    "date_time": "date_time               [[CC]YY]MMDDhhmm[.SS]",
    "hold_list": "hold_list               `n' `u' `s' `o' `U' `S' `O'",
    "job_identifier_list": (
        "job_identifier_list     {job_id|job_name|reg_exp}[,{job_id|job_name|reg_exp},...]"
    ),
    "jsv_url": "jsv_url                 [script:][username@]path",
    "mail_address": "mail_address            username[@host]",
    "mail_list": "mail_list               mail_address[,mail_address,...]",
    "mail_options": "mail_options            `e' `b' `a' `n' `s'",
    "mail_options_ar": "mail_options            `e' `b' `a' `n' (end, begin, error, no)",
    "working_directory": "working_directory       path",
    "path_list": "path_list               [host:]path[,[host:]path,...]",
    "file_list": "file_list               [host:]file[,[host:]file,...]",
    "priority": "priority                -1023 - 1024",
    "resource_list": "resource_list           resource[=value][,resource[=value],...]",
    "simple_context_list": "simple_context_list     variable[,variable,...]",
    "slot_range": "slot_range              [n[-m]|[-]m] - n,m > 0",
    "job_task_list": "job_task_list           job_tasks[,job_tasks,...]",
    "job_tasks": (
        "job_tasks               [job_id['.'task_id_range]|job_name|pattern][' -t 'task_id_range]"
    ),
    "task_id_range": "task_id_range           task_id['-'task_id[':'step]]",
    "user_list": "user_list               user[,user,...]",
    "variable_list": "variable_list           variable[=value][,variable[=value],...]",
    "wc_cqueue": "wc_cqueue               wildcard expression matching a cluster queue",
    "wc_host": "wc_host                 wildcard expression matching a host",
    "wc_hostgroup": "wc_hostgroup            wildcard expression matching a hostgroup",
    "wc_qinstance": "wc_qinstance            wc_cqueue@wc_host",
    "wc_qdomain": "wc_qdomain              wc_cqueue@wc_hostgroup",
    "wc_queue": "wc_queue                wc_cqueue|wc_qdomain|wc_qinstance",
    "wc_queue_list": "wc_queue_list           wc_queue[,wc_queue,...]",
    "time": "time                    hours:minutes:seconds | seconds",
    "ar_id": "ar_id                   advance reservation id",
    "ar_id_list": "ar_id_list              ar_id[,ar_id,...]",
    "wc_ar_list": "wc_ar_list              wc_ar[,wc_ar,...]",
    "wc_ar": "wc_ar                   ar_id|ar_name|pattern",
    "max_running_tasks": ("max_running_tasks       maximum number of simultaneously running tasks"),
    "exp": "exp                     explicit:<socket>,<core>[:...]",
    "lin": "lin                     linear:<amount>[:<socket>,<core>]",
    "str": "str                     striding:<amount>:<stepsize>[:<socket>,<core>]",
}

# qhold and qrls (qalter in their guise) name the holds they take
_QHOLD_HOLD_LIST = "hold_list               `u' `s' `o'"

_WC = (
    "wc_cqueue",
    "wc_host",
    "wc_hostgroup",
    "wc_qinstance",
    "wc_qdomain",
    "wc_queue",
    "wc_queue_list",
)
_TASKS = ("job_task_list", "job_tasks", "task_id_range")

_SUB = frozenset({"qsub", "qalter"})
_QSUB = frozenset({"qsub"})
_QRSUB = frozenset({"qrsub"})
_SUB_AR = _SUB | _QRSUB
_ALTERS = frozenset({"qalter", "qhold", "qrls"})
_ALL = _SUB_AR | _ALTERS | frozenset({"qdel", "qrdel", "qrstat"})

# (programs, option, text (None: the option alone), arguments marked), in usage.c's order
_ROWS: tuple[tuple[frozenset[str], str, str | None, tuple[str, ...]], ...] = (
    (_SUB_AR, "[-a date_time]", "request a start time", ("date_time",)),
    (_SUB, "[-ac context_list]", "add context variable(s)", ("complex_list",)),
    (
        frozenset({"qrstat"}),
        "[-ar ar_id_list]",
        "show advance reservation information",
        ("ar_id_list", "ar_id"),
    ),
    (
        frozenset({"qrdel"}),
        "wc_ar_list",
        "delete all advance reservations given in list",
        ("wc_ar_list", "wc_ar"),
    ),
    (_SUB, "[-ar ar_id]", "bind job to advance reservation", ("ar_id",)),
    (_SUB_AR, "[-A account_string]", "account string in accounting record", ("account_string",)),
    (_QSUB, "[-b y[es]|n[o]]", "handle command as binary", ()),
    (
        _SUB,
        "[-binding [env|pe|set] exp|lin|str]",
        "binds job to processor cores",
        ("exp", "lin", "str"),
    ),
    (_SUB, "[-c ckpt_selector]", "define type of checkpointing for job", ("ckpt_selector",)),
    (_SUB_AR, "[-ckpt ckpt-name]", "request checkpoint method", ()),
    (_QSUB, "[-clear]", "skip previous definitions for job", ()),
    (_SUB, "[-cwd]", "use current working directory", ()),
    (_QSUB, "[-C directive_prefix]", "define command prefix for job script", ()),
    (_QRSUB, "[-d time]", "duration of time window", ("time",)),
    (_SUB, "[-dc simple_context_list]", "delete context variable(s)", ("simple_context_list",)),
    (_SUB, "[-dl date_time]", "request a deadline initiation time", ("date_time",)),
    (_QRSUB, "[-e date_time]", "request an end time", ("date_time",)),
    (_SUB, "[-e path_list]", "specify standard error stream path(s)", ("path_list",)),
    (frozenset({"qdel", "qrdel"}), "[-f]", "force action", ()),
    (_ALTERS, "[-h hold_list]", "assign holds for jobs or tasks", ("hold_list",)),
    (_QSUB, "[-h]", "place user hold on job", ()),
    (_SUB, "[-hard]", 'consider following requests "hard"', ()),
    (_QRSUB, "[-he  y[es]|n[o]]", "enable/disable hard error handling", ()),
    (_ALL, "[-help]", "print this help", ()),
    (
        _SUB,
        "[-hold_jid job_identifier_list]",
        "define jobnet interdependencies",
        ("job_identifier_list",),
    ),
    (
        _SUB,
        "[-hold_jid_ad job_identifier_list]",
        "define jobnet array interdependencies",
        ("job_identifier_list",),
    ),
    (_SUB, "[-i file_list]", "specify standard input stream file(s)", ("file_list",)),
    (_SUB, "[-j y[es]|n[o]]", "merge stdout and stderr stream of job", ()),
    (_SUB, "[-js job_share]", "share tree or functional job share", ()),
    (_QSUB, "[-jsv jsv_url]", "job submission verification script to be used", ("jsv_url",)),
    (_SUB_AR, "[-l resource_list]", "request the given resources", ("resource_list",)),
    (_SUB, "[-m mail_options]", "define mail notification events", ("mail_options",)),
    (_QRSUB, "[-m mail_options]", "define mail notification events", ("mail_options_ar",)),
    (_SUB_AR, "[-masterq wc_queue_list]", "bind master task to queue(s)", _WC),
    (_SUB, "[-notify]", "notify job before killing/suspending it", ()),
    (_QSUB, "[-now y[es]|n[o]]", "start job immediately or not at all", ()),
    (_QRSUB, "[-now y[es]|n[o]]", "consider only interactive queues", ()),
    (_SUB_AR, "[-M mail_list]", "notify these e-mail addresses", ("mail_list", "mail_address")),
    (_SUB_AR, "[-N name]", "specify job name", ()),
    (_SUB, "[-o path_list]", "specify standard output stream path(s)", ("path_list",)),
    (frozenset({"qalter"}), "[-ot tickets]", "set job's override tickets", ()),
    (_SUB, "[-P project_name]", "set job's project", ()),
    (_SUB, "[-p priority]", "define job's relative priority", ("priority",)),
    (_SUB_AR, "[-pe pe-name slot_range]", "request slot range for parallel jobs", ("slot_range",)),
    (_SUB, "[-q wc_queue_list]", "bind job to queue(s)", _WC),
    (_QRSUB, "[-q wc_queue_list]", "print information on given queue", _WC),
    (_SUB, "[-R y[es]|n[o]]", "reservation desired", ()),
    (_SUB, "[-r y[es]|n[o]]", "define job as (not) restartable", ()),
    (_SUB, "[-sc context_list]", "set job context (replaces old context)", ("context_list",)),
    (_QSUB, "[-shell y[es]|n[o]]", "start command with or without wrapping <loginshell> -c", ()),
    (_SUB, "[-soft]", "consider following requests as soft", ()),
    (_QSUB, "[-sync y[es]|n[o]]", "wait for job to end and return exit code", ()),
    (_SUB, "[-S path_list]", "command interpreter to be used", ("path_list",)),
    (_QSUB, "[-t task_id_range]", "create a job-array with these tasks", ("task_id_range",)),
    (
        _QSUB,
        "[-tc max_running_tasks]",
        "throttle the number of concurrent tasks (experimental)",
        ("max_running_tasks",),
    ),
    (_QSUB, "[-terse]", "tersed output, print only the job-id", ()),
    (
        frozenset({"qdel"}),
        "[-u user_list]",
        "delete all jobs of users specified in list",
        ("user_list",),
    ),
    (
        frozenset({"qrstat", "qrdel"}),
        "[-u user_list]",
        "all advance reservations of users specified in list",
        ("user_list",),
    ),
    (_ALTERS | _QRSUB, "[-u user_list]", "specify a list of users", ("user_list",)),
    (_ALTERS | _QRSUB, "", "(not allowed in combination with job_task_list)", ()),
    (_SUB, "[-v variable_list]", "export these environment variables", ("variable_list",)),
    (_QSUB, "[-verify]", "do not submit just verify", ()),
    (_SUB, "[-V]", "export all environment variables", ()),
    (_QRSUB, "[-w e|v]", "validate availability of AR request (error|verify) for jobs", ()),
    (_SUB, "[-w e|w|n|v|p]", "verify mode (error|warning|none|just verify|poke) for jobs", ()),
    (_SUB, "[-wd working_directory]", "use working_directory", ("working_directory",)),
    (frozenset({"qrstat"}), "[-xml]", "display the information in XML-Format", ()),
    (frozenset({"qrstat"}), "[-explain]", "show reason for error state", ()),
    (_QSUB, "[-@ file]", "read commandline input from file", ()),
    (frozenset({"qdel"}), "job_task_list", "delete all jobs given in list", _TASKS),
    (_ALTERS, "job_task_list", "jobid's (and taskid's) of jobs to be altered", _TASKS),
    (_QSUB, "[{command|-} [command_args]]", None, ()),
)

_TAKES_JOB_TASKS = frozenset({"qalter", "qdel", "qhold", "qrls"})


def option_line(option: str, text: str | None) -> str:
    """usage.c's ``print_option_syntax()``: ``"   %-40.40s %s"``, or the option alone."""
    return f"   {option}" if text is None else f"   {option:<40.40} {text}"


def sge_usage(prog: str, extra: Sequence[tuple[str, str]] = ()) -> str:
    """``prog``'s usage as ``sge_usage()`` prints it (after the version line).

    ``extra`` are minige's own options of ``prog``, printed after Grid Engine's.
    """
    tasks = " job_task_list" if prog in _TAKES_JOB_TASKS else ""
    lines = [f"usage: {prog} [options]{tasks}"]
    marked: set[str] = set()
    for programs, option, text, arguments in _ROWS:
        if prog in programs:
            lines.append(option_line(option, text))
            marked.update(arguments)
    lines.extend(option_line(option, text) for option, text in extra)
    lines.append("")
    for name, syntax in _ARGUMENTS.items():
        if name in marked:
            hold_list = name == "hold_list" and prog in ("qhold", "qrls")
            lines.append(_QHOLD_HOLD_LIST if hold_list else syntax)
    return "\n".join(lines) + "\n"
