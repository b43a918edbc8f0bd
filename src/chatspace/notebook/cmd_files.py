"""``%files``: list, search, upload, delete, download, show and update the files of a
workspace.

The verbs are the client's (``client.files.list/search/upload/delete/download/update``);
see ``docs/vocabulary.md``.
"""

from __future__ import annotations

import argparse
import glob
import io
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chatspace._pandas import is_dataframe

from .commands import Command
from .display import Message, fenced, publish
from .filerefs import file_ids
from .grammar import InputError, file_filter, parse_pairs
from .markup import one_line, safe_markdown
from .options import OptionError, Parser, positive_int
from .searching import search_frame

if TYPE_CHECKING:
    import pandas as pd

    from .context import NotebookContext

__all__ = ["COMMANDS"]

SHOW_TEXT_CHARS = 20_000
SHOW_TABLE_ROWS = 50
_TABLES = {".csv": ",", ".tsv": "\t"}
_IMAGES = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".gif": "gif", ".webp": "webp"}
_PLAIN = {".txt", ".md", ".markdown", ".log"}
_TEXT = {".txt", ".md", ".markdown", ".rst", ".json", ".jsonl", ".py", ".yaml", ".yml",
         ".toml", ".ini", ".cfg", ".log", ".sql", ".xml", ".html", ".htm", ".js", ".ts",
         ".css", ".sh", ".r", ".tex"}  # fmt: skip


def _workspace(ctx: NotebookContext, args: argparse.Namespace) -> str:
    return str(args.workspace or ctx.session.settings.default_workspace)


def _file_id(ctx: NotebookContext, workspace: str, ref: str) -> str:
    """The id of file ``ref``, an id or a unique name (:mod:`.filerefs`)."""
    return file_ids(ctx.session.client, workspace, [ref])[0]


def _list(ctx: NotebookContext, args: argparse.Namespace) -> pd.DataFrame:
    """The files of the workspace as a DataFrame (newest first)."""
    metadata = file_filter(args.filter, field="--filter")
    client, workspace = ctx.session.client, _workspace(ctx, args)
    page = client.files.list(
        workspace=workspace,
        metadata=metadata,
        purpose=args.purpose,
        order=args.order,
        limit=min(args.max_items or 10_000, 10_000),
    )
    return page.to_pandas(max_items=args.max_items)


def _search(ctx: NotebookContext, args: argparse.Namespace) -> pd.DataFrame:
    """The passages a question would retrieve, best first, as a DataFrame (:mod:`.searching`)."""
    return search_frame(
        ctx.session.client,
        " ".join(args.query),
        workspace=_workspace(ctx, args),
        filter=args.filter,
        top_k=args.top_k,
        everything=args.all,
        field="--filter",
    )


def _upload(ctx: NotebookContext, args: argparse.Namespace) -> pd.DataFrame:
    """Upload the paths and globs given, in one request; the new files as a DataFrame."""
    paths: list[str] = []
    for pattern in args.paths:
        paths += [p for p in _expand(pattern) if p not in paths]
    meta = parse_pairs(args.metadata, field="--metadata")
    client, workspace = ctx.session.client, _workspace(ctx, args)
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


def _expand(pattern: str) -> list[str]:
    """The files ``pattern`` names: itself when that path exists (``a [v2].md`` is a name,
    not a glob of ``a2.md``), else what it matches as a glob."""
    path = os.path.expanduser(pattern)
    if os.path.isdir(path):
        raise OptionError(f"%files upload: {pattern!r} is a folder; upload its files with "
                          f"{os.path.join(pattern, '*')!r}")  # fmt: skip
    found = [path] if os.path.exists(path) else sorted(glob.glob(path, recursive=True))
    found = [p for p in found if os.path.isfile(p)]
    if not found:
        raise OptionError(f"%files upload: no file matches {pattern!r}")
    return found


