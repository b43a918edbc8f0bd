"""What the office sets' generator scripts (set2.py ... set7.py) share: where they write, the forms an
answer may take, the question list, fixed zip timestamps, slide and notebook helpers and the read-back checks.
A script imports it as ``from _common import ...`` (its own directory is on sys.path when it is run
as ``python path/to/setN.py DIR``). One process runs one set, so the question list lives here."""
import functools
import io
import json
import os
import re
import zipfile
from collections import Counter

import numpy as np
import pandas as pd

Q = []  # questions
CHECKS = []  # (question, function recomputing the answer from the written file)


def out_files(base):
    """Make DIR/files and return p, where p(name) is the path of that file in it."""
    out = os.path.join(base, "files")
    os.makedirs(out, exist_ok=True)
    return functools.partial(os.path.join, out)


# ---------------------------------------------------------------- the forms an answer may take
def plain(x):
    """number -> plain string without thousands separators"""
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    x = float(x)
    if x.is_integer():
        return str(int(x))
    return repr(round(x, 4))


def int_alts(n):
    """A whole number with and without thousands separators."""
    n = int(n)
    return list(dict.fromkeys([f"{n:,}", str(n)]))


def money_alts(x):
    """An amount to 2 and to 1 decimals (and whole, if it is), with and without thousands separators."""
    x = round(float(x), 2)
    alts = [f"{x:,.2f}", f"{x:.2f}", f"{x:,.1f}", f"{x:.1f}"]
    if x.is_integer():
        alts += [f"{int(x):,}", str(int(x))]
    return list(dict.fromkeys(alts))


def one_dp_alts(x):
    """A quantity to 1 decimal (and whole, if it is), with and without thousands separators."""
    x = round(float(x), 1)
    alts = [f"{x:,.1f}", f"{x:.1f}"]
    if x.is_integer():
        alts += [f"{int(x):,}", str(int(x))]
    return list(dict.fromkeys(alts))


def avg_alts(m):
    """An average to 2 and to 1 decimals."""
    return list(dict.fromkeys([f"{m:.2f}", f"{m:.1f}"]))


def date_alts(d, dmy=False):
    """A date as '5 Mar 2025', '5 March 2025' and '2025-03-05' (dmy: also '05/03/2025')."""
    d = pd.Timestamp(d)
    forms = [d.strftime("%-d %b %Y"), d.strftime("%-d %B %Y"), d.strftime("%Y-%m-%d")]
    if dmy:
        forms.append(d.strftime("%d/%m/%Y"))
    return list(dict.fromkeys(forms))


# ---------------------------------------------------------------- questions
def addq(kind, file, q, expect, src=None, check=None):
    """Add a question (src: the sentence answering a prose one; check: recomputes an aggregate)."""
    Q.append({"kind": kind, "file": file, "q": q, "expect": [str(e) for e in expect], "src": src})
    if check is not None:
        CHECKS.append((Q[-1], check))


def unique_arg(series, labels, largest=True):
    """The label of the largest (or smallest) value, asserting that no other value ties with it."""
    s = pd.Series(np.asarray(series), index=list(labels))
    v = s.max() if largest else s.min()
    assert (s == v).sum() == 1, "tie"
    return s.idxmax() if largest else s.idxmin()


# ---------------------------------------------------------------- writing files
def _norm_zip_bytes(data, when):
    """A zip's bytes (and OOXML zips in it) with fixed timestamps, entry order and compression kept."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        items = [(i.filename, i.compress_type, z.read(i.filename)) for i in z.infolist()]
    stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, ctype, body in items:
            if name.endswith((".xlsx", ".xlsm", ".docx", ".pptx")):
                body = _norm_zip_bytes(body, when)
            if name in ("docProps/core.xml", "meta.xml"):
                body = re.sub(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?", stamp, body)
            zi = zipfile.ZipInfo(name, date_time=when.timetuple()[:6])
            zi.compress_type = ctype
            zi.external_attr = 0o644 << 16
            z.writestr(zi, body)
    return buf.getvalue()


def normalize_zip(path, when):
    """Rewrite an OOXML or ODF file with fixed timestamps (`when`), so every run writes the same bytes."""
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(_norm_zip_bytes(data, when))


def stamped(doc, when, **fields):
    """A new DOCX, PPTX or XLSX document, its core properties' times fixed and `fields` (author ...) set."""
    props = doc.core_properties if hasattr(doc, "core_properties") else doc.properties
    props.created = when
    props.modified = when
    if hasattr(props, "last_printed"):  # python-docx and python-pptx; openpyxl's has no such field
        props.last_printed = when
    for k, v in fields.items():
        setattr(props, k, v)
    return doc


