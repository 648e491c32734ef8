"""A job's specification in its wire form on the way to the server JSV.

The qmaster resolves ``-l`` shortcuts before the server JSV sees a job (as Grid
Engine does), while the specification is still the dict the client sent.
"""

from __future__ import annotations

from typing import Any

from qmaster.complexes.table import ComplexTable


def full_resource_names(spec: dict[str, Any], complexes: ComplexTable) -> dict[str, Any]:
    """A dict spec with ``-l`` shortcuts replaced by the complex names (``a=x`` -> ``arch=x``).

    The qmaster resolves shortcuts as Grid Engine does, before the server JSV
    sees the job, so a JSV's change of ``arch`` replaces what was asked as ``a``.
    Names it does not know are left as they are (the submit check refuses them).
    """
    out = dict(spec)
    for key in ("l_hard", "l_soft"):
        requests = spec.get(key)
        if requests:
            out[key] = {_full_name(str(name), complexes): v for name, v in requests.items()}
    return out


def _full_name(name: str, complexes: ComplexTable) -> str:
    entry = complexes.get(name)
    return entry.name if entry is not None else name
