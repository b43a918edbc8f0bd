"""Progress of large transfers, and downloads that land on disk only when complete.

``progress`` of an upload or download is ``None`` (a bar for transfers of at least
:data:`PROGRESS_THRESHOLD` bytes), ``True`` (always a bar), ``False`` (never), or a
callable ``progress(done_bytes, total_bytes_or_None)``, which panels use to draw their own.
The bar is ``tqdm.auto``'s: a widget in a notebook, text in a terminal.
"""

from __future__ import annotations

import os
import re
import tempfile
import urllib.parse
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx

from chatspace.errors import APIConnectionError

from ._call import Call

__all__ = ["PROGRESS_THRESHOLD", "Download", "Progress", "ProgressSetting"]

PROGRESS_THRESHOLD = 8 * 1024 * 1024
"""Transfers at least this large show a bar unless ``progress=False``."""

ProgressSetting = bool | None | Callable[[int, int | None], Any]

_FILENAME_STAR = re.compile(r"filename\*\s*=\s*([^']*)'[^']*'([^;]+)", re.IGNORECASE)
_FILENAME = re.compile(r'filename\s*=\s*"?([^";]+)"?', re.IGNORECASE)


class Progress:
    """Counts bytes (or, with ``unit="file"``, files) for a bar or a callback; does
    nothing when neither is wanted. ``threshold``: the total from which ``None`` is a bar."""

    __slots__ = ("_bar", "_callback", "_desc", "_unit", "_want_bar", "done", "total")

    def __init__(
        self,
        setting: ProgressSetting,
        total: int | None,
        desc: str,
        *,
        unit: str = "B",
        threshold: int = PROGRESS_THRESHOLD,
    ) -> None:
        self.total = total
        self.done = 0
        self._desc = desc
        self._unit = unit
        self._bar: Any = None
        self._callback = setting if callable(setting) else None
        wants = setting is True or (setting is None and total is not None and total >= threshold)
        self._want_bar = bool(wants) and self._callback is None

    def update(self, n: int) -> None:
        if not n:
            return
        self.done += n
        if self._callback is not None:
            self._callback(self.done, self.total)
        elif self._want_bar:
            if self._bar is None:
                from tqdm.auto import tqdm

                in_bytes = self._unit == "B"
                self._bar = tqdm(
                    total=self.total,
                    desc=self._desc,
                    unit=self._unit,
                    unit_scale=in_bytes,
                    unit_divisor=1024 if in_bytes else 1000,
                )
            self._bar.update(n)

    def reset(self) -> None:
        """Start counting again (before a retry)."""
        self.done = 0
        if self._bar is not None:
            self._bar.reset(total=self.total)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def filename_from(response: httpx.Response) -> str | None:
    """The file name of a ``Content-Disposition`` header, reduced to its last component."""
    header = response.headers.get("content-disposition", "")
    match = _FILENAME_STAR.search(header)
    if match:
        name = urllib.parse.unquote(match.group(2).strip(), encoding=match.group(1) or "utf-8")
    else:
        plain = _FILENAME.search(header)
        name = plain.group(1) if plain else ""
    name = name.replace("\\", "/").rsplit("/", 1)[-1].strip()
    return name if name not in ("", ".", "..") else None


class Download:
    """Writes a body to a temporary file next to the target; renames it when complete.

    An interrupted body is resumed where it stopped (``Range: bytes=N-``, answered with
    206), up to the client's ``max_retries`` times; a download that fails for good leaves
    no partial file behind. ``target`` may be a directory: the file then takes the name
    the service gives it.
    """

    def __init__(self, target: str | os.PathLike[str], progress: ProgressSetting, name: str):
        self._target = Path(target).expanduser()
        self._setting = progress
        self._name = name
        self._file: Any = None
        self._tmp = Path()
        self._final = Path()
        self._progress = Progress(False, None, name)
        self._expected: int | None = None
        self._resumes = 0

    @property
    def written(self) -> int:
        return self._progress.done

    def start(self, response: httpx.Response) -> None:
        """Begin (or, after :meth:`resume`, continue) with an answer's body."""
        if self._file is not None:
            if response.status_code == 206 and _range_start(response) == self.written:
                return  # the rest follows
            self._file.seek(0)  # the service sent everything again
            self._file.truncate()
            self._progress.reset()
            return
        final = self._target
        if final.is_dir():
            final = final / (filename_from(response) or self._name)
        final.parent.mkdir(parents=True, exist_ok=True)
        length = response.headers.get("content-length")
        self._expected = int(length) if length and length.isdigit() else None
        fd, tmp = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".part", dir=final.parent)
        self._file = os.fdopen(fd, "wb")
        self._tmp, self._final = Path(tmp), final
        self._progress = Progress(self._setting, self._expected, final.name)

    def write(self, chunk: bytes) -> None:
        self._file.write(chunk)
        self._progress.update(len(chunk))

    def resume(self, call: Call[Any], max_resumes: int) -> Call[Any] | None:
        """The request for the rest of an interrupted body, or None to give up."""
        if self._file is None or self._expected is None or self._resumes >= max_resumes:
            return None
        self._resumes += 1
        return replace(call, headers={**(call.headers or {}), "Range": f"bytes={self.written}-"})

    def commit(self) -> Path:
        self._file.close()
        self._progress.close()
        if self._expected is not None and self.written != self._expected:
            self._tmp.unlink(missing_ok=True)
            raise APIConnectionError(
                f"The download of {self._final.name} ended after {self.written} of "
                f"{self._expected} bytes; try again."
            )
        os.replace(self._tmp, self._final)
        return self._final

    def abort(self) -> None:
        if self._file is not None:
            self._file.close()
            self._tmp.unlink(missing_ok=True)
        self._progress.close()


def _range_start(response: httpx.Response) -> int | None:
    """Where a 206 answer's ``Content-Range: bytes a-b/total`` starts."""
    match = re.match(r"bytes\s+(\d+)-", response.headers.get("content-range", ""))
    return int(match.group(1)) if match else None
