"""``%%chat`` and ``%chat``: ask, stream the answer in place, keep the thread going.

The cell (or the rest of the line) is the question; options choose the model, the
workspace, the files searched, the thread and how the answer is shown. Each call returns
a :class:`~chatspace.notebook.display.ChatResult`, also kept as ``_chat``.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .display import ChatResult, Citation, LiveView, publish
from .formats import FORMAT_HINTS, FORMATS, take_value
from .interpolate import interpolate
from .options import (
    HelpRequested,
    OptionError,
    Parser,
    identifier,
    parse_filter,
    parse_params,
    positive_int,
    split_args,
    split_leading_options,
)

if TYPE_CHECKING:
    from chatspace.client import Client

    from .magics import ChatspaceMagics
    from .threads import Thread, Turn

__all__ = ["SUBCOMMANDS", "add_chat_options", "ask", "chat_cell", "chat_line"]

# Fields with options of their own, or set by the magic: not for --param.
_OWN_FIELDS = {"messages", "workspace", "model", "stream", "stream_options", "store"}

EXAMPLES = """\
examples:
  %%chat -m service-l0 --files file-abc123 --top-k 3
  What do these notes say about {topic}?

  %chat --thread budget --new What did we spend on travel?
  %chat -o summary --format text Summarize {df} in one sentence
  %chat threads | %chat reset [NAME|--all] | %chat resume NAME | %chat config