def save_doc(doc, path, when):
    """Save a document (DOCX, PPTX, XLSX or ODT) and fix its zip's timestamps to `when`."""
    doc.save(path)
    normalize_zip(path, when)


def write_text(path, text):
    """Write a text file: UTF-8, newlines as written."""
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def write_json(path, obj, indent):
    """Write a JSON file: UTF-8, non-ASCII kept, indented, a final newline."""
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(obj, f, indent=indent, ensure_ascii=False)
        f.write("\n")


def md_cell(cid, text):
    """A notebook's markdown cell, as Jupyter saves it."""
    return {"cell_type": "markdown", "id": cid, "metadata": {}, "source": text.splitlines(keepends=True)}


def code_cell(cid, n, code, outputs):
    """A notebook's code cell run as the ``n``th (None: never run) with its ``outputs``."""
    return {"cell_type": "code", "execution_count": n, "id": cid, "metadata": {},
            "outputs": outputs, "source": code.splitlines(keepends=True)}


def stream(text):
    """A printed output."""
    return {"name": "stdout", "output_type": "stream", "text": text.splitlines(keepends=True)}


def result(n, data):
    """A cell's result, by MIME type ({"text/plain": ...})."""
    return {"data": {k: v.splitlines(keepends=True) for k, v in data.items()}, "execution_count": n,
            "metadata": {}, "output_type": "execute_result"}


def notebook(cells, python):
    """A notebook of ``cells`` as JupyterLab saves it, run by Python ``python`` ("3.12.4")."""
    return {"cells": cells,
            "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                                        "name": "python3"},
                         "language_info": {"codemirror_mode": {"name": "ipython", "version": 3},
                                           "file_extension": ".py", "mimetype": "text/x-python",
                                           "name": "python", "nbconvert_exporter": "python",
                                           "pygments_lexer": "ipython3", "version": python}},
            "nbformat": 4, "nbformat_minor": 5}


def add_slide(prs, layout, title, subtitle=None):
    """Add a slide with the deck's layout number `layout` and set its title (and a title slide's subtitle)."""
    s = prs.slides.add_slide(prs.slide_layouts[layout])
    s.shapes.title.text = title
    if subtitle is not None:
        s.placeholders[1].text = subtitle
    return s


def bullets(slide, items):
    """Fill a slide's body placeholder; items: strings (level 0) or (level, text) tuples"""
    tf = slide.placeholders[1].text_frame
    first = True
    for it in items:
        lvl, txt = it if isinstance(it, tuple) else (0, it)
        para = tf.paragraphs[0] if first else tf.add_paragraph()
        para.text = txt
        para.level = lvl
        first = False


def plain_bullets(slide, items):
    """Fill a slide's body placeholder, one paragraph per item, no levels (bullets writes each level)."""
    tf = slide.placeholders[1].text_frame
    tf.text = items[0]
    for b in items[1:]:
        tf.add_paragraph().text = b


def notes(slide, text):
    """Set a slide's speaker notes."""
    slide.notes_slide.notes_text_frame.text = text


def slide_table(slide, header, rows, box, size):
    """Add a table of strings to a slide at box (left, top, width, height), its body rows in `size` points."""
    from pptx.util import Pt

    tt = slide.shapes.add_table(len(rows) + 1, len(header), *box).table
    for j, h in enumerate(header):
        tt.cell(0, j).text = h
    for i, vals in enumerate(rows):
        for j, v in enumerate(vals):
            tt.cell(i + 1, j).text = v
            for para in tt.cell(i + 1, j).text_frame.paragraphs:
                for run in para.runs:
                    run.font.size = Pt(size)
    return tt


