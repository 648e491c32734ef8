"""How each Grid Engine 6.2u5 client reports a bad command line and answers ``-help``.

Read from the clients' sources (``source/clients/*``, ``parse_qsub.c``):

* every usage starts with the version line ``GE 6.2u5`` (``sge_usage()``,
  ``qstat_usage()``: ``feature_get_product_name(FS_SHORT_VERSION)``);
* qsub and qalter print the parser's answer with their name as prefix
  (``qsub: ERROR! invalid option argument "-x"``), no usage, and exit with
  the answer's status: 2 (``STATUS_ESEMANTIC``) for an unknown option or a
  missing argument, 7 (``STATUS_ESYNTAX``) for an argument that does not parse;
* qrsub does the same with ``qrsub: `` but exits 1;
* qstat prints its usage on stderr, then ``invalid option argument "-x"``;
* qrdel (and qdel for a bad ``-t``) print the usage on stderr, then the
  answer through the error log (``error: ...``); qrstat only the latter;
* qconf logs ``error: invalid option argument "-x"`` and ``Usage: qconf -help``;
  a missing argument is ``error: no option argument provided to "-x"`` and
  the usage;
* ``-help`` prints the usage on stdout and exits 0, except qrstat, whose
  parser returns "failed" after printing it, and qhost (exit 1).

qevent logs its complaint (``error: unkown option: -x``) and then prints the
usage on stdout (``qevent_show_usage()``), exit 1. seg is minige's own: it
follows qstat.

``--version`` (a minige addition; no 6.2u5 command has an option of that
name) prints the version line and minige's version on stdout and exits 0.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from clients.common.errors import ClientError, OptionError
from qmaster.version import VERSION

T = TypeVar("T")

VERSION_LINE = "GE 6.2u5"
"""The first line of every usage Grid Engine 6.2u5 prints."""


@dataclass(frozen=True, slots=True)
class ErrorStyle:
    """How one command reports an :class:`OptionError`, and how ``-help`` ends."""

    command: str = ""
    prefix: str = ""
    usage_for: frozenset[str] = frozenset({"unknown", "missing"})
    exit_with_status: bool = False
    help_exit: int = 0
    unknown_text: str = 'ERROR! invalid option argument "{}"'
    missing_text: str | None = None
    help_hint: bool = False
    usage_last: bool = False

    def lines(self, exc: OptionError) -> list[str]:
        """The stderr lines for ``exc`` (the usage, when shown, is not among them)."""
        text = exc.message
        if exc.kind == "unknown":
            text = self.unknown_text.format(exc.token)
        elif exc.kind == "missing" and self.missing_text is not None:
            text = self.missing_text.format(exc.token)
        # a parser's own complaint (``Invalid day specification.``) comes first, unprefixed
        *before, last = text.splitlines() or [""]
        lines = [*before, self.prefix + last]
        if self.help_hint and exc.kind == "unknown":
            lines.append(f"Usage: {self.command} -help")
        return lines

    def shows_usage(self, exc: OptionError) -> bool:
        """Whether the full usage goes to stderr before the message."""
        return exc.kind in self.usage_for

    def exit_code(self, exc: OptionError) -> int:
        """qsub and qalter exit with the answer status; the others with 1."""
        return exc.status if self.exit_with_status else 1


_PLAIN_UNKNOWN = 'invalid option argument "{}"'
_NONE: frozenset[str] = frozenset()
_ALL = frozenset({"unknown", "missing", "value"})

STYLES: dict[str, ErrorStyle] = {
    "qsub": ErrorStyle("qsub", "qsub: ", _NONE, exit_with_status=True),
    "qalter": ErrorStyle("qalter", "qalter: ", _NONE, exit_with_status=True),
    # qhold, qrls and qresub are qalter (qalter.c): its parser's complaints, prefixed "qalter: "
    "qhold": ErrorStyle("qhold", "qalter: ", _NONE, exit_with_status=True),
    "qrls": ErrorStyle("qrls", "qalter: ", _NONE, exit_with_status=True),
    "qresub": ErrorStyle("qresub", "qalter: ", _NONE, exit_with_status=True),
    "qrsub": ErrorStyle("qrsub", "qrsub: ", _NONE),
    "qrstat": ErrorStyle("qrstat", "error: ", _NONE, help_exit=1),
    "qrdel": ErrorStyle("qrdel", "error: ", _ALL),
    "qdel": ErrorStyle("qdel", "error: ", _ALL),
    "qstat": ErrorStyle("qstat", "", frozenset({"unknown"}), unknown_text=_PLAIN_UNKNOWN),
    "qconf": ErrorStyle(
        "qconf",
        "error: ",
        frozenset({"missing"}),
        unknown_text=_PLAIN_UNKNOWN,
        missing_text='no option argument provided to "{}"',
        help_hint=True,
    ),
    "qevent": ErrorStyle("qevent", "error: ", usage_last=True),
    # sge_parse_qhost leaves -help through its error path: exit 1
    "qhost": ErrorStyle("qhost", help_exit=1),
}

DEFAULT_STYLE = ErrorStyle()


def style_of(command: str) -> ErrorStyle:
    """The error style of ``command`` (qstat's for minige's own commands)."""
    return STYLES.get(command, DEFAULT_STYLE)


def help_text(usage: str) -> str:
    """The usage as ``-help`` prints it: the version line, then the usage."""
    return f"{VERSION_LINE}\n{usage}"


def show_help(command: str, usage: str) -> int:
    """``-help``: the version line and the usage on stdout; the command's exit code."""
    sys.stdout.write(help_text(usage).rstrip("\n") + "\n")
    return style_of(command).help_exit


def report(command: str, usage: str, exc: ClientError) -> int:
    """Print ``exc`` as ``command`` reports a bad command line; the exit code."""
    lines: list[str] = []
    if isinstance(exc, OptionError):
        style = style_of(command)
        if style.shows_usage(exc):
            lines.append(help_text(usage).rstrip("\n"))
        lines.extend(style.lines(exc))
        code = style.exit_code(exc)
    elif style_of(command).usage_last:
        sys.stderr.write(exc.message.rstrip("\n") + "\n")
        if exc.show_usage:
            sys.stdout.write(help_text(usage).rstrip("\n") + "\n")
        return exc.exit_code
    else:
        if exc.show_usage:
            lines.append(help_text(usage).rstrip("\n"))
        lines.append(exc.message)
        code = exc.exit_code
    sys.stderr.write("\n".join(lines).rstrip("\n") + "\n")
    return code


HELP_WORDS = frozenset({"-help", "--help", "-h"})
VERSION_WORD = "--version"


def version_text() -> str:
    """What ``--version`` prints: Grid Engine's version line, then minige's version."""
    return f"{VERSION_LINE}\nminige {VERSION}\n"


def show_version() -> int:
    """``--version``: the version lines on stdout; exit 0."""
    sys.stdout.write(version_text())
    return 0


def asks_for_version(words: Sequence[str]) -> bool:
    """Whether ``--version`` is the command line's first word (a later one may be a value)."""
    return bool(words) and words[0] == VERSION_WORD


def parse_command_line(
    command: str, usage: str, words: Sequence[str], parse: Callable[[list[str]], T]
) -> T | int:
    """A command's parsed arguments, or the exit code after ``-help`` or a bad command line."""
    if asks_for_version(words):
        return show_version()
    if any(word in HELP_WORDS for word in words):
        return show_help(command, usage)
    try:
        return parse(list(words))
    except ClientError as exc:
        return report(command, usage, exc)
