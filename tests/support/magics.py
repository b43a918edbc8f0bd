"""Running magics in the test shell and reading what they showed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from IPython.utils.capture import RichOutput, capture_output

NOTES = (
    b"Paris is the capital of France.\n"
    b"Lyon is known for its food and its silk.\n"
    b"The Q3 churn in Lyon was 5 percent.\n"
)


@dataclass
class Ran:
    """One cell's outcome: its value, its display outputs, its printed text."""

    value: Any
    outputs: list[RichOutput]
    stdout: str
    error: BaseException | None

    @property
    def final(self) -> list[RichOutput]:
        """Outputs that are not live updates (what a saved notebook keeps)."""
        return [o for o in self.outputs if not o.update]

    @property
    def updates(self) -> list[RichOutput]:
        return [o for o in self.outputs if o.update]

    def plain(self) -> str:
        """The text/plain of every final output, one after the other."""
        return "\n".join(o.data.get("text/plain", "") for o in self.final)

    def markdown(self) -> str:
        return "\n".join(o.data.get("text/markdown", "") for o in self.final)

    def error_line(self) -> str:
        """The one error line the cell showed (and checks that it is one line)."""
        errors = [o for o in self.final if o.data.get("text/plain", "").startswith("✗")]
        assert len(errors) == 1, self.plain()
        line = errors[0].data["text/plain"]
        assert "\n" not in line
        assert "Traceback" not in line
        return str(line)


def run(ip: Any, source: str, *, store_history: bool = False) -> Ran:
    """Run ``source`` as a cell (live-updating outputs, as in a notebook) and capture it;
    ``store_history`` gives it a number of its own in ``In``, as a notebook's cells have."""
    with capture_output() as cap:
        result = ip.run_cell(source, store_history=store_history)
    assert result.error_in_exec is None, result.error_in_exec  # never a traceback
    outputs = list(cap.outputs)
    shown_itself = hasattr(result.result, "_ipython_display_")  # a ChatResult: shown above
    if result.result is not None and not shown_itself:  # what the kernel sends as Out
        data, metadata = format_all(ip, result.result)
        if data:
            outputs.append(RichOutput(data, metadata))
    return Ran(result.result, outputs, cap.stdout, result.error_before_exec)


def render_markdown(text: str) -> str:
    """HTML as a front end renders Markdown: raw HTML enabled, as in JupyterLab's marked."""
    from markdown_it import MarkdownIt

    return str(MarkdownIt("commonmark", {"html": True}).enable("table").render(text))


def format_all(ip: Any, value: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The mimebundle a notebook would get for ``value`` (a terminal only asks for text)."""
    formatter = ip.display_formatter
    saved = formatter.active_types
    formatter.active_types = list(formatter.formatters)
    try:
        data, metadata = formatter.format(value)
    finally:
        formatter.active_types = saved
    return data, metadata
