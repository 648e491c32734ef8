"""``qstat -r``: the requirement lines under each job, as Grid Engine's stdout handler prints.

Every line starts with the 7-space indent; labels are padded to 17 columns
(``Full jobname:     job``). Hard resources carry their urgency contribution
(``h_vmem=1G (0.000000)``), the first on the label's line, the next ones
indented to column 26; soft resources likewise without it. Queue and
predecessor lists are joined by ``, ``.
"""

from __future__ import annotations

from typing import Any

INDENT = "       "
_CONT = " " * 25


def _label(name: str, value: str) -> str:
    pad = max(1, 17 - len(name))
    return f"{INDENT}{name}:{' ' * pad}{value}\n"


def pe_range(low: int, high: int) -> str:
    """A slot range: ``4``, ``2-8``."""
    return str(low) if low == high else f"{low}-{high}"


def _resources(title: str, items: list[dict[str, Any]], contribution: bool) -> str:
    if not items:
        return ""
    text = f"{INDENT}{title}:   "
    for i, item in enumerate(items):
        text += _CONT if i else ""
        text += f"{item['name']}={item['value']}"
        text += f" ({float(item['contribution']):f})\n" if contribution else "\n"
    return text


def _joined(title: str, items: list[Any]) -> str:
    return f"{INDENT}{title}: {', '.join(str(i) for i in items)}\n" if items else ""


def render_requirements(req: dict[str, Any]) -> str:
    """The ``-r`` block of one job row."""
    text = _label("Full jobname", str(req.get("full_name") or ""))
    if req.get("master_queue"):
        text += _label("Master Queue", str(req["master_queue"]))
    pe = req.get("requested_pe")
    if pe:
        text += _label("Requested PE", f"{pe['name']} {pe_range(int(pe['min']), int(pe['max']))}")
    granted = req.get("granted_pe")
    if granted:
        text += _label("Granted PE", f"{granted['name']} {int(granted['slots'])}")
    if req.get("checkpoint"):
        text += _label("Checkpoint Env.", str(req["checkpoint"]))
    text += _resources("Hard Resources", list(req.get("hard_resources") or []), True)
    for item in req.get("default_requests") or []:
        text += f"{INDENT}{item['name']}={item['value']} (default)\n"
    text += _resources("Soft Resources", list(req.get("soft_resources") or []), False)
    text += _joined("Hard requested queues", list(req.get("hard_queues") or []))
    text += _joined("Soft requested queues", list(req.get("soft_queues") or []))
    text += _joined("Master task hard requested queues", list(req.get("master_queues") or []))
    text += _joined("Predecessor Jobs (request)", list(req.get("predecessors_requested") or []))
    text += _joined("Predecessor Jobs", list(req.get("predecessors") or []))
    ad = list(req.get("ad_predecessors_requested") or [])
    text += _joined("Predecessor Array Jobs (request)", ad)
    return text
