"""A job_tasks word (``7``, ``7.1-5:2``, a job name or pattern) as Grid Engine's clients read it.

qdel, qalter, qhold and qrls pass each word through ``sge_parse_jobtasks()``
(sge_ja_task.c) before anything is sent: an empty word is refused, and so is a
word that starts with a digit but whose job part (before the ``.``) is not a
whole number from 1 on, read with C's ``strtod`` (``1abc``, ``0``, ``2.5x``'s
``2`` is fine but ``1x.2`` is not). Words that start with anything else are
job names or patterns (``+1`` included), looked up by the qmaster.

The number must also survive the cast to Grid Engine's 32-bit job number: on
the x86-64 builds a value from 2**32 on does not, so ``99999999999999999999``
is refused too. ``strtod`` also reads an exponent or a hex number (``1e3``,
``0x10``): such words pass, as they do in Grid Engine.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from clients.common.errors import SEMANTIC, ClientError
from clients.submit import values as V

_DECIMAL = re.compile(r"[0-9]+(?:[eE][+-]?[0-9]+)?")
_HEX = re.compile(r"0[xX][0-9a-fA-F]+(?:[pP][+-]?[0-9]+)?")
_EPSILON = 1.0e-12
_U32_LIMIT = 2**32


def invalid_job_task(word: str) -> str:
    """Grid Engine's text for a word ``sge_parse_jobtasks()`` refuses (MSG_JOB_XISINVALIDJOBTASKID_S)."""
    return f"ERROR! {word} is a invalid job-task identifier"


def _strtod_whole(text: str) -> float | None:
    """The value C's ``strtod`` reads when it reads all of ``text``, else None."""
    if _DECIMAL.fullmatch(text):
        return float(text)
    if _HEX.fullmatch(text):
        mantissa, _, exponent = text[2:].lower().partition("p")
        return float.fromhex(f"0x{mantissa}p{exponent or '0'}")
    return None


def is_job_task(word: str) -> bool:
    """Whether ``sge_parse_jobtasks()`` takes ``word`` (task ranges are checked elsewhere)."""
    if not word:
        return False
    if not "0" <= word[0] <= "9":
        return True
    value = _strtod_whole(word.partition(".")[0])
    if value is None or math.isinf(value) or value < 1 or value >= _U32_LIMIT:
        return False
    return value - math.floor(value) <= _EPSILON


def check_job_tasks(refs: Sequence[str]) -> None:
    """qalter, qhold and qrls refuse a bad job_tasks word before sending anything.

    qalter_parse_job_parameter() answers it, printed without a prefix; the exit
    code is the answer's status (STATUS_ESEMANTIC).
    """
    for ref in refs:
        if not is_job_task(ref):
            raise ClientError(invalid_job_task(ref), SEMANTIC)


def with_tasks(word: str, tasks: str) -> str:
    """A job word given the ``-t`` range ``tasks`` (``first-last:step``) that follows it.

    parse_multi_jobtaskslist() hands the ``-t`` list to sge_parse_jobtasks(), which
    adds it to the word's own range, then sorts, uniques and compresses the ids: a job
    id with a range keeps both (``7.1 -t 2`` is tasks 1 and 2, sent as ``7.1-2:1``).
    Two ranges that do not make one are sent as a list, in order (``7.1-1:1,4-4:1``),
    which the qmaster takes range by range. A name's range is the ``-t``'s alone (a
    name may hold a dot), and so is the word's when its own range does not parse
    (the qmaster answers that range then, as before).
    """
    head, dot, own = word.partition(".")
    if not dot or not "0" <= word[0] <= "9":
        return f"{word}.{tasks}"
    try:
        mine = "{}-{}:{}".format(*V.task_range(own))
    except ClientError:
        return word
    try:
        return "{}.{}-{}:{}".format(head, *V.task_range(f"{mine},{tasks}"))
    except ClientError:
        first, second = sorted((mine, tasks), key=lambda text: int(text.partition("-")[0]))
        return f"{head}.{first},{second}"
