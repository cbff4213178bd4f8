"""Writing source files back safely: atomically, keeping mode, and never over a newer version."""

from __future__ import annotations

import os
import stat
import tempfile


class ChangedOnDisk(Exception):
    """The file is no longer what was read: someone else wrote it meanwhile."""


def replace_file(path: str, original: bytes, updated: bytes) -> None:
    """Write ``updated`` to ``path`` if it still holds ``original``; temp file + ``os.replace``."""
    with open(path, "rb") as handle:
        if handle.read() != original:
            raise ChangedOnDisk(path)
    mode = stat.S_IMODE(os.stat(path).st_mode)
    directory = os.path.dirname(os.path.abspath(path))
    descriptor, temporary = tempfile.mkstemp(dir=directory, prefix=".resilint-", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(updated)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
