"""The GDI operations and their payloads: the contract between clients and the daemon.

Standard library only. A request frame is ``{"v": 1, "op": OP, "args": {...}}``;
a reply is ``{"v": 1, "answers": [[status, quality, text], ...], "data": ...}``.
Commands print the answers' texts as Grid Engine prints its answer lists
(INFO on stdout, errors on stderr) and render ``data`` themselves.

Job specifications (``JobSpec``) are dicts keyed by the JSV parameter names
of qsub(1), so a JSV sees exactly what was stored (the core keeps them typed,
as :class:`qmaster.core.jobspec.JobSpec`, and gives back this dict form). Keys (all optional unless
noted; a key absent means "not given by the submitter")::

    CMDNAME   str   script path, or the command with -b y, or "STDIN"  (required)
    CMDARGS   list[str] job arguments
    script    str   the script's text (absent with -b y)
    b         bool  -b y
    N         str   job name (default: basename of CMDNAME)
    o, e      list[str] output/error paths ([host:]path)
    j         bool  -j y
    cwd       str   -cwd: the submitter's working directory
    wd        str   -wd DIR
    v         dict[str,str] -v/-V environment (values of -V included)
    V         bool  -V was given
    ac        dict[str,str] job context (-ac/-sc/-dc resolved by the client)
    A         str   account
    P         str   project
    p         int   priority, -1023..1024
    h         bool  -h user hold
    hold_jid  list[str] job ids or names
    l_hard, l_soft  dict[str,str] resource requests, values as typed
    q_hard, q_soft  list[str] queue patterns
    pe_name str, pe_min int, pe_max int
    masterq   list[str]
    now       bool
    r         bool  rerunnable
    m         str   mail options, e.g. "bea" or "n"
    M         list[str] mail addresses
    t_min, t_max, t_step  int  array task range (-t)
    R         bool  -R y (reservation)
    S         list[str] shell paths
    a         str   -a date_time (CCYYMMDDhhmm.SS)
    ar        int   -ar advance reservation id
    jsv       list[str] -jsv scripts (client side only)
    ckpt      str   -ckpt checkpointing environment
    c_interval int  -c interval (seconds);  c_occasion str  -c letters (msx or n)
    dl        str | int  -dl deadline: CCYYMMDDhhmm.SS as sent, stored as epoch seconds
    i         list[str] stdin paths
    js, ot, tc  int  job share, override tickets, task concurrency (>= 0)
    hold_jid_ad list[str] array dependencies (ids or names)
    binding_type, binding_strategy str; binding_amount, binding_step, binding_socket,
    binding_core, binding_exp_n, binding_exp_socket<i>, binding_exp_core<i> int  -binding
    (values as in :mod:`qmaster.gdi.specvalues`, which checks them for every source)

Operations and their ``args`` -> ``data``:

    ping          {}                                   -> {"version": str, "now": float}
    submit        {"job": JobSpec, "verify": "n|e|w|v|p"}
                  -> {"job_id": int, "name": str, "tasks": "1-10:1" | null}
                  answers: INFO ``Your job 1 ("x") has been submitted``
    job_list      {"users": [str] | null, "states": str | null, "full": bool}
                  -> {"jobs": [JobRow], "queues": [QueueRow] (with full), "now": float}
                  with "compact": true, "job_rows": [[10 JobRow values, {extras}?]]
                  instead of "jobs"; with "chunk": n as well, a stream of frames of at
                  most n rows, each with "more" (see qmaster/core/qstat_rows.py)
    job_detail    {"job_ids": [str] | null, "story": bool}  -> {"jobs": [JobDetail], "missing": [str]}
                  "story" (optional, a minige addition: qstat -j -story) adds each job's story
                  "finished": [{"job_id": int, "never_started": [[first, last, step]]}]: the
                  missing jobs the qmaster keeps as finished (qstat -s z), with the runs of
                  their tasks deleted before they started (qsub -sync y: no record to wait for)
    delete        {"job_ids": [str], "users": [str] | null, "force": bool}
                  ids may be "7", "7.3", "7.1-5:2" or a job name; answers one per job
    alter         {"job_ids": [str], "job": JobSpec (only changed keys), "verify": str,
                   "hold": str | null, "users": [str] | null}
                  hold: qalter -h letters; users: qalter -u, every job of those users;
                  job may carry "context_ops": [[op, name, value]] (op + - =), qalter's
                  -ac/-dc/-sc applied in order to each job's own context
    resubmit      {"job_id": str, "hold": str | null}   qresub: a copy of job "7" (or of
                  "7.1-3", whose tasks get the -h holds) submitted as a new job by the
                  caller, through submit's checks and JSV; answers as submit's
    qmod          {"action": "d|e|s|us|c|r|sj|usj|cj|rj|sq|usq|cq|rq", "targets": [str],
                   "force": bool}    qmod(1): queue instance states, job suspension/errors
    conf_show     {"kind": KIND, "name": str | null, "template": bool, "usage": bool}
                  -> {"text": str} or {"names": [str]}; cqueue names are wc_queue_list
                  patterns (``all.q@host1``: the queue instance), template: ``-sq`` alone
    conf_modify   {"kind": KIND, "text": str, "source": str, "add": bool}
                  replace an existing object from file text (-M*); add: a new one (-A*)
    conf_add      {"kind": KIND, "name": str, "members": [str]} add users to a userset / managers
    conf_delete   {"kind": KIND, "name": str, "members": [str]} remove them
    conf_attr     {"kind": KIND, "mode": "set|change|append|remove|purge", "name": str,
                   "pairs": [[attr, value]] | null, "text": str | null, "source": str}
                  qconf -rattr/-mattr/-aattr/-dattr/-purge (text: the -?attr file form)
    shutdown      {}                                    (managers only; qconf -km)
    sched_monitor {}                                    the next scheduler run writes
                  common/schedd_runlog (managers only; qconf -tsm)
    subscribe     {"kinds": [str] | null}               a stream of replies, one per event (qevent)
    event_clients {}   -> {"clients": [{"id": int, "name": str, "host": str}],
                           "scheduler_host": str}       (qconf -secl, -sss)
    event_kill    {"ids": [str]}                        end subscriptions (qconf -kec; "all")
    kill_execd    {"hosts": [str], "jobs": bool}        qconf -kej: kill the jobs on hosts ("all")
    ar_submit     {"ar": ArSpec, "verify": "e|v"}       -> {"ar_id": int}
                  answers: INFO ``Your advance reservation 1 has been granted``
                  refused for lack of resources (or ``-w v`` finding none):
                  -> {"ar_id": null, "earliest_start": float | null}, plus an INFO
                  answer saying when the earliest window that would fit begins
    ar_list       {"users": [str] | null, "ar_ids": [str] | null}
                  -> {"ars": [ArRow], "missing": [str]}   users null: every user; "*" too
    ar_delete     {"ar_ids": [str], "users": [str] | null, "force": bool}
                  ids may be numbers, names or wildcard patterns; answers one per AR
    host_list     {"hosts": [str] | null, "resources": {str: str} | null,
                   "users": [str] | null, "queues": bool, "jobs": bool}
                  -> {"hosts": [HostRow]}  (qhost; the global host first)
    queue_select  {"queues": [str] | null, "resources": {str: str} | null,
                   "pes": [str] | null, "users": [str] | null, "states": str | null}
                  -> {"queues": [str]}  (qselect's queue instance names)

ArSpec (qrsub's switches; the client resolves dates to epoch seconds in local
time and sends only what the user gave; the qmaster derives the missing one of
start/end/duration and checks that all three agree)::

    a float (start), e float (end), d float (duration, seconds)
    N str, A str, l_hard dict[str,str], u list[str] (users, @groups, usersets),
    q_hard list[str], pe_name str, pe_min int, pe_max int, masterq list[str],
    ckpt str, now bool, m str, M list[str], he bool (-he yes)

KIND is one of: complex, cqueue, exechost, hostgroup, pe, userset, global, sched, manager,
project, ckpt.
With conf_show, a null name for cqueue/exechost/pe/userset/manager lists names
(``-sql``, ``-sel``, ``-spl``, ``-sm``).

Rows::

    ArRow     {"ar_id": int, "name": str, "owner": str, "group": str, "state": "w|r|x|d|E|W",
               "submission_time": float, "start_time": float, "end_time": float,
               "duration": float, "account": str, "resource_list": {str: str},
               "granted_slots": [[qinstance, slots]], "granted_pe": {"name", "slots"} | null,
               "masterq": [str], "ckpt": str | null, "mail_options": str | null,
               "mail_list": [str], "acl_list": [str], "xacl_list": [str],
               "error_handling": bool, "messages": [str]}

    JobRow    {"job_id": int, "prior": float, "name": str, "owner": str, "state": str,
               "submit_time": float, "start_time": float | null, "queue": str | null,
               "slots": int, "tasks": str | null}
               one row per running task; one row per run of pending tasks ("1-10:1")
    QueueRow  {"name": "all.q@host1", "qtype": "BIP", "resv": int, "used": int,
               "total": int, "load_avg": float | null, "arch": str, "states": str}
    HostRow   {"name": str, "arch": str | null, "num_proc": str | null, "m_socket": str | null,
               "m_core": str | null, "load_avg": float | null, "mem_total", "mem_used",
               "swap_total", "swap_used": float (bytes) | null,
               "resources": [[dominance, name, value, shortcut]],
               "queues": [QueueRow + {"cqueue": str, "jobs": [{"job_id", "prior", "name",
                          "owner", "state", "start_time", "queue", "task", "master", "first"}]}]}
    JobDetail {"job_id": int, "owner": str, "uid": int, "group": str, "gid": int,
               "submission_time": float, "state": str, "job": JobSpec,
               "tasks": [{"task_id": int | null, "state": str, "queue": str | null,
                          "start_time": float | null}],
               "scheduling_info": [str],
               "story": [[time: float, stimulus id: int, stimulus: str, transition: str]]
                        (only when job_detail asked for "story": true; oldest first)}
"""

from __future__ import annotations

from typing import Final

OPS: Final = frozenset(
    {
        "ping",
        "submit",
        "job_list",
        "job_detail",
        "delete",
        "alter",
        "resubmit",
        "conf_show",
        "conf_modify",
        "conf_add",
        "conf_delete",
        "conf_attr",
        "shutdown",
        "sched_monitor",
        "subscribe",
        "event_clients",
        "event_kill",
        "kill_execd",
        "ar_submit",
        "ar_list",
        "ar_delete",
        "host_list",
        "queue_select",
        "qmod",
    }
)

CONF_KINDS: Final = frozenset(
    {"complex", "cqueue", "exechost", "pe", "userset", "global", "sched", "manager", "hostgroup"}
    | {"project", "ckpt"}
    | {"user", "operator", "adminhost", "submithost"}
    | {"calendar", "rqs"}
)
