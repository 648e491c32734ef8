"""Usage texts of qsub and qalter."""

from __future__ import annotations

_SUBMIT_OPTIONS = """\
   [-a date_time]                           request a start time
   [-ac context_list]                       add context variable(s)
   [-ar ar_id]                              bind job to advance reservation
   [-A account_string]                      account string in accounting record
   [-b y[es]|n[o]]                          handle command as binary
   [-binding [env|pe|set] exp|lin|str]      binds job to processor cores
   [-c ckpt_selector]                       define type of checkpointing for job
   [-ckpt ckpt-name]                        request checkpoint method
   [-C directive_prefix]                    define command prefix for job script
   [-clear]                                 skip previous definitions for job
   [-cwd]                                   use current working directory
   [-dc simple_context_list]                delete context variable(s)
   [-display display]                       set display to display interactive job
   [-dl date_time]                          request a deadline initiation time
   [-e path_list]                           specify standard error stream path(s)
   [-h]                                     place user hold on job
   [-hard]                                  consider following requests "hard"
   [-help]                                  print this help
   [-hold_jid job_identifier_list]          define jobnet interdependencies
   [-hold_jid_ad job_identifier_list]       define jobnet array interdependencies
   [-i file_list]                           specify standard input stream file(s)
   [-j y[es]|n[o]]                          merge stdout and stderr stream of job
   [-js job_share]                          share tree or functional job share
   [-jsv jsv_url]                           job submission verification script
   [-l resource_list]                       request the given resources
   [-m mail_options]                        define mail notification events
   [-masterq wc_queue_list]                 bind master task to queue(s)
   [-notify]                                notify job before killing/suspending it
   [-now y[es]|n[o]]                        start job immediately or not at all
   [-M mail_list]                           notify these e-mail addresses
   [-N name]                                specify job name
   [-o path_list]                           specify standard output stream path(s)
   [-ot override_tickets]                   set override tickets
   [-P project_name]                        set job's project
   [-p priority]                            define job's relative priority
   [-pe pe-name slot_range]                 request slot range for parallel jobs
   [-q wc_queue_list]                       bind job to queue(s)
   [-R y[es]|n[o]]                          reservation desired
   [-r y[es]|n[o]]                          define job as (not) restartable
   [-sc context_list]                       set job context (replaces old context)
   [-shell y[es]|n[o]]                      start command with or without wrapping <loginshell> -c
   [-soft]                                  consider following requests as soft
   [-S path_list]                           command interpreter to be used
   [-sync y[es]|n[o]]                       wait for job to end and return exit code
   [-t task_id_range]                       create a job-array with these tasks
   [-tc max_running_tasks]                  throttle the number of concurrent tasks (experimental)
   [-terse]                                 tersed output, print only the job-id
   [-v variable_list]                       export these environment variables
   [-verify]                                do not submit just verify
   [-V]                                     export all environment variables
   [-w e|w|n|v|p]                           verify mode (error|warning|none|verify|poke)
   [-wd working_directory]                  use working_directory
   [-@ file]                                read commandline input from file"""

_LEGEND = """\
ckpt_selector            `n' `s' `m' `x' <interval>
date_time                [[CC]YY]MMDDhhmm[.SS]
exp                      explicit:<socket>,<core>[:<socket>,<core>...]
lin                      linear:<amount>[:<socket>,<core>]
str                      striding:<amount>:<stepsize>[:<socket>,<core>]"""

QSUB_USAGE = (
    "usage: qsub [options] [script_file|-- [command] [command_args]]\n\n"
    f"{_SUBMIT_OPTIONS}\n\n{_LEGEND}\n"
)

_QALTER_OPTIONS = "\n".join(
    line
    for line in _SUBMIT_OPTIONS.splitlines()
    if not line.lstrip().startswith(("[-b y", "[-shell", "[-now", "[-sync", "[-verify"))
)

QALTER_USAGE = (
    "usage: qalter [options] job_task_list | -u user_list\n\n"
    f"{_QALTER_OPTIONS}\n"
    "   [-u user_list]                           modify all jobs of these users\n\n"
    f"{_LEGEND}\n"
    "job_task_list            job_tasks[,job_tasks,...]\n"
    "job_tasks                [job_id['.'task_id_range]|job_name|pattern][' -t 'task_id_range]\n"
)