# ---------------------------------------------------------------- reading the files back
def odt_lines(path):
    """paragraphs and headings in order; a table row as one tab-joined line"""
    from odf import teletype
    from odf.opendocument import load as odf_load

    out = []

    def walk(n):
        for c in n.childNodes:
            if c.nodeType != c.ELEMENT_NODE:
                continue
            tag = c.qname[1]
            if tag in ("p", "h"):
                out.append(teletype.extractText(c))
            elif tag == "table-row":
                out.append("\t".join(teletype.extractText(x) for x in c.childNodes
                                     if x.nodeType == x.ELEMENT_NODE and x.qname[1] == "table-cell"))
            else:
                walk(c)
    walk(odf_load(path).text)
    return out


def pptx_chart_rows(path):
    """A deck's chart data: (category, {series name: value}) for each category of each chart."""
    from pptx import Presentation

    rows = []
    for sl in Presentation(path).slides:
        for sh in sl.shapes:
            if getattr(sh, "has_chart", False) and sh.has_chart:
                plot = sh.chart.plots[0]
                names = [s_.name for s_ in plot.series]
                for k, cat in enumerate(plot.categories):
                    rows.append((cat, {n: s_.values[k] for n, s_ in zip(names, plot.series)}))
    return rows


def nb_text(path):
    """A notebook's text: each cell's source, then its outputs (printed text, HTML tables as text)."""
    from bs4 import BeautifulSoup

    nb = json.load(open(path, encoding="utf-8"))
    parts = []
    for c in nb["cells"]:
        parts.append("".join(c["source"]))
        for o in c.get("outputs", []):
            if o["output_type"] == "stream":
                parts.append("".join(o["text"]))
            else:
                data = o.get("data", {})
                if "text/html" in data:
                    parts.append(BeautifulSoup("".join(data["text/html"]), "html.parser").get_text(" "))
                if "text/plain" in data:
                    parts.append("".join(data["text/plain"]))
    return "\n".join(parts)


def text_of(path, slide_notes=True):
    """A written file's text as the checks read it; a table row is one tab-joined line."""
    from bs4 import BeautifulSoup
    import openpyxl
    from docx import Document
    from pptx import Presentation
    from pypdf import PdfReader

    if path.endswith(".pdf"):
        return "\n".join(pg.extract_text() or "" for pg in PdfReader(path).pages)
    if path.endswith(".docx"):
        dd = Document(path)
        parts = [pp.text for pp in dd.paragraphs]
        for tb_ in dd.tables:
            for row in tb_.rows:
                parts.append("\t".join(c.text for c in row.cells))
        return "\n".join(parts)
    if path.endswith(".xlsx"):
        wbr = openpyxl.load_workbook(path)
        parts = []
        for wsr in wbr.worksheets:
            for row in wsr.iter_rows(values_only=True):
                parts.append("\t".join("" if c is None else (c.strftime("%Y-%m-%d") if hasattr(c, "strftime")
                                                             else str(c)) for c in row))
        return "\n".join(parts)
    if path.endswith(".pptx"):
        parts = []
        for sl in Presentation(path).slides:
            for sh in sl.shapes:
                if sh.has_text_frame:
                    parts.append(sh.text_frame.text)
                if getattr(sh, "has_table", False) and sh.has_table:
                    for row in sh.table.rows:
                        parts.append("\t".join(c.text for c in row.cells))
            if slide_notes and sl.has_notes_slide:
                parts.append(sl.notes_slide.notes_text_frame.text)
        for cat, vals in pptx_chart_rows(path):
            parts.append(f"{cat}\t" + "\t".join(f"{k}: {plain(v)}" for k, v in vals.items()))
        return "\n".join(parts)
    if path.endswith(".html"):
        return BeautifulSoup(open(path, encoding="utf-8").read(), "html.parser").get_text(" ")
    if path.endswith(".odt"):
        return "\n".join(odt_lines(path))
    if path.endswith(".ipynb"):
        return nb_text(path)
    if path.endswith(".parquet"):
        return pd.read_parquet(path).to_csv(index=False)
    if path.endswith(".csv"):
        return open(path, encoding="utf-8-sig").read()
    return open(path, encoding="utf-8").read()


