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


def out(text: str) -> None:
    """Write ``text`` to stdout, adding the final newline when it has none."""
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def err(text: str) -> None:
    """Write ``text`` to stderr, adding the final newline when it has none."""
    sys.stderr.write(text if text.endswith("\n") else text + "\n")
