"""Where the AR commands meet the caller's world: default option files and the user name.

qrsub reads ``$SGE_ROOT/$SGE_CELL/common/sge_ar_request`` then
``$HOME/.sge_ar_request``; qrstat reads ``common/sge_qrstat`` then
``$HOME/.sge_qrstat`` (sge_request(5) format: blank lines and ``#`` in column
one are skipped). Files come first, so the command line wins.
"""

from __future__ import annotations

import os
import pwd
from collections.abc import Callable, Mapping

from clients.submit.words import request_tokens
from clients.submit.world import read_text
from qmaster.cell import Cell
from qmaster.gdi.client import FAKE_USER_ENV

AR_REQUEST_FILE = "sge_ar_request"
QRSTAT_FILE = "sge_qrstat"

Reader = Callable[[str], str | None]


def default_files(env: Mapping[str, str], name: str) -> list[str]:
    """The cell's ``common/<name>`` then ``$HOME/.<name>``, lowest precedence first."""
    files = [str(Cell.from_env(dict(env)).common / name)]
    home = env.get("HOME")
    if home:
        files.append(os.path.join(home, "." + name))
    return files


def default_tokens(env: Mapping[str, str], name: str, reader: Reader = read_text) -> list[str]:
    """The options of the default files that exist, in precedence order."""
    tokens: list[str] = []
    for path in default_files(env, name):
        text = reader(path)
        if text is not None:
            tokens.extend(request_tokens(text))
    return tokens


def current_user(env: Mapping[str, str]) -> str:
    """The name qrstat's default ``-u $user`` stands for."""
    fake = env.get(FAKE_USER_ENV)
    if fake:
        return fake
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())
