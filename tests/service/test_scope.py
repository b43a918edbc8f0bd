"""Retrieval checks a completion's filter parts against the workspace without knowing the
request's shape: a file the workspace does not hold is named by the part's index and the
id's position (:class:`~chatspace.service.problems.UnknownFile`), and the operation that
read the request answers the 422 at that part's place (its wire answer:
``test_chat_bad_input.py``, ``test_file_search.py``)."""

from __future__ import annotations

import pytest

from chatspace.service.problems import UnknownFile
from chatspace.service.retrieval.scope import scope_of
from chatspace.service.store.db import open_database
from chatspace.types import ChatMessage, FilterContentPart, TextContentPart, filter_parts


def test_an_unknown_file_is_named_by_part_and_position_not_by_request_path(
    database_url: str,
) -> None:
    parts = [FilterContentPart(top_k=3), FilterContentPart(file_ids=["file-nope"])]
    engine = open_database(database_url)
    try:
        with engine.connect() as conn, pytest.raises(UnknownFile) as raised:
            scope_of(conn, org_id="org-1", workspace_id="default", parts=parts)
    finally:
        engine.dispose()
    fault = raised.value
    assert (fault.part, fault.position, fault.file_id) == (1, 0, "file-nope")
    assert fault.detail == "file 'file-nope' is not a file of workspace 'default'"
    assert fault.at(["body", "messages", 2, "content", 1]).items == [
        {
            "loc": ["body", "messages", 2, "content", 1, "file_ids", 0],
            "msg": "file 'file-nope' is not a file of workspace 'default'",
            "type": "value_error",
        }
    ]


def test_filter_parts_are_listed_with_their_message_and_content_index() -> None:
    first, second = FilterContentPart(top_k=2), FilterContentPart(file_ids=["f"])
    messages = [
        ChatMessage(role="system", content="be brief"),
        ChatMessage(role="user", content=[TextContentPart(text="hi"), first]),
        ChatMessage.model_validate(
            {
                "role": "assistant",
                "content": None,
                "function_call": {"name": "f", "arguments": "{}"},
            }
        ),
        ChatMessage(role="user", content=[second]),
    ]
    assert filter_parts(messages) == [(1, 1, first), (3, 0, second)]