def _delete(ctx: NotebookContext, args: argparse.Namespace) -> None:
    files = ctx.session.client.files
    workspace = _workspace(ctx, args)
    ids = file_ids(ctx.session.client, workspace, args.ids)  # all known, or none go
    chosen = dict(zip(args.ids, ids, strict=True))
    for ref, file_id in chosen.items():
        files.delete(file_id, workspace=workspace)
        Message(f"deleted {file_id}" + (f" ({ref})" if ref != file_id else "")).show()


def _download(ctx: NotebookContext, args: argparse.Namespace) -> Path:
    """Download a file; to PATH (a directory keeps the file's name), by default here."""
    workspace = _workspace(ctx, args)
    file_id = _file_id(ctx, workspace, args.id)
    path = ctx.session.client.files.download(file_id, args.path or ".", workspace=workspace)
    Message(f"saved {file_id} to {path}").show()
    return path


def _show(ctx: NotebookContext, args: argparse.Namespace) -> Any:
    """A file's content: a table as a DataFrame, an image as an image, text as text; any
    other document (PDF, DOCX, ...) as the text the service extracted from it."""
    files = ctx.session.client.files
    workspace = _workspace(ctx, args)
    file_id = _file_id(ctx, workspace, args.id)
    info = files.get(file_id, workspace=workspace)
    suffix = Path(info.filename).suffix.lower()
    content = files.content(file_id, workspace=workspace)
    if not content:  # nothing to parse or draw: an empty output would look like a failure
        return Message(f"{info.filename} is empty (0 bytes)")
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

    text = readable_text(ctx.session.client, file_id, workspace=workspace, content=content)
    if text is None:
        return Message(
            f"{info.filename} is binary ({len(content)} bytes); %files download {file_id}"
        )
    if not text.strip():
        return Message(f"{info.filename} has no text ({len(content)} bytes)")
    _show_text(info.filename, text, suffix)
    return None


def _show_text(filename: str, text: str, suffix: str) -> None:
    cut = len(text) - SHOW_TEXT_CHARS
    shown = text[:SHOW_TEXT_CHARS]
    note = f"\n… {cut} more characters (%files download to read it all)" if cut > 0 else ""
    # a language for the fence only where the suffix names one (not ".pdf", ".docx")
    language = suffix.lstrip(".") if suffix in _TEXT - _PLAIN else ""
    markdown = safe_markdown(fenced(shown, language)) + safe_markdown(note)
    publish({"text/plain": shown + note, "text/markdown": markdown},
            {"chatspace": {"filename": one_line(filename)}})  # fmt: skip


def _update(ctx: NotebookContext, args: argparse.Namespace) -> dict[str, Any] | pd.DataFrame:
    """Merge k=v pairs into a file's metadata (``--unset k`` removes); the new metadata.
    ``--from NAME``: every row of the DataFrame ``NAME`` (see ``client.files.update``)."""
    if args.source is not None:
        return _update_from(ctx, args)
    if args.id is None:
        raise OptionError("%files update: give ID|NAME and k=v pairs, or --from DATAFRAME")
    pairs: dict[str, Any] = dict(parse_pairs(args.pairs, field="%files update"))
    for key in args.unset or ():
        pairs[key] = None
    if not pairs and args.instructions is None:
        raise OptionError("%files update: give k=v pairs, --unset KEY or --instructions TEXT")
    workspace = _workspace(ctx, args)
    updated = ctx.session.client.files.update(
        _file_id(ctx, workspace, args.id),
        pairs or None,
        instructions=args.instructions,
        workspace=workspace,
    )
    return dict(updated.metadata)


def _update_from(ctx: NotebookContext, args: argparse.Namespace) -> pd.DataFrame:
    """``%files update --from NAME``: the DataFrame variable ``NAME``, one file per row."""
    if args.id is not None or args.pairs or args.unset or args.instructions is not None:
        raise OptionError("%files update: --from takes no ID, k=v, --unset or --instructions")
    frame = ctx.namespace.get(args.source)
    if frame is None or not is_dataframe(frame):
        raise InputError(
            f"--from: {args.source!r} is not a DataFrame in the notebook "
            "(for a CSV file: df = pd.read_csv(PATH), then --from df)"
        )
    try:
        return ctx.session.client.files.update(frame, workspace=_workspace(ctx, args))
    except ValueError as exc:  # the frame's columns, or names matching no file or several
        raise InputError(f"--from {args.source}: {exc}") from None


