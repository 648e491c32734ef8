"""An advance reservation request as Grid Engine stores it.

What qrsub sent is kept in the form Grid Engine keeps and shows (qrstat,
reporting records, the spool), whatever client sent it:

* ``-l`` names are the complex attributes' full names (``h`` -> ``hostname``);
* ``-m`` letters are in Grid Engine's order (``abe``), ``n`` alone meaning none;
* ``-u`` entries are unique; an entry ``!name`` excludes ``name``
  (``xacl_list``), the others are the ``acl_list``.
"""

from __future__ import annotations

from typing import Any

from qmaster.complexes.table import ComplexTable
from qmaster.core.errors import InvalidRequest

MAIL_ORDER = "abe"
NO_MAIL = "n"


def normalise(spec: dict[str, Any], table: ComplexTable) -> None:
    """Rewrite ``spec`` in place into its stored form (see the module notes)."""
    if spec.get("l_hard"):
        spec["l_hard"] = full_names(spec["l_hard"], table)
    if spec.get("m") is not None:
        spec["m"] = mail_letters(str(spec["m"]))
    if spec.get("u"):
        spec["u"] = list(dict.fromkeys(str(u) for u in spec["u"]))


def full_names(requests: dict[str, Any], table: ComplexTable) -> dict[str, str]:
    """``-l`` requests keyed by full attribute names; a later request of one wins."""
    out: dict[str, str] = {}
    for key, value in requests.items():
        entry = table.get(str(key))
        out[entry.name if entry is not None else str(key)] = str(value)
    return out


def mail_letters(text: str) -> str:
    """``-m`` letters in Grid Engine's order; anything but ``a b e`` or ``n`` is refused."""
    letters = set(text.replace(",", ""))
    if not letters or not letters <= set(MAIL_ORDER + NO_MAIL):
        raise InvalidRequest(
            f'ERROR! Wrong mail options list format "{text}" specified to -m option'
        )
    if NO_MAIL in letters:
        return NO_MAIL
    return "".join(ch for ch in MAIL_ORDER if ch in letters)


def acl_list(spec: dict[str, Any]) -> list[str]:
    """The users and ``@lists`` the AR was made for (``-u`` without the ``!`` entries)."""
    return [str(u) for u in spec.get("u") or () if not str(u).startswith("!")]


def xacl_list(spec: dict[str, Any]) -> list[str]:
    """The users and ``@lists`` excluded from the AR (``-u '!name'``)."""
    return [str(u)[1:] for u in spec.get("u") or () if str(u).startswith("!")]
