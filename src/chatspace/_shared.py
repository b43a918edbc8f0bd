"""Facts and small helpers that more than one part of chatspace needs, each stated once.

A leaf module: it imports only the standard library, so the client, the service, the
notebook layer, the tests and the benchmarks can all use it without pulling in each other.

>>> DEFAULT_MODEL
'service-l0'
>>> len(TOKEN_PATTERN.findall("Hello, world!"))
4
"""

from __future__ import annotations

import argparse
import os
import re

__all__ = [
    "DEFAULT_MODEL",
    "TOKEN_PATTERN",
    "is_dataframe",
    "is_series",
    "positive_int",
    "process_alive",
]

DEFAULT_MODEL = "service-l0"
"""The reference service's local model: the default of every call that names none."""

TOKEN_PATTERN = re.compile(r"\w{1,8}|[^\w\s]")
"""One token: a run of 1 to 8 word characters, or one character that is neither a word
character nor whitespace (docs/interface.md#token-counts). The service counts with it;
the notebook uses it to estimate what a conversation costs."""


def is_dataframe(value: object) -> bool:
    """Whether ``value`` is a pandas DataFrame, checked by name so pandas is not imported."""
    cls = type(value)
    return cls.__name__ == "DataFrame" and cls.__module__.startswith("pandas")


def is_series(value: object) -> bool:
    """Whether ``value`` is a pandas Series, checked by name so pandas is not imported."""
    cls = type(value)
    return cls.__name__ == "Series" and cls.__module__.startswith("pandas")


def positive_int(text: str) -> int:
    """An ``argparse`` type: an integer of at least 1.

    >>> positive_int("3")
    3
    """
    try:
        value = int(text)
    except ValueError:
        flat = " ".join(str(text).split())
        shown = repr(flat if len(flat) <= 60 else flat[:59] + "…")
        raise argparse.ArgumentTypeError(f"{shown} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not at least 1")
    return value


def process_alive(pid: int) -> bool:
    """Whether a process of that id exists (one of another user counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True