def _with_workspace(parser: Parser) -> None:
    parser.add_argument("-w", "--workspace", help="workspace (default: the current one)")


def _list_options(parser: Parser) -> None:
    parser.add_argument(
        "--filter",
        metavar="K=V|K>=V|JSON",
        help="files whose metadata matches (docs/magics.md#filters)",
    )
    parser.add_argument("--purpose", help="files of this purpose")
    parser.add_argument("--order", choices=("asc", "desc"), default="desc", help="by upload time")
    parser.add_argument("--max-items", type=positive_int, metavar="N", help="at most N files")
    _with_workspace(parser)


def _search_options(parser: Parser) -> None:
    parser.add_argument("query", nargs="+", metavar="QUERY", help="what to search for")
    parser.add_argument("--filter", metavar="K=V|JSON", help="files whose metadata matches")
    parser.add_argument("--top-k", type=positive_int, metavar="N", help="at most N hits (1..50)")
    parser.add_argument("--all", action="store_true", help="no relevance cut: cite every hit")
    _with_workspace(parser)


def _upload_options(parser: Parser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH|GLOB", help="files to upload")
    parser.add_argument(
        "--metadata",
        action="append",
        metavar="K=V",
        help="metadata of each file (a pair each: --metadata a=1 --metadata b=2)",
    )
    parser.add_argument("--instructions", metavar="TEXT", help="derive metadata from the content")
    parser.add_argument(
        "--replace", action="store_true", help="delete earlier files of these names"
    )
    parser.add_argument("--no-progress", action="store_true", help="no bar for large uploads")
    _with_workspace(parser)


def _delete_options(parser: Parser) -> None:
    parser.add_argument("ids", nargs="+", metavar="ID|NAME", help="files to delete")
    _with_workspace(parser)


def _download_options(parser: Parser) -> None:
    parser.add_argument("id", metavar="ID|NAME", help="the file to download")
    parser.add_argument("path", nargs="?", metavar="PATH", help="where to (default: here)")
    _with_workspace(parser)


def _show_options(parser: Parser) -> None:
    parser.add_argument("id", metavar="ID|NAME", help="the file to show")
    parser.add_argument("--rows", type=positive_int, default=SHOW_TABLE_ROWS, help="table rows")
    _with_workspace(parser)


def _update_options(parser: Parser) -> None:
    parser.add_argument("id", nargs="?", metavar="ID|NAME", help="the file")
    parser.add_argument("pairs", nargs="*", metavar="K=V", help="metadata to set")
    parser.add_argument("--unset", action="append", metavar="KEY", help="metadata to remove")
    parser.add_argument("--instructions", metavar="TEXT", help="derive metadata from the content")
    parser.add_argument(
        "--from",
        dest="source",
        metavar="DATAFRAME",
        help="a DataFrame variable: a row per file (id or filename column), a column per key",
    )
    _with_workspace(parser)


COMMANDS = [
    Command("list", "the files as a DataFrame (--filter 'year>=2024')", _list_options, _list),
    Command(
        "search",
        "what a question would retrieve: QUERY [--filter k=v] [--top-k N] [--all]",
        _search_options,
        _search,
    ),
    Command(
        "upload",
        "upload files: PATH|GLOB ... [--metadata k=v] [--instructions TEXT]",
        _upload_options,
        _upload,
    ),
    Command("delete", "delete files: ID|NAME ...", _delete_options, _delete),
    Command("download", "download a file: ID|NAME [PATH]", _download_options, _download),
    Command("show", "show a file: text, a table as a DataFrame, an image", _show_options, _show),
    Command(
        "update",
        "update metadata: ID|NAME k=v ... | --unset KEY | --instructions TEXT | --from DF",
        _update_options,
        _update,
    ),
]
