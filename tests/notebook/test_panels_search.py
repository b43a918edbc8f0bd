"""The files panel's search box, with real widgets, against the real reference service."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import chatspace
from chatspace.notebook.panels import FilesPanel
from chatspace.notebook.session import NotebookSession

HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.fixture
def panel(client: chatspace.Client, session: NotebookSession) -> Iterator[FilesPanel]:
    for name, content, team in (
        ("contract.txt", b"The annual fee is 12,000 euros, paid in January.", "money"),
        ("pricing.txt", f"The setup fee is 500 euros {HOSTILE} per year.".encode(), "money"),
        ("garden.txt", b"Tomatoes need sun and water.", "garden"),
    ):
        client.files.upload(content, filename=name, metadata={"team": team})
    p = FilesPanel(client, session=session)
    yield p
    p.close()


def test_the_search_box_shows_the_hits_escaped(panel: FilesPanel, client: chatspace.Client) -> None:
    panel.search_text.value = "setup fee"
    panel.search_all_box.value = True
    panel.search_button.click()
    assert panel.error == ""
    expected = [h.filename for h in client.files.search("setup fee", relevance=0)]
    assert [h["filename"] for h in panel.hits] == expected
    assert panel.hits[0]["filename"] == "pricing.txt"
    assert panel.hits[0]["cited"] is True
    html = panel.hits_table.value
    assert "<th>quote</th>" in html
    assert HOSTILE not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert 'data-id="' + panel.hits[0]["file_id"] in html


def test_the_search_uses_the_panels_filter_and_the_cut(panel: FilesPanel) -> None:
    panel.filter_text.value = "team=garden"
    panel.search("annual fee")
    assert panel.error == ""
    assert [(h["filename"], h["cited"]) for h in panel.hits] == [("garden.txt", False)]
    panel.filter_text.value = "team=nobody"
    panel.search()
    assert panel.hits == []
    assert "No passage of these files matches the search." in panel.hits_table.value
    panel.filter_text.value = ""
    panel.search_text.value = "annual fee"
    panel.search()
    cited = [h["cited"] for h in panel.hits]
    assert cited[0] is True
    assert False in cited  # without --all the garden passage misses the cut


def test_an_empty_search_is_one_line(panel: FilesPanel) -> None:
    panel.search("   ")
    assert panel.error == "type what to search for, like: annual fee"
    panel.filter_text.value = "{oops"
    panel.search("fee")
    assert panel.error.startswith("Filter is not valid JSON")


def test_enter_in_the_search_box_searches(panel: FilesPanel) -> None:
    """The box sends its text on Enter (``continuous_update=False``): that text searches,
    with no click on Search."""
    assert panel.search_text.continuous_update is False
    panel.search_text.value = "setup fee"
    assert panel.error == ""
    assert panel.hits[0]["filename"] == "pricing.txt"
