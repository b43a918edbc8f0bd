"""Tables answered as tables (issue 18, point 2), through the real service and ``service-l0``.

A question that names values ("the South region in March") quotes the rows that hold
them; one that asks for a total, an average, a count or an extreme gets the value computed
over the table and cites the rows it comes from; a two-column table of facts reads as
``key: value`` lines. Every quote is exact text of the file.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import matplotlib
import pandas as pd
import pytest

from chatspace.client import Client
from chatspace.service.engines.table_rows import answer_tables
from chatspace.service.retrieval.extract import extract
from chatspace.service.retrieval.search import Passage, query_of
from chatspace.service.retrieval.tables import (
    abbreviates,
    comma_numbers,
    computing_words,
    date_span,
    key_value_text,
    number,
)
from chatspace.types import ChatMessage
from support.chat import ask, checked_citations, client_for, upload
from support.documents import odt_bytes, parquet_bytes
from support.office_files import (
    CONTRACT_TERMS,
    PROJECT_CARD,
    SALES,
    SALES_COLUMNS,
    TICKETS,
    acme_contract_docx,
    project_card_pptx,
    returns_frame,
    sales_deck_pptx,
    sales_report_docx,
    sales_xlsx,
    tickets_csv,
)
from support.service import Service


def _csv(delimiter: str = ",") -> str:
    rows = [SALES_COLUMNS, *SALES]
    return "\n".join(delimiter.join(str(cell) for cell in row) for row in rows) + "\n"


SALES_FILES: dict[str, bytes | str] = {
    "sales.csv": _csv(),
    "sales.tsv": _csv("\t"),
    "sales.xlsx": sales_xlsx(),
    "sales.parquet": parquet_bytes(
        {name: [row[i] for row in SALES] for i, name in enumerate(SALES_COLUMNS)}
    ),
    "report.docx": sales_report_docx(),
    "deck.pptx": sales_deck_pptx(),
    # a data scientist's export: pandas writes a <thead> of <th> cells
    "sales.html": pd.DataFrame(SALES, columns=SALES_COLUMNS).to_html(index=False),
}
# How each file writes South's March row: documents show "58,300", which CSV quotes.
SOUTH_MARCH = {
    "sales.tsv": "South\tMarch\t58300\t547",
    "report.docx": 'South,March,"58,300",547',
    "deck.pptx": 'South,March,"58,300",547',
}
NORTH_ROWS = [row for row in SALES if row[0] == "North"]


@pytest.fixture
def client(service: Service, org: str) -> Iterator[httpx.Client]:
    with client_for(service, org) as c:
        yield c


def _message(answer: dict[str, Any]) -> dict[str, Any]:
    return dict(answer["choices"][0]["message"])


# ---------------------------------------------------------------- rows named by their values


@pytest.mark.parametrize("name", list(SALES_FILES))
def test_the_row_a_question_names_is_quoted_with_its_columns(
    client: httpx.Client, name: str
) -> None:
    (uploaded,) = upload(client, [(name, SALES_FILES[name])])
    answer = ask(client, "What was the revenue of the South region in March?")
    cited = checked_citations(client, answer)
    row = SOUTH_MARCH.get(name, "South,March,58300,547")
    assert cited[0] == (name, row), _message(answer)["content"]
    assert all(not quote.startswith("Region") for _, quote in cited), "never the header"
    revenue = "58,300" if name in {"report.docx", "deck.pptx"} else "58300"
    shown = f'"Region: South, Month: March, Revenue (EUR): {revenue}, Units: 547" ({name}) [1]'
    assert f"\n- {shown}" in _message(answer)["content"]
    assert uploaded["filename"] == name


def _report_docx(frame: pd.DataFrame, before: str, after: str = "") -> bytes:
    """A Word report of one table, ``frame`` (its numbers with thousands separators),
    between two paragraphs."""
    import docx

    document = docx.Document()
    document.add_paragraph(before)
    table = document.add_table(rows=1, cols=len(frame.columns))
    for cell, name in zip(table.rows[0].cells, frame.columns, strict=True):
        cell.text = name
    for row in frame.itertuples(index=False):
        for cell, value in zip(table.add_row().cells, row, strict=True):
            cell.text = f"{value:,}" if isinstance(value, int) else value
    document.add_paragraph(after)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _stores_report_docx() -> tuple[bytes, pd.DataFrame]:
    """A Word report whose table of 80 stores by month is more passages long than a
    question is given (5), between two paragraphs; and its rows as pandas reads them."""
    months = ["January", "February", "March"]
    frame = pd.DataFrame(
        [
            [f"Store {s:02d}", ["North", "South", "East", "West"][s % 4], month,
             (s * 37 + m * 11) % 90 * 100 + 500, (s * 13 + m * 7) % 80 + 10]
            for s in range(1, 81) for m, month in enumerate(months)
        ],
        columns=["Store", "Region", "Month", "Revenue (EUR)", "Units"],
    )  # fmt: skip
    before = "Sales of the eighty stores of the chain, by month."
    return _report_docx(frame, before, "Stores open on Sundays from April."), frame


def test_a_document_s_table_is_computed_over_all_its_passages(client: httpx.Client) -> None:
    """A Word table of 240 rows is ten passages, each led by its header. "How many units
    were sold in February?" summed the rows of the five passages given (40 of its 80): a
    document's table is read whole, as a table file is. "How many units
    did Store 17 sell in February?" summed February's too: "store" names a column and
    "17" is a number, so neither filtered; a cell the question spells whole does. "The
    average revenue per store and month" listed each row as its own group."""
    data, frame = _stores_report_docx()
    (report,) = upload(client, [("stores.docx", data)])
    blocks = client.get(f"/files/{report['id']}/text").text.count("Store,Region,Month")
    assert blocks > 5, "the table spans more passages than are given"

    def said(question: str) -> tuple[str, list[tuple[str, str]]]:
        answer = ask(client, question)
        return str(_message(answer)["content"]), checked_citations(client, answer)

    february = frame[frame["Month"] == "February"]
    content, cited = said("How many units were sold in February?")
    total = f"- Total Units for Month February: {february['Units'].sum():,} (sum of 80 rows of "
    assert total in content, content
    assert all(",February," in quote for _, quote in cited[:10])
    (row,) = frame[(frame["Store"] == "Store 17") & (frame["Month"] == "February")].itertuples()
    content, cited = said("How many units did Store 17 sell in February?")
    assert f"- Units for Month February, Store 17: {row.Units} (stores.docx) [1]" in content
    assert cited[0] == ("stores.docx", f'Store 17,{row.Region},February,"{row[4]:,}",{row.Units}')
    content, _ = said("What is the average revenue per store and month?")
    mean = frame["Revenue (EUR)"].mean()
    assert f"- Average Revenue (EUR): {mean:,.2f} (mean of 240 rows of " in content, (
        "a row per store and month groups nothing"
    )


def test_a_sum_of_line_items_for_a_spelled_cell_is_its_one_amount_column(
    client: httpx.Client,
) -> None:
    """The answer to "sum of line items for cost centre CC-520?" listed CC-520's rows:
    "items" is what any table's rows are, and "cc" and "520" were read as words no cell
    holds, so the one numeric column was not taken as the one asked for."""
    frame = pd.DataFrame(
        [[f"CX-{200 + i:04d}", f"Asset {i}", f"CC-{510 + i % 3 * 10}", 1000 + i * 137,
          ["Approved", "Deferred"][i % 2]] for i in range(12)],
        columns=["Line", "Asset", "Cost Centre", "Amount (EUR)", "Status"],
    )  # fmt: skip
    upload(client, [("capex.docx", _report_docx(frame, "Capital expenditure requests for FY24."))])
    total = frame[frame["Cost Centre"] == "CC-520"]["Amount (EUR)"].sum()
    for question in ("sum of line items for cost centre CC-520?", "What is the total for CC-520?"):
        content = _message(ask(client, question))["content"]
        assert (
            f"- Total Amount (EUR) for Cost Centre CC-520: {total:,} (sum of 4 rows" in content
        ), (
            question,
            content,
        )


def test_a_difference_of_two_columns_is_computed_for_each_row(client: httpx.Client) -> None:
    """The answer to "Which department has the biggest H2 overspend vs budget?" was the
    highest H2 budget: no column is an overspend. Two columns whose names differ by one
    word ("H2 Budget", "H2 Actual") are set against each other row by row: over budget
    is actual less budget, under it budget less actual, and a difference between two is
    either way."""
    frame = pd.DataFrame(
        [["Finance", 410, 333, 2400, 2300], ["Logistics", 1700, 2077, 1848, 2140],
         ["Research", 2391, 2873, 527, 588], ["Facilities", 2370, 1944, 955, 947]],
        columns=["Department", "H1 Budget", "H1 Actual", "H2 Budget", "H2 Actual"],
    )  # fmt: skip
    upload(client, [("budget.csv", frame.to_csv(index=False))])
    h1, h2 = frame["H1 Actual"] - frame["H1 Budget"], frame["H2 Actual"] - frame["H2 Budget"]
    asked = {
        "Which department has the biggest H2 overspend vs budget?":
            ("Highest H2 Actual − H2 Budget", h2.max(), h2.idxmax()),
        "Which department is most under budget in H1?":
            ("Highest H1 Budget − H1 Actual", (-h1).max(), (-h1).idxmax()),
        "What is the largest difference between H1 budget and actual?":
            ("Highest Difference of H1 Budget and H1 Actual", h1.abs().max(), h1.abs().idxmax()),
    }  # fmt: skip
    for question, (label, value, row) in asked.items():
        answer = ask(client, question)
        assert f"- {label}: {value:,} (max of 4 rows): " in _message(answer)["content"], question
        line = ",".join(map(str, frame.iloc[row]))
        assert checked_citations(client, answer)[0] == ("budget.csv", line), question
    assert h2.idxmax() != frame["H2 Actual"].idxmax() != (-h1).idxmax(), "no column alone says"


def test_a_word_table_is_judged_without_the_words_no_cell_says(client: httpx.Client) -> None:
    """ "Which workstream has the biggest H2 overspend vs budget?" of a Word report said
    nothing: its table's passage was judged as prose, and "overspend" and "vs", which no
    cell says, counted against it. A document's table is judged as a table file's rows
    are, without the words that ask for a computation ("What does X mean?" asks none)."""
    frame = pd.DataFrame(
        [["Data Platform", 1147, 951, 410, 333], ["Fleet Electrification", 2425, 2698, 1848, 2140],
         ["Customer Portal", 2391, 2873, 527, 588], ["ERP Upgrade", 1319, 1239, 1065, 893]],
        columns=["Workstream", "H1 2024 Budget", "H1 2024 Actual", "H2 2024 Budget",
                 "H2 2024 Actual"],
    )  # fmt: skip
    before = "Capital spend by workstream, EUR thousands, as reviewed by the steering committee."
    upload(client, [("capex-review.docx", _report_docx(frame, before, "Figures are unaudited."))])
    sections = (
        f"## Team {n}\n\nThe budget of team {n} is set each spring by the finance office. "
        + "Each workstream reports its H1 and H2 spend against the budget every quarter. " * 6
        for n in range(12)
    )
    upload(client, [("handbook.md", "# Budgets\n\n" + "\n\n".join(sections))])
    content = _message(ask(client, "Which workstream has the biggest H2 overspend vs budget?"))[
        "content"
    ]
    assert "- Highest H2 2024 Actual − H2 2024 Budget: 292 (max of 4 rows): " in content, content
    assert computing_words("What does the state 'idle in transaction' mean?") == frozenset()
    assert computing_words("What is the mean revenue?") == {"mean"}


def test_a_number_joined_to_its_unit_filters_the_column_it_names(client: httpx.Client) -> None:
    """Of "the lowest average MAPE at the 48-hour horizon", ``horizon_h`` was averaged by
    model: "horizon" and "hour" named it more than "MAPE" named ``mape_pct``. A number a hyphen
    joins to its unit is the value of the column the words after it name."""
    base = {"naive": (2.0, 2.0), "gbm_v3": (2.5, 1.5), "tft_v1": (4.0, 0.5)}
    frame = pd.DataFrame(
        [[model, horizon, region, round(first + slope * horizon / 24 + k / 10, 2)]
         for model, (first, slope) in base.items() for horizon in (1, 24, 48)
         for k, region in enumerate(("Wales", "Scotland", "Midlands"))],
        columns=["model", "horizon_h", "region", "mape_pct"],
    )  # fmt: skip
    upload(client, [("backtest.csv", frame.to_csv(index=False))])
    means = frame[frame["horizon_h"] == 48].groupby("model")["mape_pct"].mean()
    content = _message(
        ask(
            client, "Which model has the lowest average MAPE across regions at the 48-hour horizon?"
        )
    )["content"]
    best = f"{means.idxmin()} {means.min():.4f} (3 rows)"
    assert f"Lowest average mape_pct by model for horizon_h = 48: {best}" in content, content
    assert means.idxmin() != frame.groupby("model")["mape_pct"].mean().idxmin()


def test_words_one_cell_holds_together_filter_to_that_cell(client: httpx.Client) -> None:
    """The question "How many Exchange jobs were aborted because of no access?" asked for
    a column named "access" to be empty, found none, and answered with one row: "no
    access" is the words of a cell. A column's filter words that one cell holds together
    keep that cell's rows ("Aborted - no access", not "Aborted - safety")."""
    outcomes = ["Completed", "Aborted - no access", "Aborted - safety", "Rescheduled"]
    frame = pd.DataFrame(
        [[f"J-{500 + i}", ["Exchange", "Install"][i % 2], outcomes[i * 7 % 13 % 4]]
         for i in range(40)],
        columns=["Job ID", "Job Type", "Outcome"],
    )  # fmt: skip
    upload(client, [("jobs.csv", frame.to_csv(index=False))])
    kept = frame[(frame["Job Type"] == "Exchange") & (frame["Outcome"] == outcomes[1])]
    aborted = frame[(frame["Job Type"] == "Exchange") & frame["Outcome"].str.startswith("Abort")]
    assert 0 < len(kept) < len(aborted)
    answer = ask(client, "How many Exchange jobs were aborted because of no access?")
    content = _message(answer)["content"]
    shown = f"Rows with Job Type Exchange, Outcome Aborted - no access: {len(kept)} of 40"
    assert shown in content, content


