"""Client-side errors: each one carries the Grid Engine text and the exit code it ends with."""

from __future__ import annotations


class ClientError(Exception):
    """A problem the command reports on stderr before it exits.

    ``message`` is printed as given (it may span lines); ``exit_code`` is what
    the process returns; ``show_usage`` adds the command's usage after it.
    """

    def __init__(self, message: str, exit_code: int = 1, *, show_usage: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.show_usage = show_usage


def invalid_argument(token: str) -> ClientError:
    """Grid Engine's complaint about an option or argument it does not understand."""
    return ClientError(f'ERROR! invalid option argument "{token}"', show_usage=True)


def missing_argument(option: str) -> ClientError:
    """Grid Engine's complaint about an option given without its value."""
    return ClientError(f"ERROR! {option} option must have argument", show_usage=True)
