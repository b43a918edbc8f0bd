"""``chatspace serve``'s options, made from the fields of :class:`~.config.Settings`.

Each field is one option: ``max_upload_mb`` is ``--max-upload-mb`` (and
``CHATSPACE_MAX_UPLOAD_MB``), its help is the field's docstring with its default, its
type and choices are the field's, and its bounds are checked by ``Settings`` itself. So
a new setting is one field, and ``chatspace serve --help`` (and the table in
docs/deploy.md, :func:`settings_table`) cannot miss it. Two kinds of field are not
options: a secret (``SecretStr``: a command line shows in the process list), set in the
environment only and listed under the options, and ``upstreams``, which has the
``--upstream-*`` grammar of its own (service/cli.py).

A short loop rather than pydantic-settings' CLI source: that one would need the
``--upstream-*`` grammar and ``--no-autodetect`` rebuilt as annotations on ``Settings``,
prints multi-line errors where the CLI prints one line with status 2, and its kebab-case
and flag modes need newer releases than the ``pydantic-settings>=2.3`` we require.
"""

from __future__ import annotations

import argparse
import math
import re
import textwrap
import types
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import SecretStr, ValidationError
from pydantic.fields import FieldInfo

from .config import Settings

__all__ = ["OWN_OPTIONS", "add_settings_options", "settings_from", "settings_table"]

OWN_OPTIONS = frozenset({"upstreams"})
"""Fields with options of their own in service/cli.py, not made here."""
_ENV_PREFIX = str(Settings.model_config.get("env_prefix", ""))


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def _env(name: str) -> str:
    return _ENV_PREFIX + name.upper()


def _bare(annotation: Any) -> Any:
    """``int | None`` -> ``int``: the type a value given on the command line has."""
    if get_origin(annotation) in (Union, types.UnionType):
        given = [a for a in get_args(annotation) if a is not type(None)]
        if len(given) == 1:
            return given[0]
    return annotation


def _env_only(field: FieldInfo) -> bool:
    return _bare(field.annotation) is SecretStr


def _number(text: str) -> float:
    """A finite number (seconds, days, a share)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} must be a finite number")
    return value


def _path(text: str) -> Path:
    return Path(text).expanduser()


_CONVERT: dict[Any, tuple[Any, str]] = {
    int: (int, "N"),
    float: (_number, "NUMBER"),
    Path: (_path, "PATH"),
    str: (str, ""),
}


def _description(field: FieldInfo) -> str:
    """The field's docstring as one plain line (no reST markup)."""
    return " ".join((field.description or "").replace("``", "").split())


def _default(field: FieldInfo) -> str | None:
    """The default as a user types it, or None when there is none to show."""
    if field.default_factory is not None or field.default is None:
        return None
    if isinstance(field.default, bool):
        return "on" if field.default else "off"
    return str(field.default)


def _help(name: str, field: FieldInfo) -> str:
    default = _default(field)
    shown = f"; default {default}" if default is not None else ""
    return f"{_description(field)} [{_env(name)}{shown}]".replace("%", "%%")


def _options() -> list[tuple[str, FieldInfo]]:
    return [
        (name, field)
        for name, field in Settings.model_fields.items()
        if name not in OWN_OPTIONS and not _env_only(field)
    ]


def add_settings_options(parser: argparse.ArgumentParser) -> None:
    """One option per field of ``Settings`` (given: the value; not given: ``None``, so
    that ``Settings`` takes it from the environment or its default)."""
    for name, field in _options():
        kind = _bare(field.annotation)
        if kind is bool:
            # a switch turns a default around: --no-autodetect
            flag = f"--no-{name.replace('_', '-')}" if field.default else _option(name)
            action = "store_false" if field.default else "store_true"
            parser.add_argument(
                flag, dest=name, action=action, default=None, help=_help(name, field)
            )
        elif get_origin(kind) is Literal:
            parser.add_argument(_option(name), choices=get_args(kind), help=_help(name, field))
        else:
            convert, metavar = _CONVERT[kind]
            parser.add_argument(
                _option(name),
                type=convert,
                metavar=metavar or name.rsplit("_", 1)[-1].upper(),  # --database-url URL
                help=_help(name, field),
            )
    secrets = [
        textwrap.fill(
            f"{_env(n)}: {_description(f)}", 78, initial_indent="  ", subsequent_indent="    "
        )
        for n, f in Settings.model_fields.items()
        if _env_only(f)
    ]
    parser.epilog = "set in the environment only (never on a command line):\n" + "\n".join(secrets)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings of a parsed command line (options win over the environment);
    ``ValueError`` with one line naming the option (or variable) at fault."""
    given = {name: getattr(args, name) for name, _ in _options()}
    given["upstreams"] = args.upstreams
    try:
        return Settings(**{k: v for k, v in given.items() if v is not None})
    except ValidationError as exc:
        first = exc.errors()[0]
        name = str(first["loc"][0])
        field = Settings.model_fields.get(name)
        where = _env(name) if field is None or _env_only(field) else _option(name)
        raise ValueError(f"{where}: {first['msg']}") from None


def settings_table() -> str:
    """The settings as a Markdown table (docs/deploy.md holds it; a test compares)."""
    rows = ["| Option | Environment | Default | What it sets |", "|---|---|---|---|"]
    for name, field in Settings.model_fields.items():
        option = "(environment only)" if _env_only(field) else f"`{_option(name)}`"
        if _bare(field.annotation) is bool and field.default:
            option = f"`--no-{name.replace('_', '-')}`"
        if name in OWN_OPTIONS:
            option = "`--upstream-url` ... (below)"
        default = _default(field)
        text = re.sub(r"\|", r"\\|", _description(field))
        rows.append(f"| {option} | `{_env(name)}` | {default or ''} | {text} |")
    return "\n".join(rows) + "\n"