def test_a_stretch_of_days_keeps_the_rows_within_it(client: httpx.Client) -> None:
    """A question's "between 1 and 15 April 2025" kept 15 April alone: "1" is no date by itself. The
    first day of a stretch takes the month and year its last day says."""
    days = pd.date_range("2025-03-20", "2025-04-30", freq="D")
    frame = pd.DataFrame(
        {"credit_id": [f"CR-{i}" for i in range(len(days) * 2)],
         "issued_date": [d.strftime("%Y-%m-%d") for d in days for _ in (0, 1)],
         "amount_gbp": [round(10 + i * 1.37 % 40, 2) for i in range(len(days) * 2)]}
    )  # fmt: skip
    upload(client, [("credits.csv", frame.to_csv(index=False))])
    within = frame[frame["issued_date"].between("2025-04-01", "2025-04-15")]
    for question, shown in (
        ("How many credits were issued between 1 and 15 April 2025 inclusive?",
         f"Rows with issued_date 2025-04-01 to 2025-04-15: {len(within)} of {len(frame)}"),
        ("What was the total amount of credits from 1 April to 15 April 2025?",
         f"Total amount_gbp for issued_date 2025-04-01 to 2025-04-15: "
         f"{within['amount_gbp'].sum():,.2f} (sum of {len(within)} rows"),
    ):  # fmt: skip
        content = _message(ask(client, question))["content"]
        assert shown in content, (question, content)
    # a month misspelt is no date: answered from the words, not a server error
    ask(client, "How many credits were issued between 1 and 15 aprl 2025?")


def test_a_lookup_sheet_filters_the_sheet_it_describes(client: httpx.Client) -> None:
    """ "How many jobs were completed by engineers based at the Preston depot?": the jobs
    sheet names engineers by id, and only the engineers' sheet says where each is based.
    Its rows that "Preston" keeps give the ids (the column both sheets name alike) that
    keep the jobs' rows."""
    engineers = pd.DataFrame(
        {"Engineer ID": [f"E-{100 + i}" for i in range(8)],
         "Name": ["Gareth Pugh", "Siobhan Kerr", "Imran Qureshi", "Tomasz Wojcik", "Ann Lee",
                  "Joanna Baxter", "Nadia Rahman", "Beth Lomax"],
         "Depot": ["Preston", "Wigan", "Bolton", "Preston", "Wigan", "Bolton", "Preston", "Wigan"]}
    )  # fmt: skip
    jobs = pd.DataFrame(
        {"Job ID": [f"J-{500 + i}" for i in range(60)],
         "Engineer ID": [f"E-{100 + i * 5 % 8}" for i in range(60)],
         "Outcome": [("Completed", "Rescheduled", "Aborted")[i % 4 % 3] for i in range(60)]}
    )  # fmt: skip
    out = io.BytesIO()
    with pd.ExcelWriter(out) as writer:
        jobs.to_excel(writer, sheet_name="Jobs", index=False)
        engineers.to_excel(writer, sheet_name="Engineers", index=False)
    upload(client, [("jobs-week19.xlsx", out.getvalue())])
    preston = engineers[engineers["Depot"] == "Preston"]["Engineer ID"]
    done = jobs[jobs["Engineer ID"].isin(preston) & (jobs["Outcome"] == "Completed")]
    question = "How many jobs were completed by engineers based at the Preston depot?"
    content = _message(ask(client, question))["content"]
    shown = f"Rows with Outcome Completed, Engineer ID of Depot Preston: {len(done)} of 60"
    assert shown in content, content
    content = _message(ask(client, "How many engineers are based at the Preston depot?"))["content"]
    assert "Rows with Depot Preston: 3 of 8" in content, content
    assert "Engineer ID of" not in content, "the jobs sheet is not asked about"


def _order_lines() -> pd.DataFrame:
    days = pd.date_range("2025-01-02", "2025-06-28", freq="3D")
    return pd.DataFrame(
        {"Order No": [f"SO-{4500 + i}" for i in range(len(days))],
         "Order Date": [d.strftime("%d-%m-%Y") for d in days],
         "Depot": [("ANR Antwerp", "GNT Ghent", "BRU Brussels")[i % 3] for i in range(len(days))],
         "Net Amount EUR": [round(90 + (i * 137.31) % 1900, 2) for i in range(len(days))],
         "Status": [("Invoiced", "Invoiced", "Cancelled")[i % 7 % 3] for i in range(len(days))]}
    )  # fmt: skip


def test_a_european_export_is_read_by_its_semicolons_and_decimal_commas(
    client: httpx.Client,
) -> None:
    """An ERP set to a European locale writes "Order No;...;Net Amount EUR" over
    "SO-4500;...;1.234,56" with a BOM: read with commas, it was a table of one column, and
    no amount was a number. Its order dates are day first; "Q2 2025" is April to June."""
    frame = _order_lines()
    amounts = frame["Net Amount EUR"].map(
        lambda v: f"{v:,.2f}".translate(str.maketrans(",.", ".,"))
    )
    written = frame.assign(**{"Net Amount EUR": amounts}).to_csv(sep=";", index=False)
    assert ";1.0" in written, "amounts over a thousand, grouped by dots"
    (export,) = upload(client, [("order_lines.csv", "\ufeff" + written)])
    text = client.get(f"/files/{export['id']}/text").text
    assert text.startswith("Order No,Order Date,Depot,Net Amount EUR,Status\n"), text[:200]
    dates = pd.to_datetime(frame["Order Date"], format="%d-%m-%Y")
    cancelled = frame[(frame["Status"] == "Cancelled") & (dates.dt.month == 4)]
    content = _message(ask(client, "total net amount of cancelled order lines in April 2025?"))[
        "content"
    ]
    total = f"{cancelled['Net Amount EUR'].sum():,.2f}"
    assert f"Total Net Amount EUR for Status Cancelled, Order Date 2025-04: {total}" in content
    q2 = frame[dates.dt.quarter == 2]
    content = _message(ask(client, "What was the average net amount of an order in Q2 2025?"))[
        "content"
    ]
    assert "Average Net Amount EUR for Order Date 2025-04 or 2025-05 or 2025-06: " in content
    assert f"{q2['Net Amount EUR'].mean():,.4f} (mean of {len(q2)} rows" in content, content


def test_rows_left_out_and_a_quantity_in_its_unit(client: httpx.Client) -> None:
    """ "How many kg of Fresh meat ..., not counting cancelled lines?" summed ``Line`` (the
    line numbers, named by "lines") over every status: the rows a question leaves out are
    not kept, their words name nothing computed, and "kg", a cell of ``Unit``, asks for
    the quantity beside it."""
    frame = pd.DataFrame(
        {"Line": [10, 20, 30, 10, 20, 10, 20, 30],
         "Product Group": ["Fresh meat", "Fresh meat", "Dairy", "Fresh meat", "Fresh meat",
                           "Dairy", "Fresh meat", "Fresh meat"],
         "Quantity": [12.5, 3, 20, 7.25, 4, 6, 9.5, 2],
         "Unit": ["KG", "CS", "CS", "KG", "KG", "CS", "KG", "KG"],
         "Status": ["Invoiced", "Invoiced", "Invoiced", "Cancelled", "Invoiced", "Invoiced",
                    "Invoiced", "Cancelled"]}
    )  # fmt: skip
    upload(client, [("order_lines.csv", frame.to_csv(index=False))])
    kept = frame[
        (frame["Product Group"] == "Fresh meat") & (frame["Unit"] == "KG")
        & (frame["Status"] != "Cancelled")
    ]  # fmt: skip
    question = "How many kg of Fresh meat were ordered, not counting cancelled lines?"
    content = _message(ask(client, question))["content"]
    shown = (
        "Total Quantity for Product Group Fresh meat, Unit KG, Status not Cancelled: "
        f"{kept['Quantity'].sum():,.2f} (sum of {len(kept)} rows"
    )
    assert shown in content, content


def test_a_difference_between_two_kinds_of_rows_is_each_side_s_less_the_other_s(
    client: httpx.Client,
) -> None:
    """ "Difference in total 2024 flight hours between G-TBRA and G-TBRK?" added both
    aircraft's hours up together: each side is computed, then one less the other."""
    months = ["Jan", "Feb", "Mar", "Apr"]
    frame = pd.DataFrame(
        [["G-TBRA", 200.5, 190.25, 210.0, 205.0], ["G-TBRB", 150.0, 160.0, 170.0, 180.0],
         ["G-TBRK", 180.0, 175.5, 190.0, 185.75]],
        columns=["Registration", *months],
    )  # fmt: skip
    upload(client, [("fleet_hours_2024.csv", frame.to_csv(index=False))])
    totals = frame.set_index("Registration")[months].sum(axis=1)
    question = "Difference in total 2024 flight hours between G-TBRA and G-TBRK?"
    content = _message(ask(client, question))["content"]
    shown = (
        f"G-TBRA {totals['G-TBRA']:,.2f} less G-TBRK {totals['G-TBRK']:,.2f}: "
        f"{totals['G-TBRA'] - totals['G-TBRK']:,.2f}"
    )
    assert shown in content, content


def test_the_highest_amount_of_what_repeats_is_of_its_total(client: httpx.Client) -> None:
    """ "Which customer had the highest net amount?" gave the customer of the largest order
    line: an amount adds up over a customer's lines, so the answer is the customer of the
    highest total, named by its name rather than its number. A price does not add up."""
    frame = pd.DataFrame(
        {"Customer No": ["C1", "C2", "C1", "C3", "C2", "C2"],
         "Customer Name": ["Hotel Zilverberg", "Grand Café", "Hotel Zilverberg", "Traiteur Dewaele",
                           "Grand Café", "Grand Café"],
         "Net Amount EUR": [1800.0, 700.0, 150.0, 900.0, 650.5, 640.0],
         "Unit Price EUR": [12.5, 30.0, 9.0, 41.0, 28.0, 19.5]}
    )  # fmt: skip
    upload(client, [("order_lines.csv", frame.to_csv(index=False))])
    totals = frame.groupby("Customer Name")["Net Amount EUR"].sum()
    assert totals.idxmax() != frame.loc[frame["Net Amount EUR"].idxmax(), "Customer Name"]
    content = _message(ask(client, "Which customer had the highest net amount?"))["content"]
    shown = (
        f"Highest total Net Amount EUR by Customer Name: {totals.idxmax()} "
        f"{totals.max():,.1f} (3 rows)"
    )
    assert shown in content, content
    content = _message(ask(client, "Which customer had the highest unit price?"))["content"]
    assert "Highest Unit Price EUR: 41.0" in content, content


def test_numbers_with_a_decimal_comma_are_read_as_a_column() -> None:
    assert comma_numbers(["1.234,56", "12", "251,45", "-3,5"]) == [
        (1234.56, 2), (12.0, 0), (251.45, 2), (-3.5, 1)
    ]  # fmt: skip
    assert comma_numbers(["1,234", "12"]) is None, "a thousands comma, as number() reads it"
    assert comma_numbers(["1,5", "abc"]) is None


def _depot_workbook() -> tuple[bytes, pd.DataFrame]:
    """A sheet whose header is two rows: each quarter merged over "Cases" and "Revenue
    (EUR)", "Depot" merged down; and a notes sheet of sentences above a small table."""
    import openpyxl

    rows = [("Ghent", "Dairy"), ("Ghent", "Frozen"), ("Breda", "Dairy"), ("Breda", "Frozen")]
    values = [[1000 * (r + 1) + q for q in range(8)] for r in range(len(rows))]
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Depot x group"
    sheet.append(["Depot", "Product group", "Q1 2024", None, "Q2 2024", None, "Q3 2024", None,
                  "Q4 2024", None])  # fmt: skip
    sheet.append([None, None, *["Cases", "Revenue (EUR)"] * 4])
    for column in ("A", "B"):
        sheet.merge_cells(f"{column}1:{column}2")
    for first in ("C", "E", "G", "I"):
        sheet.merge_cells(f"{first}1:{chr(ord(first) + 1)}1")
    for (depot, group), numbers in zip(rows, values, strict=True):
        sheet.append([depot, group, *numbers])
    notes = book.create_sheet("Notes")
    for line in (
        ["Depot figures 2024: notes"],
        ["Cases are scanned at the dock door."],
        ["Because of the ERP migration, Utrecht's deliveries in October were booked under Breda."],
        ["Quarter", "Delivery days"],
        ["Q1 2024", 77],
    ):
        notes.append(line)
    out = io.BytesIO()
    book.save(out)
    columns = [f"Q{q} 2024 {kind}" for q in range(1, 5) for kind in ("Cases", "Revenue (EUR)")]
    frame = pd.DataFrame([[*r, *v] for r, v in zip(rows, values, strict=True)],
                         columns=["Depot", "Product group", *columns])  # fmt: skip
    return out.getvalue(), frame


def test_a_header_of_two_rows_names_each_column_by_both(client: httpx.Client) -> None:
    """A quarter merged over "Cases" and "Revenue (EUR)" is blank over the second in the
    sheet: "Q1 2024",, was the header, and "Cases", "Revenue (EUR)" its first row."""
    data, frame = _depot_workbook()
    upload(client, [("depots_2024.xlsx", data)])
    ghent = frame[(frame["Depot"] == "Ghent") & (frame["Product group"] == "Dairy")].iloc[0]
    content = _message(ask(client, "revenue of the Ghent depot for Dairy in Q2 2024?"))["content"]
    assert f"Q2 2024 Revenue (EUR): {ghent['Q2 2024 Revenue (EUR)']}" in content, content
    assert "row 1" not in content
    # no quarter said: the year's quarters, added up
    frozen = frame[frame["Product group"] == "Frozen"]
    total = sum(frozen[f"Q{q} 2024 Cases"].sum() for q in range(1, 5))
    content = _message(ask(client, "total Frozen cases across all depots in 2024?"))["content"]
    assert f"Total Q1 2024 Cases to Q4 2024 Cases for Product group Frozen: {total:,}" in content
    # the notes above the small table of the second sheet are quoted as sentences
    question = "Which depot were Utrecht's deliveries booked under?"
    (filename, quote), *_ = checked_citations(client, ask(client, question))
    assert filename == "depots_2024.xlsx"
    assert "Utrecht's deliveries in October were booked under Breda." in quote, quote
    assert "Delivery days" not in quote


def test_every_sheet_of_a_workbook_answers(client: httpx.Client) -> None:
    upload(client, [("sales.xlsx", sales_xlsx())])
    cited = checked_citations(client, ask(client, "What is the Q1 target of the East region?"))
    assert ("sales.xlsx", "East,290000") in cited
    content = _message(ask(client, "What is the Q1 target of the East region?"))["content"]
    assert '"Region: East, Q1 target (EUR): 290000" (sales.xlsx)' in content


# ---------------------------------------------------------------- computed answers


