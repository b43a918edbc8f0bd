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
_VALUES = st.booleans() | st.integers() | st.text()
_COMPARISONS = st.builds(
    lambda kind, key, value: {"type": kind, "key": key, "value": value},
    st.sampled_from(["eq", "ne"]),
    _KEYS,
    _VALUES,
) | st.builds(
    lambda kind, key, values: {"type": kind, "key": key, "value": values},
    st.sampled_from(["in", "nin"]),
    _KEYS,
    st.lists(_VALUES, min_size=1, max_size=3),
)
schemathesis.openapi.format(
    "metadata-filter",
    (
        st.dictionaries(_KEYS.filter(lambda k: k != "type"), _VALUES, max_size=4)
        | _COMPARISONS
        | st.builds(
            lambda kind, items: {"type": kind, "filters": items},
            st.sampled_from(["and", "or"]),
            st.lists(_COMPARISONS, min_size=1, max_size=3),
        )
    ).map(json.dumps),
)
