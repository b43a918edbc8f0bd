"""Schemathesis hooks of ``test_schema.py``: values for the formats chatspace documents."""

from __future__ import annotations

import json

import schemathesis
from hypothesis import strategies as st

from chatspace.types.files import FILE_METADATA_MAX_KEY_LENGTH

_KEYS = st.text(min_size=1, max_size=FILE_METADATA_MAX_KEY_LENGTH)
_SCALARS = st.none() | st.booleans() | st.integers() | st.text()
schemathesis.openapi.format(
    "json-object", st.dictionaries(_KEYS, _SCALARS, max_size=4).map(json.dumps)
)
