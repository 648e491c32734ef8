"""Projects (project(5)) and checkpointing environments (checkpoint(5)).

A job names a project with ``qsub -P`` and a checkpointing environment with
``qsub -ckpt`` (an advance reservation with ``qrsub -ckpt``); both must exist.
Queues and hosts admit or exclude projects with ``projects``/``xprojects``;
a queue lists the checkpointing environments it offers in ``ckpt_list``.
minige runs no processes, so a checkpointing environment's commands, signal
and ``when`` are stored and shown but never carried out.
"""

from __future__ import annotations

from qmaster.conf import fields as f
from qmaster.conf.model import Attr, ConfObject, Format
from qmaster.conf.names import check_key

PROJECT_FORMAT = Format(
    kind="project",
    attrs=(
        Attr("name", None, f.check_name),
        Attr("oticket", "0", f.check_uint),
        Attr("fshare", "0", f.check_uint),
        Attr("acl", "NONE", f.check_names),
        Attr("xacl", "NONE", f.check_names),
    ),
    column=8,
    spaced=frozenset({"acl", "xacl"}),
)


class ProjectConf(ConfObject):
    """A project; ``acl``/``xacl`` name the usersets allowed or denied to submit into it."""

    FORMAT = PROJECT_FORMAT


INTERFACES = ("USERDEFINED", "HIBERNATOR", "TRANSPARENT", "APPLICATION-LEVEL", "CPR", "CRAY-CKPT")


def _check_interface(text: str) -> None:
    if text.upper() not in INTERFACES:
        raise ValueError(f'no valid checkpoint interface "{text}"')


def _check_when(text: str) -> None:
    if not text or any(c not in "smxnr" for c in text):
        raise ValueError(f'"{text}" is not a combination of the letters s, m, x, n and r')


CKPT_FORMAT = Format(
    kind="ckpt",
    attrs=(
        Attr("ckpt_name", None, check_key("ckpt")),
        Attr("interface", "userdefined", _check_interface),
        Attr("ckpt_command", "none", f.check_any),
        Attr("migr_command", "none", f.check_any),
        Attr("restart_command", "none", f.check_any),
        Attr("clean_command", "none", f.check_any),
        Attr("ckpt_dir", "/tmp", f.check_any),
        Attr("signal", "none", f.check_any),
        Attr("when", "sx", _check_when),
    ),
    column=19,
)


class CkptConf(ConfObject):
    """A checkpointing environment (stored and shown; minige cannot checkpoint)."""

    FORMAT = CKPT_FORMAT
