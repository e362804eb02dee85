"""The extraction journal: what a build has extracted so far, kept across an interrupt.

Extraction is the one expensive stage, so a build appends every record it extracts to
``DIR.journal.jsonl`` (beside the build directory, like its lock) as it goes. When a build is
interrupted (Ctrl-C, a crash, a full disk) the directory itself is untouched, and the next
build of the same directory with the same extractor versions reuses the journal's records
instead of extracting them again. A build that completes removes its journal.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import orjson

from kg.errors import OutputError
from kg.types import Extraction


def journal_path(directory: str | Path) -> Path:
    return Path(str(Path(directory)) + ".journal.jsonl")


class Journal:
    """Append-only record of extractions for one build directory and one set of versions."""

    def __init__(self, directory: str | Path, versions: dict[str, str]) -> None:
        self.path = journal_path(directory)
        self.versions = dict(sorted(versions.items()))
        self._fh: IO[bytes] | None = None

    def load(self, key: Callable[[Extraction], str]) -> dict[str, Extraction]:
        """Records left by an interrupted build with the same versions, keyed by ``key``.

        A journal of other versions is stale and ignored; a torn last line (the interrupt hit
        mid-write) is dropped.
        """
        out: dict[str, Extraction] = {}
        try:
            with open(self.path, encoding="utf-8") as fh:
                header = json.loads(fh.readline() or "{}")
                if header.get("versions") != self.versions:
                    return {}
                for line in fh:
                    try:
                        record = Extraction.from_json(json.loads(line))
                    except (ValueError, KeyError, TypeError):
                        break
                    out[key(record)] = record
        except (OSError, ValueError):
            return {}
        return out

    def append(self, extraction: Extraction) -> None:
        """Add one record; the file starts with its versions header.

        Raises:
            OutputError: the journal cannot be written (disk full, file size limit).
        """
        try:
            self._append(extraction)
        except OSError as exc:
            raise OutputError(f"{self.path}: cannot write the extraction journal: "
                              f"{exc.strerror or exc}") from None

    def _append(self, extraction: Extraction) -> None:
        if self._fh is None:
            fresh = not self.path.exists() or self.load(lambda e: e.paper.id) == {}
            torn = not fresh and not self.path.read_bytes().endswith(b"\n")
            self._fh = open(self.path, "wb" if fresh else "ab")  # noqa: SIM115
            if fresh:
                self._fh.write(orjson.dumps({"versions": self.versions}) + b"\n")
            elif torn:
                self._fh.write(b"\n")  # end the line an interrupt cut, so it stays one bad line
        # The parent writes every record while the workers parse: orjson (0.05 ms a record
        # with to_json, against 0.09 for the stdlib encoder).
        self._fh.write(orjson.dumps(extraction.to_json()) + b"\n")

    def flush(self) -> None:
        if self._fh is not None:
            try:
                self._fh.flush()
                os.fsync(self._fh.fileno())
            except OSError:
                pass  # what reached the disk is what a re-run can reuse

    def close(self) -> None:
        if self._fh is not None:
            try:
                self._fh.close()
            except OSError:
                pass
            self._fh = None

    def discard(self) -> None:
        """The build completed: its records are in the directory now."""
        self.close()
        self.path.unlink(missing_ok=True)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
