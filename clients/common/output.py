"""Printing answer lists as Grid Engine clients do, and turning them into exit codes.

INFO answers go to stdout; warnings and errors go to stderr. A reply whose
errors include ``Status.NOTOK_DOAGAIN`` ends the command with 25, any other
error with 1.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from qmaster.gdi.answers import Answer, Quality, Status

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_DOAGAIN = 25


def print_answers(answers: Iterable[Answer], *, errors_to_stdout: bool = False) -> None:
    """Write each answer's text on its stream (info on stdout, the rest on stderr)."""
    for answer in answers:
        if not answer.text:
            continue
        to_stdout = answer.quality == Quality.INFO or errors_to_stdout
        stream = sys.stdout if to_stdout else sys.stderr
        stream.write(answer.text.rstrip("\n") + "\n")


def exit_code(answers: Iterable[Answer]) -> int:
    """0 without errors; 25 when an error asks to try again later; 1 otherwise."""
    errors = [a for a in answers if a.is_error]
    if not errors:
        return EXIT_OK
    if any(a.status == Status.NOTOK_DOAGAIN for a in errors):
        return EXIT_DOAGAIN
    return EXIT_ERROR


GE_STATUS: dict[int, int] = {
    Status.OK: 1, Status.ESEMANTIC: 2, Status.EEXIST: 3, Status.EUNKNOWN: 4,
    Status.ENOIMP: 5, Status.ENOKEY: 6, Status.ESYNTAX: 7, Status.ENOMGR: 9,
    Status.ENOOPR: 10, Status.EDISK: 14, Status.ENOSUCHUSER: 15, Status.ENOTOWNER: 18,
    Status.EDENIED: 20, Status.EVERSION: 21, Status.NOTOK_DOAGAIN: 25,
}  # fmt: skip
"""An answer status as Grid Engine numbers it (sge_answer.h's an_status_t: STATUS_OK 1,
STATUS_ESEMANTIC 2, STATUS_EEXIST 3 ...), where a command exits with the number itself."""


def first_status(answers: Iterable[Answer]) -> int:
    """qhold's and qrls's exit code (qalter.c): the first answer status that is not
    STATUS_OK, in Grid Engine's numbers (``denied: job "7" does not exist`` is
    STATUS_EEXIST, 3); 0 when every answer is OK."""
    for answer in answers:
        if answer.status != Status.OK:
            return GE_STATUS.get(answer.status, GE_STATUS[Status.EUNKNOWN])
    return EXIT_OK


def out(text: str) -> None:
    """Write ``text`` to stdout, adding the final newline when it has none."""
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def err(text: str) -> None:
    """Write ``text`` to stderr, adding the final newline when it has none."""
    sys.stderr.write(text if text.endswith("\n") else text + "\n")
