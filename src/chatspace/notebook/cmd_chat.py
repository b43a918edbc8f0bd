"""``%%chat`` and ``%chat``: ask, stream the answer in place, keep the thread going.

The cell (or the rest of the line) is the question; options choose the model, the
workspace, the files searched, the thread and how the answer is shown. Each call returns
a :class:`~chatspace.notebook.display.ChatResult`, also kept as ``_chat``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from .commands import Command
from .display import ChatResult, LiveView, publish
from .formats import FORMATS
from .interpolate import interpolate
from .options import (
    HelpRequested,
    Parser,
    identifier,
    parse_params,
    positive_int,
    split_args,
    split_leading_options,
)

if TYPE_CHECKING:
    from .context import NotebookContext

__all__ = ["COMMANDS", "SUBCOMMANDS", "add_chat_options", "chat", "chat_cell", "chat_line"]

EXAMPLES = """\
examples:
  %%chat -m service-l0 --files file-abc123 --top-k 3
  What do these notes say about {topic}?

  %chat --thread budget --new What did we spend on travel?
  %chat -o summary --format text Summarize {df} in one sentence
  %%chat
  Why did this fail? {Err[5]} The code was: {In[5]}

  %chat explain [N]   (the last failing cell, or cell N, with its error)
  %chat threads | %chat reset [NAME|--all] | %chat resume NAME | %chat config
  %chat export [THREAD] --to md|ipynb|json [-o PATH]

Braces: {name}, {name[0]}, {name[key]}, {name['key']} and {name.attr} are replaced, in the
question and in option values (--files {report.id}), when name exists in the notebook;
any other brace stays as typed; {{name}} is never replaced; --no-interpolate sends all
braces as typed. A DataFrame goes in compactly: its shape, columns and first rows.
{In[n]}, {Out[n]} and {Err[n]} are cell n's source, value and error (its traceback);
n may be relative: {In[-1]} is the cell before this one."""


def add_chat_options(parser: Parser) -> None:
    """The options of ``%%chat`` (also accepted at the start of ``%chat``)."""
    parser.epilog = EXAMPLES
    add = parser.add_argument
    add("-m", "--model", help="model to answer (default: see %%chat config)")
    add("-w", "--workspace", help="workspace to search and store in (default: the current one)")
    add("-s", "--system", metavar="TEXT", help="system prompt (kept for the rest of the thread)")
    add("-t", "--temperature", type=float, help="sampling temperature, 0 to 2")
    add("--max-tokens", type=positive_int, metavar="N", help="longest answer, in tokens")
    add("--param", action="append", metavar="K=V", help="any other request field (V as JSON)")
    add(
        "--files",
        nargs="+",
        metavar="ID|NAME",
        default=[],
        help="search only these files (ids, or names no other file has)",
    )
    add(
        "--filter",
        metavar="K=V|JSON",
        help='search files whose metadata match: "team=ml year>=2024" or a JSON filter',
    )
    add(
        "--top-k",
        type=positive_int,
        metavar="N",
        help="how many passages to retrieve (default: ChatspaceSettings.default_top_k)",
    )
    add("--df", type=identifier, metavar="NAME", help="upload this DataFrame and search only it")
    add(
        "--thread", metavar="NAME", help="continue (or start) this named thread; it becomes current"
    )
    add("--new", action="store_true", help="start the thread afresh, forgetting earlier turns")
    add(
        "--no-stream",
        dest="stream",
        action="store_false",
        default=None,
        help="wait for the whole answer",
    )
    add(
        "--format",
        choices=FORMATS,
        help="how to ask for, show and return the answer "
        "(default: ChatspaceSettings.default_format)",
    )
    add(
        "-o",
        "--output",
        type=identifier,
        metavar="NAME",
        help="also put the answer's value in NAME",
    )
    add("--store", action=argparse.BooleanOptionalAction, default=None, help="store the completion")
    add("--no-interpolate", dest="interpolate", action="store_false", help="send braces as typed")


def chat(ctx: NotebookContext, args: argparse.Namespace, prompt: str) -> ChatResult:
    """Send one question and show its answer; the heart of ``%%chat``."""
    from .asking import Question, ask, request_fields

    stream = ctx.session.settings.stream if args.stream is None else args.stream
    question = Question(
        text=prompt,
        model=args.model,
        workspace=args.workspace,
        system=args.system,
        temperature=args.temperature,
        max_tokens=args.max_tokens,
        params=parse_params(args.param, request_fields()),
        file_ids=list(args.files),
        filter=args.filter,
        top_k=args.top_k,
        df=args.df,
        format=args.format,
        store=args.store,
        stream=stream,
        thread=args.thread,
        new=args.new,
        interpolate=args.interpolate,
    )
    view = (
        LiveView(live=ctx.live, throttle=ctx.session.settings.stream_throttle) if stream else None
    )
    try:
        result = ask(ctx, question, on_text=view.feed if view is not None else None)
    finally:
        if view is not None:
            view.close()
    _show(ctx, result, view)
    if result.format == "code" and isinstance(result.value, str):
        ctx.set_next_input(result.value)
    ctx.namespace["_chat"] = result
    if args.output:
        ctx.namespace[args.output] = result.value
    return result


def _show(ctx: NotebookContext, result: ChatResult, view: LiveView | None) -> None:
    """Publish the final answer (after the live text), once; the cell's Out stays empty."""
    if view is not None and view.started and not view.live:
        print(result.plain_tail(printed=True))  # the text itself was printed as it arrived
    else:
        data, metadata = result._repr_mimebundle_()
        publish(data, metadata)
    ctx.shown(result)


