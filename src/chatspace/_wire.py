"""Facts of the wire format that load without pydantic: the default model, the token rule,
the sentence rule and how a table's row is shown.

They belong with the wire models of ``chatspace.types``, but any module there imports the
package's pydantic models first, and ``%load_ext chatspace`` must not import pydantic
(tests/notebook/test_magics_load.py): the magics' default model comes from here. So they
are a leaf of the package root (standard library only), beside ``_version.py``, that the
wire models, the client, the service and the notebook all import.

>>> DEFAULT_MODEL
'service-l0'
>>> len(TOKEN_PATTERN.findall("Hello, world!"))
4
>>> labelled_row(["Site", "O2 (mg/L)", "Nitrate"], ["Alder Bridge", "", "1.89"])
'Site: Alder Bridge, O2 (mg/L): (empty), Nitrate: 1.89'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["DEFAULT_MODEL", "EMPTY_CELL", "SENTENCE_PATTERN", "TOKEN_PATTERN", "labelled_row"]

DEFAULT_MODEL = "service-l0"
"""The reference service's local model: the default ``model`` of every call that names none."""

TOKEN_PATTERN = re.compile(r"\w{1,8}|[^\w\s]")
"""One token of ``usage``: a run of 1 to 8 word characters, or one character that is
neither a word character nor whitespace (docs/interface.md#token-counts). The service
counts with it; the notebook uses it to estimate what a conversation costs."""

SENTENCE_PATTERN = re.compile(
    r"(?:[^\n.!?]|[.!?](?=\S)|(?i:(?<=\bi\.e)|(?<=\be\.g)|(?<=\bvs)|(?<=\bcf))\.)+"
    r"(?:[.!?]+[\"')\]]*)?"
)
"""One sentence (blanks around it included): it ends at ``.``, ``!`` or ``?`` before
whitespace, with the quotes or brackets that close it, so "2.5" and "notes.md" do not end
one, nor "i.e.", "e.g.", "vs." and "cf.", which always go on; or at a line end, so a table
row or a line of code is one. The service quotes and attributes an answer's sentences by
it; the notebook marks by it the sentences the service attributed nothing to."""


EMPTY_CELL = "(empty)"
"""How a row shows a cell with nothing in it: "O2: ," reads as a glitch of the answer."""


def labelled_row(names: Sequence[str], cells: Sequence[str]) -> str:
    """A table's row with its column names, as ``service-l0``'s answers show it and the
    notebook shows a quoted row: ``Region: South, Revenue (EUR): 58300``."""
    return ", ".join(
        f"{name}: {cell if cell.strip() else EMPTY_CELL}"
        for name, cell in zip(names, cells, strict=True)
    )
