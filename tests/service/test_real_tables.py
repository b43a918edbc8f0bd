"""Tables nobody here wrote, asked as a data scientist asks them: palmerpenguins' penguins
(``NA`` for a missing value, columns named ``body_mass_g``), vega_datasets' Seattle
weather (days written "2012/01/01", ``temp_max`` and ``temp_min``), its stocks in long
form, its airports and the victims of the 1992 Los Angeles riots. Each question is asked
narrowed to its table (as ``%%chat --df`` asks), or of a workspace of tables and a
document when it says which table, and checked against what pandas computes from the
same file."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from importlib.resources import files
from pathlib import Path

import httpx
import pandas as pd
import pytest

from support.chat import ask, checked_citations, client_for, upload
from support.office_files import acme_contract_docx
from support.service import Service

PENGUINS = Path(str(files("palmerpenguins") / "data" / "penguins.csv"))
PENGUINS_RAW = Path(str(files("palmerpenguins") / "data" / "penguins-raw.csv"))
VEGA = Path(str(files("vega_datasets") / "_data"))
WEATHER, STOCKS, AIRPORTS, RIOTS = (
    VEGA / name for name in ("seattle-weather.csv", "stocks.csv", "airports.csv", "la-riots.csv")
)

Said = Callable[[str], tuple[str, list[tuple[str, str]]]]


@pytest.fixture
def client(service: Service, org: str) -> Iterator[httpx.Client]:
    with client_for(service, org) as c:
        yield c


def _narrowed(
    client: httpx.Client, path: Path, read: Callable[[Path], pd.DataFrame] = pd.read_csv
) -> tuple[pd.DataFrame, Said]:
    """``path`` uploaded, ``read`` by pandas, and how to ask of it alone: the answer's first
    bullet and its citations."""
    (table,) = upload(client, [(path.name, path.read_bytes())])
    scoped = [{"type": "filter", "file_ids": [table["id"]]}]

    def said(question: str) -> tuple[str, list[tuple[str, str]]]:
        answer = ask(client, [{"type": "text", "text": question}, *scoped])
        cited = checked_citations(client, answer)
        content = str(answer["choices"][0]["message"]["content"])
        assert "\n- " in content, f"{question!r}: {content}"
        return content.split("\n- ", 1)[1], cited

    return read(path), said


def _said_of_all(client: httpx.Client, question: str) -> tuple[str, list[tuple[str, str]]]:
    """The answer to ``question`` of every file, and its citations."""
    answer = ask(client, question)
    return str(answer["choices"][0]["message"]["content"]), checked_citations(client, answer)


def test_missing_values_written_na_are_empty(client: httpx.Client) -> None:
    """penguins.csv writes a missing measure or sex "NA", as R does: no column with one
    was a column of numbers (so "the average body mass" was of ``year``, the only one
    left), and "no recorded sex" counted 0."""
    frame, said = _narrowed(client, PENGUINS)
    gentoo = frame[frame["species"] == "Gentoo"]
    content, _ = said("What is the average body mass of Gentoo penguins?")
    assert content.startswith(
        f"Average body_mass_g for species Gentoo: {gentoo['body_mass_g'].mean():,.2f} "
        f"(mean of {gentoo['body_mass_g'].notna().sum()} rows"
    ), content
    content, cited = said("How many penguins have no recorded sex?")
    assert content.startswith(f"Rows with sex empty: {frame['sex'].isna().sum()} of "), content
    assert all(",NA," in quote for _, quote in cited)
    female = frame[(frame["species"] == "Adelie") & (frame["sex"] == "female")]
    content, _ = said("What is the average flipper length of female Adelie penguins?")
    assert f": {female['flipper_length_mm'].mean():,.2f} (mean of {len(female)} rows" in content


def test_a_measure_names_its_column_by_a_word_it_starts_with(client: httpx.Client) -> None:
    """Seattle's ``temp_max`` and ``temp_min``: "the highest temperature" found nothing
    (no column says "temperature"), nor did "the coldest day" ("coldest" asked for no
    computation); "the strongest wind" quoted the header."""
    frame, said = _narrowed(client, WEATHER)
    hottest, coldest = frame["temp_max"].idxmax(), frame["temp_min"].idxmin()
    content, cited = said("What was the highest temperature?")
    assert content.startswith(f"Highest temp_max: {frame['temp_max'].max()} (max of "), content
    assert cited[0][1].startswith(frame["date"][hottest] + ",")
    content, cited = said("What was the lowest temperature?")
    assert content.startswith(f"Lowest temp_min: {frame['temp_min'].min()} (min of "), content
    _, cited = said("What was the coldest day?")
    assert cited[0][1].startswith(frame["date"][coldest] + ",")
    _, cited = said("Which day had the strongest wind?")
    assert cited[0][1].startswith(frame["date"][frame["wind"].idxmax()] + ",")


def test_days_written_with_slashes_filter_by_year_and_month(client: httpx.Client) -> None:
    """A year or a month filtered only a column of ISO dates ("2015-01-01"): of days
    written "2015/01/01", "the total precipitation in 2015" summed all four years. And
    "rainy" days are those the ``weather`` column says "rain"."""
    frame, said = _narrowed(client, WEATHER)
    year = frame[frame["date"].str.startswith("2015/")]
    content, _ = said("What was the total precipitation in 2015?")
    assert content.startswith(
        f"Total precipitation for date 2015: {year['precipitation'].sum():,.1f} "
        f"(sum of {len(year)} rows"
    ), content
    july = frame[frame["date"].str.startswith("2014/07/")]
    content, _ = said("What was the average minimum temperature in July 2014?")
    assert f": {july['temp_min'].mean():,.3f} (mean of {len(july)} rows" in content, content
    rainy = frame[frame["date"].str.startswith("2014/") & (frame["weather"] == "rain")]
    content, cited = said("How many rainy days were there in 2014?")
    assert content.startswith(f"Rows with weather rain, date 2014: {len(rainy)} of "), content
    assert [q for _, q in cited] == [",".join(map(str, row)) for row in rainy.values]
    content, _ = said("How many foggy days were there?")
    assert f": {(frame['weather'] == 'fog').sum()} of {len(frame):,} (" in content, content


def test_the_period_of_a_long_table_is_read_over_all_its_rows(client: httpx.Client) -> None:
    """ "What period does the data cover?" of 1,461 days gave the first and last of the
    144 rows its five best passages held ("2014/09/22 to 2015/11/25"): a table's span is
    computed over the whole table, as its totals are."""
    frame, said = _narrowed(client, WEATHER)
    content, _ = said("What period does the data cover?")
    first, last = frame["date"].min(), frame["date"].max()
    assert content.startswith(f"date: {first} to {last} ({len(frame):,} rows of "), content


def test_which_values_a_column_holds_and_which_is_the_commonest(client: httpx.Client) -> None:
    """ "Which symbols are in the table?" quoted the header; "Which island has the most
    penguins?" listed rows. They list a column's values, and give the value the most
    rows have, with its count; a superlative of a measure still asks for a row ("the
    heaviest penguin": the highest body mass, not the commonest species)."""
    stocks, said = _narrowed(client, STOCKS)
    symbols = list(stocks["symbol"].unique())
    content, cited = said("Which symbols are in the table?")
    assert content.startswith(
        f"Distinct symbol: {len(symbols)} ({', '.join(symbols)}) of {len(stocks)} rows"
    ), content
    assert [q.split(",")[0] for _, q in cited] == symbols
    penguins, said = _narrowed(client, PENGUINS)
    counts = penguins["island"].value_counts()
    content, _ = said("Which island has the most penguins?")
    assert content.startswith(
        f"Most rows by island: {counts.idxmax()} ({counts.max()} of {len(penguins)} rows"
    ), content
    content, _ = said("Which island has the fewest penguins?")
    assert content.startswith(f"Fewest rows by island: {counts.idxmin()} ({counts.min()} of")
    content, _ = said("What species is the heaviest penguin?")
    heaviest = penguins.loc[penguins["body_mass_g"].idxmax()]
    assert content.startswith(f"Highest body_mass_g: {int(heaviest['body_mass_g'])} ("), content
    assert f"species: {heaviest['species']}" in content


def test_columns_of_a_raw_export_are_asked_by_their_words(client: httpx.Client) -> None:
    """penguins-raw.csv names columns "Culmen Length (mm)" and "Date Egg". "no culmen
    length" counted nothing (it summed the culmen *depth* of the rows without a length);
    "the first egg date" quoted a row of its first passages."""
    frame, said = _narrowed(client, PENGUINS_RAW)
    missing = int(frame["Culmen Length (mm)"].isna().sum())
    content, _ = said("How many penguins have no culmen length?")
    assert content.startswith(f"Rows with Culmen Length (mm) empty: {missing} of "), content
    content, cited = said("What was the first egg date?")
    first = frame["Date Egg"].min()
    assert content.startswith(f"Earliest Date Egg: {first} (earliest of {len(frame)} rows"), content
    assert f",{first}," in cited[0][1]


def test_the_table_s_own_subject_filters_no_row(client: httpx.Client) -> None:
    """airports.csv: "How many airports are there?" counted the 3 rows whose name says
    "Airport", and "Which state has the most airports?" looked among them; the file's
    name says what every row is."""
    frame, said = _narrowed(client, AIRPORTS)
    content, _ = said("How many airports are there?")
    assert content.startswith(f"Rows: {len(frame):,} ("), content
    counts = frame["state"].value_counts()
    content, _ = said("Which state has the most airports?")
    assert content.startswith(f"Most rows by state: {counts.idxmax()} ({counts.max()} of "), content


def test_a_count_of_rows_a_cell_names_is_computed(client: httpx.Client) -> None:
    """la-riots.csv: "How many victims were female?" found nothing relevant (no cell says
    "victims"): a count over a table narrowed to, of rows a question word is in, is
    about that table."""
    frame, said = _narrowed(client, RIOTS)
    female = int((frame["gender"] == "Female").sum())
    content, _ = said("How many victims were female?")
    assert content.startswith(f"Rows with gender Female: {female} of {len(frame)} ("), content


def test_a_table_the_question_names_is_asked_as_if_narrowed_to_it(client: httpx.Client) -> None:
    """In a workspace of two tables and a contract, asked without a filter: "the lowest
    temperature recorded in Seattle" found nothing ("recorded" and "temperature" are in
    no cell, so too little of the question was), nor did "How many rows does the
    penguins table have?". A question that says the name of one table's file is about
    that table."""
    weather, penguins = pd.read_csv(WEATHER), pd.read_csv(PENGUINS)
    upload(
        client,
        [
            ("seattle-weather.csv", WEATHER.read_bytes()),
            ("penguins.csv", PENGUINS.read_bytes()),
            ("acme-msa.docx", acme_contract_docx()),
        ],
    )
    content, _ = _said_of_all(client, "What was the lowest temperature recorded in Seattle?")
    assert f"Lowest temp_min: {weather['temp_min'].min()} (min of " in content, content
    content, _ = _said_of_all(client, "How many rows does the penguins table have?")
    assert re.search(rf"Rows: {len(penguins)} \(\d+ passages of penguins\.csv", content), content
    assert "seattle-weather.csv" not in content


def test_a_column_of_yes_and_no_is_asked_whether(client: httpx.Client) -> None:
    """penguins-raw.csv's "Clutch Completion" says Yes or No. "How many penguins did not
    complete their clutch?" listed the species of all 344 ("penguin" is in every species'
    name): the column a question names by its word ("complete", "completed") keeps the
    rows that say Yes, or No when the question says "not"."""
    frame, said = _narrowed(client, PENGUINS_RAW)
    done = frame["Clutch Completion"].value_counts()
    content, _ = said("How many penguins completed their clutch?")
    assert content.startswith(f"Rows with Clutch Completion Yes: {done['Yes']} of "), content
    content, cited = said("How many penguins did not complete their clutch?")
    assert content.startswith(f"Rows with Clutch Completion No: {done['No']} of "), content
    assert all(",No," in quote for _, quote in cited)


def test_older_and_younger_than_compare_ages(client: httpx.Client) -> None:
    """la-riots.csv: "How many victims were older than 50?" compared nothing ("older
    than" was no comparison, and no word named ``age``)."""
    frame, said = _narrowed(client, RIOTS)
    content, _ = said("How many victims were older than 50?")
    assert content.startswith(f"Rows with age older than 50: {(frame['age'] > 50).sum()} of ")
    content, _ = said("How many victims were younger than 18?")
    assert content.startswith(f"Rows with age younger than 18: {(frame['age'] < 18).sum()} of ")


def test_a_computation_by_group_gives_each_group_s_value(client: httpx.Client) -> None:
    """ "What is the average bill depth by species?" gave the average over all 342
    penguins, an answer to another question; "How many penguins of each species are
    there?" the number of species. Each group's value is given, with its rows counted
    and its first row cited (counts the largest first)."""
    frame, said = _narrowed(client, PENGUINS)
    depths = frame.groupby("species", sort=False)["bill_depth_mm"]
    shown = "; ".join(
        f"{species} {mean:.3f} ({depths.count()[species]} rows)"
        for species, mean in depths.mean().items()
    )
    content, cited = said("What is the average bill depth by species?")
    assert content.startswith(f"Average bill_depth_mm by species: {shown} (of "), content
    assert [q.split(",")[0] for _, q in cited] == list(depths.mean().index)
    counts = frame["species"].value_counts()
    content, _ = said("How many penguins of each species are there?")
    listed = "; ".join(f"{species} {n}" for species, n in counts.items())
    assert content.startswith(f"Rows by species: {listed} (of {len(frame)} rows"), content
    content, _ = said("What is the heaviest body mass per island?")
    heaviest = frame.groupby("island", sort=False)["body_mass_g"].max()
    assert all(f"{island} {int(mass):,} (" in content for island, mass in heaviest.items())


def test_the_commonest_value_and_a_wet_superlative(client: httpx.Client) -> None:
    """ "What was the most common type of death?" quoted one row; "the wettest day"
    found nothing (no column says "wet")."""
    riots, said = _narrowed(client, RIOTS)
    types = riots["type"].value_counts()
    content, _ = said("What was the most common type of death?")
    assert content.startswith(
        f"Most rows by type: {types.idxmax()} ({types.max()} of {len(riots)} rows"
    ), content
    weather, said = _narrowed(client, WEATHER)
    _, cited = said("What was the wettest day?")
    assert cited[0][1].startswith(weather["date"][weather["precipitation"].idxmax()] + ",")


def test_a_computation_by_two_columns_gives_each_pair_s_value(client: httpx.Client) -> None:
    """ "the average body mass by species and sex" grouped by species alone, an answer to
    another question: each pair of a species and a sex has its average, as pandas'
    ``groupby`` gives it, and rows with either empty are left out."""
    penguins, said = _narrowed(client, PENGUINS)
    content, _ = said("What is the average body mass by species and sex?")
    parted = penguins.dropna(subset=["sex"]).groupby(["species", "sex"], sort=False)
    means = parted["body_mass_g"].mean()
    sizes = parted["body_mass_g"].count()
    shown = "; ".join(f"{s}, {x} {m:,.2f} ({sizes[s, x]} rows)" for (s, x), m in means.items())
    assert content.startswith(
        f"Average body_mass_g by species and sex: {shown} (of {sizes.sum()} rows"
    ), content


def test_the_average_per_month_is_of_each_month_s_count(client: httpx.Client) -> None:
    """ "the average number of rainy days per month" averaged no month's count: it grouped
    the rows by month and counted each, and a month without rain was not among them. Each
    month's count (none: 0) is given, then their average."""
    weather, said = _narrowed(client, WEATHER)
    months = pd.to_datetime(weather["date"]).dt.strftime("%Y-%m")
    rainy = weather[weather["weather"] == "rain"].groupby(months).size()
    rainy = rainy.reindex(sorted(months.unique()), fill_value=0)
    assert (rainy == 0).any(), "a month without rain counts 0"
    content, _ = said("What was the average number of rainy days per month?")
    shown = "; ".join(f"{m} {n}" for m, n in list(rainy.items())[:12])
    assert content.startswith(
        f"Average rows per month of date for weather rain: {rainy.mean():.2f} ({shown}; and "
        f"{len(rainy) - 12} more; of {rainy.sum()} rows"
    ), content


def test_a_computation_by_year_and_the_group_of_the_highest(client: httpx.Client) -> None:
    """ "per year" of a table with a column of dates and none of years averaged every row;
    "Which symbol has the highest average price?" gave the average of all. The dates'
    years group the rows, and the group of the highest average is given alone."""
    weather, said = _narrowed(client, WEATHER)
    years = weather.groupby(weather["date"].str[:4])
    content, _ = said("How many days had snow per year?")
    snowy = weather[weather["weather"] == "snow"].groupby(weather["date"].str[:4]).size()
    listed = "; ".join(f"{year} {n}" for year, n in snowy.items())
    assert content.startswith(f"Rows by year of date for weather snow: {listed} (of "), content
    content, _ = said("What was the average wind per year?")
    means = "; ".join(f"{y} {m:.3f} ({n} rows)" for (y, m), n in zip(
        years["wind"].mean().items(), years.size(), strict=True))  # fmt: skip
    assert content.startswith(f"Average wind by year of date: {means} (of "), content
    stocks, said = _narrowed(client, STOCKS)
    means = stocks.groupby("symbol")["price"].mean()
    top = means.idxmax()
    content, cited = said("Which symbol has the highest average price?")
    assert content.startswith(
        f"Highest average price by symbol: {top} {means[top]:,.4f} "
        f"({(stocks['symbol'] == top).sum()} rows) (of "
    ), content
    assert [q.split(",")[0] for _, q in cited] == [top]


def test_a_sheet_of_facts_beside_the_data_reads_as_key_value_lines(
    client: httpx.Client, tmp_path: Path
) -> None:
    """A workbook of Seattle's days and a sheet that says what they are, two columns
    without a header as pandas writes them with ``header=False``: that sheet was read as
    a table headed by its first pair ("Station,Seattle"), so "Which station is the
    weather data from?" quoted the other facts under it, and the days' header line
    besides. The sheet reads as ``key: value`` lines at the sheet; the days stay a table;
    a header line alone is no quote."""
    weather = pd.read_csv(WEATHER)
    facts = {"Station": "Seattle", "Source": "vega_datasets", "Units": "mm, degrees Celsius"}
    species = pd.read_csv(PENGUINS)[["species", "island"]].head(20)  # two columns of data
    book = tmp_path / "seattle-weather.xlsx"
    with pd.ExcelWriter(book) as writer:
        weather.to_excel(writer, sheet_name="daily", index=False)
        pd.Series(facts).to_frame().to_excel(writer, sheet_name="about", header=False)
        species.to_excel(writer, sheet_name="species", index=False, header=False)
    (uploaded,) = upload(client, [(book.name, book.read_bytes())])
    text = client.get(f"/files/{uploaded['id']}/text").text
    assert "about\n" + "\n".join(f"{k}: {v}" for k, v in facts.items()) in text
    assert "Adelie: Torgersen" not in text, "a first column that repeats is data"
    assert "daily\ndate,precipitation," in text
    answer = ask(client, "Which station is the weather data from?")
    assert checked_citations(client, answer) == [(book.name, "Station: Seattle")]
    (note,) = answer["choices"][0]["message"]["annotations"]
    assert note["file_citation"]["location"] == {"sheet": "about"}
    content, _ = _said_of_all(client, "What was the highest temperature?")
    assert f"Highest temp_max: {weather['temp_max'].max()} (max of {len(weather):,} rows" in content


def test_what_a_table_holds_is_its_columns_rows_and_dates(client: httpx.Client) -> None:
    """ "Describe the data", "What is in the table?" of a table narrowed to found nothing
    (no cell says "describe"): they give its columns, its rows and the first and last of
    its dates, those rows cited."""
    riots, said = _narrowed(client, RIOTS)
    dates = pd.to_datetime(riots["death_date"])
    first, last = riots["death_date"][dates.idxmin()], riots["death_date"][dates.idxmax()]
    for question in ("Describe the data", "What is in the table?", "What does it contain?"):
        content, cited = said(question)
        assert content.startswith(
            f"Columns: {len(riots.columns)} ({', '.join(riots.columns)}); {len(riots)} rows; "
            f"death_date {first} to {last} ("
        ), content
        assert [q.split(",")[5] for _, q in cited[1:]] == [first, last]
    penguins, said = _narrowed(client, PENGUINS)
    content, _ = said("Give me an overview of this dataset")
    assert content.startswith(
        f"Columns: {len(penguins.columns)} ({', '.join(penguins.columns)}); {len(penguins)} rows ("
    ), content


def test_a_number_of_a_column_per_and_which_year_the_most_of_a_measure(
    client: httpx.Client, tmp_path: Path
) -> None:
    """vega_datasets' cars and driving, as ``%%chat --df`` uploads a DataFrame: "How many
    cars have 8 cylinders?" summed ``Cylinders`` (2,223); "How many cars per year?" took
    "per" for a word of ``Miles_per_Gallon`` and summed it by year; "In which year were
    the most miles driven?" gave the highest year, not the year of the most miles."""
    cars_csv, driving_csv = tmp_path / "cars.csv", tmp_path / "driving.csv"
    pd.read_json(VEGA / "cars.json").to_csv(cars_csv, index=False)
    pd.read_json(VEGA / "driving.json").to_csv(driving_csv, index=False)
    cars, said = _narrowed(client, cars_csv)
    content, _ = said("How many cars have 8 cylinders?")
    assert content.startswith(
        f"Rows with Cylinders = 8: {(cars['Cylinders'] == 8).sum()} of {len(cars)} ("
    ), content
    content, _ = said("How many cars per year?")
    per_year = cars["Year"].value_counts(sort=False)
    shown = [
        f"{year} {n}" for year, n in per_year.sort_values(ascending=False, kind="stable").items()
    ]
    assert content.startswith(f"Rows by Year: {'; '.join(shown)} (of {len(cars)} rows"), content
    driving, said = _narrowed(client, driving_csv)
    most = driving["miles"].idxmax()
    content, cited = said("In which year were the most miles driven?")
    assert content.startswith(f"Highest miles: {driving['miles'][most]} (max of "), content
    assert [q.split(",")[1] for _, q in cited] == [str(driving["year"][most])]


def test_a_json_array_of_records_is_asked_as_a_table(client: httpx.Client) -> None:
    """vega_datasets' ``cars.json`` as it ships (records of numbers, strings and nulls):
    "What is the average horsepower of cars from Japan?" quoted ``"Origin":"Japan"`` and
    a line of another car's weight. It is a table, its records the rows."""
    cars, said = _narrowed(client, VEGA / "cars.json", read=pd.read_json)
    japan = cars[cars["Origin"] == "Japan"]["Horsepower"]
    content, cited = said("What is the average horsepower of cars from Japan?")
    assert content.startswith(
        f"Average Horsepower for Origin Japan: {japan.mean():.2f} (mean of {japan.count()} rows"
    ), content
    first = cars["Name"][japan.index[0]]
    assert cited[0][0] == "cars.json"
    assert cited[0][1].startswith(f"{first},"), cited[0]
    assert cited[0][1].endswith(",Japan"), cited[0]