Braces: {name}, {name[0]}, {name[key]}, {name['key']} and {name.attr} are replaced, in the
question and in option values (--files {report.id}), when name exists in the notebook;
any other brace stays as typed; {{name}} is never replaced; --no-interpolate sends all
braces as typed. A DataFrame goes in compactly: its shape, columns and first rows."""


def add_chat_options(parser: Parser) -> None:
    """The options of ``%%chat`` (also accepted at the start of ``%chat``)."""
    parser.epilog = EXAMPLES
    add = parser.add_argument
    add("-m", "--model", help="model to answer (default: ChatspaceMagics.default_model)")
    add("-w", "--workspace", help="workspace to search and store in (default: the current one)")
    add("-s", "--system", metavar="TEXT", help="system prompt (kept for the rest of the thread)")
    add("-t", "--temperature", type=float, help="sampling temperature, 0 to 2")
    add("--max-tokens", type=positive_int, metavar="N", help="longest answer, in tokens")
    add("--param", action="append", metavar="K=V", help="any other request field (V as JSON)")
    add("--files", nargs="+", metavar="ID", default=[], help="search only these files")
    add("--filter", metavar="JSON", help='search files whose metadata matches, e.g. {"team": "x"}')
    add("--top-k", type=positive_int, metavar="N", help="how many passages to retrieve")
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
    add("--format", choices=FORMATS, default="markdown", help="how to show and return the answer")
    add(
        "-o",
        "--output",
        type=identifier,
        metavar="NAME",
        help="also put the answer's value in NAME",
    )
    add("--store", action=argparse.BooleanOptionalAction, default=None, help="store the completion")
    add("--no-interpolate", dest="interpolate", action="store_false", help="send braces as typed")


@dataclass
class _Request:
    """What one call sends, and what the result needs to know about it."""

    kwargs: dict[str, Any]
    question: str
    thread: str
    turn: int
    history_sent: int
    history_left_out: int
    token_budget: int
    interpolated: list[str] = field(default_factory=list)


def ask(magics: ChatspaceMagics, args: argparse.Namespace, prompt: str) -> ChatResult:
    """Send one question and show its answer; the heart of ``%%chat``."""
    session = magics.session
    client = session.client
    request = _build(magics, client, args, prompt)
    stream = session.stream if args.stream is None else args.stream
    started = time.perf_counter()
    if stream:
        result, view = _streamed(magics, client, request)
    else:
        completion = client.chat.create(**request.kwargs)
        result, view = _result(completion, request, interrupted=False), None
    result.elapsed = time.perf_counter() - started
    result.format = args.format
    take_value(result, args.format)
    _show(magics, result, view)
    if not result.interrupted:  # a partial answer would mislead the next turns
        magics.threads.get(request.thread).turns.append(_turn(request, result))
    if args.format == "code" and isinstance(result.value, str) and magics.shell is not None:
        magics.shell.set_next_input(result.value, replace=False)
    if magics.shell is not None:
        magics.shell.user_ns["_chat"] = result
        if args.output:
            magics.shell.user_ns[args.output] = result.value
    return result


# ------------------------------------------------------------------ building the request


def _build(
    magics: ChatspaceMagics, client: Client, args: argparse.Namespace, prompt: str
) -> _Request:
    """The request of one call; every option is checked before the thread changes."""
    session = magics.session
    namespace = magics.shell.user_ns if magics.shell is not None else {}
    question = prompt.strip()
    if not question:
        raise OptionError("%%chat: the question is empty: write it in the cell (see %%chat --help)")
    used: list[str] = []
    if args.interpolate:
        done = interpolate(question, namespace, max_chars=magics.max_interpolated_chars)
        question, used = done.text, done.names
    workspace = args.workspace or session.workspace
    kwargs: dict[str, Any] = parse_params(args.param, _param_fields())
    content = _content(magics, client, args, question, workspace)

    if args.thread:
        magics.threads.select(args.thread)
    thread = magics.threads.reset() if args.new else magics.threads.get()
    if args.system is not None:  # interpolated with the other options (_options)
        thread.system = args.system
    history, sent, left_out = thread.history(magics.thread_token_budget)
    system = "\n\n".join(p for p in (thread.system, FORMAT_HINTS.get(args.format)) if p)
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    messages += [*history, {"role": "user", "content": content}]

    kwargs.update(messages=messages, model=args.model or session.model, workspace=workspace)
    if args.temperature is not None:
        kwargs["temperature"] = args.temperature
    if args.max_tokens is not None:
        kwargs["max_tokens"] = args.max_tokens
    if args.format == "json":
        kwargs.setdefault("response_format", {"type": "json_object"})
    turn = len(thread.turns) + 1
    kwargs["store"] = session.store if args.store is None else args.store
    if kwargs["store"]:
        kwargs["metadata"] = {**_tags(magics, thread, turn), **(kwargs.get("metadata") or {})}
    budget = magics.thread_token_budget
    return _Request(kwargs, question, thread.name, turn, sent, left_out, budget, used)


def _tags(magics: ChatspaceMagics, thread: Thread, turn: int) -> dict[str, str]:
    """The metadata a stored turn carries: what ``%chat resume`` and the panels read."""
    tags = {"thread": thread.name, "turn": str(turn), "conversation": thread.conversation}
    notebook = magics.notebook_name()
    if notebook:
        tags["notebook"] = notebook
    return tags


def _content(
    magics: ChatspaceMagics,
    client: Client,
    args: argparse.Namespace,
    question: str,
    workspace: str,
) -> str | list[dict[str, Any]]:
    """The user message: plain text, or text and a filter part when retrieval is narrowed."""
    file_ids = list(args.files)
    if args.df:
        file_ids.append(_upload_frame(magics, client, args.df, workspace))
    filter_json = parse_filter(args.filter)
    if not (file_ids or filter_json or args.top_k):
        return question
    part: dict[str, Any] = {"type": "filter"}
    if file_ids:
        part["file_ids"] = file_ids
    if filter_json:
        part["filter"] = filter_json
    if args.top_k:
        part["top_k"] = args.top_k
    return [{"type": "text", "text": question}, part]


def _upload_frame(magics: ChatspaceMagics, client: Client, name: str, workspace: str) -> str:
    """Upload DataFrame ``name`` (once per content and workspace); its file id."""
    namespace = magics.shell.user_ns if magics.shell is not None else {}
    if name not in namespace:
        raise OptionError(f"--df: there is no variable named {name!r} in the notebook")
    frame = namespace[name]
    if not (type(frame).__name__ == "DataFrame" and type(frame).__module__.startswith("pandas")):
        raise OptionError(f"--df: {name!r} is a {type(frame).__name__}, not a pandas DataFrame")
    key = (workspace, name, _fingerprint(frame))
    if key not in magics.frame_uploads:
        uploaded = client.files.upload(
            frame,
            filename=f"{name}.csv",
            metadata={"source": "dataframe", "variable": name},
            workspace=workspace,
        )
        magics.frame_uploads[key] = uploaded.id
    return magics.frame_uploads[key]


def _fingerprint(frame: Any) -> str:
    import hashlib

    import pandas as pd

    digest = hashlib.sha256(repr((frame.shape, list(frame.columns))).encode())
    try:
        digest.update(pd.util.hash_pandas_object(frame, index=True).to_numpy().tobytes())
    except TypeError:  # unhashable cells (lists, dicts): hash the CSV text instead
        digest.update(frame.to_csv().encode())
    return digest.hexdigest()


def _param_fields() -> list[str]:
    from chatspace.types import ChatCompletionRequest

    return sorted(set(ChatCompletionRequest.model_fields) - _OWN_FIELDS)


# ------------------------------------------------------------------ calling


def _streamed(
    magics: ChatspaceMagics, client: Client, request: _Request
) -> tuple[ChatResult, LiveView]:
    """Stream the answer into a live view; Ctrl-C stops it and keeps what arrived."""
    from chatspace.errors import APIStreamError

    view = LiveView(live=magics.live_updates(), throttle=magics.stream_throttle)
    stream = client.chat.stream(**request.kwargs)
    error: str | None = None
    interrupted = False
    try:
        for _chunk in stream:
            view.feed(stream.text)
    except KeyboardInterrupt:
        interrupted, error = True, None
    except APIStreamError as exc:
        if not stream.text:
            raise
        interrupted, error = True, str(exc)
    finally:
        stream.close()
        view.close()
    completion = stream.completion
    if completion is None:
        if interrupted:
            result = ChatResult(text=stream.text, model=request.kwargs["model"])
            _describe(result, request, interrupted=True)
            return result, view
        raise APIStreamError("The answer stream ended before any text arrived; ask again.")
    result = _result(completion, request, interrupted=interrupted)
    result.error = error
    return result, view


def _result(completion: Any, request: _Request, *, interrupted: bool) -> ChatResult:
    choice = completion.choices[0] if completion.choices else None
    annotations = choice.message.annotations if choice else []
    result = ChatResult(
        text=completion.text,
        model=completion.model,
        id=completion.id,
        completion=None if interrupted else completion,
        citations=Citation.from_annotations(annotations),
        usage=None if interrupted else completion.usage,
        finish_reason=choice.finish_reason if choice else None,
    )
    _describe(result, request, interrupted=interrupted)
    return result


def _describe(result: ChatResult, request: _Request, *, interrupted: bool) -> None:
    result.workspace = request.kwargs["workspace"]
    result.thread = request.thread
    result.turn = request.turn
    result.stored = bool(request.kwargs.get("store")) and not interrupted
    result.interrupted = interrupted
    result.history_sent = request.history_sent
    result.history_left_out = request.history_left_out
    result.token_budget = request.token_budget
    result.interpolated = request.interpolated


# ------------------------------------------------------------------ showing


def _show(magics: ChatspaceMagics, result: ChatResult, view: LiveView | None) -> None:
    """Publish the final answer (after the live text), once; the cell's Out stays empty."""
    if view is not None and view.started and not view.live:
        print(result.plain_tail())  # the text itself was printed as it arrived
    else:
        data, metadata = result._repr_mimebundle_()
        publish(data, metadata)
    magics.shown(result)