# ------------------------------------------------------------------ entry points

_PARSERS: dict[str, Parser] = {}
SUBCOMMANDS = ("threads", "reset", "resume", "export", "config", "models", "explain")


def chat_parser(prog: str) -> Parser:
    """The parser of ``%%chat`` (``prog="%%chat"``) or of ``%chat``'s leading options."""
    if prog not in _PARSERS:
        parser = Parser(prog, "Ask a question over the files of the workspace.")
        add_chat_options(parser)
        _PARSERS[prog] = parser
    return _PARSERS[prog]


def chat_cell(ctx: NotebookContext, line: str, cell: str) -> ChatResult:
    """``%%chat [options]``: the cell is the question."""
    args = chat_parser("%%chat").parse(_options(ctx, split_args(line, "%%chat")))
    return chat(ctx, args, cell)


def chat_line(ctx: NotebookContext, line: str) -> Any:
    """``%chat [options] QUESTION``, or a subcommand (``threads``, ``models``, ...)."""
    first = line.split(None, 1)[0] if line.strip() else ""
    if first in SUBCOMMANDS:
        from .cmd_groups import group

        return group("chat").commands[first](ctx, split_args(line, "%chat")[1:])
    parser = chat_parser("%chat")
    if not first:
        raise HelpRequested(parser.format_help())
    argv, question = split_leading_options(parser, line)
    return chat(ctx, parser.parse(_options(ctx, argv)), question)


def _options(ctx: NotebookContext, words: list[str]) -> list[str]:
    """Option words with ``{name}`` interpolated one by one (``--files {report.id}``).

    Each word is replaced on its own after the line was split, so a value with spaces or
    quotes stays one value and is never read as options again.
    """
    if "--no-interpolate" in words:
        return words
    limit = ctx.session.settings.max_interpolated_chars
    names = ctx.names
    return [interpolate(word, names, max_chars=limit).text for word in words]


# ------------------------------------------------------------------ %chat explain


def _explain_options(parser: Parser) -> None:
    parser.add_argument(
        "cell",
        nargs="?",
        type=int,
        metavar="N",
        help="the cell whose error to explain (default: the last cell that failed; -1: the "
        "cell before)",
    )
    add_chat_options(parser)
    parser.epilog = "examples:\n  %chat explain\n  %chat explain 5 -m my-model --thread debug"


def _explain(ctx: NotebookContext, args: argparse.Namespace) -> ChatResult:
    """Ask about a failing cell: its source and its traceback are the question."""
    from .cells import error_question

    question = error_question(
        ctx.cells, args.cell, max_chars=ctx.session.settings.max_interpolated_chars
    )
    args.interpolate = False  # the braces of the code and the traceback are no placeholders
    return chat(ctx, args, question)


COMMANDS = [
    Command(
        "explain",
        "ask why a cell failed: its source and error (default: the last failing cell)",
        _explain_options,
        _explain,
    ),
]
