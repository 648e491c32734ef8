"""Field formatting shared by the reporting and accounting records.

``:`` separates fields and no reader can tell an escaped one, so free text has
``:`` replaced by ``_`` and line breaks by spaces.
"""

from __future__ import annotations

NONE_STR = "NONE"

_UNSAFE = str.maketrans({":": "_", "\n": " ", "\r": " "})


def safe(text: str) -> str:
    """Free text made safe for a ``:``-separated line."""
    if ":" in text or "\n" in text or "\r" in text:
        return text.translate(_UNSAFE)
    return text


def fmt_double(value: float) -> str:
    """A double the way C's ``%f`` prints it."""
    return f"{value:f}"


def join_fields(values: tuple[object, ...]) -> str:
    return ":".join(map(str, values))


def all_safe(*texts: str) -> bool:
    """None of these texts needs :func:`safe` (a line's free text is usually plain: it is
    then written as it is, without a call per field)."""
    joined = "".join(texts)
    return not (":" in joined or "\n" in joined or "\r" in joined)
