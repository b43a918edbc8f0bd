"""Exports and the usage chart of the completions browser (pandas, pyarrow, matplotlib).

The heavy libraries load here, on first use, so that showing a panel stays fast. The
chart is drawn on a bare ``matplotlib.figure.Figure`` with the Agg canvas: no pyplot, no
global figure state, no GUI backend, and safe outside the main thread.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from ._common import PanelInputError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ExportFormat", "export_bytes", "export_format", "usage_chart_png"]

ExportFormat = Literal["csv", "parquet"]
MIME = {"csv": "text/csv", "parquet": "application/vnd.apache.parquet"}


def export_format(path: str | Path, format: str | None = None) -> ExportFormat:
    """The format asked for, else the one the file name's suffix names."""
    chosen = (format or Path(path).suffix.lstrip(".") or "csv").lower()
    if chosen not in ("csv", "parquet"):
        raise PanelInputError(f"cannot export to {chosen!r}: use a .csv or .parquet path")
    return "csv" if chosen == "csv" else "parquet"


def export_bytes(frame: pd.DataFrame, format: ExportFormat) -> bytes:
    """The frame as CSV (UTF-8) or Parquet bytes."""
    if format == "csv":
        return frame.to_csv(index=False).encode("utf-8")
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise PanelInputError("Parquet export needs pyarrow: pip install pyarrow") from None
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


def usage_chart_png(frame: pd.DataFrame) -> bytes:
    """A stacked bar chart of total tokens per day (UTC) and model, as PNG bytes."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise PanelInputError("the usage chart needs matplotlib: pip install matplotlib") from None
    import pandas as pd

    figure = Figure(figsize=(7, 3), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    if frame.empty:
        axes.text(0.5, 0.5, "No completions yet", ha="center", va="center")
        axes.set_axis_off()
    else:
        created = pd.to_datetime(frame["created"], utc=True)
        days = created.dt.strftime("%Y-%m-%d")
        table = (
            frame.assign(day=days)
            .pivot_table(
                index="day", columns="model", values="total_tokens", aggfunc="sum", fill_value=0
            )
            .sort_index()
        )
        days_shown = list(table.index)
        bottom = [0.0] * len(days_shown)
        for model in table.columns:
            values = [float(v) for v in table[model]]
            axes.bar(days_shown, values, bottom=bottom, width=0.6, label=str(model))
            bottom = [b + v for b, v in zip(bottom, values, strict=True)]
        pad = max(0.0, (5 - len(days_shown)) / 2)  # a lone day is a bar, not a wall
        axes.set_xlim(-0.5 - pad, len(days_shown) - 0.5 + pad)
        axes.set_ylabel("tokens")
        axes.set_title("Token usage per day and model")
        axes.legend(fontsize="small")
        axes.tick_params(axis="x", labelrotation=30, labelsize="small")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