@pytest.mark.parametrize(
    ("name", "question"),
    [
        ("sales.xlsx", "What is the total revenue of the North in Q1?"),
        ("report.docx", "What is the total revenue of the North in Q1?"),
        # "Q1" is in neither: retrieval finds nothing for a name that no file holds.
        ("sales.csv", "What is the total revenue of the North?"),
        ("sales.parquet", "What is the total revenue of the North?"),
    ],
)
def test_a_total_is_computed_and_cites_the_rows_it_adds(
    client: httpx.Client, name: str, question: str
) -> None:
    upload(client, [(name, SALES_FILES[name])])
    answer = ask(client, question)
    cited = checked_citations(client, answer)
    content = _message(answer)["content"]
    line = next((line for line in content.split("\n") if line.startswith("- Total")), content)
    assert line.startswith(
        f"- Total Revenue (EUR) for Region North: 412,000 (sum of 3 rows of {name}) ["
    ), content
    assert sum(row[2] for row in NORTH_ROWS) == 412_000
    markers = [int(m) for m in line.split(") [", 1)[1].strip("[]").split("][")]
    assert [cited[m - 1][1].split(",")[:2] for m in markers] == [
        ["North", "January"],
        ["North", "February"],
        ["North", "March"],
    ]


def test_an_average_is_computed(client: httpx.Client) -> None:
    upload(client, [("sales.csv", SALES_FILES["sales.csv"])])
    answer = ask(client, "What is the average revenue of the South?")
    checked_citations(client, answer)
    assert (
        "- Average Revenue (EUR) for Region South: 55,266.67 (mean of 3 rows of sales.csv) "
        "[1][2][3]" in _message(answer)["content"]
    )


def test_how_many_counts_the_rows_that_match(client: httpx.Client) -> None:
    upload(client, [("tickets.csv", tickets_csv())])
    answer = ask(client, "How many tickets are open?")
    cited = checked_citations(client, answer)
    open_ = [",".join(t) for t in TICKETS if t[1] == "open"]
    assert len(open_) == 5
    content = _message(answer)["content"]
    assert "\n- Rows with status open: 5 of 14 (tickets.csv) [1][2][3][4][5]" in content
    assert [quote for _, quote in cited] == open_


def test_the_highest_rate_of_a_dataframe_is_the_highest(service: Service, org: str) -> None:
    """``%%chat --df returns`` uploads the DataFrame with the client as ``returns.csv``
    and narrows the search to it: the same here."""
    frame = returns_frame()
    assert frame["return_rate"].max() == 0.14
    most_returned = frame.loc[frame["units_returned"].idxmax()]
    assert most_returned["return_rate"] == 0.05, "the trap: most returns, ordinary rate"
    with Client(service.url, token=service.token("alice", org)) as sdk:
        uploaded = sdk.files.upload(frame, filename="returns.csv", metadata={"source": "dataframe"})
    parts = [
        {"type": "text", "text": "Which product has the highest return rate?"},
        {"type": "filter", "file_ids": [uploaded.id]},
    ]
    with client_for(service, org) as client:
        answer = ask(client, parts)
        cited = checked_citations(client, answer)
    assert cited == [("returns.csv", "Rain jacket,800,112,0.14")]
    assert _message(answer)["content"].endswith(
        "\n- Highest return_rate: 0.14 (max of 8 rows): "
        '"product: Rain jacket, units_sold: 800, units_returned: 112, return_rate: 0.14" '
        "(returns.csv) [1]"
    )


def test_a_table_over_several_passages_is_computed_as_one_table(
    client: httpx.Client,
) -> None:
    statuses = ["open", "closed", "closed", "pending"]
    lines = ["id,status,priority,team,created"] + [
        f"T-{2000 + i},{statuses[i % 4]},low,Search,2025-04-{1 + i % 28:02d}" for i in range(60)
    ]
    (tickets,) = upload(client, [("tickets-backlog.csv", "\n".join(lines))])
    text = client.get(f"/files/{tickets['id']}/text").text
    blocks = text.count("id,status,priority,team,created")
    assert 2 <= blocks <= 5, "the table is cut into a few header-led passages"
    answer = ask(client, "How many tickets are open?")
    cited = checked_citations(client, answer)
    content = _message(answer)["content"]
    assert f"- Rows with status open: 15 of 60 ({blocks} passages of tickets-backlog.csv" in content
    assert "the first 10 cited" in content
    assert len(cited) == 10
    assert all(",open," in quote for _, quote in cited)
    assert content.count("\n- ") == 1, "one table, one answer, however many passages"


def test_a_table_is_computed_over_all_its_rows_not_those_that_matched(
    client: httpx.Client,
) -> None:
    """A table of many passages (here 3,000 orders, about fifty passages) was computed
    over the few retrieved: an average of 5 passages' rows, and "What percentage of the
    orders came from Lyon?" over the passages holding a Lyon row (50 of 73 for the iris
    data's virginica, 68.5%). Every row of a cited table counts now; the words that ask
    for a computation ("percentage", "standard deviation") are no words a cell must hold,
    and the question about a spread was left unanswered."""
    cities = ["Paris"] * 2000 + ["Lyon"] * 200 + ["Nice"] * 800
    frame = pd.DataFrame(
        {
            "order_id": [f"O-{i:05d}" for i in range(3000)],
            "city": cities,
            "amount": [round(10 + (i * 37 % 1000) / 10, 1) for i in range(3000)],
        }
    )
    (orders,) = upload(client, [("orders.csv", frame.to_csv(index=False))])
    blocks = client.get(f"/files/{orders['id']}/text").text.count("order_id,city,amount")
    assert blocks > 20, "many more passages than are retrieved"
    scoped = [{"type": "filter", "file_ids": [orders["id"]]}]

    def said(question: str) -> str:
        answer = ask(client, [{"type": "text", "text": question}, *scoped])
        checked_citations(client, answer)
        return str(_message(answer)["content"]).split("\n- ", 1)[1]

    mean = f"{frame['amount'].mean():,.3f}"
    assert said("What is the average amount?").startswith(
        f"Average amount: {mean} (mean of 3,000 rows of {blocks} passages of orders.csv"
    )
    assert said("What percentage of the orders came from Lyon?").startswith(
        f"Rows with city Lyon: 200 of 3,000 (6.7%) ({blocks} passages of orders.csv"
    )
    spread = f"{frame['amount'].std():,.3f}"
    assert said("What is the standard deviation of the amount?").startswith(
        f"Standard deviation amount: {spread} (std of 3,000 rows of {blocks} passages"
    )


STOCKS = Path(matplotlib.get_data_path()) / "sample_data" / "Stocks.csv"
"""Yahoo Finance's monthly prices of ten tickers, 1990-2021, as matplotlib ships them: a
comment line above the header, and months where some or all prices are missing."""


def test_a_real_csv_with_a_comment_line_and_gaps_is_answered_as_a_table(
    client: httpx.Client,
) -> None:
    """Its comment line was read as the header, so the whole table was one column, and a
    month without prices ("1990-02-05,,,,,,,,,,") lost its empty cells and broke the
    table's shape: every question quoted its first row. The comment is the table's title
    now (no location names it), each row keeps the header's cells, a column named whole
    is what a question with other words is about ("an IBM price above 100" is the column
    ``IBM``), and an average of prices a program wrote to 17 places shows 6."""
    frame = pd.read_csv(STOCKS, comment="#")
    (stocks,) = upload(client, [("Stocks.csv", STOCKS.read_bytes())])
    text = client.get(f"/files/{stocks['id']}/text").text
    assert text.startswith("# Data source: https://finance.yahoo.com\nDate,IBM,AAPL,")
    assert "\n1990-02-05,,,,,,,,,,\n" in text
    scoped = [{"type": "filter", "file_ids": [stocks["id"]]}]

    def said(question: str) -> tuple[str, list[dict[str, Any]]]:
        answer = ask(client, [{"type": "text", "text": question}, *scoped])
        checked_citations(client, answer)
        message = _message(answer)
        return str(message["content"]).split("\n- ", 1)[1], message["annotations"]

    content, _ = said("What was the average MSFT price?")
    assert content.startswith(f"Average MSFT: {frame['MSFT'].mean():,.6f} (mean of ")
    content, _ = said("How many months had an IBM price above 100?")
    above = int((frame["IBM"] > 100).sum())
    assert content.startswith(f"Rows with IBM above 100: {above} of {len(frame)} (")
    content, notes = said("What is the highest AAPL price?")
    assert content.startswith(f"Highest AAPL: {float(frame['AAPL'].max())!r} (max of ")
    (note,) = notes
    best = int(frame["AAPL"].idxmax())
    assert note["file_citation"]["location"] == {"row": best + 1}
    assert note["file_citation"]["quote"].startswith(frame["Date"][best] + ",")


DAILY = Path(matplotlib.get_data_path()) / "sample_data" / "msft.csv"


def test_a_real_table_of_days_answers_in_its_own_words(client: httpx.Client) -> None:
    """matplotlib's ``msft.csv`` (MSFT's daily prices, summer 2003) writes dates as
    "19-Sep-03" and names a column "Adj. Close*". "the highest *closing* price" named no
    column ("Close") and quoted rows as prose; "in *September*" was a capitalized name
    no file holds, so nothing was relevant, and it filtered nothing ("Sep"); "the median
    *adjusted* close" was of ``Close``."""
    frame = pd.read_csv(DAILY)
    (daily,) = upload(client, [("msft.csv", DAILY.read_bytes())])
    scoped = [{"type": "filter", "file_ids": [daily["id"]]}]

    def said(question: str) -> str:
        answer = ask(client, [{"type": "text", "text": question}, *scoped])
        checked_citations(client, answer)
        return str(_message(answer)["content"]).split("\n- ", 1)[1]

    assert said("What was the highest closing price?").startswith(
        f"Highest Close: {frame['Close'].max():.2f} (max of {len(frame)} rows"
    )
    september = frame[frame["Date"].str.contains("-Sep-")]
    content = said("What was the average closing price in September?")
    assert content.startswith("Average Close for Date Sep: ")
    assert f": {september['Close'].mean():,.4f} (mean of {len(september)} rows" in content
    assert said("What was the median adjusted close?").startswith(
        f"Median Adj. Close*: {frame['Adj. Close*'].median():.3f} (median of"
    )


def _narrowed_to_daily(
    client: httpx.Client,
) -> tuple[pd.DataFrame, Callable[[str], tuple[str, list[tuple[str, str]]]]]:
    """msft.csv uploaded, and how to ask of it narrowed to it (as ``%%chat --df`` does):
    the answer's first bullet and its citations."""
    (daily,) = upload(client, [("msft.csv", DAILY.read_bytes())])
    scoped = [{"type": "filter", "file_ids": [daily["id"]]}]

    def said(question: str) -> tuple[str, list[tuple[str, str]]]:
        answer = ask(client, [{"type": "text", "text": question}, *scoped])
        cited = checked_citations(client, answer)
        return str(_message(answer)["content"]).split("\n- ", 1)[1], cited

    return pd.read_csv(DAILY), said


def test_a_table_s_rows_and_columns_are_answered(client: httpx.Client) -> None:
    """ "How many rows does the table have?" and "What columns does it have?" of a table a
    cell narrows to (``%%chat --df``) found nothing: no cell says "rows" or "columns".
    They count the rows (those of a filter too: "How many records are there for
    September?" listed its rows, its dates being each one row's) and list the header."""
    frame, said = _narrowed_to_daily(client)
    content, _ = said("How many rows does the table have?")
    assert content.startswith(f"Rows: {len(frame)} ("), content
    content, cited = said("What columns does the table have?")
    assert content.startswith(f"Columns: {len(frame.columns)} ({', '.join(frame.columns)})")
    assert cited == [("msft.csv", ",".join(frame.columns))]
    september = frame[frame["Date"].str.contains("-Sep-")]
    content, _ = said("How many records are there for September?")
    assert content.startswith(f"Rows with Date Sep: {len(september)} of {len(frame)} ("), content


def test_the_time_a_table_s_rows_cover_is_answered(client: httpx.Client) -> None:
    """ "How many trading days does the table cover?" and "What period does it cover?" of
    a table a cell narrows to found nothing (no cell says "days" or "period"). The days
    are its column of dates counted; the period, its first and last date (the rows run
    newest first), each cited by its row."""
    frame, said = _narrowed_to_daily(client)
    days = pd.to_datetime(frame["Date"], format="%d-%b-%y")
    first, last = frame["Date"][days.idxmin()], frame["Date"][days.idxmax()]
    assert (first, last) == ("19-Jun-03", "19-Sep-03")
    # the days counted, from the first to the last (ten dates of the newest listed said
    # neither where they start nor where they end), those two rows cited
    content, cited = said("How many trading days does the table cover?")
    assert content.startswith(
        f"Distinct Date: {days.nunique()} of {len(frame)} rows, {first} to {last} ("
    ), content
    assert [q.split(",")[0] for _, q in cited] == [first, last]
    for question in ("What period does the table cover?", "What date range does it span?"):
        content, cited = said(question)
        assert content.startswith(f"Date: {first} to {last} ({len(frame)} rows of "), content
        assert [q.split(",")[0] for _, q in cited] == [first, last]
    september = frame[frame["Date"].str.contains("-Sep-")]
    content, _ = said("How many days in September?")
    assert content.startswith(f"Rows with Date Sep: {len(september)} of {len(frame)} ("), content
    # a column of numbers has a range too: its lowest and highest value ("Close" quoted
    # the header row)
    low, high = september["Close"].min(), september["Close"].max()
    content, cited = said("What is the range of Close in September?")
    assert content.startswith(f"Close for Date Sep: {low:.2f} to {high:.2f} ({len(september)} "), (
        content
    )
    assert [float(q.split(",")[4]) for _, q in cited] == [low, high]


def test_the_table_is_the_one_table_of_the_workspace(client: httpx.Client) -> None:
    """Asked without narrowing, "How many rows does the table have?" found nothing though
    the workspace had one table; so did "What was the highest closing price?" in a
    workspace of that table alone (no cell says "price"). "The table" (the data, the
    sheet) is the one table among the candidates, and a workspace of one table is
    narrowed to it; a question about days that points at no table stays with prose."""
    frame = pd.read_csv(DAILY)
    upload(client, [("msft.csv", DAILY.read_bytes())])

    def said(question: str) -> tuple[str, list[tuple[str, str]]]:
        answer = ask(client, question)
        return str(_message(answer)["content"]), checked_citations(client, answer)

    content, _ = said("What was the highest closing price?")
    assert f"Highest Close: {frame['Close'].max():.2f} (max of {len(frame)} rows" in content
    assert said("What columns does it have?")[1] == [("msft.csv", ",".join(frame.columns))]
    upload(client, [("acme-msa.docx", acme_contract_docx())])
    for question in ("How many rows does the table have?", "How many rows does the data have?"):
        content, cited = said(question)
        assert f"Rows: {len(frame)} (" in content, content
        assert {name for name, _ in cited} == {"msft.csv"}
    content, cited = said("How many days before renewal must notice of termination be given?")
    assert "msft.csv" not in {name for name, _ in cited}, content
    # two tables: which one "the table" is, the question must say
    upload(client, [("prices-copy.csv", DAILY.read_bytes())])
    content, cited = said("How many rows does the table have?")
    assert "Rows: " not in content, content
    assert cited == []


