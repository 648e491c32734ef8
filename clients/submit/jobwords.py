"""qalter's job words and the ``-t`` after one (qalter, qhold, qrls), as Grid Engine pairs them.

``qalter_parse_job_parameter()`` (qalter.c) first takes some options off the command
line, then hands the job words to ``parse_multi_jobtaskslist()``, which pairs each word
with a ``-t`` right after it: ``qhold 7 -A x -t 2`` still pairs (``-A`` is gone by then),
``qhold 7 -h u -t 2`` does not (a lonely ``-t``). ``sge_parse_jobtasks()`` then unites the
word's own range and the ``-t`` range (``qhold 7.1 -t 3``: tasks 1 and 3), sent as one
job word with the two ranges joined by a comma (``7.1,3-3:1``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clients.common.errors import bad_value, missing_argument
from clients.submit import values as V

if TYPE_CHECKING:
    from clients.submit.grammar import SubmitState

TAKEN_BEFORE_JOB_WORDS = frozenset({"-a", "-A", "-ar", "-binding", "-cwd", "-c", "-ckpt", "-dl"})
TAKEN_BEFORE_JOB_WORDS |= {"-e", "-i"}
"""The qalter (qhold, qrls) options Grid Engine reads before the job words."""


def job_tasks(state: SubmitState, args: list[str], after_job_word: bool) -> None:
    """qalter's ``-t range``: the tasks of the last job of the job word right before it
    (parse_multi_jobtaskslist()); a ``-t`` elsewhere is kept as lonely."""
    if not args:
        raise missing_argument("-t", "ERROR! -t option must have a list of task id ranges")
    first, last, step = V.task_range(args[0])
    if not after_job_word:
        state.lonely_tasks = state.lonely_tasks or args[0]
        return
    word, dot, own = state.job_ids[-1].partition(".")
    text = f"{first}-{last}:{step}"
    if dot and V.task_range(own) != (first, last, step):
        if not word[:1].isdigit():  # a name with a dot and a -t: minige keeps one range
            raise bad_value("ERROR! -t option only allows one range specification")
        text = f"{own},{text}"  # sge_parse_jobtasks(): the word's range and -t's, united
    state.job_ids[-1] = f"{word}.{text}"
    state.tasked = True
