"""``service-l0``'s structured output: ``json_object`` and ``json_schema`` answers, valid
against the schema (checked with ``jsonschema``), and the 400 for a schema it cannot fill."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import jsonschema
import pytest

from support.chat import assemble, client_for, stream, upload
from support.service import Service

NOTES = "Mount Everest is the highest mountain above sea level. It is in the Himalayas."
QUESTION = "What is the highest mountain?"
QUOTE = "Mount Everest is the highest mountain above sea level."
SOURCE = {
    "type": "object",
    "properties": {
        "file_id": {"type": "string"},
        "filename": {"type": "string"},
        "quote": {"type": "string"},
        "n": {"type": "integer"},
    },
    "required": ["file_id", "filename", "quote", "n"],
    "additionalProperties": False,
}
SCHEMA = {
    "type": "object",
    "properties": {
        "summary": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "response": {"type": "string"},
        "confidence": {"type": "number", "minimum": 0.5},
        "found": {"type": "boolean"},
        "kind": {"enum": ["fact", "opinion"]},
        "citations": {"type": "array", "items": {"$ref": "#/$defs/Source"}},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["response", "citations", "found"],
    "additionalProperties": False,
    "$defs": {"Source": SOURCE},
}


@pytest.fixture
def client(service: Service, org: str) -> Iterator[httpx.Client]:
    with client_for(service, org) as c:
        yield c


def _ask(client: httpx.Client, schema: Any, **more: Any) -> httpx.Response:
    response_format = {"type": "json_schema", "json_schema": {"name": "out", "schema": schema}}
    body = {"messages": [{"content": QUESTION}], "response_format": response_format, **more}
    return client.post("/chat/completions", json=body)


def test_a_schema_is_filled_with_the_answer_and_its_citations(client: httpx.Client) -> None:
    (file,) = upload(client, [("notes.txt", NOTES)])
    answer = _ask(client, SCHEMA, store=True).json()
    message = answer["choices"][0]["message"]
    data = json.loads(message["content"])
    jsonschema.validate(data, SCHEMA)
    assert data["response"].startswith("Here is what I found in your files:")
    assert QUOTE in data["response"]
    assert data["summary"] == "", "only the answer-like string gets the answer"
    assert (data["confidence"], data["found"], data["kind"], data["tags"]) == (
        0.5,
        True,
        "fact",
        [],
    )
    assert data["citations"] == [
        {"file_id": file["id"], "filename": "notes.txt", "quote": NOTES, "n": 1}
    ]
    assert message["annotations"] == [], "the JSON carries the citations"
    _, events = stream(
        client,
        {
            "messages": [{"content": QUESTION}],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "out", "schema": SCHEMA},
            },
        },
    )
    assert assemble(events)["choices"][0]["message"]["content"] == message["content"]


def test_without_an_answer_like_name_the_first_string_gets_it(client: httpx.Client) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}, "x": {"type": "string"}}}
    data = json.loads(_ask(client, schema).json()["choices"][0]["message"]["content"])
    assert data == {"n": 0, "x": data["x"]}
    assert "service-l0 answers only from them" in data["x"]


@pytest.mark.parametrize(
    ("schema", "why"),
    [
        ({"type": "array", "items": {"type": "string"}}, "its root is not an object"),
        (
            {"type": "object", "properties": {"when": {"type": "date"}}},
            "property 'when' has type 'date'",
        ),
        (
            {"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}},
            "property 'a' refers to '#/$defs/Missing', which the schema does not define",
        ),
        (
            {"type": "object", "properties": {"list": {"type": "array"}}},
            "property 'list' is an array without 'items'",
        ),
        (
            {
                "type": "object",
                "properties": {"sources": {"type": "array", "items": {"properties": {"x": {}}}}},
            },
            "property 'sources[].x' has no type",
        ),
    ],
)
def test_a_schema_it_cannot_fill_is_a_400_that_says_why(
    client: httpx.Client, schema: Any, why: str
) -> None:
    for streamed in (False, True):
        response = _ask(client, schema, stream=streamed)
        assert response.status_code == 400
        detail = f"service-l0 cannot fill this JSON schema: {why}."
        assert response.json() == {
            "detail": detail,
            "error": {"message": detail, "type": "invalid_request_error", "code": None},
        }
