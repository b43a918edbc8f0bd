"""Typed metadata filters (docs/interface.md#metadata-filters) through the real service:
the file list's ``metadata`` and a filter part's ``filter``, evaluated by the database
(run with ``--engine postgres`` too)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import date
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from chatspace.service.store import files
from chatspace.service.store.db import open_database
from chatspace.types.filters import MAX_FILTER_COMPARISONS, MAX_FILTER_DEPTH, read_filter
from support.chat import ask
from support.platform import upload

FILES: dict[str, dict[str, Any]] = {
    "a.txt": {"year": 2024, "team": "ml", "date": "2024-03-01", "ok": True},
    "b.txt": {"year": 2023, "team": "bi", "date": "2023-12-31T23:00:00-02:00", "ok": False},
    "c.txt": {"year": "2024", "team": "ml", "date": "2024-01-01"},
    "d.txt": {"year": 2019.5, "team": "ops"},
    "e.txt": {"team": ["ml", "bi"], "note": "x"},
    "f.txt": {},
    "g.txt": {"year": "2024a", "team": "ML", 'we"ird': 5, "n": None},
}
ALL = set(FILES)


@pytest.fixture
def seven(alice: httpx.Client) -> None:
    for name, metadata in FILES.items():
        upload(alice, (name, name.encode()), metadata=json.dumps(metadata))


def listed(client: httpx.Client, flt: Any) -> set[str]:
    """The names of the files the filter keeps; ``total`` agrees with the page."""
    text = flt if isinstance(flt, str) else json.dumps(flt)
    response = client.get("/files", params={"metadata": text})
    assert response.status_code == 200, response.text
    page = response.json()
    names = {f["filename"] for f in page["data"]}
    assert page["total"] == len(names)
    return names


def cmp(kind: str, key: str, value: Any) -> dict[str, Any]:
    return {"type": kind, "key": key, "value": value}


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        # numbers compare as numbers, with numbers and with strings that read as numbers
        (cmp("eq", "year", 2024), {"a.txt", "c.txt"}),
        (cmp("eq", "year", 2024.0), {"a.txt", "c.txt"}),
        (cmp("ne", "year", 2024), ALL - {"a.txt", "c.txt"}),
        (cmp("gt", "year", 2023), {"a.txt", "c.txt"}),
        (cmp("gte", "year", 2023), {"a.txt", "b.txt", "c.txt"}),
        (cmp("lt", "year", 2020), {"d.txt"}),
        (cmp("lte", "year", 2019.5), {"d.txt"}),
        (cmp("gt", "year", 10**30), set()),
        # a string compares with strings only: "2024" is not 2024
        (cmp("eq", "year", "2024"), {"c.txt"}),
        (cmp("in", "team", ["ml", "bi"]), {"a.txt", "b.txt", "c.txt"}),
        (cmp("nin", "team", ["ml", "bi"]), ALL - {"a.txt", "b.txt", "c.txt"}),
        (cmp("in", "year", [2023, "2024a"]), {"b.txt", "g.txt"}),
        # strings in code-point order ("ML" < "m" < "ml" < "ops")
        (cmp("gt", "team", "m"), {"a.txt", "c.txt", "d.txt"}),
        (cmp("lt", "team", "m"), {"b.txt", "g.txt"}),
        # booleans equal booleans only
        (cmp("eq", "ok", True), {"a.txt"}),
        (cmp("eq", "ok", False), {"b.txt"}),
        (cmp("ne", "ok", True), ALL - {"a.txt"}),
        (cmp("eq", "ok", 1), set()),
        # ISO dates compare as instants (no offset: UTC); b.txt is 2024-01-01T01:00Z
        (cmp("gte", "date", "2024-01-01"), {"a.txt", "b.txt", "c.txt"}),
        (cmp("lt", "date", "2024-01-01T00:30:00Z"), {"c.txt"}),
        (cmp("eq", "date", "2024-01-01T00:00:00Z"), {"c.txt"}),
        (cmp("eq", "date", "2024-01-01T03:00:00+02:00"), {"b.txt"}),
        (cmp("gt", "date", "2024-02-29 12:00"), {"a.txt"}),
        # a missing key (or null, an array) fails all but ne and nin
        (cmp("gt", "note", ""), {"e.txt"}),
        (cmp("ne", "note", "x"), ALL - {"e.txt"}),
        (cmp("eq", "n", "null"), set()),
        (cmp("eq", "team", "ml"), {"a.txt", "c.txt"}),
        # a key no JSON path of SQLite can name
        (cmp("eq", 'we"ird', 5), {"g.txt"}),
        # compounds, nested
        (
            {
                "type": "or",
                "filters": [
                    {"type": "and", "filters": [cmp("eq", "team", "ml"), cmp("gte", "year", 2024)]},
                    cmp("lt", "year", 2020),
                ],
            },
            {"a.txt", "c.txt", "d.txt"},
        ),
        (
            {"type": "and", "filters": [cmp("ne", "team", "ml"), cmp("nin", "year", [2023])]},
            ALL - {"a.txt", "b.txt", "c.txt"},
        ),
        # the shorthand: and of eq (in for a list)
        ({"team": "ml"}, {"a.txt", "c.txt"}),
        ({"team": ["ops", "bi"], "year": 2023}, {"b.txt"}),
        ({"type": "report"}, set()),  # a metadata key named "type"
        ({}, ALL),
    ],
)
def test_each_operator_on_the_file_list(
    alice: httpx.Client, seven: None, flt: dict[str, Any], expected: set[str]
) -> None:
    assert listed(alice, flt) == expected


def test_a_filtered_list_pages_and_counts(alice: httpx.Client, seven: None) -> None:
    params = {"metadata": json.dumps(cmp("nin", "team", ["ml"])), "limit": 2, "order": "asc"}
    first = alice.get("/files", params=params).json()
    assert (first["total"], len(first["data"]), first["has_more"]) == (5, 2, True)
    rest = alice.get("/files", params={**params, "limit": 10, "after": first["last_id"]}).json()
    names = [f["filename"] for f in first["data"] + rest["data"]]
    assert sorted(names) == ["b.txt", "d.txt", "e.txt", "f.txt", "g.txt"]  # each once


def _nested(depth: int) -> dict[str, Any]:
    """A comparison inside ``depth`` nested ``and`` filters."""
    flt: dict[str, Any] = cmp("eq", "team", "ml")
    for _ in range(depth):
        flt = {"type": "and", "filters": [flt]}
    return flt


BAD: list[tuple[str, Any, list[str | int], str]] = [
    ("not JSON", "team=ml", [], "json_invalid"),
    ("a list", '["ml"]', [], "dict_type"),
    ("a string in a compound", {"type": "or", "filters": ["ml"]}, ["filters", 0], "dict_type"),
    ("unknown operator", cmp("gtee", "year", 1), ["type"], "filter_type"),
    ("no value", {"type": "gte", "key": "year"}, ["value"], "missing"),
    ("an extra field", {**cmp("eq", "a", 1), "x": 1}, ["x"], "extra_forbidden"),
    ("a list for eq", cmp("eq", "team", ["ml"]), ["value"], "filter_value"),
    ("a string for in", cmp("in", "team", "ml"), ["value"], "list_type"),
    ("an empty in", cmp("in", "team", []), ["value"], "filter_values"),
    ("an object value", cmp("in", "team", ["ml", {"a": 1}]), ["value", 1], "filter_value"),
    ("a boolean to order", cmp("gt", "ok", True), ["value"], "filter_value"),
    ("an empty key", cmp("eq", "", 1), ["key"], "key_length"),
    ("a NUL", {"k": "a\x00b"}, ["k"], "string_nul"),
    ("null in the shorthand", {"team": None}, ["team"], "filter_value"),
    ("empty filters", {"type": "or", "filters": []}, ["filters"], "filters_type"),
    (
        "deep inside",
        {"type": "and", "filters": [cmp("eq", "a", 1), cmp("eq", "b", 2), cmp("lt", "c", None)]},
        ["filters", 2, "value"],
        "filter_value",
    ),
    (
        "too deep",
        _nested(MAX_FILTER_DEPTH + 1),
        ["filters", 0] * MAX_FILTER_DEPTH,
        "filter_too_deep",
    ),
    (
        "too many comparisons",
        {f"k{i}": i for i in range(MAX_FILTER_COMPARISONS + 1)},
        [f"k{MAX_FILTER_COMPARISONS}"],
        "filter_too_long",
    ),
]


@pytest.mark.parametrize(("flt", "loc", "kind"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_a_malformed_filter_is_a_422_at_its_place(
    alice: httpx.Client, flt: Any, loc: list[str | int], kind: str
) -> None:
    text = flt if isinstance(flt, str) else json.dumps(flt)
    response = alice.get("/files", params={"metadata": text})
    assert response.status_code == 422
    (item,) = response.json()["detail"]
    assert (item["loc"], item["type"]) == (["query", "metadata", *loc], kind)

    part_loc = ["body", "messages", 0, "content", 1, "filter", *loc]
    for given in [text] + ([flt] if isinstance(flt, dict) else []):  # a string, an object
        body = {
            "messages": [
                {
                    "role": "user",
                    "content": [{"type": "text", "text": "x"}, {"type": "filter", "filter": given}],
                }
            ],
            "store": True,
        }
        response = alice.post("/chat/completions", json=body)
        assert response.status_code == 422, response.text
        (item,) = response.json()["detail"]
        assert (item["loc"], item["type"]) == (part_loc, kind)
    assert alice.get("/chat/completions").json()["data"] == []  # nothing stored


def test_the_deepest_filter_allowed_is_read(alice: httpx.Client, seven: None) -> None:
    assert listed(alice, _nested(MAX_FILTER_DEPTH)) == {"a.txt", "c.txt"}


REPORT_2024 = "The 2024 report: revenue of the Lyon office grew by nine percent."
REPORT_2023 = "The 2023 report: revenue of the Lyon office fell by two percent."


@pytest.mark.parametrize("as_string", [False, True])
def test_a_typed_filter_part_restricts_retrieval(alice: httpx.Client, as_string: bool) -> None:
    (new,) = upload(alice, ("2024.txt", REPORT_2024.encode()), metadata='{"year": 2024}')
    (old,) = upload(alice, ("2023.txt", REPORT_2023.encode()), metadata='{"year": "2023"}')
    question = {"type": "text", "text": "How did revenue of the Lyon office change?"}
    flt: Any = cmp("gte", "year", 2024)
    part = {"type": "filter", "filter": json.dumps(flt) if as_string else flt}

    answers: list[dict[str, Any]] = []

    def cited(*parts: dict[str, Any]) -> set[str]:
        answers.append(ask(alice, [question, *parts], store=True))
        notes = answers[-1]["choices"][0]["message"]["annotations"]
        return {a["file_citation"]["file_id"] for a in notes}

    assert cited() == {new["id"], old["id"]}
    assert cited(part) == {new["id"]}
    # the part is stored as it was sent
    messages = alice.get(f"/chat/completions/{answers[-1]['id']}/messages").json()
    assert messages["data"][0]["content_parts"][1] == part
    assert cited({"type": "filter", "filter": cmp("lt", "year", 2024)}) == {old["id"]}


def test_a_nul_in_stored_metadata_fails_comparisons_not_the_list(alice: httpx.Client) -> None:
    upload(alice, ("nul.txt", b"n"), metadata=json.dumps({"k": "a\x00b", "n": 1}))
    upload(alice, ("plain.txt", b"p"), metadata=json.dumps({"k": "ab", "n": 2}))
    assert listed(alice, cmp("gt", "k", "a")) == {"plain.txt"}
    assert listed(alice, cmp("ne", "k", "ab")) == {"nul.txt"}
    assert listed(alice, cmp("gte", "n", 1)) == {"plain.txt"}  # nul.txt has no metadata


def test_a_metadata_update_changes_what_a_filter_finds(alice: httpx.Client) -> None:
    """The typed index follows each write: a changed value, a removed key, a new one."""
    (doc,) = upload(alice, ("doc.txt", b"d"), metadata=json.dumps({"year": 2023, "team": "bi"}))
    assert listed(alice, cmp("gte", "year", 2024)) == set()
    assert listed(alice, {"team": "bi"}) == {"doc.txt"}
    patched = alice.patch(
        f"/files/{doc['id']}/metadata", json={"year": "2024", "team": None, "due": "2025-01-31"}
    )
    assert patched.status_code == 200, patched.text
    assert listed(alice, cmp("gte", "year", 2024)) == {"doc.txt"}
    assert listed(alice, cmp("lt", "year", 2024)) == set()
    assert listed(alice, {"team": "bi"}) == set()
    assert listed(alice, cmp("ne", "team", "bi")) == {"doc.txt"}
    assert listed(alice, cmp("lt", "due", "2025-02-01T00:00:00Z")) == {"doc.txt"}


MIXED: list[dict[str, Any]] = [
    {"year": 2024, "team": "ml", "date": "2024-03-01", "ok": True},
    {"year": 2023, "team": "bi", "date": "2023-12-31", "ok": False},
    {"year": "2024", "team": "ml", "date": "2024-01-01"},
    {"year": 2019.5, "team": "ops", "ok": True},
    {"year": "2024a", "team": ["ml", "bi"], "date": "2024-13-01"},
    {"team": "data", "date": "2025-06-30"},
    {},
    {"year": 2022, "team": "a\x00b"},  # NUL: no typed rows at all
]
"""Metadata dealt round a workspace's files (visible, expired, deleted), another
workspace's and another organization's."""
NOW = 1_000_000


def _number(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", value):
        return float(value)
    return None


def _reads(value: Any, wanted: Any) -> tuple[Any, Any] | None:
    """A stored value and a filter's value as Python compares them (the dates here all
    read as ``YYYY-MM-DD``), or None when the stored value has no such reading."""
    if isinstance(wanted, bool):
        return (value, wanted) if isinstance(value, bool) else None
    if isinstance(wanted, int | float):
        number = _number(value)
        return None if number is None else (number, float(wanted))
    if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", wanted):
        try:
            return date.fromisoformat(value), date.fromisoformat(wanted)
        except (TypeError, ValueError):
            return None
    return (value, wanted) if isinstance(value, str) else None


def _keeps(metadata: dict[str, Any], flt: dict[str, Any]) -> bool:
    """The rule of docs/interface.md#metadata-filters, by brute force."""
    if not flt:
        return True
    if flt["type"] in ("and", "or"):
        kept = [_keeps(metadata, part) for part in flt["filters"]]
        return all(kept) if flt["type"] == "and" else any(kept)
    if any("\x00" in v for v in metadata.values() if isinstance(v, str)):
        return flt["type"] in ("ne", "nin")
    kind = {"ne": "eq", "nin": "in"}.get(flt["type"], flt["type"])
    wanted = flt["value"] if isinstance(flt["value"], list) else [flt["value"]]
    pairs = [_reads(metadata[flt["key"]], w) for w in wanted] if flt["key"] in metadata else []
    compare = {
        "eq": lambda a, b: a == b,
        "in": lambda a, b: a == b,
        "gt": lambda a, b: a > b,
        "gte": lambda a, b: a >= b,
        "lt": lambda a, b: a < b,
        "lte": lambda a, b: a <= b,
    }[kind]
    held = any(pair is not None and compare(*pair) for pair in pairs)
    return held != (kind != flt["type"])


