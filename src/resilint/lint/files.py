"""Writing files back safely: the one place that rewrites a source file (``--add-noqa`` now,
``resilint fix`` later) and writes resilint's own files (baselines).

Every write goes to a temporary file in the same directory, which is flushed to disk and then
renamed over the original (``os.replace``), so a crash or a full disk never leaves half a file.
A rename makes a new file, so what belonged to the old one is carried over or the write is
refused: a symlink is followed and its target rewritten (the link stays a link), unless the
target lies outside the project root (``within``); a file with
several hard links is refused, since the rename would leave the other names on the old text;
a read-only file is refused, as an editor would; mode, owner, group and extended attributes
(POSIX ACLs among them) are kept, and when one of them cannot be kept (another user's file)
the write is refused. Ctrl-C and SIGTERM wait until the rename is done.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from typing import Callable, Optional

from resilint.lint.signals import deferred_signals
from resilint.lint.source import SourceError, read_bytes


# listxattr's errors on a filesystem (or platform) without extended attributes.
_NO_XATTRS = {getattr(errno, name) for name in ("ENOTSUP", "EOPNOTSUPP", "ENOSYS") if hasattr(errno, name)}


class NotWritten(Exception):
    """The file was left as it was; ``reason`` says why, for a message that names the file."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ChangedOnDisk(NotWritten):
    """The file is no longer what was analysed: someone else wrote it meanwhile."""

    def __init__(self) -> None:
        super().__init__("changed on disk since it was checked")


def replace_file(path: str, original: bytes, updated: bytes, within: Optional[str] = None) -> None:
    """Rewrite the source file ``path`` with ``updated`` if it still holds ``original``, the
    bytes the edit was computed from; raise ``NotWritten`` (the file untouched) otherwise.

    ``within``: a directory (the project root) that a path going through a symbolic link must
    stay in: ``resilint fix .`` never rewrites, through a link, a file outside the tree it was
    asked to fix (black skips such links too)."""
    target = os.path.realpath(path)
    if within is not None and target != os.path.abspath(path) and not _inside(target, os.path.realpath(within)):
        raise NotWritten(
            f"is reached through a symbolic link and lies outside the project root ({target}); "
            "not written through the link"
        )
    try:
        info = os.stat(target)
    except OSError as exc:
        raise NotWritten(f"cannot be read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise NotWritten("not a regular file")
    if info.st_nlink > 1:
        raise NotWritten(
            f"has {info.st_nlink} hard links, which a rewrite would break (the other names would "
            "keep the old text); break the links first, or edit it by hand"
        )
    if not _writable(target, info):
        raise NotWritten("is read-only")

    def still_original() -> None:
        try:
            current = read_bytes(target)
        except SourceError as exc:
            raise NotWritten(f"cannot be read again: {exc.reason}") from None
        if current != original:
            raise ChangedOnDisk()

    _write_replacing(target, updated, info, still_original)


def _inside(path: str, directory: str) -> bool:
    try:
        return os.path.commonpath([path, directory]) == directory
    except ValueError:  # another drive
        return False


def write_file(path: str, data: bytes) -> None:
    """Create or replace one of resilint's own files (a baseline) atomically, following a
    symlink, keeping an existing file's mode, owner and group."""
    target = os.path.realpath(path)
    try:
        info: Optional[os.stat_result] = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise NotWritten(exc.strerror or str(exc)) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise NotWritten("not a regular file")
    _write_replacing(target, data, info, lambda: None)


def _writable(path: str, info: os.stat_result) -> bool:
    if _is_root():
        return bool(info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))  # root may write anything
    return os.access(path, os.W_OK)


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _write_replacing(
    target: str, data: bytes, info: Optional[os.stat_result], before_replace: Callable[[], None]
) -> None:
    """Write ``data`` next to ``target`` and rename it over ``target``; ``before_replace`` runs
    last, once the new file is complete, to keep the window for a concurrent edit small.

    Ctrl-C and SIGTERM are held back from the creation of the temporary file to the rename
    (``deferred_signals``): a signal arriving between ``mkstemp`` and the ``try`` that removes
    the temporary file on failure left an empty ``.resilint-*.tmp`` behind. Whatever fails on
    the way, the temporary file is removed and ``target`` keeps its old content."""
    directory = os.path.dirname(target)
    with deferred_signals():
        try:
            descriptor, temporary = tempfile.mkstemp(dir=directory, prefix=".resilint-", suffix=".tmp")
        except OSError as exc:
            raise NotWritten(f"cannot create a temporary file in {directory}: {exc.strerror or exc}") from None
        try:
            try:
                handle = os.fdopen(descriptor, "wb")
            except BaseException:
                os.close(descriptor)
                raise
            with handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            if info is None:
                os.chmod(temporary, _new_file_mode())  # mkstemp's 0600 is for the temporary only
            else:
                _keep_owner(temporary, info)
                os.chmod(temporary, stat.S_IMODE(info.st_mode))  # after chown, which clears set-id bits
                _keep_attributes(target, temporary)
            before_replace()
            os.replace(temporary, target)
        except BaseException as exc:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            if isinstance(exc, OSError):
                raise NotWritten(f"cannot be written: {exc.strerror or exc}") from None
            raise


def _keep_attributes(original: str, temporary: str) -> None:
    """Carry the original's extended attributes over to the rewritten file, POSIX ACLs
    (``system.posix_acl_access``) among them: without its ACL, a file whose owning group had
    no access would grant that group what the ACL mask (shown as the group bits) allows.
    An attribute that cannot be carried over refuses the write, as an owner that cannot be
    kept does; a filesystem without extended attributes has none to keep."""
    if not hasattr(os, "listxattr"):
        return  # not on Linux: no extended attributes through os
    try:
        names = os.listxattr(original)
    except OSError as exc:
        if exc.errno in _NO_XATTRS:
            return
        raise NotWritten(f"its extended attributes cannot be read: {exc.strerror or exc}") from None
    for name in names:
        try:
            value = os.getxattr(original, name)
            if _xattr_or_none(temporary, name) != value:  # an SELinux label is usually the same
                os.setxattr(temporary, name, value)
        except OSError as exc:
            raise NotWritten(
                f"its extended attribute {name} cannot be kept on the rewritten file ({exc.strerror or exc})"
            ) from None


def _xattr_or_none(path: str, name: str) -> Optional[bytes]:
    try:
        return os.getxattr(path, name)
    except OSError:
        return None


def _keep_owner(temporary: str, info: os.stat_result) -> None:
    if not hasattr(os, "chown"):
        return  # not on POSIX: no owner to keep
    created = os.stat(temporary)
    if (created.st_uid, created.st_gid) == (info.st_uid, info.st_gid):
        return
    try:
        os.chown(temporary, info.st_uid, info.st_gid)
    except PermissionError:
        raise NotWritten(
            f"is owned by uid {info.st_uid}, gid {info.st_gid}, which this user cannot give "
            "the rewritten file"
        ) from None
