"""Client-side errors: each one carries the Grid Engine text and the exit code it ends with."""

from __future__ import annotations

SEMANTIC = 2
"""Grid Engine's ``STATUS_ESEMANTIC``: an unknown option, a missing argument."""

SYNTAX = 7
"""Grid Engine's ``STATUS_ESYNTAX``: an option argument that does not parse."""


class ClientError(Exception):
    """A problem the command reports on stderr before it exits.

    ``message`` is printed as given (it may span lines); ``exit_code`` is what
    the process returns; ``show_usage`` puts the command's usage before it.
    """

    def __init__(self, message: str, exit_code: int = 1, *, show_usage: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.show_usage = show_usage


class OptionError(ClientError):
    """A bad command line, in Grid Engine's words.

    ``status`` is the answer status Grid Engine's parser gives it (qsub and
    qalter exit with it); how the text is laid out (a ``qsub: `` prefix, the
    usage before it, ``Usage: qconf -help`` after it) is the command's
    :class:`clients.common.conventions.ErrorStyle`. ``kind`` is ``unknown``
    (an option the command does not have; ``token`` is it), ``missing`` (an
    option without its argument; ``token`` is the option) or ``value``.
    """

    def __init__(
        self, message: str, status: int = SYNTAX, *, kind: str = "value", token: str = ""
    ) -> None:
        super().__init__(message, 1)
        self.status = status
        self.kind = kind
        self.token = token


def invalid_argument(token: str) -> OptionError:
    """Grid Engine's complaint about an option or argument it does not understand."""
    return OptionError(
        f'ERROR! invalid option argument "{token}"', SEMANTIC, kind="unknown", token=token
    )


def missing_argument(option: str, message: str | None = None) -> OptionError:
    """Grid Engine's complaint about an option given without its value."""
    text = message or f"ERROR! {option} option must have argument"
    return OptionError(text, SEMANTIC, kind="missing", token=option)


def bad_value(message: str, status: int = SYNTAX) -> OptionError:
    """An option argument Grid Engine's parser refuses, with its text."""
    return OptionError(message, status)
