"""``%files``: list, upload, remove, download, preview and tag the files of a workspace."""

from __future__ import annotations

import argparse
import glob
import io
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .commands import Command
from .display import Message, fenced, publish
from .markup import one_line, safe_markdown
from .options import OptionError, Parser, parse_filter, parse_pairs, positive_int

if TYPE_CHECKING:
    import pandas as pd

    from .magics import ChatspaceMagics

__all__ = ["COMMANDS"]

SHOW_TEXT_CHARS = 20_000
SHOW_TABLE_ROWS = 50
_TABLES = {".csv": ",", ".tsv": "\t"}
_IMAGES = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".gif": "gif", ".webp": "webp"}
_PLAIN = {".txt", ".md", ".markdown", ".log"}
_TEXT = {".txt", ".md", ".markdown", ".rst", ".json", ".jsonl", ".py", ".yaml", ".yml",
         ".toml", ".ini", ".cfg", ".log", ".sql", ".xml", ".html", ".htm", ".js", ".ts",
         ".css", ".sh", ".r", ".tex"}  # fmt: skip


def _workspace(magics: ChatspaceMagics, args: argparse.Namespace) -> str:
    return str(args.workspace or magics.session.workspace)


def _ls(magics: ChatspaceMagics, args: argparse.Namespace) -> pd.DataFrame:
    """The files of the workspace as a DataFrame (newest first)."""
    filter_json = parse_filter(args.filter)
    client, workspace = magics.session.client, _workspace(magics, args)
    page = client.files.list(
        workspace=workspace,
        metadata=json.loads(filter_json) if filter_json else None,
        purpose=args.purpose,
        order=args.order,
        limit=min(args.limit or 10_000, 10_000),
    )
    return page.to_pandas(limit=args.limit)


def _upload(magics: ChatspaceMagics, args: argparse.Namespace) -> pd.DataFrame:
    """Upload the paths and globs given, in one request; the new files as a DataFrame."""
    paths: list[str] = []
    for pattern in args.paths:
        found = sorted(glob.glob(os.path.expanduser(pattern), recursive=True))
        found = [p for p in found if os.path.isfile(p)]
        if not found:
            raise OptionError(f"%files upload: no file matches {pattern!r}")
        paths += [p for p in found if p not in paths]
    meta = parse_pairs(args.meta, "--meta")
    client, workspace = magics.session.client, _workspace(magics, args)
    earlier: list[Any] = []
    if args.replace:
        names = {os.path.basename(p) for p in paths}
        earlier = [f for f in client.files.list(workspace=workspace) if f.filename in names]
    files = client.files.upload(
        paths,
        metadata=meta or None,
        instructions=args.instructions,
        workspace=workspace,
        progress=False if args.no_progress else None,
    )
    if earlier:  # deleted only once the new ones are in: a failed upload loses nothing
        for old in earlier:
            client.files.delete(old.id, workspace=workspace)
        Message(f"replaced {len(earlier)} earlier files of the same names").show()
    from chatspace.client import to_pandas

    return to_pandas(files if isinstance(files, list) else [files])


def _rm(magics: ChatspaceMagics, args: argparse.Namespace) -> None:
    files = magics.session.client.files
    workspace = _workspace(magics, args)
    for file_id in args.ids:
        files.delete(file_id, workspace=workspace)
        Message(f"deleted {file_id}").show()


def _get(magics: ChatspaceMagics, args: argparse.Namespace) -> Path:
    """Download a file; to PATH (a directory keeps the file's name), by default here."""
    path = magics.session.client.files.download(
        args.id, args.path or ".", workspace=_workspace(magics, args)
    )
    Message(f"saved {args.id} to {path}").show()
    return path


def _show(magics: ChatspaceMagics, args: argparse.Namespace) -> Any:
    """A file's content: a table as a DataFrame, an image as an image, text as text; any
    other document (PDF, DOCX, ...) as the text the service extracted from it."""
    files = magics.session.client.files
    workspace = _workspace(magics, args)
    info = files.get(args.id, workspace=workspace)
    suffix = Path(info.filename).suffix.lower()
    content = files.content(args.id, workspace=workspace)
    if suffix in _TABLES:
        import pandas as pd

        frame = pd.read_csv(io.BytesIO(content), sep=_TABLES[suffix])
        return frame.head(args.rows)
    if suffix == ".parquet":
        import pandas as pd

        return pd.read_parquet(io.BytesIO(content)).head(args.rows)
    if suffix in _IMAGES:
        from IPython.display import Image

        return Image(data=content, format=_IMAGES[suffix])
    from .panels._preview import readable_text

    text = readable_text(magics.session.client, args.id, workspace=workspace, content=content)
    if text is None:
        return Message(f"{info.filename} is binary ({len(content)} bytes); %files get {args.id}")
    _show_text(info.filename, text, suffix)
    return None


