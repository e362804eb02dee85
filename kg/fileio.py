"""Atomic output: every file kg writes appears whole or not at all.

Writers write to a hidden temp file beside the target and ``os.replace`` it into place, so a
crash, a full disk or an interrupt never leaves a half-written output or harms the old one.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from kg.errors import ConfigError, OutputError


@contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "w") -> Iterator[IO[Any]]:
    """Open a temp file for writing; on success rename it to ``path``, on failure remove it.

    Raises:
        OutputError: the directory cannot be created or the file cannot be written.
    """
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{target.parent}: cannot create directory: {exc.strerror or exc}") from None
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        kwargs: dict[str, Any] = {} if "b" in mode else {"encoding": "utf-8", "newline": "\n"}
        with open(tmp, mode, **kwargs) as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
    finally:
        if tmp.exists():
            tmp.unlink()


def write_jsonl_atomic(path: str | os.PathLike[str], rows: Iterable[dict[str, Any]]) -> int:
    """Write ``rows`` as JSON Lines, atomically; return how many were written."""
    count = 0
    with atomic_write(path) as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False))
            out.write("\n")
            count += 1
    return count


def write_json_atomic(path: str | os.PathLike[str], obj: Any) -> None:
    """Write one JSON document (sorted keys, indented), atomically."""
    with atomic_write(path) as out:
        json.dump(obj, out, ensure_ascii=False, indent=2, sort_keys=True)
        out.write("\n")


def read_model(model_dir: Path, arrays: Iterable[str], rebuild: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A shipped model directory: its ``meta.json`` and the named arrays of its ``weights.npz``.

    Raises:
        ConfigError: a file is missing or unreadable, or an array is absent (one line naming the
            directory and how to ``rebuild`` the model).
    """
    import numpy as np

    try:
        meta = json.loads((model_dir / "meta.json").read_text(encoding="utf-8"))
        with np.load(model_dir / "weights.npz", allow_pickle=False) as npz:
            weights = {name: np.asarray(npz[name]) for name in arrays}
    except (OSError, ValueError, KeyError) as exc:
        raise ConfigError(
            f"{model_dir}: the model is missing or unreadable ({exc}); rebuild it with `{rebuild}`"
        ) from None
    if not isinstance(meta, dict):
        raise ConfigError(f"{model_dir}: meta.json is not a JSON object; rebuild it with `{rebuild}`")
    return meta, weights
