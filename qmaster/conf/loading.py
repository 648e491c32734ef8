"""Reading a cell's configuration from a folder or from spool rows into a :class:`ConfState`.

Folder layout: ``complexes``, ``cqueues/<name>``, ``exechosts/<name>``,
``hostgroups/<name>``, ``pe/<name>``, ``usersets/<name>``, ``projects/<name>``,
``ckpt/<name>``, ``configuration``,
``sched_configuration``, ``managers``. Rows are ``(kind, name, text)``.
"""

from __future__ import annotations

from pathlib import Path

from qmaster.complexes.table import ComplexTable
from qmaster.conf.access import PeConf, UsersetConf, parse_managers, render_managers
from qmaster.conf.calendar import CalendarConf
from qmaster.conf.cluster import GlobalConf, SchedConf
from qmaster.conf.errors import ConfigError
from qmaster.conf.model import ConfObject
from qmaster.conf.projects import CkptConf, ProjectConf
from qmaster.conf.queue import ExecHostConf, HostgroupConf, QueueConf
from qmaster.conf.rqsconf import RqsConf
from qmaster.conf.state import ConfState, check_state
from qmaster.conf.users import UserConf

Row = tuple[str, str, str]
GLOBAL_HOST = "global"

OBJECT_KINDS: dict[str, type[ConfObject]] = {
    "cqueue": QueueConf,
    "exechost": ExecHostConf,
    "hostgroup": HostgroupConf,
    "pe": PeConf,
    "userset": UsersetConf,
    "project": ProjectConf,
    "ckpt": CkptConf,
    "user": UserConf,
    "calendar": CalendarConf,
    "rqs": RqsConf,
}
FOLDERS = {
    "cqueue": "cqueues",
    "exechost": "exechosts",
    "hostgroup": "hostgroups",
    "pe": "pe",
    "userset": "usersets",
    "project": "projects",
    "ckpt": "ckpt",
    "user": "users",
    "calendar": "calendars",
    "rqs": "resource_quotas",
}
SINGLE_NAMES = {"complex": "complexes", "global": "global", "sched": "scheduler",
                "manager": "managers", "operator": "operators", "adminhost": "adminhosts",
                "submithost": "submithosts"}  # fmt: skip
OPTIONAL_LISTS = ("operator", "adminhost", "submithost")
"""Name lists a cell may lack (cells made before they existed): empty when missing."""
ROW_KINDS = ("complex", "exechost", "hostgroup", "userset", "project", "ckpt", "calendar", "user",
             "pe", "cqueue", "global", "sched", "manager", *OPTIONAL_LISTS, "rqs")  # fmt: skip


def parse_object(kind: str, text: str, path: str, *, spooled: bool = False) -> ConfObject:
    """Parse the text of a named object of ``kind``."""
    return OBJECT_KINDS[kind].parse(text, path, spooled=spooled)


def template_text(kind: str, name: str | None = None) -> str:
    """An object of ``kind`` with every default, called ``name`` or ``template`` (``-sq``
    alone, and what ``-aq``/``-aprj``/``-ackpt`` open in the editor)."""
    cls = OBJECT_KINDS[kind]
    return cls.with_values(**{cls.FORMAT.name_key: name or "template"}).render()


def _named(kind: str, objs: list[tuple[str, str]], spooled: bool) -> dict[str, ConfObject]:
    result: dict[str, ConfObject] = {}
    for path, text in objs:
        obj = parse_object(kind, text, path, spooled=spooled)
        if obj.name in result:
            raise ConfigError(path, 1, f'{kind} "{obj.name}" is defined twice')
        result[obj.name] = obj
    return result


