"""The shared facts of the wire format (``chatspace._wire``) hold as their docstring says."""

from __future__ import annotations

import doctest

from chatspace import _wire


def test_docstring_examples_hold() -> None:
    result = doctest.testmod(_wire)
    assert result.attempted >= 3
    assert result.failed == 0
