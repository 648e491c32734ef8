"""Numbers as Grid Engine reads them: ASCII digits only.

``str.isdigit`` is also true of other scripts' digits and of superscripts such
as ``²``, which ``int`` then refuses (a crash where a job id was expected) or
reads as a number Grid Engine would take for a name.
"""

from __future__ import annotations


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more of the ASCII digits 0-9."""
    return text.isascii() and text.isdigit()


def leading_number(text: str) -> int | None:
    """The number the ASCII digits at the start of ``text`` spell, as C's ``atoi``.

    None when ``text`` does not start with a digit (``1abc``: 1, ``007``: 7).
    """
    end = 0
    while end < len(text) and "0" <= text[end] <= "9":
        end += 1
    return int(text[:end]) if end else None