def test_a_column_asked_to_be_empty_that_never_is_says_so(client: httpx.Client) -> None:
    """ "Which days have no Volume?" of a table whose every row has one answered with its
    lead line and nothing under it."""
    frame, said = _narrowed_to_daily(client)
    assert frame["Volume"].notna().all()
    for question in ("Which days have no Volume?", "What period has no Volume?"):
        content, cited = said(question)
        assert content.startswith(f"No row with Volume empty (of {len(frame)} rows, "), content
        assert cited == []


# ---------------------------------------------------------------- key/value tables


def test_a_key_value_table_of_a_contract_reads_as_key_value_lines(client: httpx.Client) -> None:
    (contract,) = upload(client, [("acme-msa.docx", acme_contract_docx())])
    text = client.get(f"/files/{contract['id']}/text").text
    lines = "\n".join(f"{key}: {value}" for key, value in CONTRACT_TERMS)
    assert lines in text
    assert "Contract owner,Maria Keller" not in text
    answer = ask(client, "Who is the contract owner?")
    cited = checked_citations(client, answer)
    assert ("acme-msa.docx", "Contract owner: Maria Keller (Procurement)") in cited
    assert "Renewal" not in cited[0][1], "one fact, not the table"


def test_a_key_value_table_on_a_slide_reads_as_key_value_lines(client: httpx.Client) -> None:
    (deck,) = upload(client, [("atlas.pptx", project_card_pptx())])
    text = client.get(f"/files/{deck['id']}/text").text
    assert text == "Project card\n" + "\n".join(f"{k}: {v}" for k, v in PROJECT_CARD)
    cited = checked_citations(client, ask(client, "What is the deadline of project Atlas?"))
    assert cited[0] == ("atlas.pptx", "Deadline: 30 June 2025")


