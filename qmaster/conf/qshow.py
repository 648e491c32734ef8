"""``qconf -sq``: cluster queues, queue instances and the template queue, as Grid Engine shows them.

The argument is a ``wc_queue_list``: comma-separated patterns, each a cluster
queue pattern optionally followed by ``@host`` (a host pattern) or ``@@group``
(a host group pattern). A cluster queue is shown in its file format; a queue
instance shows ``qname`` and ``hostname`` and every other attribute with the
value that applies on its host. Within one pattern the objects are separated
by an empty line. A pattern that matches nothing is reported with Grid
Engine's message; the others are still shown.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from qmaster.complexes.pattern import pattern_matches
from qmaster.conf.flatfile import render_pairs
from qmaster.conf.queue import QUEUE_FORMAT
from qmaster.conf.state import ConfState, QueueInstanceConf

NO_MATCH = 'No cluster queue or queue instance matches the phrase "{}"'


def instance_text(qi: QueueInstanceConf) -> str:
    """One queue instance: its name, host and the values that apply on that host."""
    pairs = [("qname", qi.cqueue), ("hostname", qi.host)]
    pairs += [(a.name, qi.attrs[a.name]) for a in QUEUE_FORMAT.attrs[2:]]
    return render_pairs(pairs, QUEUE_FORMAT.column)


def _instances(state: ConfState, queues: list[str], hosts: list[str]) -> list[QueueInstanceConf]:
    wanted = set(queues)
    by_key = {(qi.cqueue, qi.host): qi for qi in state.queue_instances if qi.cqueue in wanted}
    return [by_key[(q, h)] for q in queues for h in hosts if (q, h) in by_key]


def _group_hosts(state: ConfState, pattern: str) -> list[str]:
    hosts: list[str] = []
    for group in sorted(state.hostgroups):
        if fnmatchcase(group, pattern):
            hosts.extend(h for h in state.hosts_of_group(group) if h not in hosts)
    return hosts


def _texts(state: ConfState, pattern: str) -> list[str]:
    queue_pat, at, where = pattern.partition("@")
    queues = [name for name in sorted(state.cqueues) if fnmatchcase(name, queue_pat)]
    if not at:
        return [state.cqueues[name].render() for name in queues]
    if where.startswith("@"):
        return [instance_text(qi) for qi in _instances(state, queues, _group_hosts(state, where))]
    hosts = sorted({qi.host for qi in state.queue_instances})
    matching = [h for h in hosts if pattern_matches(where.lower(), h.lower())]
    return [instance_text(qi) for qi in _instances(state, queues, matching)]


def show_queues(state: ConfState, wc_queue_list: str) -> tuple[str, list[str]]:
    """The text for each pattern of ``wc_queue_list``, and a message per pattern matching none."""
    out: list[str] = []
    missing: list[str] = []
    for pattern in (p for p in wc_queue_list.replace(" ", ",").split(",") if p):
        texts = _texts(state, pattern)
        if texts:
            out.append("\n".join(texts))
        else:
            missing.append(NO_MATCH.format(pattern))
    return "".join(out), missing
