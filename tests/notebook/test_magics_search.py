"""``%files search`` through a real IPython shell against the real reference service."""

from __future__ import annotations

from typing import Any

import pytest

from chatspace.client import Client
from chatspace.notebook.searching import SHOWN
from chatspace.notebook.session import NotebookSession
from support.magics import run
from support.platform import client_vectors_stored

FILES = {
    "contract.txt": b"The annual fee is 12,000 euros, paid in January.",
    "pricing.txt": b"The setup fee is 500 euros. Support is free.",
    "garden.txt": b"Tomatoes need sun and water.",
}


@pytest.fixture
def ids(client: Client) -> dict[str, str]:
    found = {}
    for name, content in FILES.items():
        team = "garden" if name == "garden.txt" else "money"
        found[name] = client.files.upload(content, filename=name, metadata={"team": team}).id
    client_vectors_stored(client)
    return found


def test_search_shows_what_a_question_retrieves(
    ip: Any, nb_session: NotebookSession, ids: dict[str, str], client: Client
) -> None:
    frame = run(ip, "%files search annual fee").value
    assert list(frame.columns) == [*SHOWN, "line", "file_id"]  # text files locate by line
    assert frame.loc[0, "filename"] == "contract.txt"
    assert frame.loc[0, "quote"] == "The annual fee is 12,000 euros, paid in January."
    assert frame.loc[0, "file_id"] == ids["contract.txt"]
    expected = [h.file_id for h in client.files.search("annual fee")]
    assert list(frame["file_id"]) == expected
    assert list(frame["rank"]) == list(range(1, len(frame) + 1))


def test_a_question_ending_in_a_question_mark_is_searched(
    ip: Any, nb_session: NotebookSession, ids: dict[str, str]
) -> None:
    """Typed in JupyterLab, ``%files search What was ... in March?`` showed IPython's
    "Object `March` not found.": a line ending in ``?`` asks for help on its last word."""
    frame = run(ip, "%files search What is the annual fee?").value
    assert frame.loc[0, "filename"] == "contract.txt"
    assert frame.loc[0, "quote"] == "The annual fee is 12,000 euros, paid in January."


def test_all_lifts_the_cut_and_top_k_and_filter_narrow(
    ip: Any, nb_session: NotebookSession, ids: dict[str, str]
) -> None:
    cut = run(ip, '%files search "annual fee" --top-k 3').value
    everything = run(ip, '%files search "annual fee" --top-k 3 --all').value
    assert list(everything["file_id"]) == list(cut["file_id"])  # the same hits, in order
    assert everything["cited"].all()
    assert not cut["cited"].all()  # the garden sentence misses the service's cut
    filtered = run(ip, "%files search fee --filter team=money --all").value
    assert set(filtered["filename"]) == {"contract.txt", "pricing.txt"}
    one = run(ip, "%files search fee --top-k 1 --all").value
    assert len(one) == 1


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("search", "the following arguments are required: QUERY"),
        ("search '  '", "type what to search for"),
        ("search fee --filter '{oops'", "--filter is not valid JSON"),
        ("search fee --top-k 0", "0 is not at least 1"),
        ("search fee --top-k 51", "top_k"),
        ("search fee --filter '[1]'", "--filter must be a JSON object"),
        ("search " + "x" * 4001, "the search is too long (4001 characters; at most 4000)"),
    ],
)
def test_errors_are_one_line(
    ip: Any, nb_session: NotebookSession, line: str, expected: str
) -> None:
    assert expected in run(ip, f"%files {line}").error_line()
