"""Client-side errors: each one carries the Grid Engine text and the exit code it ends with.

The error classes are shared with the qmaster (:mod:`qmaster.gdi.values`), so a
value refused by a parser reads the same wherever the parser runs: a
:class:`ClientError` is printed with its message and ends the command with its
exit code; an :class:`OptionError` is a bad command line, laid out as the
command's :class:`clients.common.conventions.ErrorStyle` says.
"""

from __future__ import annotations

from qmaster.gdi.values import SEMANTIC, SYNTAX, OptionError, ValueRefused, bad_value

ClientError = ValueRefused

__all__ = [
    "SEMANTIC",
    "SYNTAX",
    "ClientError",
    "OptionError",
    "bad_value",
    "invalid_argument",
    "missing_argument",
]


def invalid_argument(token: str) -> OptionError:
    """Grid Engine's complaint about an option or argument it does not understand."""
    return OptionError(
        f'ERROR! invalid option argument "{token}"', SEMANTIC, kind="unknown", token=token
    )


def missing_argument(option: str, message: str | None = None) -> OptionError:
    """Grid Engine's complaint about an option given without its value."""
    text = message or f"ERROR! {option} option must have argument"
    return OptionError(text, SEMANTIC, kind="missing", token=option)
