"""What qacct asks the qmaster for: host groups behind ``-q`` queue domains.

``-q`` without a host group needs no qmaster: ``queue`` becomes the pattern
``queue@*`` and ``queue@host`` stays as it is, matched (``fnmatch``) against
each record's ``qname@hostname``. A reference whose host part is a host group
(``all.q@@allhosts``) is resolved through the qmaster's host groups (nested
groups included); when no queue instance is left, qacct says so and ends.
"""

from __future__ import annotations

from clients.acct import texts
from clients.common.errors import ClientError


def _split(ref: str) -> tuple[str, str | None]:
    queue, at, host = ref.partition("@")
    return queue or "*", (host if at else None)


def _local_pattern(ref: str) -> str:
    queue, host = _split(ref)
    return f"{queue}@{host or '*'}"


def _hostgroup_members(name: str, seen: set[str]) -> list[str]:
    from qmaster.gdi.client import GdiError, call

    if name in seen:
        return []
    seen.add(name)
    try:
        reply = call("conf_show", {"kind": "hostgroup", "name": name})
    except GdiError as exc:
        raise ClientError(f"error: {exc}") from None
    if any(a.is_error for a in reply.answers):
        return []
    text = str((reply.data or {}).get("text", ""))
    hosts: list[str] = []
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        if key != "hostlist":
            continue
        for member in value.replace("\\", " ").split():
            if member.startswith("@"):
                hosts += _hostgroup_members(member, seen)
            elif member != "NONE":
                hosts.append(member)
    return hosts


def queue_patterns(refs: list[str]) -> list[str] | None:
    """The ``qname@hostname`` patterns of the ``-q`` references (``None``: no ``-q`` value)."""
    if not refs:
        return None
    if not any((_split(ref)[1] or "").startswith("@") for ref in refs):
        return [_local_pattern(ref) for ref in refs]
    patterns: list[str] = []
    for ref in refs:
        queue, host = _split(ref)
        if host is not None and host.startswith("@"):
            patterns += [f"{queue}@{h}" for h in _hostgroup_members(host, set())]
        else:
            patterns.append(_local_pattern(ref))
    if not patterns:
        raise ClientError(texts.NO_QUEUES)
    return patterns
