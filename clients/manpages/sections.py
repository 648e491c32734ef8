"""The written sections of each command's man page (the usage comes from ``-help``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Page:
    """One command's written sections; ``entry_point`` is its [project.scripts] target."""

    entry_point: str
    summary: str
    description: tuple[str, ...]
    exit_status: tuple[str, ...]
    differences: tuple[str, ...] = ()


VERSION = (
    "Every command also answers --version, a minige addition no Grid Engine 6.2u5 command "
    "has: it prints the version line GE 6.2u5 and minige's version, exit status 0."
)
SIMULATED = (
    "Execution hosts are simulated: no job process runs. These options are checked, "
    "stored, shown by qstat -j and passed to JSVs, but have no effect: -binding (no "
    "cores to bind), -c and -ckpt (no checkpointing), -m and -M (no mail), -i, -o, -e, "
    "-j, -S, -shell, -b and -display (no file is read or written; paths are still "
    "checked), -V and -v (only MINIGE_EXIT_STATUS acts: the job's exit status), -js and "
    "-ot (no share tree or functional policy; -ot counts as the job's tickets in qstat's "
    "prior), resource limits other than h_rt and s_rt (booked by the scheduler, never "
    "enforced), -r (nothing fails, so nothing is rerun) and -notify (no process to "
    "signal; qdel ends such a job the queue's notify time later)."
)
OPTION_EXITS = (
    "An unknown option or an option without its argument exits 2, an argument that "
    "does not parse 7, as Grid Engine's parser answers."
)


def _plain(what: str) -> tuple[str, ...]:
    return (
        f"0 when {what}; 1 for a bad command line, a request the qmaster refuses "
        "or an unreachable qmaster.",
    )


_HOLD_EXIT = (
    "0 when every answer was OK; else Grid Engine's status of the first that was not "
    "(3: no such job), or of a bad command line (2: an unknown option, 7: a bad value); "
    "1 with nothing but the hold given or an unreachable qmaster.",
)

