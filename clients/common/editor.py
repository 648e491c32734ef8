"""Editing an object's text in the user's editor, as qconf's -a*/-m* switches do.

The text goes to a temporary file, ``$EDITOR`` (``vi`` when unset) runs on it,
and the edited text is read back. An editor that fails leaves nothing to send.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile

from clients.common.errors import ClientError


def edit_text(text: str, environ: dict[str, str] | None = None) -> str:
    """The text after the user has edited it; ``ClientError`` when the editor fails."""
    env = dict(os.environ if environ is None else environ)
    editor = shlex.split(env.get("EDITOR") or "vi")
    fd, path = tempfile.mkstemp(prefix="qconf", suffix=".txt")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        status = subprocess.call([*editor, path], env=env)
        if status != 0:
            raise ClientError(f"error: the editor exited with status {status}")
        with open(path, encoding="utf-8", errors="surrogateescape") as handle:
            return handle.read()
    except OSError as exc:
        raise ClientError(f"error: cannot run the editor: {exc.strerror}") from None
    finally:
        os.unlink(path)
