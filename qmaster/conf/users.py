"""Users (user(5)): share-tree and functional-policy entries and a default project.

minige keeps no share tree and no functional policy, so ``oticket``, ``fshare``
and ``delete_time`` are stored and shown only; ``default_project`` must name a
project and is given to the user's jobs submitted without ``-P``.
"""

from __future__ import annotations

from qmaster.conf import fields as f
from qmaster.conf.model import Attr, ConfObject, Format

USER_FORMAT = Format(
    kind="user",
    attrs=(
        Attr("name", None, f.check_name),
        Attr("oticket", "0", f.check_uint),
        Attr("fshare", "0", f.check_uint),
        Attr("delete_time", "0", f.check_uint),
        Attr("default_project", "NONE", f.check_names),
    ),
    column=16,
)


class UserConf(ConfObject):
    """A user object (``qconf -auser``)."""

    FORMAT = USER_FORMAT
