"""Whether a value is a pandas DataFrame or Series, without importing pandas.

A leaf of the package root (standard library only): the client uploads a DataFrame and
the notebook interpolates one, and neither may pull pandas in just to ask. The client
and the notebook are separate wings, so this lives beside ``_version.py``, in neither.
"""

from __future__ import annotations

__all__ = ["is_dataframe", "is_series"]


def is_dataframe(value: object) -> bool:
    """Whether ``value`` is a pandas DataFrame, checked by name so pandas is not imported."""
    cls = type(value)
    return cls.__name__ == "DataFrame" and cls.__module__.startswith("pandas")


def is_series(value: object) -> bool:
    """Whether ``value`` is a pandas Series, checked by name so pandas is not imported."""
    cls = type(value)
    return cls.__name__ == "Series" and cls.__module__.startswith("pandas")
