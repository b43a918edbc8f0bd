"""``chatspace serve``'s options are the fields of ``Settings``: each one there, with its
default and description in ``--help``, reaching ``Settings`` as given (an option wins over
its ``CHATSPACE_*`` variable), and docs/deploy.md's table made from the same fields."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chatspace.service.cli_settings import (
    OWN_OPTIONS,
    add_settings_options,
    settings_from,
    settings_table,
)
from chatspace.service.config import Settings

CHATSPACE = Path(sys.executable).with_name("chatspace")
DEPLOY = Path(__file__).parents[2] / "docs" / "deploy.md"


def _serve_help() -> str:
    done = subprocess.run(
        [str(CHATSPACE), "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={**os.environ, "COLUMNS": "200"},  # one line per option: words are not cut
    )
    return " ".join(done.stdout.split())


def _settings(*args: str) -> Settings:
    parser = argparse.ArgumentParser()
    add_settings_options(parser)
    parser.set_defaults(upstreams=None)
    return settings_from(parser.parse_args(args))


def test_serve_help_lists_every_setting_with_its_variable_and_default() -> None:
    shown = _serve_help()
    for name, field in Settings.model_fields.items():
        assert f"CHATSPACE_{name.upper()}" in shown, name
        if name in OWN_OPTIONS or field.annotation is bool:
            continue
        if "SecretStr" in str(field.annotation):
            assert f"--{name.replace('_', '-')}" not in shown  # never on a command line
            continue
        assert f"--{name.replace('_', '-')}" in shown, name
        if field.default is not None and field.default_factory is None:
            assert f"CHATSPACE_{name.upper()}; default {field.default}]" in shown, name
    assert "--no-autodetect" in shown
    assert "Seconds between housekeeping runs" in shown  # a field's docstring is its help


def test_each_option_reaches_its_setting() -> None:
    got = _settings(
        "--housekeeping-interval", "5",
        "--max-json-mb", "3",
        "--header-timeout", "2.5",
        "--no-autodetect",
        "--embeddings", "off",
        "--data-dir", "~/elsewhere",
        "--database-url", "postgresql://ann@db:5432/chat",
        "--relevance-threshold", "0",
        "--instructions-model", "fast",
    )  # fmt: skip
    assert got.housekeeping_interval == 5.0
    assert got.max_json_mb == 3
    assert got.header_timeout == 2.5
    assert got.autodetect is False
    assert got.embeddings == "off"
    assert got.data_dir == Path("~/elsewhere").expanduser()
    assert got.database_url == "postgresql+psycopg://ann@db:5432/chat"
    assert got.relevance_threshold == 0.0
    assert got.instructions_model == "fast"


def test_an_option_wins_over_its_variable_and_the_variable_over_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CHATSPACE_MAX_JSON_MB", "5")
    monkeypatch.setenv("CHATSPACE_AUTODETECT", "0")
    assert _settings("--max-json-mb", "3").max_json_mb == 3
    assert _settings().max_json_mb == 5
    assert _settings().autodetect is False
    monkeypatch.delenv("CHATSPACE_MAX_JSON_MB")
    assert _settings().max_json_mb == 8


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--max-upload-mb", "0"], "--max-upload-mb: Input should be greater than or equal to 1"),
        (["--body-timeout", "-1"], "--body-timeout: Input should be greater than 0"),
        (
            ["--keep-alive-timeout", "0"],
            "--keep-alive-timeout: Input should be greater than or equal to 1",
        ),
        (["--relevance-threshold", "1.5"], "--relevance-threshold: Input should be less than"),
    ],
)
def test_a_value_out_of_bounds_names_its_option(args: list[str], said: str) -> None:
    with pytest.raises(ValueError, match="^" + said):
        _settings(*args)


def test_a_number_that_is_not_finite_is_refused() -> None:
    with pytest.raises(SystemExit):
        _settings("--header-timeout", "inf")


def test_a_whole_number_option_refuses_a_fraction() -> None:
    with pytest.raises(SystemExit):
        _settings("--keep-alive-timeout", "2.5")


def test_the_settings_table_of_deploy_md_is_made_from_the_fields() -> None:
    """Regenerate it with ``chatspace.service.cli_settings.settings_table()``."""
    text = DEPLOY.read_text(encoding="utf-8")
    start = text.index("<!-- settings table: generated, do not edit -->\n")
    end = text.index("<!-- end of settings table -->")
    block = text[start:end].split("\n", 1)[1]
    assert block == settings_table()
