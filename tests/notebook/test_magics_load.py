"""Loading the extension: fast, light, registering every magic; settings as traitlets."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from traitlets import TraitError

from chatspace.client import Client
from chatspace.notebook.magics import ChatspaceMagics, protect_questions
from chatspace.notebook.session import NotebookSession, get_session
from chatspace.notebook.settings import kernel_settings
from support.magics import run

HEAVY = (
    "pandas",
    "numpy",
    "httpx",
    "pydantic",
    "ipywidgets",
    "tqdm",
    "fastapi",
    "chatspace.client",
    "chatspace.service",
    "chatspace.local.launcher",
    "chatspace.notebook.panels",
    "chatspace.notebook.cmd_chat",
)

PROBE = f"""
import json, sys, time
started = time.perf_counter()
import chatspace
imported = time.perf_counter() - started
heavy_after_import = [m for m in {HEAVY!r} if m in sys.modules]
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
started = time.perf_counter()
shell.run_line_magic("load_ext", "chatspace")
loaded = time.perf_counter() - started
print(json.dumps({{
    "import": imported,
    "load_ext": loaded,
    "heavy_after_import": heavy_after_import,
    "heavy_after_load": [m for m in {HEAVY!r} if m in sys.modules],
    "line": sorted(shell.magics_manager.magics["line"]),
    "cell": sorted(shell.magics_manager.magics["cell"]),
}}))
"""


def test_import_and_load_ext_are_fast_and_import_nothing_heavy() -> None:
    """Measured in a fresh interpreter: ``import chatspace`` < 0.3 s, ``%load_ext`` < 0.5 s."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60, check=True
    )
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    assert probe["heavy_after_import"] == []
    assert probe["heavy_after_load"] == []
    assert probe["import"] < 0.3, probe
    assert probe["load_ext"] < 0.5, probe
    assert {"chat", "files", "completions", "workspace"} <= set(probe["line"])
    assert "chat" in probe["cell"]


def test_settings_are_configurable_traits_with_help(ip: Any, magics: ChatspaceMagics) -> None:
    settings = kernel_settings()
    traits = settings.traits(config=True)
    assert {"default_model", "default_workspace", "store", "stream"} <= set(traits)
    assert all(trait.help for trait in traits.values())
    assert settings in ip.configurables
    assert not magics.traits(config=True)  # one object holds the settings
    ip.run_line_magic("config", "ChatspaceSettings.stream_throttle = 0.5")
    assert settings.stream_throttle == 0.5
    assert get_session().settings is settings


def test_config_refuses_a_top_k_the_wire_refuses(
    ip: Any, magics: ChatspaceMagics, caplog: pytest.LogCaptureFixture
) -> None:
    """The bound is the wire's (``TopK``), 0 the service's default: stated once."""
    settings = kernel_settings()
    ip.run_line_magic("config", "ChatspaceSettings.default_top_k = 51")  # %config logs it
    assert "top_k 51: Input should be less than or equal to 50" in caplog.text
    assert settings.default_top_k == 0
    ip.run_line_magic("config", "ChatspaceSettings.default_top_k = 50")
    assert settings.default_top_k == 50
    with pytest.raises(TraitError, match="greater than or equal to 1"):
        settings.default_top_k = -1


def test_settings_reach_the_magics_loaded_after_them(ip: Any) -> None:
    """``%config`` before ``%load_ext`` (or ipython_config.py) is read when it loads."""
    ip.run_line_magic("unload_ext", "chatspace")
    settings = kernel_settings()
    try:
        ip.run_line_magic("config", "ChatspaceSettings.default_format = 'code'")
        assert settings.default_format == "markdown"  # not registered: %config misses it
    finally:
        ip.run_line_magic("load_ext", "chatspace")
    try:
        assert settings.default_format == "code"
    finally:
        ip.config.pop("ChatspaceSettings", None)
        settings.default_format = "markdown"


def test_unload_and_load_again(ip: Any) -> None:
    ip.run_line_magic("unload_ext", "chatspace")
    try:
        assert "files" not in ip.magics_manager.magics["line"]
        assert "chat" not in ip.magics_manager.magics["cell"]
        assert protect_questions not in ip.input_transformers_cleanup
    finally:
        ip.run_line_magic("load_ext", "chatspace")
    assert "files" in ip.magics_manager.magics["line"]
    assert protect_questions in ip.input_transformers_cleanup


def test_question_marks_stay_part_of_the_question() -> None:
    lines = ["%chat What is {x}?\n", "answer = %chat Why??\n", "%chat?\n", "print('a?')\n"]
    assert protect_questions(lines) == [
        "get_ipython().run_line_magic('chat', 'What is {x}?')\n",
        "answer = get_ipython().run_line_magic('chat', 'Why??')\n",
        "%chat?\n",  # IPython's help on the magic itself
        "print('a?')\n",
    ]
    searches = ["%files search What was the revenue in March?\n", "%completions search fee?"]
    assert protect_questions(searches) == [
        "get_ipython().run_line_magic('files', 'search What was the revenue in March?')\n",
        "get_ipython().run_line_magic('completions', 'search fee?')",
    ]
    others = ["%files show report?\n", "%files?\n"]  # a name, and IPython's help
    assert protect_questions(others) == others
    cell = ["%%chat\n", "%chat inside a cell magic?\n"]
    assert protect_questions(cell) == cell


def test_ipython_does_not_expand_braces_in_chat_lines(
    ip: Any, nb_session: NotebookSession, client: Client
) -> None:
    """IPython would evaluate ``{1+1}`` and ``$HOME`` in a magic's line; %chat does not."""
    result = run(ip, "%chat What is {1+1} in $HOME?").value
    sent = list(client.chat.messages(result.id))[-2].content
    assert sent == "What is {1+1} in $HOME?"
