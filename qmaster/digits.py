"""Numbers as Grid Engine reads them: ASCII digits only.

``str.isdigit`` is also true of other scripts' digits and of superscripts such
as ``²``, which ``int`` then refuses (a crash where a job id was expected) or
reads as a number Grid Engine would take for a name.
"""

from __future__ import annotations


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more of the ASCII digits 0-9."""
    return text.isascii() and text.isdigit()
