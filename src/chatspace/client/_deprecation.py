"""Old spellings of the client's methods and arguments, kept for one release."""

from __future__ import annotations

import warnings

__all__ = ["renamed"]


def renamed(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn that ``old`` is now spelled ``new`` (``docs/vocabulary.md``).

    ``stacklevel`` 3 points at the caller of the method that calls this.
    """
    warnings.warn(
        f"{old} is deprecated and goes in the next release; use {new} (see docs/vocabulary.md)",
        DeprecationWarning,
        stacklevel=stacklevel,
    )