def _turn(request: _Request, result: ChatResult) -> Turn:
    """The turn to send again later; the answer's cost is the service's own count."""
    from .threads import Turn, estimate_tokens

    answer_tokens = result.usage.completion_tokens if result.usage else 0
    tokens = estimate_tokens(request.question) + (answer_tokens or estimate_tokens(result.text))
    return Turn(request.question, result.text, result.id, tokens)


# ------------------------------------------------------------------ entry points

_PARSERS: dict[str, Parser] = {}
SUBCOMMANDS = ("threads", "reset", "resume", "config", "models")


def chat_parser(prog: str) -> Parser:
    """The parser of ``%%chat`` (``prog="%%chat"``) or of ``%chat``'s leading options."""
    if prog not in _PARSERS:
        parser = Parser(prog, "Ask a question over the files of the workspace.")
        add_chat_options(parser)
        _PARSERS[prog] = parser
    return _PARSERS[prog]


def chat_cell(magics: ChatspaceMagics, line: str, cell: str) -> ChatResult:
    """``%%chat [options]``: the cell is the question."""
    args = chat_parser("%%chat").parse(_options(magics, split_args(line, "%%chat")))
    return ask(magics, args, cell)


def chat_line(magics: ChatspaceMagics, line: str) -> Any:
    """``%chat [options] QUESTION``, or a subcommand (``threads``, ``models``, ...)."""
    first = line.split(None, 1)[0] if line.strip() else ""
    if first in SUBCOMMANDS:
        from .cmd_groups import group

        return group("chat").commands[first](magics, split_args(line, "%chat")[1:])
    parser = chat_parser("%chat")
    if not first:
        raise HelpRequested(parser.format_help())
    argv, question = split_leading_options(parser, line)
    return ask(magics, parser.parse(_options(magics, argv)), question)


def _options(magics: ChatspaceMagics, words: list[str]) -> list[str]:
    """Option words with ``{name}`` interpolated one by one (``--files {report.id}``).

    Each word is replaced on its own after the line was split, so a value with spaces or
    quotes stays one value and is never read as options again.
    """
    if "--no-interpolate" in words or magics.shell is None:
        return words
    namespace = magics.shell.user_ns
    limit = magics.max_interpolated_chars
    return [interpolate(word, namespace, max_chars=limit).text for word in words]
