"""The notebook's settings: one object, documented from its own traits."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from traitlets import TraitError

from chatspace.notebook.session import NotebookSession
from chatspace.notebook.settings import ChatspaceSettings

MAGICS_DOC = Path(__file__).parents[2] / "docs" / "magics.md"


def settings_table() -> str:
    """The table of docs/magics.md#settings, as the traits define it."""
    rows = [
        f"| `{name}` | `{trait.default()!r}` | {trait.help} |"
        for name, trait in ChatspaceSettings.class_traits(config=True).items()
    ]
    return "\n".join(["| setting | default | what it does |", "|---|---|---|", *rows])


def test_the_docs_table_is_the_traits() -> None:
    doc = MAGICS_DOC.read_text()
    section = doc[doc.index("## Settings") : doc.index("## Decisions")]
    found = re.search(r"^\| setting \|.*?(?=\n\n)", section, re.S | re.M)
    assert found is not None, "docs/magics.md#settings has no table"
    assert found.group() == settings_table(), "paste this table:\n" + settings_table()


def test_a_session_made_on_its_own_has_settings_of_its_own(session: NotebookSession) -> None:
    other = NotebookSession(session.client)
    other.settings.default_workspace = "elsewhere"
    assert session.settings.default_workspace == "default"


def test_the_chat_panels_bounds_are_the_wires(session: NotebookSession) -> None:
    from chatspace.notebook.panels import ChatPanel

    session.settings.default_top_k = 7
    panel = ChatPanel(session=session)
    try:
        assert panel.top_k == 7
        with pytest.raises(TraitError, match="less than or equal to 50"):
            panel.top_k = 51
        panel.top_k = 0  # the service's default
        assert (panel.temperature_slider.min, panel.temperature_slider.max) == (0, 2)
        with pytest.raises(TraitError, match=r"temperature 2\.5: .*less than or equal to 2"):
            panel.temperature = 2.5
        assert panel.temperature is None  # none sent: the model's default
    finally:
        panel.close()