def norm(s):
    """Text as the checks compare it: no thousands commas, white space folded, lower case."""
    s = re.sub(r"(?<=\d),(?=\d{3})", "", s)
    return re.sub(r"\s+", " ", s).lower()


STOP = set("""a an the is are was were be been of to in on at for from by with and or if it its this that
what what's whats s which who whom how many much when where why do does did i my me we our you your can
could should would will shall before after into onto some any one new get got has have had not
hasn't hasn t""".split())


def stem(w):
    """A word without a plural ending ('deliveries' -> 'delivery', 'trucks' -> 'truck')."""
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def content_words(s, stemmed=True):
    """The words of s that are not stop words (stemmed: without plural endings)."""
    words = {w for w in re.findall(r"[a-z0-9]+", s.lower()) if w not in STOP}
    return {stem(w) for w in words} if stemmed else words


def question_problems(files, texts, none, stemmed=True, file_checks=True, strict=False):
    """What is wrong with the questions against the files' normalised texts, as (what, question, detail)."""
    # Always: an answer or source sentence not in its file, a paraphrase sharing a content word with its
    # source (stemmed: compared without plural endings), an aggregate that does not recompute, a pattern of
    # a none question (none: (question, patterns) pairs) in some file. file_checks: a question on an unknown
    # file or without answers. strict: a prose question without a source sentence, a source sentence in
    # another file too, an aggregate without a check.
    problems = []
    for q in Q:
        on_file = q["kind"] in ("lookup", "prose", "paraphrase", "aggregate")
        if file_checks and on_file and q["file"] not in files:
            problems.append(("unknown file", q["q"], q["file"]))
        if q["kind"] in ("lookup", "prose", "paraphrase"):
            if not any(norm(e) in texts[q["file"]] for e in q["expect"]):
                problems.append(("missing", q["q"], q["expect"]))
        if file_checks and q["kind"] != "none" and not q["expect"]:
            problems.append(("empty expect", q["q"], None))
        if strict and q["kind"] in ("prose", "paraphrase") and q["src"] is None:
            problems.append(("no source sentence", q["q"], None))
        if q["src"] is not None:
            if norm(q["src"]) not in texts[q["file"]]:
                problems.append(("source sentence not in text", q["q"], q["src"]))
            if not any(norm(e) in norm(q["src"]) for e in q["expect"]):
                problems.append(("expect not in source sentence", q["q"], q["src"]))
            if strict:
                others = [fn for fn in files if fn != q["file"] and norm(q["src"]) in texts[fn]]
                if others:
                    problems.append(("source sentence in another file too", q["q"], others))
        if q["kind"] == "paraphrase":
            shared = content_words(q["q"], stemmed) & content_words(q["src"], stemmed)
            if shared:
                problems.append(("paraphrase shares words with its source", q["q"], sorted(shared)))
    for q, fn_ in CHECKS:
        if not fn_():
            problems.append(("aggregate does not recompute from the file", q["q"], q["expect"]))
    if strict and len(CHECKS) != sum(q["kind"] == "aggregate" for q in Q):
        problems.append(("aggregate without a check", None, None))
    for q_, pats in none:
        for pat in pats:
            for fn in files:
                if re.search(pat, texts[fn], re.I):
                    problems.append(("none-term-present", pat, fn))
    return problems


def write_questions(base, prefix, problems):
    """Number the questions (prefix 01, 02 ...), write DIR/questions.jsonl, print the counts and problems."""
    for i, q in enumerate(Q, 1):
        q["id"] = f"{prefix}{i:02d}"
    with open(os.path.join(base, "questions.jsonl"), "w", encoding="utf-8") as f:
        for q in Q:
            f.write(json.dumps({"id": q["id"], "file": q["file"], "kind": q["kind"], "q": q["q"],
                                "expect": q["expect"]}, ensure_ascii=False) + "\n")
    print("counts:", dict(Counter(q["kind"] for q in Q)), "total", len(Q))
    print("problems:", problems if problems else "none")