def _show_text(filename: str, text: str, suffix: str) -> None:
    cut = len(text) - SHOW_TEXT_CHARS
    shown = text[:SHOW_TEXT_CHARS]
    note = f"\n… {cut} more characters (%files get to read it all)" if cut > 0 else ""
    # a language for the fence only where the suffix names one (not ".pdf", ".docx")
    language = suffix.lstrip(".") if suffix in _TEXT - _PLAIN else ""
    markdown = safe_markdown(fenced(shown, language)) + safe_markdown(note)
    publish({"text/plain": shown + note, "text/markdown": markdown},
            {"chatspace": {"filename": one_line(filename)}})  # fmt: skip


def _meta(magics: ChatspaceMagics, args: argparse.Namespace) -> dict[str, Any]:
    """Merge k=v pairs into a file's metadata (``--unset k`` removes); the new metadata."""
    pairs: dict[str, Any] = dict(parse_pairs(args.pairs, "%files meta"))
    for key in args.unset or ():
        pairs[key] = None
    if not pairs and args.instructions is None:
        raise OptionError("%files meta: give k=v pairs, --unset KEY or --instructions TEXT")
    updated = magics.session.client.files.update_metadata(
        args.id, pairs or None, instructions=args.instructions, workspace=_workspace(magics, args)
    )
    return dict(updated.metadata)


def _with_workspace(parser: Parser) -> None:
    parser.add_argument("-w", "--workspace", help="workspace (default: the current one)")


def _ls_options(parser: Parser) -> None:
    parser.add_argument("--filter", metavar="K=V|JSON", help="files whose metadata matches")
    parser.add_argument("--purpose", help="files of this purpose")
    parser.add_argument("--order", choices=("asc", "desc"), default="desc", help="by upload time")
    parser.add_argument("--limit", type=positive_int, metavar="N", help="at most N files")
    _with_workspace(parser)


def _upload_options(parser: Parser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH|GLOB", help="files to upload")
    parser.add_argument("--meta", action="append", metavar="K=V", help="metadata of each file")
    parser.add_argument("--instructions", metavar="TEXT", help="derive metadata from the content")
    parser.add_argument(
        "--replace", action="store_true", help="delete earlier files of these names"
    )
    parser.add_argument("--no-progress", action="store_true", help="no bar for large uploads")
    _with_workspace(parser)


def _rm_options(parser: Parser) -> None:
    parser.add_argument("ids", nargs="+", metavar="ID", help="files to delete")
    _with_workspace(parser)


def _get_options(parser: Parser) -> None:
    parser.add_argument("id", metavar="ID", help="the file to download")
    parser.add_argument("path", nargs="?", metavar="PATH", help="where to (default: here)")
    _with_workspace(parser)


def _show_options(parser: Parser) -> None:
    parser.add_argument("id", metavar="ID", help="the file to show")
    parser.add_argument("--rows", type=positive_int, default=SHOW_TABLE_ROWS, help="table rows")
    _with_workspace(parser)


def _meta_options(parser: Parser) -> None:
    parser.add_argument("id", metavar="ID", help="the file")
    parser.add_argument("pairs", nargs="*", metavar="K=V", help="metadata to set")
    parser.add_argument("--unset", action="append", metavar="KEY", help="metadata to remove")
    parser.add_argument("--instructions", metavar="TEXT", help="derive metadata from the content")
    _with_workspace(parser)


COMMANDS = [
    Command("ls", "the files as a DataFrame (--filter k=v)", _ls_options, _ls),
    Command(
        "upload",
        "upload files: PATH|GLOB ... [--meta k=v] [--instructions TEXT]",
        _upload_options,
        _upload,
    ),
    Command("rm", "delete files: ID ...", _rm_options, _rm),
    Command("get", "download a file: ID [PATH]", _get_options, _get),
    Command("show", "show a file: text, a table as a DataFrame, an image", _show_options, _show),
    Command(
        "meta", "set metadata: ID k=v ... | --unset KEY | --instructions TEXT", _meta_options, _meta
    ),
]