COMMANDS: dict[str, Page] = {
    "qsub": Page(
        "clients.qsub:main",
        "submit a batch job to minige",
        (
            "qsub submits a job script, or a binary with -b y, to the qmaster of the cell "
            "$SGE_ROOT/$SGE_CELL. Options come from the sge_request files, #$ lines in the "
            "script and the command line, and pass the client JSV (-jsv) and the server "
            "JSV; every value is checked the same way whatever its source.",
            VERSION,
        ),
        (
            "0 when the job was submitted (with -sync y: the job's exit status).",
            OPTION_EXITS,
            "1 when the qmaster refuses the job or cannot be reached.",
        ),
        (SIMULATED,),
    ),
    "qalter": Page(
        "clients.qalter:main",
        "modify pending or running jobs",
        ("qalter changes the attributes of submitted jobs with qsub's options.", VERSION),
        (
            "0 when every job was changed.",
            OPTION_EXITS,
            "1 when the qmaster refuses the change or cannot be reached.",
        ),
        (SIMULATED,),
    ),
    "qstat": Page(
        "clients.qstat:main",
        "show the status of jobs and queues",
        (
            "qstat lists jobs, queue instances and their states, in Grid Engine's layouts "
            "(plain, -f, -ext, -pri, -urg, -r, -j, -xml).",
            VERSION,
        ),
        _plain("the status was shown"),
        (
            "qstat -cb shows binding NONE for every task: simulated hosts have no cores.",
            "qstat -j job_list -story, a minige addition, prints after each job's block a "
            "story: section, one line per change of the job, oldest first: the local time, "
            "the stimulus id (every change the qmaster makes carries one; ids never repeat, "
            "across restarts too), the stimulus (submit by alice, pass, timer end, delete by "
            "bob...) and the transition (pending -> transferring (all.q@host1, task 3), hold "
            "u set...). Changes alike of one stimulus are one line with their task range. It "
            "works with -json (a story list in each job) and is refused without a job list "
            "and with -xml.",
        ),
    ),
    "qdel": Page(
        "clients.qdel:main",
        "delete jobs",
        (
            "qdel deletes jobs, array tasks (-t) or the jobs of users (-u). A word that is "
            "no option names a job, as in Grid Engine.",
            VERSION,
        ),
        _plain("every job was deleted or registered for deletion"),
        (
            "A running job is killed by its simulated execd at once (-notify: the queue's "
            "notify time later); qdel -f removes it without the execd's word.",
        ),
    ),
    "qconf": Page(
        "clients.qconf:main",
        "show and change the cell's configuration",
        (
            "qconf adds, modifies, shows and deletes the cell's configuration objects "
            "(queues, hosts, host groups, parallel and checkpointing environments, "
            "projects, user sets, complexes, the global and scheduler configuration). "
            "The -a*/-m* verbs open $EDITOR (default vi).",
            VERSION,
        ),
        _plain("the object was shown or changed"),
        (
            "-M* and -Mconf must give every attribute, so a truncated file cannot reset "
            "the rest; unknown global configuration keys are refused. A simulated host's "
            "static load values are set in its load_values.",
        ),
    ),
    "qrsub": Page(
        "clients.qrsub:main",
        "submit an advance reservation",
        ("qrsub reserves queue slots and resources for a time window.", VERSION),
        _plain("the reservation was granted"),
        (
            "-m and -M send no mail; -ckpt reserves only queues whose ckpt_list names "
            "the checkpointing environment.",
        ),
    ),
    "qrstat": Page(
        "clients.qrstat:main",
        "show advance reservations",
        ("qrstat lists advance reservations, or one in detail with -ar.", VERSION),
        (
            "0 when the reservations were shown; 1 for -help (as in Grid Engine 6.2u5), a "
            "bad command line, an unknown reservation or an unreachable qmaster.",
        ),
    ),
    "qrdel": Page(
        "clients.qrdel:main",
        "delete advance reservations",
        ("qrdel deletes advance reservations by id or name, or those of users (-u).", VERSION),
        _plain("every reservation was deleted"),
    ),
    "qacct": Page(
        "clients.qacct:main",
        "report accounting data",
        (
            "qacct reads the cell's accounting(5) file (or -f FILE) and prints totals, "
            "per-job blocks (-j) or one row per owner, host, queue, project, department, "
            "parallel environment, slot count or reservation. The file is streamed, never "
            "loaded whole.",
            VERSION,
        ),
        (
            "0 when the report was printed; 1 for a bad command line, an unreadable file "
            "or no matching job.",
        ),
        ("Host names given to -h are compared without case and not looked up in DNS.",),
    ),
    "qhost": Page(
        "clients.qhost:main",
        "show the execution hosts",
        (
            "qhost lists the execution hosts with their load values, and with -q and -j "
            "the queue instances and jobs on them.",
            VERSION,
        ),
        (
            "0 when the hosts were shown; 1 for -help (as in Grid Engine 6.2u5), a bad "
            "command line or an unreachable qmaster.",
        ),
        (
            "The load is simulated: one busy slot is one busy processor, and a value set "
            "in a host's load_values always wins. -cb shows sockets and cores as - unless "
            "set there.",
        ),
    ),
    "qselect": Page(
        "clients.qselect:main",
        "select queue instances",
        ("qselect prints the queue instances that match its filters, one per line.", VERSION),
        (
            "0 when a queue instance matched; 1 when none did, for a bad command line or "
            "an unreachable qmaster.",
        ),
    ),
    "qquota": Page(
        "clients.qquota:main",
        "show resource quota limits and their use",
        (
            "qquota prints, for each enabled resource quota set (qconf -srqs) and each of "
            "its rules that applies to the selection, the limits of the rule: for a "
            "consumable such as slots what running jobs use of it and the limit "
            "(slots=2/10), once for each user, project, PE, queue or host the rule counts "
            "apart; for any other attribute the limit alone. Without -u it shows the "
            "calling user's; -u, -P, -pe, -q and -h select others (wildcards, @userset, "
            "@hostgroup), -l the limits shown, -xml the same as XML.",
            VERSION,
        ),
        (
            "0 after printing (nothing when no rule applies); 1 for a bad command line or "
            "an unreachable qmaster.",
        ),
    ),
    "qevent": Page(
        "clients.qevent:main",
        "watch job events",
        (
            "qevent subscribes to the qmaster's events. With -trigger EVENT SCRIPT it runs "
            "SCRIPT with the event name, the job id and the task id each time a job "
            "(JB_END) or an array task other than the job's last (JB_TASK_END) ends; with "
            "-ts it prints JOB_ADD, JOB_START, JOB_FINISH and JOB_DEL lines and the job "
            "counters (ECL_STATE) after each.",
            VERSION,
        ),
        (
            "0 when the qmaster closes the connection or standard output is closed; 1 for "
            "a bad command line (the complaint, then the usage) or an unreachable qmaster.",
        ),
        (
            "-json (minige's own) prints every event as one JSON object per line; -kinds "
            "limits it to the named kinds. -sm (-subscribe), Grid Engine's testsuite mode "
            "cycling through its event object types, has no counterpart and is refused.",
        ),
    ),
    "qmod": Page(
        "clients.qmod:main",
        "modify queue and job states",
        (
            "qmod enables, disables, suspends, unsuspends and clears queue instances, "
            "and suspends, unsuspends and clears jobs.",
            VERSION,
        ),
        _plain("every queue instance or job was changed"),
        ("A suspended job's simulated run stops until it is unsuspended.",),
    ),
    "qhold": Page(
        "clients.qhold:main",
        "put holds on jobs",
        (
            "qhold adds a user (-h u, the default), operator (o) or system (s) hold to "
            "jobs or array tasks; a held task is not scheduled. As in Grid Engine, qhold is "
            "qalter with a hold list: it takes qalter's options, and complains as qalter "
            "(qalter: ERROR! ...).",
            VERSION,
        ),
        _HOLD_EXIT,
    ),
    "qrls": Page(
        "clients.qrls:main",
        "release holds from jobs",
        (
            "qrls removes a user (-h u, the default), operator (o) or system (s) hold "
            "from jobs or array tasks. As in Grid Engine, qrls is qalter with a hold list: "
            "it takes qalter's options, and complains as qalter (qalter: ERROR! ...).",
            VERSION,
        ),
        _HOLD_EXIT,
    ),
    "qresub": Page(
        "clients.qresub:main",
        "submit copies of existing jobs",
        (
            "qresub submits a copy of each job named, as a new job with a new number. The "
            "copy keeps the original's name, script or command, requests and context; it "
            "belongs to the user who runs qresub, is submitted now, and starts with all "
            "its tasks pending and no holds but those -h gives (to the tasks a "
            "job_id.task_id_range names). It passes the same checks and server JSV as a "
            "job qsub submits. Only the job's owner or a manager may copy a job.",
            "As in Grid Engine, qresub is qalter under another name: it reads qalter's "
            "command line, takes -h and job ids only, and refuses any other option "
            "(Unknown option). Each answer of the qmaster is printed on standard output, "
            'refusals included (job "99" does not exist).',
            VERSION,
        ),
        (
            "0 when every job was copied; else the first refusal's Grid Engine status "
            "(4 for an unknown job or another user's job, 25 for a job limit); 1 for a "
            "missing job list, 5 for an option qresub does not take, 2 and 7 for a bad "
            "command line as qalter's.",
        ),
    ),
    "seg": Page(
        "clients.seg:main",
        "scheduler event generator for Globus GRAM",
        (
            "seg (minige's own; Grid Engine has none) prints the cell's job state changes "
            "in the GRAM scheduler event generator protocol, replaying from a timestamp "
            "(-t) and then following the reporting file live, until its standard input "
            "closes. -c adds a cursor that -t accepts back.",
            VERSION,
        ),
        (
            "0 when its standard input closes; 1 for a bad command line, an unknown "
            "scheduler module or a bad -t.",
        ),
    ),
}