def _and(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"type": "and", "filters": list(parts)}


def _or(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"type": "or", "filters": list(parts)}


TOTALS = [
    *(cmp(kind, "year", 2024) for kind in ("eq", "ne", "gt", "gte", "lt", "lte")),
    *(cmp(kind, "date", "2024-01-01") for kind in ("eq", "ne", "gt", "gte", "lt", "lte")),
    *(cmp(kind, "team", "ml") for kind in ("eq", "ne", "gt", "gte", "lt", "lte")),
    *(cmp(kind, "ok", True) for kind in ("eq", "ne")),
    *(cmp(kind, "team", ["ml", "ops"]) for kind in ("in", "nin")),
    *(cmp(kind, "year", [2023, "2024a", True]) for kind in ("in", "nin")),
    cmp("eq", "missing", 1),
    cmp("ne", "missing", 1),
    _and(cmp("gte", "date", "2024-01-01"), cmp("lt", "date", "2025-01-01")),
    _and(cmp("eq", "team", "ml"), cmp("gte", "year", 2024)),
    _or(cmp("in", "team", ["bi", "ops"]), cmp("lt", "year", 2024)),
    _or(cmp("ne", "team", "ml"), cmp("eq", "ok", True)),
    _and(cmp("ne", "team", "ml"), cmp("nin", "year", [2023])),
    _and(_or(cmp("eq", "ok", True), cmp("eq", "team", "bi")), cmp("gt", "year", 2000)),
    _and(_or(cmp("eq", "ok", True), cmp("eq", "team", "bi")), _or(cmp("lt", "year", 2024))),
    _or(_and(cmp("eq", "team", "ml"), cmp("ne", "ok", True)), cmp("gte", "date", "2025-01-01")),
    _or(_or(cmp("eq", "team", "ops"), cmp("eq", "year", 2023)), cmp("eq", "ok", False)),
    {},  # the shorthand keeping every file: an and of nothing
]


