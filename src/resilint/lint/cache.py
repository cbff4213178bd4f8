"""The result cache: findings and the project summary per file, keyed by the file's path and bytes, resilint's version
and the effective configuration, so a warm run reads and hashes files but parses none.

Stored as JSON (never pickle: a cache directory may come with an untrusted checkout) in
``.resilint_cache/`` beside the configuration, written atomically at the end of a run.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import asdict
from typing import Dict, List, Optional, Sequence, Tuple

from resilint import __version__
from resilint.lint.config import Settings
from resilint.lint.finding import Edit, Finding, Fix, Related
from resilint.lint.summary import ModuleSummary

CACHE_DIRECTORY = ".resilint_cache"
_MAX_ENTRIES = 200_000


def _code_fingerprint() -> List[object]:
    """Sizes and times of resilint's own modules: a changed rule invalidates the cache even
    before the version number moves (development installs)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    stamps: List[object] = []
    for directory, _, names in sorted(os.walk(package)):
        for name in sorted(names):
            if name.endswith(".py"):
                info = os.stat(os.path.join(directory, name))
                stamps.append([os.path.relpath(os.path.join(directory, name), package), info.st_size, info.st_mtime_ns])
    return stamps


def _settings_digest(settings: Settings, codes: Sequence[str]) -> str:
    relevant = asdict(settings)
    relevant.pop("config_path", None)
    text = json.dumps([__version__, _code_fingerprint(), sorted(codes), relevant], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def file_key(path: str, data: bytes) -> str:
    digest = hashlib.sha256(path.encode("utf-8", "surrogatepass"))
    digest.update(b"\0")
    digest.update(data)
    return digest.hexdigest()


def _finding_to_cache(finding: Finding) -> dict:
    data = finding.to_json()
    data["line_text"] = finding.line_text
    return data


def _finding_from_cache(data: dict) -> Finding:
    fix = data.get("fix")
    return Finding(
        code=data["code"], name=data["name"], message=data["message"], path=data["path"],
        line=data["line"], column=data["column"], end_line=data["end_line"],
        end_column=data["end_column"], severity=data["severity"],
        fix=None if fix is None else Fix(
            fix["applicability"], fix["description"], tuple(Edit(**e) for e in fix["edits"])
        ),
        related=tuple(Related(**r) for r in data["related"]),
        line_text=data["line_text"],
    )


class ResultCache:
    def __init__(self, settings: Settings, codes: Sequence[str], directory: Optional[str] = None) -> None:
        self.directory = directory or os.path.join(settings.root, CACHE_DIRECTORY)
        self.path = os.path.join(self.directory, __version__, f"{_settings_digest(settings, codes)}.json")
        self._entries: Dict[str, list] = {}
        self._fresh: Dict[str, list] = {}
        try:
            with open(self.path, encoding="utf-8") as handle:
                loaded = json.load(handle)
            if isinstance(loaded, dict):
                self._entries = loaded
        except (OSError, ValueError):
            pass  # no cache yet, or an unreadable one: start empty

    def get(self, key: str) -> Optional[Tuple[List[Finding], Optional[ModuleSummary]]]:
        """The findings and project summary stored for ``key``, or None (absent or damaged)."""
        stored = self._fresh.get(key) or self._entries.get(key)
        if not isinstance(stored, dict):
            return None
        try:
            findings = [_finding_from_cache(item) for item in stored["findings"]]
            summary = stored["summary"]
            if summary is not None:
                summary = ModuleSummary.from_json(summary)
                if summary is None:
                    return None
        except (AttributeError, KeyError, TypeError, ValueError):
            return None
        self._fresh[key] = stored
        return findings, summary

    def put(self, key: str, findings: List[Finding], summary: Optional[ModuleSummary] = None) -> None:
        self._fresh[key] = {
            "findings": [_finding_to_cache(f) for f in findings],
            "summary": summary.to_json() if summary is not None else None,
        }

    def save(self) -> None:
        merged = dict(self._entries)
        merged.update(self._fresh)
        if len(merged) > _MAX_ENTRIES:
            merged = dict(self._fresh)
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            ignore = os.path.join(self.directory, ".gitignore")
            if not os.path.exists(ignore):
                with open(ignore, "w", encoding="utf-8") as handle:
                    handle.write("# Automatically created by resilint.\n*\n")
            descriptor, temporary = tempfile.mkstemp(dir=os.path.dirname(self.path), suffix=".tmp")
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                json.dump(merged, handle, separators=(",", ":"))
            os.replace(temporary, self.path)
        except OSError:
            pass  # a read-only checkout still gets its findings; only the cache is lost