def _extract_text(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / "blob"
    path.write_bytes(data)
    found = extract(path, filename=name, content_type="application/octet-stream")
    assert found is not None
    return found.text


def test_a_key_value_table_of_an_odt_reads_as_key_value_lines(tmp_path: Path) -> None:
    from odf.opendocument import load
    from odf.table import Table, TableCell, TableColumn, TableRow
    from odf.text import P

    document = load(io.BytesIO(odt_bytes("Contract", ["Terms of the agreement."])))
    table = Table(name="Terms")
    table.addElement(TableColumn(numbercolumnsrepeated=2))
    for key, value in CONTRACT_TERMS:
        row = TableRow()
        for text in (key, value):
            cell = TableCell()
            cell.addElement(P(text=text))
            row.addElement(cell)
        table.addElement(row)
    document.text.addElement(table)
    out = io.BytesIO()
    document.write(out)
    text = _extract_text(tmp_path, "contract.odt", out.getvalue())
    assert text.endswith("\n\n" + "\n".join(f"{k}: {v}" for k, v in CONTRACT_TERMS))


def test_tables_with_a_header_stay_tables(tmp_path: Path) -> None:
    text = _extract_text(tmp_path, "report.docx", sales_report_docx())
    assert "Region,Month,Revenue (EUR),Units\nNorth,January," in text
    assert key_value_text([["region", "budget"], ["North", "800000"]]) is None, "text over numbers"
    assert key_value_text([["Name", "Role"], ["Ann", "Owner"]], header=True) is None
    assert key_value_text([["Key", "Value"], ["Owner", "Ann"]], header=True) == "Owner: Ann"
    assert key_value_text([["Terms", "Terms"], ["Owner", "Ann"]]) == "Terms\nOwner: Ann"
    assert key_value_text([["a", "b", "c"], ["1", "2", "3"]]) is None


def test_a_sheet_with_a_title_row_is_answered_as_a_table(client: httpx.Client) -> None:
    """A title row above the header (as reports exported from a spreadsheet have one) was
    read as the header, a table one column wide, and nothing was computed; a row whose
    last cells are empty was cut to its first cell and broke the table's shape."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Q1"
    rows = (["Sales report, first quarter"], [], ["Region", "Month", "Revenue"],
            ["North", "January", 100], ["North", "", ""], ["South", "March", 58300],
            ["North", "March", 200])  # fmt: skip
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    (report,) = upload(client, [("report.xlsx", out.getvalue())])
    text = client.get(f"/files/{report['id']}/text").text
    assert text == (
        "Q1\nSales report, first quarter\nRegion,Month,Revenue\nNorth,January,100\n"
        "North,,\nSouth,March,58300\nNorth,March,200"
    )
    answer = ask(client, "What is the total revenue of North?")
    assert checked_citations(client, answer) == [
        ("report.xlsx", "North,January,100"), ("report.xlsx", "North,March,200")]  # fmt: skip
    assert (
        "\n- Total Revenue for Region North: 300 (sum of 2 rows of report.xlsx) [1][2]"
        in (_message(answer)["content"])
    )


# A page as DocBook writes PostgreSQL's manual: a navigation bar laid out in a table, a
# data table titled in a <p> above it, and a reference table whose cells are paragraphs.
MANUAL_PAGE = """<html><head><title>8.1. Numeric Types</title></head><body>
<div class="navheader"><table summary="Navigation header">
<tr><th colspan="3">8.1. Numeric Types</th></tr>
<tr><td><a href="a.html">Prev</a></td><th>Chapter 8. Data Types</th><td>Next</td></tr>
</table></div>
<p>Numeric types consist of two-, four-, and eight-byte integers.</p>
<div class="table"><p class="title"><strong>Table 8.2. Numeric Types</strong></p>
<div class="table-contents"><table class="table"><thead>
<tr><th>Name</th><th>Storage Size</th><th>Description</th><th>Range</th></tr></thead><tbody>
<tr><td>smallint</td><td>2 bytes</td><td>small-range integer</td><td>-32768 to +32767</td></tr>
<tr><td>integer</td><td>4 bytes</td><td>typical choice for integer</td>
<td>-2147483648 to +2147483647</td></tr>
</tbody></table></div></div>
<table><thead><tr><th>Function</th><th>Description</th></tr></thead><tbody>
<tr><td><p>concat_ws ( sep text, val1 "any" ) &#8594; text</p></td><td><p>Concatenates all but
the first argument, with separators. The first argument is used as the separator string,
and should not be NULL. Other NULL arguments are ignored, as in concat.</p></td></tr>
</tbody></table>
<p>The following sections describe the types in detail.</p>
</body></html>"""


def test_a_data_table_of_a_web_page_reads_as_a_table(tmp_path: Path) -> None:
    """An HTML table with a header is a table (its caption first, out of the prose); one
    that lays the page out, or whose cells are paragraphs, reads a cell a line, as the
    browser shows it."""
    text = _extract_text(tmp_path, "numeric.html", MANUAL_PAGE.encode())
    assert (
        "Table 8.2. Numeric Types\nName,Storage Size,Description,Range\n"
        "smallint,2 bytes,small-range integer,-32768 to +32767\n"
        "integer,4 bytes,typical choice for integer,-2147483648 to +2147483647"
    ) in text
    assert text.count("Table 8.2.") == 1, "the caption leads the table only"
    assert text.startswith("8.1. Numeric Types\n8.1. Numeric Types\nChapter 8. Data Types\nNext")
    assert "Prev" not in text, "a line that is a link is navigation"
    assert 'concat_ws ( sep text, val1 "any" ) \u2192 text\nConcatenates all' in text
    assert text.endswith("The following sections describe the types in detail.")


def test_two_tables_side_by_side_are_two_tables(tmp_path: Path) -> None:
    """Two ``DataFrame.to_html()`` one after the other: the first is neither lost nor the
    second's title (a table is never a caption)."""
    sales = pd.DataFrame({"region": ["North", "South"], "revenue": [10, 20]})
    teams = pd.DataFrame({"team": ["ML", "Web"], "size": [3, 4]})
    page = "<h1>Report</h1>" + sales.to_html(index=False) + teams.to_html(index=False)
    text = _extract_text(tmp_path, "report.html", page.encode())
    assert text == "Report\nregion,revenue\nNorth,10\nSouth,20\n\nteam,size\nML,3\nWeb,4", text


def test_a_web_page_s_table_answers_with_its_columns(client: httpx.Client) -> None:
    upload(client, [("numeric.html", MANUAL_PAGE)])
    answer = ask(client, "What is the range of the integer type?")
    cited = checked_citations(client, answer)
    assert cited[0] == (
        "numeric.html",
        "integer,4 bytes,typical choice for integer,-2147483648 to +2147483647",
    ), _message(answer)["content"]
    assert '"Name: integer, Storage Size: 4 bytes,' in _message(answer)["content"]


def _two_column_docx(rows: list[tuple[str, str]], *, bold_first: bool) -> bytes:
    import docx

    document = docx.Document()
    table = document.add_table(rows=0, cols=2)
    for r, (key, value) in enumerate(rows):
        cells = table.add_row().cells
        for cell, text in zip(cells, (key, value), strict=True):
            cell.text = text
            cell.paragraphs[0].runs[0].bold = bold_first and r == 0
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_a_bold_first_row_is_a_header_of_two_columns(tmp_path: Path) -> None:
    rows = [("Owner", "Team"), ("Ann Lee", "Data Platform"), ("Tom Becker", "Payments")]
    marked = _extract_text(tmp_path, "a.docx", _two_column_docx(rows, bold_first=True))
    assert marked == "Owner,Team\nAnn Lee,Data Platform\nTom Becker,Payments"
    # Without a mark, text over text reads as facts: the risk taken for contracts.
    plain = _extract_text(tmp_path, "b.docx", _two_column_docx(rows, bold_first=False))
    assert plain == "Owner: Team\nAnn Lee: Data Platform\nTom Becker: Payments"


# ---------------------------------------------------------------- the pieces


def test_numbers_are_read_as_tables_write_them() -> None:
    assert number("58,300") == (58300.0, 0)
    assert number("EUR 1,200.50") == (1200.5, 2)
    assert number("12.5%") == (12.5, 1)
    assert number("-3") == (-3.0, 0)
    for text in ("2025-03-04", "T-1041", "1,5", "", "Q1"):
        assert number(text) is None, text


def _passages(*texts: str) -> tuple[Passage, ...]:
    at, found = 0, []
    for i, text in enumerate(texts):
        found.append(Passage("file-1", "t.csv", i, at, text, -1.0))
        at += len(text) + 2
    return tuple(found)


def test_total_rows_are_left_out_of_computations() -> None:
    text = "Sheet1\nregion,revenue\nNorth,100\nSouth,50\nTotal,150"
    (bullets,) = answer_tables(_passages(text), "What is the total revenue?", ["revenue"]).values()
    (bullet,) = bullets
    assert bullet[0] == "Total revenue: 150 (sum of 2 rows of t.csv) "
    assert [cite.quote for cite in bullet[1:]] == ["North,100", "South,50"]


def test_rows_looked_up_are_shown_up_to_a_bound() -> None:
    text = "city,state\n" + "\n".join(f"Town{i},Ohio" for i in range(8))
    (bullets,) = answer_tables(_passages(text), "Which cities are in Ohio?", ["ohio"]).values()
    assert [b[0] for b in bullets[:2]] == [
        '"city: Town0, state: Ohio" (t.csv) ',
        '"city: Town1, state: Ohio" (t.csv) ',
    ]
    assert len(bullets) == 6
    assert bullets[-1] == ("and 3 more rows with state Ohio (t.csv)",)


def test_a_question_without_a_matching_row_leaves_the_passage_to_prose() -> None:
    text = "region,revenue\nNorth,100\nSouth,50"
    assert answer_tables(_passages(text), "Who founded the company?", ["founded"]) == {}


IRIS = (
    "species,petal_length,petal_width\nsetosa,1.4,0.2\nvirginica,6.0,2.5\nvirginica,5.1,1.9\n"
    "versicolor,4.7,1.4\nvirginica,6.7,2.2"
)
"""Five rows of the iris data as a data scientist has it."""


def _answered(question: str, terms: list[str], table: str = IRIS) -> Any:
    (bullets,) = answer_tables(_passages(table), question, terms).values()
    return bullets


@pytest.mark.parametrize(
    ("question", "terms", "said", "rows"),
    [
        (
            "How many flowers have a petal width above 2?",
            ["flowers", "petal", "width"],
            "Rows with petal_width above 2: 2 of 5 (t.csv) ",
            [2, 5],
        ),
        (
            "What is the total petal width of virginica flowers with a petal length of at least 6?",
            ["total", "petal", "width", "virginica", "flowers", "length"],
            "Total petal_width for species virginica, petal_length at least 6: 4.7 "
            "(sum of 2 rows of t.csv) ",
            [2, 5],
        ),
        (
            "What is the average petal length of flowers with petal_width < 1.5?",
            ["average", "petal", "length", "flowers", "petal_width"],
            "Average petal_length for petal_width < 1.5: 3.050 (mean of 2 rows of t.csv) ",
            [1, 4],
        ),
    ],
)
def test_a_condition_on_a_number_keeps_the_rows_that_meet_it(
    question: str, terms: list[str], said: str, rows: list[int]
) -> None:
    """ "How many flowers have a petal width above 2?" of the iris data answered the sum
    of a column ("Total petal_width: 179.9"): a count asked with a comparison counts
    the rows that meet it, and a total or an average is computed over them; the column
    compared is the one its words name, the one computed the one the rest names."""
    (bullet,) = _answered(question, terms)
    assert bullet[0] == said
    lines = IRIS.split("\n")
    assert [cite.quote for cite in bullet[1:]] == [lines[i] for i in rows]


def test_a_condition_on_no_column_computes_nothing() -> None:
    """ "a stem length": no column is named so, and "petal_length" is not it."""
    bullets = answer_tables(
        _passages(IRIS),
        "How many flowers have a stem length over 3?",
        ["flowers", "stem", "length"],
    )
    assert all("Rows with" not in str(b) for found in bullets.values() for b in found)


def test_the_most_rows_are_counted_though_one_column_is_numeric() -> None:
    """A ticket export has one numeric column: "Which assignee has the most tickets?" gave
    the ticket with the longest resolution, as if that column were named."""
    table = (
        "ticket,status,assignee,hours\nT-1,Resolved,Ana,90\nT-2,Resolved,Ben,3\n"
        "T-3,Open,Ben,4\nT-4,Resolved,Ben,5\nT-5,Resolved,Ana,2\nT-6,Resolved,Ben,1"
    )
    (bullet,) = _answered(
        "Which assignee has the most tickets in Resolved status?",
        ["assignee", "tickets", "resolved", "status"],
        table,
    )
    said = "Most rows for status Resolved by assignee: Ben (3 of 5 rows"
    assert bullet[0].startswith(said), bullet


def test_the_second_highest_is_the_value_below_the_highest() -> None:
    """ "Which territory had the second highest companion animal sales?" was given the
    highest: the ordinal was read as no word. The value that many places from the top is
    the one asked, of a column, of the groups of a computed column and of row counts."""
    frame = pd.DataFrame(
        {
            "territory": ["Leinster", "Munster", "Connacht", "Ulster", "Munster", "Ulster"],
            "companion": [840.9, 1075.1, 745.8, 1008.1, 12.0, 1008.1],
            "vet": ["Ana", "Ben", "Ben", "Cy", "Cy", "Cy"],
        }
    )
    table = frame.to_csv(index=False).strip()
    (bullet,) = _answered(
        "Which territory had the second highest companion sales?",
        ["territory", "second", "highest", "companion", "sales"],
        table,
    )
    second = sorted(set(frame["companion"]), reverse=True)[1]
    assert bullet[0].startswith(f"Second highest companion: {second} (second highest of 6 rows)")
    quotes = [cite.quote for cite in bullet[1:] if not isinstance(cite, str)]
    assert quotes == ["Ulster,1008.1,Cy", "Ulster,1008.1,Cy"], "both rows of that value"
    (bullet,) = _answered(
        "Which territory has the 3rd-lowest total companion?",
        ["territory", "3rd", "lowest", "total", "companion"],
        table,
    )
    totals = frame.groupby("territory")["companion"].sum().sort_values()
    third = totals.index[2]
    assert bullet[0].startswith(f"Third lowest total companion by territory: {third} "), bullet
    (bullet,) = _answered(
        "Which vet has the second most visits?", ["vet", "second", "most", "visits"], table
    )
    assert bullet[0].startswith("Second most rows by vet: Ben (2 of 6 rows"), bullet
    (bullet,) = _answered(
        "Which territory had the fifth highest companion sales?",
        ["territory", "fifth", "highest", "companion", "sales"],
        table,
    )
    assert bullet[0].startswith("Fifth highest companion: 12.0 "), "5 distinct values"


def test_codes_starting_with_a_prefix_are_those_rows() -> None:
    """ "product codes starting AB-22" summed AB-230 too: "ab" is a word of every AB-
    code. Cells that start with what the question says keep their rows, in the column
    that has some such and not only such."""
    frame = pd.DataFrame(
        {
            "code": ["AB-220", "AB-221", "AB-230", "VX-101", "AB-220"],
            "type": ["GRN", "GRN", "GRN", "GRN", "DISPATCH"],
            "qty": [324, 156, 396, 40, -87],
        }
    )
    table = frame.to_csv(index=False).strip()
    (bullet,) = _answered(
        "total qty received (GRN) for product codes starting AB-22?",
        ["total", "qty", "received", "grn", "product", "codes", "starting", "ab", "22"],
        table,
    )
    kept = frame[frame["code"].str.startswith("AB-22") & (frame["type"] == "GRN")]
    assert bullet[0].startswith(
        f"Total qty for type GRN, code AB-220 or AB-221: {kept['qty'].sum()}"
    )
    for question in ("total qty for codes beginning with 'ab-2'", "total qty of codes starting ab"):
        (bullet,) = _answered(question, ["total", "qty", "codes", "ab", "2"], table)
        assert "code AB-220 or AB-221 or AB-230: 789" in bullet[0], bullet


def test_a_name_spelled_whole_keeps_its_row_though_its_plural_is_in_others() -> None:
    """ "allocated to Suir Valley Vets" summed seven practices: the name spelled whole
    replaced its words as filters, but not "vet", the stem of its "Vets", which every
    practice named "... Vets" holds."""
    table = (
        "customer,allocated_vials\nSuir Valley Vets,18\nMourne Farm Vets,16\n"
        "Corrib Vet Group,30\nBallyfin Clinic,34"
    )
    (bullet,) = _answered(
        "How many vials were allocated to Suir Valley Vets?",
        ["vials", "allocated", "suir", "valley", "vets"],
        table,
    )
    assert bullet[0].startswith("allocated_vials for customer Suir Valley Vets: 18 "), bullet


def test_a_stretch_of_days_without_a_year_counts_the_rows_within_it() -> None:
    """ "How many stock adjustments were posted between 11 and 24 August?" listed rows of
    every kind and date: the stretch wrote no year, so it was none, and "adjustments"
    was no cell's word (the log says ``ADJUST``). Days without a year are of the table's;
    a cell's word a question's word starts with filters; a stretch of times, each a row's
    own, is no row looked up, so the rows within it are counted."""
    assert date_span("between 11 and 24 August") == ("0000-08-11", "0000-08-24")
    assert date_span("between 11 and 24 August 2025") == ("2025-08-11", "2025-08-24")
    frame = pd.DataFrame(
        {
            "movement_id": [f"SM{i}" for i in range(6)],
            "posted_at": [
                "2025-08-10T09:00:00", "2025-08-11T07:38:47", "2025-08-12T15:26:26",
                "2025-08-13T13:08:25", "2025-08-24T17:21:43", "2025-08-25T08:00:00",
            ],
            "movement_type": ["ADJUST", "ADJUST", "GRN", "ADJUST", "ADJUST", "ADJUST"],
        }
    )  # fmt: skip
    (bullet,) = _answered(
        "How many stock adjustments were posted between 11 and 24 August inclusive?",
        ["stock", "adjustments", "posted", "11", "24", "august", "inclusive"],
        frame.to_csv(index=False).strip(),
    )
    days = frame["posted_at"].str[5:10].between("08-11", "08-24")
    kept = int((days & (frame["movement_type"] == "ADJUST")).sum())
    said = f"Rows with movement_type ADJUST, posted_at 08-11 to 08-24: {kept} of 6 "
    assert bullet[0].startswith(said), bullet


def test_a_verb_of_a_cell_s_word_filters_its_rows() -> None:
    """ "qty of VX-102 *picked*" summed every event of VX-102: no cell says "picked", the
    audit log says ``pick_confirmed``. A word of the same root filters as the word would."""
    table = (
        "event,sku,qty\npick_confirmed,VX-102,15\nputaway,VX-102,200\n"
        "pick_confirmed,VX-102,7\npick_confirmed,AB-220,3"
    )
    (bullet,) = _answered(
        "total qty of VX-102 picked?", ["total", "qty", "vx", "102", "picked"], table
    )
    assert bullet[0].startswith("Total qty for event pick_confirmed, sku VX-102: 22 "), bullet


def test_a_cell_the_question_spells_whole_is_the_row_asked_for() -> None:
    """ "samples processed on MS-Garnet" listed every "MS-" instrument: "ms" is a word of
    each. A cell of several words the question spells whole filters its column to it."""
    table = "instrument,samples\nMS-Fjord,1825\nMS-Garnet,7140\nNX-Alpha,4914"
    (bullet,) = _answered(
        "samples processed on MS-Garnet", ["samples", "processed", "ms", "garnet"], table
    )
    assert [cite.quote for cite in bullet[1:]] == ["MS-Garnet,7140"], bullet
    employees = 'region,employees\nNordics,459\nBaltics,"1,060"\nNorth America,"1,316"'
    (bullet,) = _answered(
        "How many regions have more than 1,060 employees?", ["regions", "employees"], employees
    )
    assert bullet[0] == "Rows with employees more than 1,060: 1 of 3 (t.csv) ", "a number, compared"


def test_a_superlative_of_a_measure_names_its_column() -> None:
    """ "the longest petal" is extreme in petal_length (the table has two petal columns)."""
    (bullet,) = _answered("Which species has the longest petal?", ["species", "longest", "petal"])
    assert bullet[0] == "Highest petal_length: 6.7 (max of 5 rows): "
    assert bullet[-1].quote == "virginica,6.7,2.2"
    (bullet,) = _answered("Which species has the shortest petal?", ["species", "shortest", "petal"])
    assert bullet[0] == "Lowest petal_length: 1.4 (min of 5 rows): "
    assert bullet[-1].quote == "setosa,1.4,0.2"


@pytest.mark.parametrize(
    ("question", "terms", "said", "rows"),
    [
        (
            "How many species are there?",
            ["species"],
            "Distinct species: 3 (setosa, virginica, versicolor) of 5 rows (t.csv) ",
            [1, 2, 4],
        ),
        (
            "What percentage of flowers are virginica?",
            ["percentage", "flowers", "virginica"],
            "Rows with species virginica: 3 of 5 (60.0%) (t.csv) ",
            [2, 3, 5],
        ),
        (
            "What is the median petal length of virginica?",
            ["median", "petal", "length", "virginica"],
            "Median petal_length for species virginica: 6.00 (median of 3 rows of t.csv) ",
            [2, 3, 5],
        ),
        (
            "Is there a virginica with a petal width over 3?",
            ["virginica", "petal", "width"],
            "No row with species virginica, petal_width over 3 (of 5 rows, t.csv); "
            "the highest petal_width: 2.5 ",
            [2],
        ),
    ],
)
def test_distinct_values_shares_medians_and_no_row_are_answered(
    question: str, terms: list[str], said: str, rows: list[int]
) -> None:
    """ "How many species are there?" answered "Rows: 150 of 150"; a share, a median and a
    condition no row meets (which quoted the first row with a question word) were not
    computed. A condition no row meets cites the row nearest to meeting it."""
    (bullet,) = _answered(question, terms)
    assert bullet[0] == said
    lines = IRIS.split("\n")
    assert [cite.quote for cite in bullet[1:]] == [lines[i] for i in rows]


def test_a_follow_up_s_earlier_words_fill_only_what_the_question_leaves() -> None:
    """In a thread, the terms of the turns before a follow-up come with its own: "What is
    the average for virginica?" after a question on setosa's petal width averaged both
    species. Earlier words filter a column and name the column computed only where the
    question's own do not, and carry the computation to a follow-up that asks none."""
    terms = ["average", "virginica", "setosa", "petal", "width"]
    (bullet,) = _answered("What is the average for virginica?", terms)
    averaged = "Average petal_width for species virginica: 2.200 (mean of 3 rows of t.csv) "
    assert bullet[0] == averaged
    # "And for virginica?" after the average petal width of setosa asks for the same
    # computation (it listed virginica's rows); a computation of its own wins
    (bullet,) = _answered("And for virginica?", ["virginica", "average", "petal", "width"])
    assert bullet[0] == averaged
    (bullet,) = _answered("And the lowest?", ["lowest", "highest", "petal", "length"])
    assert bullet[0] == "Lowest petal_length: 1.4 (min of 5 rows): "
    (bullet,) = _answered("And how many virginica?", ["virginica", "average", "petal", "width"])
    assert bullet[0] == "Rows with species virginica: 3 of 5 (t.csv) ", "a count, not a sum"


def test_a_condition_may_name_its_column_after_the_number() -> None:
    """ "sold more than 500 units": the words before the number name no column of the table
    ("products sold"), the one after it does; the rows that meet it are shown."""
    text = "product,units_sold,price\nkettle,800,20\nlamp,300,35\nscale,650,12"
    terms = ["products", "sold", "500", "units"]
    (bullets,) = answer_tables(
        _passages(text), "Which products sold more than 500 units?", terms
    ).values()
    assert [b[-1].quote for b in bullets] == ["kettle,800,20", "scale,650,12"]


PRICES = (
    "Date,IBM,Units\n2019-12-01,120.5,2019\n2020-01-01,100.0,10\n2020-02-01,110.0,12\n"
    "2020-02-05,,\n2020-03-01,90.0,2020\n2021-01-01,130.0,8"
)
"""Monthly prices as programs write them: ISO dates, a day without prices, a column of
counts whose values look like years."""


@pytest.mark.parametrize(
    ("question", "terms", "said", "rows"),
    [
        (
            "What was the average IBM price in 2020?",
            ["ibm", "price", "2020"],
            "Average IBM for Date 2020: 100.000 (mean of 3 rows of t.csv) ",
            [2, 3, 5],
        ),
        (
            "What was the IBM price on 2020-02-01?",
            ["ibm", "price", "2020", "02", "01"],
            '"Date: 2020-02-01, IBM: 110.0, Units: 12" (t.csv) ',
            [3],
        ),
        (
            "How many months had an IBM price above 2019?",
            ["months", "ibm", "price", "2019"],
            "No row with IBM above 2019 (of 6 rows, t.csv); the highest IBM: 130.0 ",
            [6],
        ),
        (
            "What was the total IBM price in 2019 and 2021?",
            ["total", "ibm", "price", "2019", "2021"],
            "Total IBM for Date 2019 or 2021: 250.5 (sum of 2 rows of t.csv) ",
            [1, 6],
        ),
        (
            "What was the average IBM price in January?",
            ["average", "ibm", "price", "january"],
            "Average IBM for Date 2020-01 or 2021-01: 115.000 (mean of 2 rows of t.csv) ",
            [2, 6],
        ),
        (
            "What was the total IBM price in February 2020?",
            ["total", "ibm", "price", "february", "2020"],
            "IBM for Date 2020-02: 110.0 (t.csv) ",
            [3],
        ),
    ],
)
def test_a_year_or_a_date_keeps_the_rows_of_a_column_of_dates(
    question: str, terms: list[str], said: str, rows: list[int]
) -> None:
    """Numbers were no filters, so "in 2020" was left out and the average was of every
    row. A year the question says (outside a date or a condition) is a word of a date's
    cell; an ISO date keeps the rows whose cell starts with it. A year that is a
    condition's number ("above 2019") stays a condition, and a count that looks like a
    year (``Units`` 2019) is a number, not a date. A month keeps its rows of the years
    said, or of every year."""
    (bullet,) = _answered(question, terms, PRICES)
    assert bullet[0] == said
    lines = PRICES.split("\n")
    assert [cite.quote for cite in bullet[1:]] == [lines[i] for i in rows]


REGIONS = "region,month,revenue\nNorth,Jan,100\nNorth,Feb,150\nSouth,Jan,50\nTotal,,300\nWest,Jan,0"


@pytest.mark.parametrize(
    ("question", "terms", "said", "rows"),
    [
        (
            "What share of revenue came from the North region?",
            ["share", "revenue", "north", "region"],
            "Share of revenue for region North: 250 of 300 (83.3%) (sum of 2 rows of t.csv) ",
            [1, 2],
        ),
        (
            "What percentage of the revenue was made in January?",
            ["percentage", "revenue", "made", "january"],
            "Share of revenue for month Jan: 150 of 300 (50.0%) (sum of 3 rows of t.csv) ",
            [1, 3, 5],
        ),
    ],
)
def test_a_share_of_a_column_is_of_its_total(
    question: str, terms: list[str], said: str, rows: list[int]
) -> None:
    """ "What share of revenue came from the North region?" answered North's total, and
    "What percentage of revenue is from North?" quoted a row: a share asked of a column
    the question names is the part of its total the rows kept hold ("Total" rows left
    out of both)."""
    (bullet,) = _answered(question, terms, REGIONS)
    assert bullet[0] == said
    lines = REGIONS.split("\n")
    assert [cite.quote for cite in bullet[1:]] == [lines[i] for i in rows]


RETURNS = "product,units_returned,price\nkettle,0,20\nscale,3,12\nlamp,,9\nfan,1,30"


@pytest.mark.parametrize(
    ("question", "terms", "table", "said", "rows"),
    [
        (
            "How many months had no IBM price?",
            ["months", "ibm", "price"],
            PRICES,
            "Rows with IBM empty: 1 of 6 (t.csv) ",
            [4],
        ),
        (
            "How many IBM prices are missing?",
            ["ibm", "prices", "missing"],
            PRICES,
            "Rows with IBM empty: 1 of 6 (t.csv) ",
            [4],
        ),
        (
            "What is the average price of products without returns?",
            ["average", "price", "products", "returns"],
            RETURNS,
            "Average price for units_returned empty or 0: 14.50 (mean of 2 rows of t.csv) ",
            [1, 3],
        ),
    ],
)
def test_a_column_asked_to_be_empty_keeps_the_rows_without_a_value(
    question: str, terms: list[str], table: str, said: str, rows: list[int]
) -> None:
    """ "How many months had no GOOGL price?" of matplotlib's Stocks.csv summed the GOOGL
    prices: "no" (or "without", "missing") with a column's name keeps the rows whose cell
    there is empty, or 0 in a column of numbers ("no returns")."""
    (bullet,) = _answered(question, terms, table)
    assert bullet[0] == said
    lines = table.split("\n")
    assert [cite.quote for cite in bullet[1:]] == [lines[i] for i in rows]


def test_no_column_asked_to_be_empty_computes_nothing() -> None:
    """ "no discount" of a table without a discount: no column, so no count of products."""
    question = "How many products have no discount?"
    assert answer_tables(_passages(RETURNS), question, ["products", "discount"]) == {}


ORDERS = "order_id,city,amount\n" + "\n".join(
    f"O-{i:06d},{('Paris', 'Lyon')[i % 2]},{10 + i}" for i in range(12)
)


def test_an_id_of_letters_and_digits_looks_its_row_up() -> None:
    """The "O" of "O-000007" was a filter word that every order id holds: the answer
    listed the orders, and over a whole table its scope named each of them."""
    terms = ["amount", "order", "o", "000007"]  # as the service splits the question
    (bullet,) = _answered("What is the amount of order O-000007?", terms, ORDERS)
    assert bullet[0] == '"order_id: O-000007, city: Lyon, amount: 17" (t.csv) '
    (bullet,) = _answered("What is the total amount of the Paris orders?",
                          ["total", "amount", "paris", "orders"], ORDERS)  # fmt: skip
    assert bullet[0].startswith("Total amount for city Paris: 90 (sum of 6 rows of t.csv)")


def test_per_groups_only_what_is_computed() -> None:
    """ "per" and "by" group the rows when a value is computed ("the average price per
    region"; "How many units per region?" counted the rows of each region, under the
    label "Rows units"); "the price per unit of the Gadget" asks a row's price, not a
    count of rows by units."""
    table = "product,region,units,price\nWidget,North,3,12.5\nGadget,North,3,8\nWidget,South,5,12.5"
    (row,) = _answered(
        "What is the price per unit of the Gadget?", ["price", "unit", "gadget"], table
    )
    assert row[0].startswith('"product: Gadget, region: North, units: 3, price: 8"'), row
    (grouped,) = _answered(
        "What is the average price per region?", ["average", "price", "region"], table
    )
    assert grouped[0].startswith(
        "Average price by region: North 10.250 (2 rows); South 12.500 (1 row) (of 3 rows, t.csv)"
    ), grouped
    (summed,) = _answered("How many units per region?", ["units", "region"], table)
    assert summed[0].startswith(
        "Total units by region: North 6 (2 rows); South 5 (1 row) (of 3 rows, t.csv)"
    ), summed


COUNTRIES = (
    "country,continent,year,lifeExp,pop,gdpPercap\n"
    "Japan,Asia,2007,82.603,127467972,31656.07\nJapan,Asia,1952,63.03,86459025,3216.96\n"
    "Kenya,Africa,2007,54.11,35610177,1463.25\nKenya,Africa,1952,42.27,6464046,853.54\n"
    "Chad,Africa,2007,50.651,10238807,1704.06\nFrance,Europe,2007,80.657,61083916,30470.02"
)
"""Rows of plotly's gapminder table: columns in camel case, "pop" for population."""


def _asked(question: str, table: str) -> Any:
    """The bullets of ``table`` for ``question``, its terms as the service finds them."""
    terms = query_of([ChatMessage(role="user", content=question)]).terms
    return _answered(question, list(terms), table)


def test_a_column_is_named_by_the_words_of_its_camel_case_and_a_short_cut() -> None:
    """ "the life expectancy of Japan in 2007" found no column (``lifeExp`` was one word,
    "lifeexp"), nor did "the total population of Europe" (``pop``: three letters)."""
    frame = pd.read_csv(io.StringIO(COUNTRIES))
    (row,) = _asked("What was the life expectancy of Japan in 2007?", COUNTRIES)
    assert row[0].startswith('"country: Japan, continent: Asia, year: 2007, lifeExp: 82.603,')
    (lowest,) = _asked("What was the lowest life expectancy?", COUNTRIES)
    assert lowest[0].startswith(f"Lowest lifeExp: {frame['lifeExp'].min()} (min of 6 rows"), lowest
    (total,) = _asked("What is the total population of Africa in 2007?", COUNTRIES)
    africa = frame[(frame["continent"] == "Africa") & (frame["year"] == 2007)]
    assert total[0].startswith(
        f"Total pop for continent Africa, year 2007: {africa['pop'].sum():,} (sum of 2 rows"
    ), total
    (grouped,) = _asked("What is the average GDP per capita by continent?", COUNTRIES)
    means = frame.groupby("continent", sort=False)["gdpPercap"].mean()
    assert grouped[0].startswith(f"Average gdpPercap by continent: Asia {means['Asia']:,.4f} ")


def test_how_many_of_a_column_counts_its_values_among_the_rows_kept() -> None:
    """ "How many countries are in Africa?" counted Africa's rows (one a country and a
    year): the countries among them are counted."""
    (bullet,) = _asked("How many countries are in Africa?", COUNTRIES)
    assert bullet[0].startswith("Distinct country for continent Africa: 2 (Kenya, Chad) of 3 rows")


def test_total_names_a_column_when_something_else_is_computed() -> None:
    """ "What was the largest total bill?" summed ``total_bill``; "Which district had the
    highest total?" summed ``district_id``."""
    bills = "total_bill,tip,day\n16.99,1.01,Sun\n50.81,10,Sat\n10.34,1.66,Sun"
    (largest,) = _asked("What was the largest total bill?", bills)
    assert largest[0].startswith("Highest total_bill: 50.81 (max of 3 rows"), largest
    (summed,) = _asked("What is the total of all bills?", bills)
    assert summed[0].startswith("Total total_bill: 78.14 (sum of 3 rows"), summed
    (sunday,) = _asked("What is the average tip on Sunday?", bills)
    assert sunday[0].startswith("Average tip for day Sun: 1.3350 (mean of 2 rows"), sunday
    districts = "district,district_id,total\nBois,101,7334\nCap,102,6363"
    (highest,) = _asked("Which district had the highest total?", districts)
    assert highest[0].startswith("Highest total: 7334 (max of 2 rows"), highest


# ---------------------------------------------------------------- tables of PDF reports

IRIS_CSV = (Path(__file__).parents[2] / "benchmarks" / "data" / "formats" / "iris.csv").read_text()
"""Fisher's iris data, 150 rows: over three pages of a PDF report."""


def _report_pdf(
    tables: list[list[list[str]]],
    *,
    widths: list[int] | None = None,
    valign: str = "BOTTOM",
    after: str = "",
) -> bytes:
    """A report as reportlab writes one: a title, a sentence, then each table, gridded,
    its header in bold (a table longer than a page goes on, without its header), then
    the sentence ``after``. With ``widths`` (points), a cell's text that is longer wraps
    onto lines of its own, which sit at the cell's top or bottom (``valign``)."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    styles = getSampleStyleSheet()
    story: list[Any] = [
        Paragraph("Quarterly sales report", styles["Title"]),
        Paragraph("Revenue and units by region and month, first quarter.", styles["Normal"]),
    ]
    for rows in tables:
        if widths is not None:
            rows = [[Paragraph(cell, styles["Normal"]) for cell in row] for row in rows]
        table = Table(rows, colWidths=widths)
        table.setStyle(
            TableStyle(
                [
                    ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
                    ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                    ("VALIGN", (0, 0), (-1, -1), valign),
                ]
            )
        )
        story += [Spacer(1, 12), table]
    if after:
        story += [Spacer(1, 12), Paragraph(after, styles["Normal"])]
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=A4).build(story)
    return out.getvalue()


def test_a_pdf_report_s_table_is_answered_as_a_table(client: httpx.Client) -> None:
    """pypdf gives a PDF table's cells one a line ("South", "March", "58300", "547"), so
    "What was the revenue of the South region in March?" quoted a lone cell. The rows its
    layout shows in columns, where the text has those cells in that order, are a table;
    one that goes on over the next page keeps its header there and is computed whole."""
    sales = [list(SALES_COLUMNS), *([str(cell) for cell in row] for row in SALES)]
    iris = pd.read_csv(io.StringIO(IRIS_CSV))
    flowers = [list(iris.columns), *iris.astype(str).to_numpy().tolist()]
    (report,) = upload(client, [("sales-report.pdf", _report_pdf([sales, flowers]))])
    text = client.get(f"/files/{report['id']}/text").text
    assert "\n".join(",".join(row) for row in sales) in text
    answer = ask(client, "What was the revenue of the South region in March?")
    assert checked_citations(client, answer)[0] == (
        "sales-report.pdf",
        "South,March,58300,547",
    )
    note = _message(answer)["annotations"][0]["file_citation"]
    assert note["location"] == {"page": 1, "row": 6}
    answer = ask(client, "What is the average petal length of virginica?")
    virginica = iris[iris["species"] == "virginica"]["petal_length"]
    content = str(_message(answer)["content"])
    assert (
        f"Average petal_length for species virginica: {virginica.mean():.3f} "
        f"(mean of {len(virginica)} rows of "
    ) in content, content


def test_a_table_matplotlib_draws_into_a_pdf_is_a_table(tmp_path: Path) -> None:
    """matplotlib's ``ax.table`` in a PDF: pypdf gives each row a line, its cells a blank
    apart ("Adelie Torgersen 39.1 ..."); the row under a header of words is a table."""
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    frame = pd.read_csv(io.StringIO(IRIS_CSV)).head(12)
    figure, axes = plt.subplots(figsize=(8, 5))
    axes.axis("off")
    axes.table(cellText=frame.astype(str).to_numpy(), colLabels=list(frame.columns))
    out = io.BytesIO()
    figure.savefig(out, format="pdf")
    plt.close(figure)
    text = _extract_text(tmp_path, "flowers.pdf", out.getvalue())
    assert text.startswith(",".join(frame.columns) + "\n")
    assert ",".join(frame.astype(str).iloc[3]) in text


INCIDENTS = [
    ["Incident id", "Service", "Duration in minutes", "Root cause"],
    ["INC-101", "Checkout", "42", "Expired TLS certificate"],
    ["INC-102", "Search", "", "Index rebuild stalled"],
    ["INC-103", "Payments", "95", "Database failover took longer than the configured timeout"],
    ["INC-104", "Checkout", "12", "Bad feature flag"],
]


@pytest.mark.parametrize("valign", ["TOP", "BOTTOM", "MIDDLE"])
def test_a_pdf_table_with_empty_and_wrapped_cells_is_a_table(tmp_path: Path, valign: str) -> None:
    """A PDF table with an empty cell (INC-102's duration), a cell whose text wraps onto a
    second line (INC-103's root cause, over or under its row's line) and a header whose
    cells wrap stayed text, its cells one a line: "What was the root cause of INC-103?"
    quoted "INC-101". Lines with fewer cells are read by where their cells stand; a
    note under the table stays text."""
    data = _report_pdf(
        [INCIDENTS], widths=[55, 60, 60, 200], valign=valign, after="Source: the on-call log."
    )
    text = _extract_text(tmp_path, "incidents.pdf", data)
    assert "\n".join(",".join(row) for row in INCIDENTS) + "\n\nSource: the on-call log." in text


SUPPLIERS = [
    ["Ref", "Supplier", "Scope of work", "Tier", "Findings"],
    [
        "C-201",
        "Harbour Lane Couriers Ltd",
        "Overnight delivery of signed contracts between the four regional offices, with a"
        " tracked hand-over at each site",
        "High",
        "Two late deliveries in March were traced to a missing hand-over log at the Bristol site",
    ],
    ["C-202", "Oakfield Cleaning", "Office cleaning", "Low", ""],
    [
        "C-203",
        "Northwind Archive Services",
        "Storage of paper records in a secure off-site archive, and their retrieval within"
        " one working day",
        "Medium",
        "Retrieval took more than a day in two of the last twelve months",
    ],
]


def test_a_pdf_table_whose_cells_are_centred_in_their_rows_is_a_table(tmp_path: Path) -> None:
    """A register whose long cells wrap onto three and four lines, centred in their rows
    (reportlab's VALIGN MIDDLE): their lines stand above and below the row's line, among
    those of the rows around, so joining lines up or down read no table and "What is
    the tier of Northwind Archive Services?" quoted a line of its scope. The page's text gives
    the cells one after the other, which the layout's columns place."""
    data = _report_pdf([SUPPLIERS], widths=[40, 70, 150, 55, 150], valign="MIDDLE")
    text = _extract_text(tmp_path, "suppliers.pdf", data)
    table = pd.read_csv(io.StringIO(text.split("\n\n")[1]), dtype=str, keep_default_na=False)
    assert table.to_numpy().tolist() == SUPPLIERS[1:]
    assert list(table.columns) == SUPPLIERS[0]


REMOVALS = [
    ["Part", "Removals", "Unscheduled", "MTBUR (FH)<super>2</super>"],
    ["Brake assembly", "11", "9", "860"],
    ["Brake control unit", "7", "7", "1,050"],
    ["Nose wheel steering actuator", "7", "5", "790"],
    ["Air data computer", "5", "2", "3,140"],
]


def test_a_pdf_table_whose_header_has_a_footnote_mark_is_a_table(tmp_path: Path) -> None:
    """A header cell with a footnote's mark ("MTBUR (FH)²"): the layout sets the mark on
    a line of its own above the cell, the text writes it after ("(FH)2"), so no reading
    of the lines matched the text and the table stayed cells one a line. The text's order
    reads it, where two cells side by side ("7", "7") say what a cell under them does;
    the caption under the table stays text."""
    data = _report_pdf([REMOVALS], widths=[140, 60, 80, 50], after="Table 2: Removals, Q1.")
    text = _extract_text(tmp_path, "removals.pdf", data)
    rows = [",".join(f'"{c}"' if "," in c else c for c in row) for row in REMOVALS[1:]]
    assert "\n".join(["Part,Removals,Unscheduled,MTBUR (FH)2", *rows]) in text, text
    assert text.endswith("\n\nTable 2: Removals, Q1."), text


def test_a_pdf_table_s_rows_under_a_group_name_are_read_with_it(client: httpx.Client) -> None:
    """A report names each region once, over its months' rows (a first cell left empty);
    those rows, and "How long did INC-102 last?" of a table where the duration is empty,
    are answered from the table."""
    grouped = [list(SALES_COLUMNS), *([str(cell) for cell in row] for row in SALES)]
    for row, above in zip(grouped[2:][::-1], grouped[1:-1][::-1], strict=True):
        row[0] = "" if row[0] == above[0] else row[0]
    assert grouped[2][:2] == ["", "February"], "North is said once, over its three months"
    upload(
        client, [("report.pdf", _report_pdf([grouped])), ("oncall.pdf", _report_pdf([INCIDENTS]))]
    )
    answer = ask(client, "What was the revenue of the North region in February?")
    north = next(row for row in SALES if row[:2] == ("North", "February"))
    assert checked_citations(client, answer)[0] == ("report.pdf", ",".join(map(str, north)))
    answer = ask(client, "What was the root cause of INC-103?")
    assert checked_citations(client, answer)[0] == ("oncall.pdf", ",".join(INCIDENTS[3]))
    answer = ask(client, "How long did INC-102 last?")
    assert checked_citations(client, answer)[0] == ("oncall.pdf", ",".join(INCIDENTS[2]))
    content = _message(answer)["content"]
    assert "Duration in minutes: (empty), Root cause: Index rebuild stalled" in content, content
    answer = ask(client, "Which incident lasted longest?")
    content = _message(answer)["content"]
    assert "Highest Duration in minutes: 95 (max of 3 rows): " in content, content


def test_a_pdf_table_whose_header_runs_into_the_next_column_is_a_table(tmp_path: Path) -> None:
    """A header wider than its column runs into the next one ("Annual spend (USD)Risk", one
    laid-out cell for two), and a wrapped note's last line may be a year alone ("June" /
    "2026"): the table stayed text. The page's text has the header's cells apart; a line
    of one number under a column of text is a wrapped cell's."""
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table

    def note(text: str) -> Paragraph:
        return Paragraph(text, getSampleStyleSheet()["Normal"])

    rows: list[list[Any]] = [
        ["Vendor", "Contract end", "Annual spend (USD)", "Risk", "Notes"],
        ["Hartwell Logistics", "2027-03-31", "412,000", "High",
         note("Request SOC 2 report; current report expired June 2026")],
        ["Northwind Cleaning", "", "64,200", "Low", ""],
        ["Redfern Security", "2027-09-30", "152,300", "Medium",
         note("Move to the new tariff on renewal")],
    ]  # fmt: skip
    table = Table(
        rows, colWidths=[110, 70, 60, 50, 130], style=[("VALIGN", (0, 0), (-1, -1), "TOP")]
    )
    out = io.BytesIO()
    SimpleDocTemplate(out).build([note("Vendor register"), Spacer(1, 12), table])
    text = _extract_text(tmp_path, "vendors.pdf", out.getvalue())
    assert text.endswith(
        "Vendor,Contract end,Annual spend (USD),Risk,Notes\n"
        'Hartwell Logistics,2027-03-31,"412,000",High,'
        "Request SOC 2 report; current report expired June 2026\n"
        'Northwind Cleaning,,"64,200",Low,\n'
        'Redfern Security,2027-09-30,"152,300",Medium,Move to the new tariff on renewal'
    ), text


def test_a_pdf_table_s_centred_header_over_several_lines_is_its_header(tmp_path: Path) -> None:
    """An annual report centres its header's cells, each over two or three lines ("Net
    Revenue" / "(EUR" / "thousands)"), and sets its numbers right: the lines of the
    header stand across columns, and the table's rows were read without it."""
    from reportlab.lib.enums import TA_CENTER
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table

    centred = ParagraphStyle("head", alignment=TA_CENTER, fontName="Helvetica-Bold")
    header = [
        "Region", "Net Revenue (EUR thousands)", "Operating Expenses (EUR thousands)",
        "Operating Margin (%)", "Employees at Year End",
    ]  # fmt: skip
    rows = [
        ["Nordics", "33,286", "26,421", "20.6", "459"],
        ["Baltics", "91,033", "81,256", "10.7", "1,060"],
        ["Iberia", "136,326", "114,244", "16.2", "508"],
    ]
    table = Table(
        [[Paragraph(h, centred) for h in header], *rows],
        colWidths=[90, 80, 80, 70, 70],
        style=[("ALIGN", (1, 1), (-1, -1), "RIGHT"), ("VALIGN", (0, 0), (-1, 0), "MIDDLE")],
    )
    out = io.BytesIO()
    SimpleDocTemplate(out).build([table])
    text = _extract_text(tmp_path, "report.pdf", out.getvalue())
    assert text.startswith(",".join(header) + "\nNordics,"), text


def test_a_workbook_s_dates_read_as_dates(tmp_path: Path) -> None:
    """A workbook keeps a date as a datetime: its cells read "2024-01-06 00:00:00", which
    no one writes and no question says. A time at midnight is the date; another is kept."""
    import datetime

    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Date", "Site", "Turbidity (NTU)"])
    sheet.append([datetime.datetime(2024, 1, 6), "Heron Point", 12.7])
    sheet.append([datetime.datetime(2024, 1, 9, 14, 30), "Heron Point", 9.4])
    out = io.BytesIO()
    book.save(out)
    text = _extract_text(tmp_path, "river.xlsx", out.getvalue())
    assert "\n2024-01-06,Heron Point,12.7\n2024-01-09 14:30:00,Heron Point,9.4" in text, text


def _budget_docx() -> bytes:
    """A Word table whose header is two rows: "H1 2024" and "H2 2024" each merged over a
    "Budget" and an "Actual" column, "Workstream" merged down over both rows."""
    import docx

    document = docx.Document()
    document.add_paragraph("Workstream budget versus actual, EUR thousands.")
    rows = [
        ("Data Platform", 1147, 951, 410, 333),
        ("Fleet Electrification", 2425, 2698, 1848, 2140),
    ]
    table = document.add_table(rows=2 + len(rows), cols=5)
    table.cell(0, 0).merge(table.cell(1, 0)).text = "Workstream"
    table.cell(0, 1).merge(table.cell(0, 2)).text = "H1 2024"
    table.cell(0, 3).merge(table.cell(0, 4)).text = "H2 2024"
    for column, name in enumerate(["Budget", "Actual", "Budget", "Actual"], start=1):
        table.cell(1, column).text = name
    for r, row in enumerate(rows, start=2):
        for c, value in enumerate(row):
            table.cell(r, c).text = f"{value:,}" if isinstance(value, int) else value
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_a_word_table_s_header_of_two_rows_names_each_column(client: httpx.Client) -> None:
    """ "H1 2024" merged over "Budget" and "Actual": the first row was the header and
    "Budget", "Actual" a row of data, so "the total H1 2024 budget" named no column; and a
    column's "H2" was read "h", so "H2 actual" named H1's as well."""
    upload(client, [("capex.docx", _budget_docx())])
    content = _message(ask(client, "What is the total H1 2024 budget?"))["content"]
    assert "- Total H1 2024 Budget: 3,572 (sum of 2 rows of capex.docx)" in content, content
    content = _message(ask(client, "What is the total H2 2024 actual?"))["content"]
    assert "- Total H2 2024 Actual: 2,473 (sum of 2 rows of capex.docx)" in content, content


def test_a_day_written_in_words_finds_its_row_among_all_the_table_s(
    client: httpx.Client,
) -> None:
    """ "Turbidity at Heron Point on 6 Jan 2024?" of a sheet of 40 days at five sites
    quoted other days: the date in words filtered nothing, and the day's row was not
    among the passages that say "Heron Point" most. A date in words is a date, and a
    day's row is looked for among all the table's."""
    import datetime

    import openpyxl

    sites = ["Alder Bridge", "Heron Point", "Mill Weir", "Otter Pool", "Quarry Ford"]
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Date", "Site", "Turbidity (NTU)", "Nitrate (mg/L)"])
    written = {}
    for day in range(40):
        for n, site in enumerate(sites):
            when = datetime.datetime(2024, 1, 3) + datetime.timedelta(days=3 * day)
            turbidity = 2.5 + (day * 7 + n * 3) % 23 * 0.7
            sheet.append([when, site, turbidity, 1 + n])
            written[when.date().isoformat(), site] = f"{turbidity:g},{1 + n}"
    out = io.BytesIO()
    book.save(out)
    upload(client, [("river.xlsx", out.getvalue())])
    for question in (
        "Turbidity at Heron Point on 6 Jan 2024?",
        "turbidity at Heron Point on January 6, 2024",
    ):
        cited = checked_citations(client, ask(client, question))
        row = f"2024-01-06,Heron Point,{written['2024-01-06', 'Heron Point']}"
        assert cited[0] == ("river.xlsx", row), cited


# ---------------------------------------------------------------- an API's export


def _requests_export() -> tuple[bytes, pd.DataFrame]:
    """An API's export of parts requests, each record's cost, part and times nested
    objects, and the records' table as ``pandas.json_normalize`` reads them."""
    import json

    priorities = ["AOG", "Critical", "Routine"]
    records = [
        {
            "request_id": f"RQ-{100 + i}",
            "priority": priorities[(i // 2) % 3],
            "part": {"description": f"Part {i}", "quantity": 1 + i % 4},
            "timeline": {"requested_at": f"2025-{4 + i % 3:02d}-{1 + i:02d}T0{i % 10}:15:00Z"},
            "cost": {"amount": round(1000 + 137.31 * i, 2), "currency": "GBP"},
        }
        for i in range(18)
    ]
    data = json.dumps({"export": {"source": "Stores API"}, "records": records}, indent=2)
    return data.encode(), pd.json_normalize(records)


def test_an_api_export_is_answered_as_a_table(client: httpx.Client) -> None:
    """ "How much did request RQ-107 cost?" of an export of nested records quoted the line
    ``"request_id": "RQ-107",``; read as a table, the answer was its ``part.quantity``
    ("part" names three columns, "cost" the one asked); "the total cost of AOG requests
    raised in May 2025" summed every row: "AOG" is in the file's name (what every row of
    ``airports.csv`` is), and a time written as ISO 8601 ("2025-05-02T01:15:00Z") was no
    day of May."""
    data, frame = _requests_export()
    upload(client, [("aog_requests_export.json", data)])
    answer = ask(client, "How much did request RQ-107 cost?")
    row = frame[frame["request_id"] == "RQ-107"].iloc[0]
    content = str(_message(answer)["content"])
    assert f"cost.amount for request_id RQ-107: {row['cost.amount']}" in content, content
    quote = ",".join(str(cell) for cell in row)
    assert checked_citations(client, answer)[0] == ("aog_requests_export.json", quote)
    answer = ask(client, "What was the total cost of AOG requests raised in May 2025?")
    may = frame[(frame["priority"] == "AOG") & frame["timeline.requested_at"].str[:7].eq("2025-05")]
    assert len(may) == 3
    content = str(_message(answer)["content"])
    assert (
        f"Total cost.amount for priority AOG, timeline.requested_at 2025-05: "
        f"{may['cost.amount'].sum():,.2f} (sum of 3 rows"
    ) in content, content


PIREP_NOTES = """# Reliability review - 3 July

## 1. Pilot reports

PIREPs by ATA chapter for Q2 2025,
top four chapters:

| ATA | Chapter | ATR 72-600 | Q400 | Total |
|-----|---------|-----------:|-----:|------:|
| 32 | Landing **gear** | 6 | 9 | 15 |
| 21 | `Air` conditioning | 8 | 3 | 11 |
| 30 | Ice and rain protection | 2 | 7 | 9 |
| 34 | Navigation | 6 | 2 | 8 |

- Landing gear is still the biggest chapter, mostly tyres.
"""


def test_a_markdown_pipe_table_is_a_table_its_caption_leads(tmp_path: Path) -> None:
    """Meeting notes in Markdown with a pipe table: its rows were lines of prose ("| 30 |
    Ice and rain protection | 2 | 7 | 9 |"), so no question was computed over them. It is
    a table as it shows, under the paragraph that introduces it; the lines after it keep
    the file's line numbers."""
    path = tmp_path / "blob"
    path.write_text(PIREP_NOTES)
    found = extract(path, filename="notes.md", content_type="")
    assert found is not None
    table = next(p for _, p in found.passages if "ATA,Chapter" in p)
    assert table.startswith(
        "PIREPs by ATA chapter for Q2 2025, top four chapters:\n"
        "ATA,Chapter,ATR 72-600,Q400,Total\n32,Landing gear,6,9,15\n21,Air conditioning,8,3,11\n"
    )
    (index,) = [i for i, (_, p) in enumerate(found.passages) if p.startswith("- Landing gear")]
    line = PIREP_NOTES.split("\n").index(found.passages[index][1].split("\n")[0]) + 1
    assert found.locations[index] == ((0, {"line": line}),)


def test_a_count_in_a_markdown_table_is_read_by_its_row_and_column(client: httpx.Client) -> None:
    """ "In the Q2 PIREP table, how many Q400 PIREPs were there for ATA 30?": "Q2 PIREP" and
    "Q400 PIREPs" read as names no file spells together, so nothing was cited; a period
    ("Q2") and an acronym's plural ("PIREPs") are in no name. Then "for ATA 30" is the
    row whose ``ATA`` is 30, and "Q400" the column counted (the answer was the total of
    the ``ATA`` column)."""
    upload(client, [("reliability-review.md", PIREP_NOTES)])
    answer = ask(client, "In the Q2 PIREP table, how many Q400 PIREPs were there for ATA 30?")
    content = str(_message(answer)["content"])
    assert content.startswith("Here is what I found in your files:\n\n- Q400 for ATA = 30: 7 ("), (
        content
    )
    quote = checked_citations(client, answer)[0]
    assert quote == ("reliability-review.md", "30,Ice and rain protection,2,7,9"), quote


def test_a_month_names_the_column_a_table_cuts_it_to(client: httpx.Client) -> None:
    """A sheet of hours flown with a column a month ("Jan", ..., "Dec"): "G-TBRC flight
    hrs in March 2024?" found the row by its registration, but "March" was held by no word
    of it, so a note about flight hours came first. A month is held where a table (or a
    date, "18 Mar 2024") cuts it, and names that column."""
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    hours = pd.DataFrame(
        [
            [f"G-TBR{c}", *(f"{150 + 7.3 * i + 11 * j:.1f}" for j in range(12))]
            for i, c in enumerate("ABC")
        ],
        columns=["Registration", *months],
    )
    notes = (
        "Flight hours are airborne hours, from the technical log, not block hours.\n\n"
        "G-TBRA was in its C-check from 6 to 31 January 2024, so its January hours are low."
    )
    upload(
        client,
        [("utilisation_2024.csv", hours.to_csv(index=False)), ("utilisation-notes.txt", notes)],
    )
    answer = ask(client, "G-TBRC flight hrs in March 2024?")
    row = hours[hours["Registration"] == "G-TBRC"].iloc[0]
    assert checked_citations(client, answer)[0] == ("utilisation_2024.csv", ",".join(row))


DEFERRALS = """# Deferred defects

Table 1 gives the interval for each MEL category:

| MEL category | Calendar days | Extension |
|---|---|---|
| A | As stated in the MEL remarks | No |
| B | 3 | Yes, once |
| C | 10 | Yes, once |
| D | 120 | Yes, once |

A one-time extension of a category B, C or D item may be granted by the Continuing
Airworthiness Manager for a period not exceeding the original interval.
"""


def test_a_grade_of_a_letter_selects_its_row(client: httpx.Client) -> None:
    """ "a category C MEL item": "C MEL" read as a name of several words that no file
    spells, so nothing was cited; and "How many calendar days can a cat D MEL item stay
    open?" counted the column's distinct values, the letter no filter. A letter alone
    after a word is a grade: in no name, and the row of the column the word names (or
    starts: "cat") whose cell is that letter."""
    upload(client, [("deferrals.md", DEFERRALS)])
    answer = ask(client, "Who can grant a one-time extension for a category C MEL item?")
    quote = checked_citations(client, answer)[0]
    assert quote[1].startswith("A one-time extension of a category B, C or D item"), quote
    answer = ask(client, "how many calendar days can a cat D MEL item stay open?")
    content = str(_message(answer)["content"])
    assert content.startswith(
        'Here is what I found in your files:\n\n- "MEL category: D, Calendar days: 120, '
    ), content


def test_days_written_day_first_are_filtered_as_days(client: httpx.Client) -> None:
    """A tech log's "Date Raised" is written day first ("05/03/2025"), so "between 1 and
    15 March 2025" kept no row of it, nor "in March 2025". A column whose first numbers
    go over 12 is of days written day first, read as ISO days; one whose second numbers
    do, month first (an American export)."""
    days = [f"{1 + (5 * i) % 28:02d}/{1 + i % 4:02d}/2025" for i in range(40)]
    log = pd.DataFrame({"Ref": [f"TL-{i:03d}" for i in range(40)], "Date Raised": days})
    american = log.assign(**{"Date Raised": [f"{d[3:5]}/{d[:2]}/{d[6:]}" for d in days]})
    iso = pd.to_datetime(log["Date Raised"], format="%d/%m/%Y")
    within = ((iso >= "2025-03-01") & (iso <= "2025-03-15")).sum()
    assert 0 < within < (iso.dt.month == 3).sum()
    for name, table in [("defects.tsv", log), ("us-defects.tsv", american)]:
        upload(client, [(name, table.to_csv(sep="\t", index=False))])
        answer = ask(
            client, f"In {name}, how many defects were raised between 1 and 15 March 2025?"
        )
        content = str(_message(answer)["content"])
        assert f": {within} of 40 (" in content, content


def test_a_sheet_of_months_is_totalled_over_the_months_asked(client: httpx.Client) -> None:
    """A sheet of hours flown by month, a column a month: "the total hours of the ATR
    fleet in Q3" named no column (no "hours" column), so the rows were quoted; "Which
    registration has the highest hours?" too. A question that names no month of
    such a sheet totals each row over the months of the quarter it says, else over all
    of them."""
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    hours = pd.DataFrame(
        [
            [
                f"G-TBR{c}",
                kind,
                *(round(140 + 9.7 * i + 13.1 * j - (j == 7) * 40 * i, 1) for j in range(12)),
            ]
            for i, (c, kind) in enumerate(
                zip("ABCDE", ["ATR 72", "ATR 72", "Q400", "ATR 72", "Q400"], strict=True)
            )
        ],
        columns=["Registration", "Type", *months],
    )
    upload(client, [("hours_by_month.csv", hours.to_csv(index=False))])
    answer = ask(client, "What were the total flight hours of the ATR fleet in Q3?")
    atr = hours[hours["Type"] == "ATR 72"]
    q3 = atr[["Jul", "Aug", "Sep"]].sum(axis=1).sum()
    content = str(_message(answer)["content"])
    assert f"Total Jul to Sep for Type ATR 72: {q3:,.1f} (sum of 3 rows" in content, content
    answer = ask(client, "Which registration has the highest hours?")
    totals = hours[months].sum(axis=1)
    best = hours.loc[totals.idxmax()]
    content = str(_message(answer)["content"])
    assert f"Highest Jan to Dec: {totals.max():,.1f}" in content, content
    assert best["Registration"] in content, content


def test_two_words_a_file_s_name_writes_as_one_are_its_words(client: httpx.Client) -> None:
    """ "How many tech log defects were raised between 1 and 15 March 2025?" of
    ``techlog_defects_H1_2025.tsv``: "tech" and "log" were no words of its name, which
    says "techlog", so its rows fell under the cut among a workspace's other files. Two
    words in a row of the question that a file's name writes as one are words of it."""
    log = pd.DataFrame({"Ref": ["TL-001", "TL-002"], "Date Raised": ["05/03/2025", "17/03/2025"]})
    upload(
        client,
        [
            ("techlog_defects_2025.tsv", log.to_csv(sep="\t", index=False)),
            ("notes.md", "# Notes\n"),
        ],
    )
    response = client.post("/files/search", json={"query": "tech log defects", "relevance": 0})
    response.raise_for_status()
    (hit,) = [h for h in response.json()["data"] if h["filename"] == "techlog_defects_2025.tsv"]
    assert hit["scores"]["lexical"] == 1.0, hit


def test_the_average_monthly_quantity_is_of_each_month_s_total() -> None:
    """ "the average monthly quantity" of dispatch lines gave each month's average line:
    it is each month's total, a month of the stretch asked with no line counted 0, then
    their average; a price per month is still each month's average price."""
    text = (
        "date,product,quantity,price\n2025-07-02,CP-410,30,9.5\n2025-07-20,CP-410,50,9.0\n"
        "2025-07-21,CP-412,70,8.0\n2025-09-03,CP-410,40,10.0\n2025-10-01,CP-410,99,11.0"
    )
    question = "What was the average monthly quantity of CP-410 between 1 July and 30 September?"
    (bullet,) = _answered(question, ["quantity", "cp-410"], text)
    assert bullet[0] == (
        "Average total quantity per month of date for product CP-410, date 07-01 to 09-30: "
        "40.00 (2025-07 80; 2025-08 0; 2025-09 40; of 3 rows, t.csv) "
    ), bullet
    assert [cite.quote for cite in bullet[1:]] == [
        "2025-07-02,CP-410,30,9.5",
        "2025-09-03,CP-410,40,10.0",
    ]
    (bullet,) = _answered(
        "What was the average price per month of CP-410?", ["price", "cp-410"], text
    )
    assert bullet[0].startswith(
        "Average price by month of date for product CP-410: 2025-07 9.25"
    ), bullet


def test_the_average_monthly_amount_over_a_stretch_of_months(client: httpx.Client) -> None:
    """ "the average monthly dispatched quantity of CP-410 over July to September" was
    answered by nothing: its rows say neither "monthly" nor "July" (their days are ISO:
    2025-07-03), so they fell under the cut, and "July to September" kept July and
    September only. A period a computation is of counts as a word asking for it, a month
    is held by the ISO days in it, a stretch of months keeps each month in it, and
    "quantity" names ``qty``, which it contracts."""
    products = ["CP-410", "CP-412", "AB-220", "VX-101"]
    kinds = ["DISPATCH", "RECEIPT", "ADJUST"]
    rows = [
        (f"SM{n:05d}", f"2025-{7 + n // 4 % 4:02d}-{1 + n % 28:02d}T10:{n % 60:02d}:00",
         products[n % 4], kinds[n % 3 if n % 5 else 0], -(n % 37 + 3) if n % 3 != 1 else n % 50)
        for n in range(400)
    ]  # fmt: skip
    moves = pd.DataFrame(rows, columns=["movement_id", "posted_at", "product_code", "type", "qty"])
    memo = (
        "Courier charges per parcel went up by 6.5% in July when the new contract began.\n\n"
        "The September stock count found 14 damaged cartons of CP-410."
    )
    upload(client, [("stock_movements.csv", moves.to_csv(index=False)), ("memo.txt", memo)])
    question = "what's the average monthly dispatched quantity of CP-410 over July to September?"
    content = str(_message(ask(client, question))["content"])
    kept = moves[(moves["product_code"] == "CP-410") & (moves["type"] == "DISPATCH")]
    kept = kept[kept["posted_at"].str[5:7].isin(["07", "08", "09"])]
    totals = kept.groupby(kept["posted_at"].str[:7])["qty"].sum()
    shown = "; ".join(f"{month} {total:,}" for month, total in totals.items())
    assert len(totals) == 3, totals
    assert f": {totals.mean():,.2f} ({shown}; of {len(kept)} rows" in content, content


@pytest.mark.parametrize(
    ("word", "term", "says"),
    [("qty", "quantity", True), ("amt", "amount", True), ("pct", "percent", True),
     ("hrs", "hours", True), ("set", "select", False), ("st", "street", False),
     ("temp", "temperature", True), ("pop", "pot", False)],
)  # fmt: skip
def test_a_column_word_abbreviates_or_contracts_a_term(word: str, term: str, says: bool) -> None:
    assert abbreviates(word, term) is says


def test_a_year_keeps_the_rows_of_a_column_of_its_periods() -> None:
    """ "the open cut schemes starting in 2026" summed every open cut scheme: the column
    ``Start`` of "Q1 2026", "H2 2026" is no column of dates, and a year is no filter word.
    A year the question says keeps the rows whose period it is."""
    text = (
        "Scheme,Method,Cost (EUR k),Start\nRN-1,Open cut,100.5,Q2 2025\nRN-2,Open cut,200,Q1 2026\n"
        "RN-3,Slip lining,50,Q3 2026\nRN-4,Open cut,300.25,H2 2026\nRN-5,Open cut,80,March 2027"
    )
    question = "What's the total estimated cost of the open cut renewal schemes starting in 2026?"
    (bullet,) = _answered(question, ["estimated", "cost", "open", "cut", "schemes", "2026"], text)
    assert bullet[0] == (
        "Total Cost (EUR k) for Method Open cut, Start 2026: 500.25 (sum of 2 rows of t.csv) "
    ), bullet


PIPES = (
    "asset_id,material,install_year,condition_grade,last_condition_assessment\n"
    "W1,CI,1962,5,2024-03-02\nW2,CI,1975,5,2024-08-01\nW3,AC,1968,4,2024-05-05\n"
    "W4,AC,1955,5,2023-02-02\nW5,CI,1969,5,2024-01-20"
)
"""A pipe asset extract, as a water utility's asset system exports it."""


@pytest.mark.parametrize(
    ("question", "terms", "said"),
    [
        (
            "how many grade 5 pipes were installed before 1970?",
            ["grade", "5", "pipes", "installed", "1970"],
            "Rows with install_year < 1970, condition_grade = 5: 3 of 5 (t.csv) ",
        ),
        (
            "How many pipes had their last condition assessment in the first half of 2024?",
            ["pipes", "last", "condition", "assessment", "first", "half", "2024"],
            "Rows with last_condition_assessment 2024-01 or 2024-03 or 2024-05: 3 of 5 (t.csv) ",
        ),
        (
            "How many pipes were assessed in H2 2024?",
            ["pipes", "assessed", "h2", "2024"],
            "Rows with last_condition_assessment 2024-08: 1 of 5 (t.csv) ",
        ),
    ],
)
def test_a_count_of_pipes_by_grade_year_and_half(
    question: str, terms: list[str], said: str
) -> None:
    """ "how many grade 5 pipes were installed before 1970?" summed ``condition_grade`` of
    the pipes of 1970 (a year read as a filter, "before" as nothing, "grade 5" as no
    condition); "How many pipes had their last condition assessment in the first half of
    2024?" gave the latest assessment ("last" read as "latest") or summed the grades
    ("condition" naming ``condition_grade``, which ``last_condition_assessment`` names
    more wholly). A year after "before", "after" or "since" bounds the column the word
    before it names; a category's word and number ("grade 5") select its rows; a half
    ("H2", "the first half") is its six months; a count is no latest."""
    (bullet,) = _answered(question, terms, PIPES)
    assert bullet[0] == said, bullet


def test_a_period_in_a_sheet_s_name_or_a_fiscal_year_groups_and_filters_nothing() -> None:
    """ "which DMA had the highest average MNF over 2024/25 in the monthly raw data?" read
    "over 2024" as a condition on MNF, "monthly" as grouping by month and "2024/25" as
    the year 2024: no row met it. A fiscal year is no year, a number before a slash no
    bound, and "monthly" groups only an average of each month's total."""
    text = (
        "DMA,Month,MNF (l/s)\nN101,2024-04-01,7.8\nN101,2025-01-01,8.2\nC201,2024-04-01,11.5\n"
        "C201,2025-02-01,12.1\nS305,2024-06-01,3.2\nS305,2025-03-01,3.4"
    )
    question = "which DMA had the highest average MNF over 2024/25 in the monthly raw data?"
    (bullet,) = _answered(question, ["dma", "mnf", "2024", "25", "monthly", "raw", "data"], text)
    assert bullet[0].startswith("Highest average MNF (l/s) by DMA: C201 11.800 (2 rows)"), bullet


def test_a_column_the_question_names_more_of_takes_only_the_words_it_holds() -> None:
    """A column named by more of a question's words takes a numeric column's words only
    when it holds them all: "the total amount credited ... in the credits export" is the
    sum of ``amount_gbp``, though "credited" and "credits" name ``credit_id``."""
    text = (
        "credit_id,region,reason,amount_gbp\nCR-1,Scotland,Billing error,103.94\n"
        "CR-2,Wales,Billing error,50.00\nCR-3,Scotland,Billing error,249.92\n"
        "CR-4,Scotland,Goodwill,20.00"
    )
    question = (
        "What is the total amount credited for billing errors in Scotland in the credits export?"
    )
    terms = ["amount", "credited", "billing", "errors", "scotland", "credits", "export"]
    (bullet,) = _answered(question, terms, text)
    assert bullet[0].startswith(
        "Total amount_gbp for region Scotland, reason Billing error: 353.86"
    ), bullet