@pytest.fixture
def mixed(database_url: str) -> Iterator[tuple[sa.Engine, dict[str, dict[str, Any]]]]:
    """A database whose workspace ``o/default`` holds files of every kind of
    :data:`MIXED` (and the listed ones' metadata, by id), with their like expired
    (one at this instant, which has expired), deleted, or in another workspace or
    organization."""
    engine = open_database(database_url)
    visible: dict[str, dict[str, Any]] = {}
    with engine.begin() as conn:
        for i, metadata in enumerate(MIXED * 7):
            org, workspace, expires_at = "o", "default", None
            match i // len(MIXED):
                case 1 | 2:
                    expires_at = NOW + 1 - i % 2  # not yet, or at this instant
                case 3:
                    expires_at = NOW - 100
                case 5:
                    workspace = "other"
                case 6:
                    org = "p"
            file_id = files.new_file_id()
            files.create_file(
                conn, file_id=file_id, org_id=org, workspace_id=workspace, user_id="u",
                filename=f"{i}.txt", size=1, sha256="0" * 64, content_type="text/plain",
                purpose="user_data", metadata=metadata, status_details="", created_at=i,
                expires_at=expires_at, blob=f"b-{i}",
            )  # fmt: skip
            if i // len(MIXED) == 4:
                files.delete_file(
                    conn, org_id=org, workspace_id=workspace, file_id=file_id, now=NOW
                )
            elif (org, workspace) == ("o", "default") and (expires_at or NOW + 1) > NOW:
                visible[file_id] = metadata
    yield engine, visible
    engine.dispose()


@pytest.mark.parametrize("flt", TOTALS, ids=json.dumps)
def test_a_filtered_total_counts_the_files_the_filter_keeps(
    mixed: tuple[sa.Engine, dict[str, dict[str, Any]]], flt: dict[str, Any]
) -> None:
    """The total of a filtered list (counted from the typed index, less the expired
    files) is the number of visible files of the workspace the filter keeps, counted
    one by one; so is it with another condition (``purpose``), counted otherwise."""
    engine, visible = mixed
    kept = {file_id for file_id, metadata in visible.items() if _keeps(metadata, flt)}
    with engine.connect() as conn:
        for purpose in (None, "user_data"):
            found = files.list_files(
                conn, org_id="o", workspace_id="default", now=NOW, purpose=purpose,
                metadata=read_filter(flt), limit=1,
            )  # fmt: skip
            whole = files.list_files(
                conn, org_id="o", workspace_id="default", now=NOW, purpose=purpose,
                metadata=read_filter(flt),
            )  # fmt: skip
            assert (found.total, {f.id for f in whole.data}) == (len(kept), kept)