def build_state(texts: dict[str, list[tuple[str, str]]], *, spooled: bool = False) -> ConfState:
    """A checked state from ``{kind: [(path, text), ...]}`` (``spooled``: the qmaster's
    spool, see :func:`qmaster.conf.model.parse_attrs`)."""

    def one(kind: str) -> tuple[str, str]:
        found = texts.get(kind) or []
        if not found:
            raise ConfigError(SINGLE_NAMES[kind], 0, f"missing {SINGLE_NAMES[kind]}")
        return found[0]

    named = {kind: _named(kind, texts.get(kind, []), spooled) for kind in OBJECT_KINDS}
    sources: dict[tuple[str, str], str] = {}
    raw: dict[tuple[str, str], str] = {}
    for kind in OBJECT_KINDS:
        for (path, text), name in zip(texts.get(kind, []), named[kind], strict=True):
            sources[(kind, name)] = path
            raw[(kind, name)] = text
    if GLOBAL_HOST not in named["exechost"]:  # Grid Engine always has the global host
        named["exechost"] = {GLOBAL_HOST: ExecHostConf.with_values(hostname=GLOBAL_HOST),
                             **named["exechost"]}  # fmt: skip
    g_path, g_text = one("global")
    sources[("global", "global")] = g_path
    raw[("global", "global")] = g_text
    state = ConfState(
        complexes=ComplexTable.parse(one("complex")[1], one("complex")[0]),
        cqueues=named["cqueue"],  # type: ignore[arg-type]
        exechosts=named["exechost"],  # type: ignore[arg-type]
        hostgroups=named["hostgroup"],  # type: ignore[arg-type]
        pes=named["pe"],  # type: ignore[arg-type]
        usersets=named["userset"],  # type: ignore[arg-type]
        projects=named["project"],  # type: ignore[arg-type]
        ckpts=named["ckpt"],  # type: ignore[arg-type]
        users=named["user"],  # type: ignore[arg-type]
        operators=_optional_list(texts, "operator"),
        adminhosts=_optional_list(texts, "adminhost"),
        submithosts=_optional_list(texts, "submithost"),
        calendars=named["calendar"],  # type: ignore[arg-type]
        rqs=named["rqs"],  # type: ignore[arg-type]
        global_conf=GlobalConf.parse(g_text, g_path, spooled=spooled),
        sched_conf=SchedConf.parse(*reversed(one("sched")), spooled=spooled),
        managers=tuple(parse_managers(one("manager")[1])),
        sources=sources,
    )
    check_state(state, raw, before=state if spooled else None)
    return state


def _optional_list(texts: dict[str, list[tuple[str, str]]], kind: str) -> tuple[str, ...]:
    found = texts.get(kind) or []
    return tuple(parse_managers(found[0][1])) if found else ()


def _read(path: Path) -> tuple[str, str]:
    return str(path), path.read_text()


def read_dir(path: Path) -> ConfState:
    """Load and check the configuration folder of a cell."""
    texts: dict[str, list[tuple[str, str]]] = {}
    for kind, folder in FOLDERS.items():
        sub = path / folder
        files = sorted(p for p in sub.iterdir() if p.is_file()) if sub.is_dir() else []
        texts[kind] = [_read(p) for p in files if not p.name.startswith(".")]
    for kind, name in (("complex", "complexes"), ("global", "configuration"),
                       ("sched", "sched_configuration"), ("manager", "managers")):  # fmt: skip
        file = path / name
        if not file.exists():
            raise ConfigError(str(file), 0, "file is missing")
        texts[kind] = [_read(file)]
    for kind in OPTIONAL_LISTS:
        file = path / SINGLE_NAMES[kind]
        texts[kind] = [_read(file)] if file.exists() else []
    return build_state(texts)


def read_rows(rows: list[Row]) -> ConfState:
    """Load and check a configuration from spool rows."""
    texts: dict[str, list[tuple[str, str]]] = {}
    for kind, name, text in rows:
        if kind not in ROW_KINDS:
            raise ConfigError(f"{kind}/{name}", 0, f'unknown configuration kind "{kind}"')
        texts.setdefault(kind, []).append((f"{kind}/{name}", text))
    return build_state(texts, spooled=True)


def object_text(state: ConfState, kind: str, name: str) -> str:
    """The file text of one object, as stored in the spool."""
    if kind == "complex":
        return state.complexes.render()
    if kind == "global":
        return state.global_conf.render()
    if kind == "sched":
        return state.sched_conf.render()
    if kind == "manager":
        return render_managers(list(state.managers))
    if kind in OPTIONAL_LISTS:
        return render_managers(list(getattr(state, SINGLE_NAMES[kind])))
    return objects_of(state, kind)[name].render()


def objects_of(state: ConfState, kind: str) -> dict[str, ConfObject]:
    """The named objects of ``kind``."""
    table: dict[str, dict[str, ConfObject]] = {
        "cqueue": state.cqueues,  # type: ignore[dict-item]
        "exechost": state.exechosts,  # type: ignore[dict-item]
        "hostgroup": state.hostgroups,  # type: ignore[dict-item]
        "pe": state.pes,  # type: ignore[dict-item]
        "userset": state.usersets,  # type: ignore[dict-item]
        "project": state.projects,  # type: ignore[dict-item]
        "ckpt": state.ckpts,  # type: ignore[dict-item]
        "user": state.users,  # type: ignore[dict-item]
        "calendar": state.calendars,  # type: ignore[dict-item]
        "rqs": state.rqs,  # type: ignore[dict-item]
    }
    return table[kind]


def state_rows(state: ConfState) -> list[Row]:
    """Every object as ``(kind, name, text)``."""
    rows: list[Row] = []
    for kind in ROW_KINDS:
        if kind in OBJECT_KINDS:
            rows.extend((kind, n, o.render()) for n, o in sorted(objects_of(state, kind).items()))
        else:
            rows.append((kind, SINGLE_NAMES[kind], object_text(state, kind, "")))
    return rows
