"""The words of a submission's option sources: a request file's lines (``sge_request``,
``-@ file``) and a script's directive lines (``#$``), split as a shell splits words.
"""

from __future__ import annotations

import shlex

from clients.common.errors import bad_value


def request_tokens(text: str) -> list[str]:
    """The options of a request file: ``#`` in column 1 and blank lines are skipped."""
    tokens: list[str] = []
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        tokens.extend(_split(line))
    return tokens


def directive_tokens(script: str, prefix: str = "#$") -> list[str]:
    """The options on the script's directive lines (``#$`` unless ``-C`` says otherwise)."""
    if not prefix:
        return []
    tokens: list[str] = []
    for line in script.splitlines():
        if line.startswith(prefix):
            tokens.extend(_split(line[len(prefix) :]))
    return tokens


def _split(line: str) -> list[str]:
    try:
        return shlex.split(line)
    except ValueError:
        raise bad_value(f'ERROR! invalid option argument "{line.strip()}"') from None
