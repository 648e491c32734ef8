"""Client-side errors: each one carries the Grid Engine text and the exit code it ends with."""

from __future__ import annotations

from qmaster.gdi.values import ValueRefused

# The one error class of value parsing, shared with the qmaster (qmaster.gdi.values):
# a ClientError is printed with its message and ends the command with its exit code.
ClientError = ValueRefused


def invalid_argument(token: str) -> ClientError:
    """Grid Engine's complaint about an option or argument it does not understand."""
    return ClientError(f'ERROR! invalid option argument "{token}"', show_usage=True)


def missing_argument(option: str) -> ClientError:
    """Grid Engine's complaint about an option given without its value."""
    return ClientError(f"ERROR! {option} option must have argument", show_usage=True)
