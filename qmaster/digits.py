"""Numbers as Grid Engine reads them: ASCII digits only.

``str.isdigit`` is also true of other scripts' digits and of superscripts such
as ``²``, which ``int`` then refuses (a crash where a job id was expected) or
reads as a number Grid Engine would take for a name.
"""

from __future__ import annotations

import re


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


def atol_u32(text: str) -> int | None:
    """The job number Grid Engine's ``atol(text)`` gives once stored in a ``u_long32``.

    None when ``text`` does not start with a digit. ``strtol`` stops at the first other
    character (``16abc``, ``16.2``: 16) and saturates at ``LONG_MAX``; the cast keeps
    the low 32 bits (x86-64), so ``99999999999999999999`` is 4294967295.
    """
    number = leading_number(text)
    if number is None:
        return None
    return min(number, 2**63 - 1) & 0xFFFFFFFF


_STRTOL_BASE0 = re.compile(r"[ \t\n\v\f\r]*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)")


def strtol_u32(text: str) -> int | None:
    """The number ``strtol(text, &end, 0)`` reads when it reads all of ``text``, as a
    ``u_long32``; None when it stops early. Base 0: ``0x10`` is 16 and ``010`` is 8;
    a sign and leading blanks are taken; past ``LONG_MAX`` it saturates, and the cast
    keeps the low 32 bits (``-1``: 4294967295).
    """
    found = _STRTOL_BASE0.fullmatch(text)
    if found is None:
        return None
    sign, digits = found.groups()
    if digits[:2] in ("0x", "0X"):
        value = int(digits, 16)
    elif digits.startswith("0"):
        value = int(digits, 8)
    else:
        value = int(digits)
    value = -value if sign == "-" else value
    return max(-(2**63), min(value, 2**63 - 1)) & 0xFFFFFFFF
