"""Office files and questions a helper wrote in session 52 without seeing the service's code
(held out: measured before any rule they could teach). ``python set7.py DIR`` writes DIR/files
and DIR/questions.jsonl, the same bytes on every run.

Subjects (new to this set): the asset analytics team of a regional water utility (Glenmoy Water:
fifteen district metered areas in a North, a Central and a South zone, towns Kilcolgan, Ardcarne,
Drumkeel and Tullyroe) - a leakage technical report with real Word footnotes (a footnotes part
written by hand) and real Word comments, a step test table and answers that live only in a
footnote or only in a comment (DOCX), a smart meter night use notebook with markdown cells, a
DataFrame stored as a text/plain output and printed result lines (IPYNB), a DMA water balance
with a pivot-style zone summary (zone named once per group, subtotal rows "Zone North total", a
grand total, outline levels) and a sheet of monthly raw data with real dates (XLSX), daily smart
meter reads with units in the column names, ISO dates and meter serials sharing prefixes (TSV), a
pipe renewal programme whose scheme table runs across a page break with its header repeated
(PDF), a nightly minimum night flow alerting runbook with a pipe table and fenced code (Markdown),
a board update deck with a table, a native chart and speaker notes (PPTX), a pipe asset extract
with datetime, categorical and integer columns (Parquet), a saved intranet page of the water
quality sampling programme with a definition list and a table (HTML), a capital plan e-mail as
plain text (TXT), water quality samples with below-detection values such as "<1.0" and blank cells
(CSV) and work orders with nested DMA, location, crew and materials (JSON).

Kinds: "lookup" (one cell named by row and column, including a zone subtotal row, a TSV row, a
Parquet row, a PPTX chart value, a nested JSON value, a PDF table row after the page break, a
below-detection CSV cell, an HTML table, a Markdown pipe table, a DOCX table and a notebook's
DataFrame output), "aggregate" (count / sum / average / max / second highest / difference between
two named rows / sum over a filter / sum over nested arrays / filtered count in a date range /
sum of a chart series, computed with pandas from the files re-read from disk), "prose" (a fact in
one sentence, including a DOCX footnote, a DOCX comment, a notebook markdown cell, a notebook's
printed output, speaker notes, the runbook and an HTML definition), "paraphrase" (a prose fact
asked in the user's own words; shares no content word with the sentence that answers it, checked
below) and "none" (close in topic, answered by no file; expect [])."""
import os, re, csv, json, random, sys, zipfile, datetime as dt
os.environ["SOURCE_DATE_EPOCH"] = "1747213200"  # 2025-05-14 09:00 UTC
import numpy as np
import pandas as pd
from _common import (add_slide, addq, avg_alts, bullets, code_cell, date_alts, int_alts, md_cell, norm, notebook,
                     notes, one_dp_alts, out_files, pptx_chart_rows, question_problems, result, save_doc,
                     slide_table, stamped, stream, text_of, unique_arg, write_json, write_questions, write_text)

BASE = sys.argv[1]
p = out_files(BASE)
rng, rnd = np.random.default_rng(52), random.Random(52)
FIXED_DT = dt.datetime(2025, 5, 14, 9, 0, 0)

ZONES = ["North", "Central", "South"]
# code, name, zone, properties, mains km, consumption per property (m3/day), base leakage (l/s), night pressure (m)
DMAS = [("N101", "Kilcolgan North", "North", 3412, 41.8, 0.38, 6.4, 47.5),
        ("N102", "Kilcolgan South", "North", 2876, 36.2, 0.41, 4.9, 52.0),
        ("N110", "Ballinderry Road", "North", 1945, 28.7, 0.36, 3.1, 44.0),
        ("N114", "Rathmore Heights", "North", 4208, 39.5, 0.40, 7.8, 58.5),
        ("N121", "Clooney Bridge", "North", 862, 47.3, 0.44, 2.6, 61.0),
        ("C201", "Ardcarne Town Centre", "Central", 5130, 33.9, 0.52, 8.9, 41.5),
        ("C204", "Ardcarne West", "Central", 3987, 31.4, 0.39, 5.6, 46.0),
        ("C210", "Mill Lane Industrial", "Central", 214, 12.6, 11.8, 2.2, 49.0),
        ("C212", "Glebe Park", "Central", 2451, 22.8, 0.37, 3.4, 43.5),
        ("C220", "Castlefield", "Central", 3305, 35.1, 0.40, 4.4, 55.0),
        ("S301", "Drumkeel Village", "South", 1538, 24.6, 0.39, 2.9, 50.5),
        ("S305", "Drumkeel Rural", "South", 947, 58.2, 0.47, 3.8, 63.0),
        ("S310", "Tullyroe", "South", 2264, 29.9, 0.38, 4.1, 48.0),
        ("S311", "Tullyroe East", "South", 1716, 26.4, 0.37, 5.2, 57.5),
        ("S318", "Lisnagry Cross", "South", 2089, 34.7, 0.40, 6.1, 66.0)]
DMA = pd.DataFrame(DMAS, columns=["Code", "Name", "Zone", "Props", "Km", "PCC", "Leak", "Press"]).set_index("Code")
TOWN = {"N101": "Kilcolgan", "N102": "Kilcolgan", "N110": "Ballinderry", "N114": "Rathmore", "N121": "Clooney",
        "C201": "Ardcarne", "C204": "Ardcarne", "C210": "Ardcarne", "C212": "Ardcarne", "C220": "Castlefield",
        "S301": "Drumkeel", "S305": "Drumkeel", "S310": "Tullyroe", "S311": "Tullyroe", "S318": "Lisnagry"}
NIGHT_USE = 1.7  # l per property per hour
HDF = 20.4  # hour-to-day factor


def m3_alts(x):
    """A volume to 3, 2 and 1 decimals, with and without thousands separators."""
    x = round(float(x), 3)
    return list(dict.fromkeys([f"{x:,.3f}", f"{x:.3f}", f"{x:,.2f}", f"{x:.2f}", f"{x:,.1f}", f"{x:.1f}"]))


# ============ File 3 data first: monthly DMA water balance 2024/25 ==============
MONTHS = pd.date_range("2024-04-01", "2025-03-01", freq="MS")
WINTER = {4: 0.02, 5: -0.04, 6: -0.07, 7: -0.08, 8: -0.05, 9: -0.02, 10: 0.03, 11: 0.09, 12: 0.16, 1: 0.22,
          2: 0.18, 3: 0.08}
SUMMER = {4: -0.02, 5: 0.03, 6: 0.09, 7: 0.12, 8: 0.08, 9: 0.01, 10: -0.02, 11: -0.04, 12: 0.02, 1: -0.05,
          2: -0.04, 3: -0.03}
raw_rows = []
for code, r in DMA.iterrows():
    lnf = round(r.Props * NIGHT_USE / 3600, 2)
    for m in MONTHS:
        days = m.days_in_month
        leak = r.Leak * (1 + WINTER[m.month]) * (1 + float(rng.normal(0, 0.06)))
        mnf = round(lnf + leak, 2)
        leak_m3 = round((mnf - lnf) * 3.6 * HDF * days)
        use = r.Props * r.PCC * (1 + SUMMER[m.month]) * (1 + float(rng.normal(0, 0.03)))
        siv = round((use * 1.015 + leak_m3 / days) * days)
        raw_rows.append({"DMA code": code, "DMA name": r.Name, "Zone": r.Zone, "Month": m.to_pydatetime(),
                         "System input (m³)": siv, "MNF (l/s)": mnf, "Night use allowance (l/s)": lnf,
                         "Leakage (m³)": leak_m3,
                         "Avg night pressure (m)": round(r.Press + float(rng.normal(0, 0.8)), 1), "Days": days})
RAW3 = pd.DataFrame(raw_rows)
g3 = RAW3.groupby("DMA code", sort=False)
SUM3 = pd.DataFrame({"Zone": DMA.Zone, "Name": DMA.Name, "Props": DMA.Props, "Km": DMA.Km,
                     "SIV": (g3["System input (m³)"].sum() / 365).round(0).astype(int),
                     "LeakD": (g3["Leakage (m³)"].sum() / 365).round(1),
                     "Press": g3["Avg night pressure (m)"].mean()})
SUM3["LPD"] = (SUM3.LeakD * 1000 / SUM3.Props).round(0).astype(int)
SUM3["ILI"] = (SUM3.LeakD * 1000 / ((18 * SUM3.Km + 0.8 * SUM3.Props) * SUM3.Press)).round(2)
ZT = SUM3.groupby("Zone", sort=False).agg(Props=("Props", "sum"), Km=("Km", "sum"), SIV=("SIV", "sum"),
                                          LeakD=("LeakD", "sum"))
ZT["Km"], ZT["LeakD"] = ZT.Km.round(1), ZT.LeakD.round(1)
ZT["LPD"] = (ZT.LeakD * 1000 / ZT.Props).round(0).astype(int)
GT = {"Props": int(SUM3.Props.sum()), "Km": round(float(SUM3.Km.sum()), 1), "SIV": int(SUM3.SIV.sum()),
      "LeakD": round(float(SUM3.LeakD.sum()), 1)}
GT["LPD"] = round(GT["LeakD"] * 1000 / GT["Props"])

# ============ File 1: DOCX leakage technical report (footnotes and comments) ====
from docx import Document
from docx.shared import Pt
from docx.oxml import parse_xml, OxmlElement
from docx.oxml.ns import qn, nsdecls
from docx.opc.part import Part
from docx.opc.packuri import PackURI
from docx.opc.constants import CONTENT_TYPE as CT, RELATIONSHIP_TYPE as RT
F1 = "Leakage_DMA_technical_report_2024-25.docx"
FN1 = ("The allowance for legitimate night use is 1.7 litres per property per hour for households, the figure "
       "agreed with the regulator at the 2022 leakage audit.")
FN2 = ("An hour-to-day factor of 20.4 hours was applied in every DMA, derived from pressure logging at 38 critical "
       "points in June 2024.")
FN3 = ("The step test ran from 01:30 to 03:10 on the night of 11 to 12 March 2025 with the leak detection crew of "
       "Maeve Kilbride and Dara Quinn.")
CM1 = ("The Tullyroe East logger was offline from 3 to 17 February, so the February night flows for S311 are "
       "interpolated from the Tullyroe inlet meter.")
CM2 = ("The fire service wants at least 45 m at the Knock Road hydrants, so please check the 52 m set point with "
       "them before the PRV is changed.")
D1_PRV = ("Lowering the set point of the pressure reducing valve at Lisnagry Cross from 66 m to 52 m would cut "
          "leakage there by about 170 m³/day.")
D1_TOP = "Ardcarne Town Centre had the highest leakage of any DMA"
STEP = [("1", "V-S311-14", "Mass Path and Rathcoole Lane", "142", "0.41"),
        ("2", "V-S311-09", "Tullyroe East Road (north of the school)", "318", "2.86"),
        ("3", "V-S311-21", "Bóthar na Trá and Cregg Close", "205", "0.37"),
        ("4", "V-S311-03", "Tullyroe East Road (south of the school)", "287", "0.52"),
        ("5", "V-S311-17", "Knockane Heights", "176", "1.64"),
        ("6", "V-S311-26", "Rural spur to Cloonagh", "61", "0.19")]
d1 = stamped(Document(), FIXED_DT, author="Fergal Brosnan", title="Leakage and DMA performance 2024/25",
             comments="Glenmoy Water - Asset Analytics")
d1.styles["Normal"].font.size = Pt(10.5)
d1.styles.element.append(parse_xml(
    f'<w:style {nsdecls("w")} w:type="paragraph" w:styleId="FootnoteText"><w:name w:val="footnote text"/>'
    '<w:basedOn w:val="Normal"/><w:uiPriority w:val="99"/><w:pPr><w:spacing w:after="0" w:line="240" '
    'w:lineRule="auto"/></w:pPr><w:rPr><w:sz w:val="18"/></w:rPr></w:style>'))
d1.styles.element.append(parse_xml(
    f'<w:style {nsdecls("w")} w:type="character" w:styleId="FootnoteReference"><w:name w:val="footnote reference"/>'
    '<w:uiPriority w:val="99"/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style>'))
FOOTNOTES = [FN1, FN2, FN3]


def fn_ref(par, fid):
    """Append a real footnote reference run (w:footnoteReference) to a paragraph."""
    r_ = OxmlElement("w:r")
    rpr = OxmlElement("w:rPr")
    rs = OxmlElement("w:rStyle")
    rs.set(qn("w:val"), "FootnoteReference")
    rpr.append(rs)
    r_.append(rpr)
    ref = OxmlElement("w:footnoteReference")
    ref.set(qn("w:id"), str(fid))
    r_.append(ref)
    par._p.append(r_)


def xml_esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def footnotes_xml(texts):
    sep = ('<w:footnote w:type="{t}" w:id="{i}"><w:p><w:pPr><w:spacing w:after="0" w:line="240" '
           'w:lineRule="auto"/></w:pPr><w:r><w:{t}/></w:r></w:p></w:footnote>')
    body = sep.format(t="separator", i=-1) + sep.format(t="continuationSeparator", i=0)
    for i, t in enumerate(texts, 1):
        body += (f'<w:footnote w:id="{i}"><w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr>'
                 '<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r>'
                 f'<w:r><w:t xml:space="preserve"> {xml_esc(t)}</w:t></w:r></w:p></w:footnote>')
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<w:footnotes {nsdecls("w", "r")}>{body}</w:footnotes>').encode()


def comment(runs, text, author, initials, when):
    c = d1.add_comment(runs, text=text, author=author, initials=initials)
    c._comment_elm.set(qn("w:date"), when)
    return c


zt_n, zt_c, zt_s = (float(ZT.loc[z, "LeakD"]) for z in ZONES)
top5 = SUM3.LeakD.sort_values(ascending=False).head(5)
share5 = float(top5.sum()) / GT["LeakD"]
assert top5.index[0] == "C201" and SUM3.loc["C201", "LPD"] < GT["LPD"] and 0.45 < share5 < 0.5
assert SUM3[SUM3.Zone == "South"].ILI.idxmax() == "S311"
d1.add_heading("Leakage and DMA performance: technical report 2024/25", 0)
d1.add_paragraph("Glenmoy Water, Asset Analytics. Author: Fergal Brosnan (Leakage Analyst). Reviewed by Ciara "
                 "Mulholland (Head of Asset Analytics). Version 1.1, 9 May 2025.")
d1.add_heading("1 Summary", 1)
d1.add_paragraph(f"Leakage across the fifteen DMAs averaged {GT['LeakD']:,.1f} m³/day in 2024/25, or "
                 f"{GT['LPD']} litres per property per day. The North zone lost {zt_n:,.1f} m³/day, the Central "
                 f"zone {zt_c:,.1f} m³/day and the South zone {zt_s:,.1f} m³/day. {D1_TOP}, although its "
                 "leakage per property was below the company average because of the number of properties it "
                 "serves.")
d1.add_paragraph("Leakage rose in every zone between November and February, when the cold spell of early January "
                 "caused a run of bursts on old cast iron mains. It fell back in March after the active leakage "
                 "control crews cleared the backlog of reported leaks.")
d1.add_heading("2 Method", 1)
pm = d1.add_paragraph("Leakage in each DMA is estimated from the minimum night flow (MNF) recorded at the DMA "
                      "inlet meters between 02:00 and 04:00. Legitimate night use by customers is deducted from "
                      "the MNF")
fn_ref(pm, 1)
pm.add_run(", and the remaining night leakage rate is converted into a daily volume with an hour-to-day factor "
           "that allows for the higher pressure at night")
fn_ref(pm, 2)
pm.add_run(". Monthly figures are then averaged over the 365 days of the reporting year.")
d1.add_paragraph("The infrastructure leakage index (ILI) compares the estimated leakage with the unavoidable annual "
                 "real losses for the DMA's mains length, number of connections and average night pressure. An "
                 "ILI of 1.0 would mean that leakage cannot be reduced further with today's methods.")
d1.add_heading("3 Results by DMA", 1)
pr = d1.add_paragraph()
r_a = pr.add_run(f"Five DMAs account for {share5:.0%} of all leakage: " +
                 ", ".join(SUM3.loc[top5.index[:4], "Name"]) + f" and {SUM3.loc[top5.index[4], 'Name']}.")
r_b = pr.add_run(" Tullyroe East has the highest ILI in the South zone, and its night flow rose sharply in "
                 "February.")
comment([r_b], CM1, "Ciara Mulholland", "CM", "2025-05-07T14:22:00Z")
tbl = d1.add_table(rows=1, cols=6)
tbl.style = "Table Grid"
for j, hd in enumerate(["DMA", "Name", "Properties", "Leakage (m³/day)", "l/prop/day", "ILI"]):
    tbl.cell(0, j).text = hd
    tbl.cell(0, j).paragraphs[0].runs[0].bold = True
for code in SUM3.sort_values("LeakD", ascending=False).index[:6]:
    r = SUM3.loc[code]
    cells = tbl.add_row().cells
    for j, v in enumerate([code, r.Name, f"{r.Props:,}", f"{r.LeakD:,.1f}", str(r.LPD), f"{r.ILI:.2f}"]):
        cells[j].text = v
d1.add_paragraph("Table 1: The six DMAs with the highest leakage in 2024/25. The full water balance is in the "
                 "DMA water balance workbook.")
d1.add_heading("4 Step test in Tullyroe East", 1)
ps = d1.add_paragraph("To find where the February rise came from, the network team closed six boundary valves in "
                      "turn and recorded the drop in inflow at the DMA meter after each closure")
fn_ref(ps, 3)
ps.add_run(". The largest drop came when the section of Tullyroe East Road north of the school was isolated.")
st = d1.add_table(rows=1, cols=5)
st.style = "Table Grid"
for j, hd in enumerate(["Step", "Valve closed", "Section isolated", "Properties", "Flow drop (l/s)"]):
    st.cell(0, j).text = hd
    st.cell(0, j).paragraphs[0].runs[0].bold = True
for row in STEP:
    cells = st.add_row().cells
    for j, v in enumerate(row):
        cells[j].text = v
d1.add_paragraph("Acoustic loggers were then deployed on that section and two leaks on a 4-inch cast iron main "
                 "were found and repaired on 19 March.")
d1.add_heading("5 Pressure management", 1)
pp_ = d1.add_paragraph()
r_c = pp_.add_run(D1_PRV)
pp_.add_run(" Night pressure in Lisnagry Cross averages 66 m, the highest in the company, because the DMA is fed "
            "directly from the Lisnagry reservoir without a break tank.")
comment([r_c], CM2, "Ciara Mulholland", "CM", "2025-05-07T14:31:00Z")
d1.add_paragraph("Pressure management is also proposed for Drumkeel Rural and Clooney Bridge, where long rural "
                 "mains and high night pressure give a high ILI although leakage per property is modest.")
d1.add_heading("6 Recommendations", 1)
for t_ in ["Install the Lisnagry Cross PRV change before winter 2025, subject to the fire service check.",
           "Extend acoustic logging to Ardcarne Town Centre and Rathmore Heights in the first half of 2025/26.",
           "Renew the cast iron mains in Kilcolgan North listed in the pipe renewal programme 2025-2027.",
           "Re-run the step test in Tullyroe East in September to confirm the effect of the March repairs."]:
    d1.add_paragraph(t_, style="List Number")
fn_part = Part(PackURI("/word/footnotes.xml"), CT.WML_FOOTNOTES, footnotes_xml(FOOTNOTES), d1.part.package)
d1.part.relate_to(fn_part, RT.FOOTNOTES)
sett = d1.settings.element  # the separator notes are listed in the settings, as Word writes them
fpr = parse_xml(f'<w:footnotePr {nsdecls("w")}><w:footnote w:id="-1"/><w:footnote w:id="0"/></w:footnotePr>')
compat = sett.find(qn("w:compat"))
if compat is not None:
    compat.addprevious(fpr)
else:
    sett.append(fpr)
save_doc(d1, p(F1), FIXED_DT)

# ============ File 4: TSV smart meter daily reads, March 2025 ===================
F4 = "smart_meter_daily_reads_2025-03.tsv"
PILOT = ["N101", "N102", "C204", "S311"]
serial_nums = rnd.sample(range(4400, 4800), 32)
meters = []
k = 0
for code in PILOT:
    for j in range(8):
        cls = "non-household" if j in (2, 5) or (code == "C204" and j == 7) else "household"
        meters.append({"serial": f"GM21-{serial_nums[k]:06d}", "dma": code, "cls": cls,
                       "base": float(rng.uniform(1.2, 6.5)) if cls == "non-household" else float(rng.uniform(0.18,
                                                                                                              0.55)),
                       "reg": float(rng.uniform(150, 2500)) if cls == "household" else float(rng.uniform(3000, 40000)),
                       "leak_from": None})
        k += 1
for mi in (1, 6, 9, 14, 20, 27, 30):
    meters[mi]["leak_from"] = int(rng.integers(1, 20))
    meters[mi]["leak_lph"] = float(rng.uniform(8, 38))
meters.sort(key=lambda m: (m["dma"], m["serial"]))
rows4 = []
for m in meters:
    reg = m["reg"]
    for day in pd.date_range("2025-03-01", "2025-03-31", freq="D"):
        wk = day.weekday() >= 5
        f_ = (0.55 if wk else 1.0) if m["cls"] == "non-household" else (1.12 if wk else 1.0)
        use = m["base"] * f_ * (1 + float(rng.normal(0, 0.15)))
        flag = ""
        mnf = None
        if m["leak_from"] is not None and day.day >= m["leak_from"]:
            mnf = round(m["leak_lph"] * (1 + float(rng.normal(0, 0.08))), 1)
        else:
            mnf = float(rnd.choice([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.2, 2.4, 3.1]))
        use += mnf * 24 / 1000 if mnf > 5 else 0
        if mnf > 5:
            flag = "continuous_flow"
        if rnd.random() < 0.025:
            flag, mnf = "estimated", None
        use = round(max(use, 0.0), 3)
        reg = round(reg + use, 3)
        rows4.append({"meter_serial": m["serial"], "dma_code": m["dma"], "customer_class": m["cls"],
                      "read_date": day.strftime("%Y-%m-%d"), "register_m3": f"{reg:.3f}",
                      "consumption_m3": f"{use:.3f}", "min_night_flow_lph": "" if mnf is None else f"{mnf:.1f}",
                      "read_flag": flag})
with open(p(F4), "w", encoding="utf-8", newline="") as f:
    w4 = csv.DictWriter(f, fieldnames=list(rows4[0]), delimiter="\t", lineterminator="\n")
    w4.writeheader()
    w4.writerows(rows4)


def read4():
    return pd.read_csv(p(F4), sep="\t", parse_dates=["read_date"], dtype={"read_flag": str})


# ============ File 2: Jupyter notebook, smart meter night use ====================
F2 = "smart_meter_night_use_pilot_2025-03.ipynb"
t4 = read4()
per = (t4.groupby("dma_code")
       .agg(meters=("meter_serial", "nunique"), reads=("consumption_m3", "size"),
            total_m3=("consumption_m3", "sum"), median_daily_m3=("consumption_m3", "median"),
            flow_nights=("read_flag", lambda s_: int((s_ == "continuous_flow").sum())))
       .round({"total_m3": 3, "median_daily_m3": 3}))


def runs3(s_):
    """True if a meter's flags show continuous flow on at least three nights in a row"""
    best = cur = 0
    for v in s_:
        cur = cur + 1 if v == "continuous_flow" else 0
        best = max(best, cur)
    return best >= 3


flagged = t4.sort_values(["meter_serial", "read_date"]).groupby("meter_serial").read_flag.apply(runs3)
flagged = flagged[flagged].index.tolist()
csl = float(t4[t4.meter_serial.isin(flagged) & (t4.read_flag == "continuous_flow")]
            .groupby("meter_serial").min_night_flow_lph.median().sum() * 24 / 1000)
NB_OUT = (f"Meters with continuous night flow on 3 or more nights in a row: {len(flagged)} of "
          f"{t4.meter_serial.nunique()}")
NB_CSL = f"Estimated customer-side leakage in the sample: {csl:.2f} m3/day"
NB_MD = ("The pilot covers four DMAs, where 2,940 smart meters were fitted between September and November 2024 "
         "under the Smart Metering Phase 1 contract.")
NB_LETTER = ("Customers whose meter is flagged get a letter offering a free leak check by a plumber from our "
             "approved list, and repairs on the customer side are paid up to EUR 300.")


with pd.option_context("display.width", 120, "display.max_columns", 20):
    per_txt = per.to_string()
cells2 = [
    md_cell("7c1e0a01", "# Smart meter night use: pilot DMAs, March 2025\n\n"
            "Asset Analytics, Glenmoy Water. Analyst: Orla Devane. Data: daily reads exported from the meter "
            "data management system on 2 April 2025 (`smart_meter_daily_reads_2025-03.tsv`).\n\n"
            f"{NB_MD} This extract holds a sample of 32 meters, 8 in each DMA (N101, N102, C204 and S311)."),
    code_cell("7c1e0a02", 1, "import pandas as pd\n\n"
              "reads = pd.read_csv('smart_meter_daily_reads_2025-03.tsv', sep='\\t', parse_dates=['read_date'])\n"
              "reads.shape", [result(1, {"text/plain": f"({len(t4)}, {t4.shape[1]})"})]),
    md_cell("7c1e0a03", "## Consumption by DMA\n\nOne row per meter and day; `consumption_m3` is the difference "
            "between two midnight register reads. Estimated reads are kept in the totals."),
    code_cell("7c1e0a04", 2, "per_dma = (reads.groupby('dma_code')\n"
              "           .agg(meters=('meter_serial', 'nunique'), reads=('consumption_m3', 'size'),\n"
              "                total_m3=('consumption_m3', 'sum'), median_daily_m3=('consumption_m3', 'median'),\n"
              "                flow_nights=('read_flag', lambda s: int((s == 'continuous_flow').sum())))\n"
              "           .round({'total_m3': 3, 'median_daily_m3': 3}))\n"
              "per_dma", [result(2, {"text/plain": per_txt})]),
    md_cell("7c1e0a05", "## Continuous night flow\n\nA meter whose lowest hourly flow between 01:00 and 05:00 stays "
            "above 5 litres per hour has water running all night: usually a leaking cistern or a burst "
            "supply pipe. We flag a meter when that happens on at least three nights in a row."),
    code_cell("7c1e0a06", 3, "def longest_run(flags):\n"
              "    best = cur = 0\n"
              "    for f in flags:\n"
              "        cur = cur + 1 if f == 'continuous_flow' else 0\n"
              "        best = max(best, cur)\n"
              "    return best\n\n"
              "runs = reads.sort_values(['meter_serial', 'read_date']).groupby('meter_serial').read_flag"
              ".apply(longest_run)\n"
              "flagged = runs[runs >= 3].index\n"
              "flow = reads[reads.meter_serial.isin(flagged) & (reads.read_flag == 'continuous_flow')]\n"
              "csl = flow.groupby('meter_serial').min_night_flow_lph.median().sum() * 24 / 1000\n"
              "print(f'Meters with continuous night flow on 3 or more nights in a row: {len(flagged)} of "
              "{reads.meter_serial.nunique()}')\n"
              "print(f'Estimated customer-side leakage in the sample: {csl:.2f} m3/day')",
              [stream(NB_OUT + "\n" + NB_CSL + "\n")]),
    md_cell("7c1e0a07", "## Next steps\n\n"
            f"- {NB_LETTER}\n"
            "- Repeat the analysis for April once the second batch of meters in C204 is commissioned.\n"
            "- Share the flagged serials with Customer Operations (list in the team folder, not in this "
            "notebook)."),
    code_cell("7c1e0a08", None, "", []),
]
nb2 = notebook(cells2, "3.12.4")
write_json(p(F2), nb2, indent=1)

# ============ File 3: XLSX DMA water balance (pivot-style summary + raw) ==========
from openpyxl import Workbook
from openpyxl.styles import Font, PatternFill, Alignment, Border, Side
F3 = "DMA_water_balance_2024-25.xlsx"
X3_NOTE = ("Customer meter under-registration is not included; it is reported separately in the annual water "
           "balance.")
wb = stamped(Workbook(), FIXED_DT, creator="Asset Analytics", title="DMA water balance 2024/25")
ws = wb.active
ws.title = "Zone summary"
bold = Font(bold=True)
hfill = PatternFill("solid", fgColor="DDEBF7")
sfill = PatternFill("solid", fgColor="F2F2F2")
thin = Side(style="thin", color="808080")
ws["A1"] = "Glenmoy Water - DMA water balance 2024/25 (1 April 2024 to 31 March 2025)"
ws["A1"].font = Font(bold=True, size=13)
ws["A2"] = "Daily averages over the year. Leakage by the minimum night flow method. Subtotals by zone."
HDR3 = ["Zone", "DMA code", "DMA name", "Properties", "Mains length (km)", "System input (m³/day)",
        "Est. leakage (m³/day)", "Leakage (l/prop/day)", "ILI"]
H3 = 4
for j, hd in enumerate(HDR3, 1):
    c = ws.cell(row=H3, column=j, value=hd)
    c.font, c.fill = bold, hfill
    c.alignment = Alignment(wrap_text=True, vertical="center")
    c.border = Border(bottom=thin)
FMT3 = [None, None, None, "#,##0", "0.0", "#,##0", "#,##0.0", "0", "0.00"]
rr = H3
for z in ZONES:
    sub = SUM3[SUM3.Zone == z]
    for k_, (code, r) in enumerate(sub.iterrows()):
        rr += 1
        vals = [z if k_ == 0 else None, code, r.Name, int(r.Props), float(r.Km), int(r.SIV), float(r.LeakD),
                int(r.LPD), float(r.ILI)]
        for j, v in enumerate(vals, 1):
            c = ws.cell(row=rr, column=j, value=v)
            if FMT3[j - 1]:
                c.number_format = FMT3[j - 1]
        ws.row_dimensions[rr].outlineLevel = 1
    rr += 1
    zt = ZT.loc[z]
    vals = [f"Zone {z} total", None, None, int(zt.Props), float(zt.Km), int(zt.SIV), float(zt.LeakD), int(zt.LPD),
            None]
    for j, v in enumerate(vals, 1):
        c = ws.cell(row=rr, column=j, value=v)
        c.font, c.fill = bold, sfill
        c.border = Border(top=thin)
        if FMT3[j - 1]:
            c.number_format = FMT3[j - 1]
rr += 1
for j, v in enumerate(["Grand total", None, None, GT["Props"], GT["Km"], GT["SIV"], GT["LeakD"], GT["LPD"], None],
                      1):
    c = ws.cell(row=rr, column=j, value=v)
    c.font = bold
    c.border = Border(top=thin, bottom=Side(style="double", color="000000"))
    if FMT3[j - 1]:
        c.number_format = FMT3[j - 1]
RGT3 = rr
ws.cell(row=rr + 2, column=1, value="Notes").font = bold
for i, line in enumerate(["ILI is not shown for zone totals and the grand total; it is calculated per DMA only.",
                          "Leakage per property uses the property counts from the billing system at 31 March 2025.",
                          X3_NOTE], rr + 3):
    ws.cell(row=i, column=1, value=line)
ws.sheet_properties.outlinePr.summaryBelow = True
for col, wdt in zip("ABCDEFGHI", (18, 10, 24, 11, 11, 13, 13, 12, 7), strict=True):
    ws.column_dimensions[col].width = wdt
ws.row_dimensions[H3].height = 32
ws.freeze_panes = f"D{H3 + 1}"
ws2 = wb.create_sheet("Monthly raw")
for j, hd in enumerate(RAW3.columns, 1):
    c = ws2.cell(row=1, column=j, value=hd)
    c.font, c.fill = bold, hfill
for i, r in enumerate(RAW3.itertuples(index=False), 2):
    for j, v in enumerate(r, 1):
        c = ws2.cell(row=i, column=j, value=v)
        if j == 4:
            c.number_format = "mmm yyyy"
        elif j in (5, 8):
            c.number_format = "#,##0"
for col, wdt in zip("ABCDEFGHIJ", (10, 22, 9, 10, 16, 10, 14, 12, 14, 6), strict=True):
    ws2.column_dimensions[col].width = wdt
ws2.freeze_panes = "A2"
ws2.auto_filter.ref = f"A1:J{len(RAW3) + 1}"
save_doc(wb, p(F3), FIXED_DT)

# ============ File 8 data: Parquet pipe asset extract ==========================
F8 = "pipe_assets_extract_2025-04-30.parquet"
DIAM = {"Cast iron": [75, 100, 100, 150, 150, 225, 300], "Asbestos cement": [100, 100, 150, 150, 225, 300],
        "uPVC": [90, 110, 110, 160, 160, 225], "Ductile iron": [100, 150, 200, 250, 300, 400],
        "PE100": [63, 90, 125, 125, 180, 250, 355], "Steel": [300, 450, 600]}
ERA = {"North": (1938, 2023), "Central": (1925, 2022), "South": (1948, 2024)}


def material_for(year):
    if year < 1955:
        return rnd.choices(["Cast iron", "Steel"], weights=[92, 8])[0]
    if year < 1970:
        return rnd.choices(["Cast iron", "Asbestos cement"], weights=[45, 55])[0]
    if year < 1985:
        return rnd.choices(["Asbestos cement", "uPVC", "Ductile iron"], weights=[45, 45, 10])[0]
    if year < 2000:
        return rnd.choices(["uPVC", "Ductile iron", "PE100"], weights=[55, 35, 10])[0]
    return rnd.choices(["PE100", "Ductile iron"], weights=[75, 25])[0]


ids8 = rnd.sample(range(10000, 19999), 420)
rows8 = []
codes = list(DMA.index)
wts = list(DMA.Km)
for aid in ids8:
    code = rnd.choices(codes, weights=wts)[0]
    lo, hi = ERA[DMA.loc[code, "Zone"]]
    year = int(lo + (hi - lo) * float(rng.beta(1.6, 1.9)))
    mat = material_for(year)
    age = 2025 - year
    risk = age / 25 + {"Cast iron": 1.0, "Asbestos cement": 0.9, "Steel": 0.6, "uPVC": 0.3, "Ductile iron": 0.1,
                       "PE100": -0.4}[mat] + float(rng.normal(0, 0.6))
    grade = int(min(5, max(1, round(risk))))
    bursts = int(rng.poisson(max(0.05, (grade - 1.5) * 0.7)))
    surveyed = rnd.random() < 0.68
    last = (pd.Timestamp("2019-01-01") + pd.Timedelta(days=int(rng.integers(0, 2280)))) if surveyed else pd.NaT
    crit = rnd.choices(["Low", "Medium", "High", "Very high"], weights=[35, 40, 18, 7])[0]
    rows8.append({"asset_id": f"WM-0{aid}", "dma_code": code, "material": mat,
                  "diameter_mm": rnd.choice(DIAM[mat]), "length_m": round(float(rng.lognormal(4.7, 0.75)) + 6, 1),
                  "install_year": year, "condition_grade": grade, "bursts_2020_2024": bursts,
                  "last_condition_assessment": last, "criticality": crit})
df8 = pd.DataFrame(rows8).sort_values("asset_id").reset_index(drop=True)
df8["dma_code"] = pd.Categorical(df8.dma_code, categories=codes)
df8["material"] = pd.Categorical(df8.material, categories=["Cast iron", "Asbestos cement", "Steel", "uPVC",
                                                           "Ductile iron", "PE100"])
df8["criticality"] = pd.Categorical(df8.criticality, categories=["Low", "Medium", "High", "Very high"], ordered=True)
df8["diameter_mm"] = df8.diameter_mm.astype("int16")
df8["install_year"] = df8.install_year.astype("int16")
df8["condition_grade"] = df8.condition_grade.astype("int8")
df8["bursts_2020_2024"] = df8.bursts_2020_2024.astype("int8")
df8["last_condition_assessment"] = pd.to_datetime(df8.last_condition_assessment).astype("datetime64[ms]")
df8.to_parquet(p(F8), engine="pyarrow", index=False, compression="snappy")


def read8():
    return pd.read_parquet(p(F8))


# ============ File 5: PDF pipe renewal programme 2025-2027 (table over a page break)
from reportlab import rl_config
rl_config.invariant = 1
from reportlab.lib.pagesizes import A4
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.lib.styles import getSampleStyleSheet, ParagraphStyle
from reportlab.platypus import SimpleDocTemplate, Paragraph, Spacer, Table, TableStyle
F5 = "pipe_renewal_programme_2025-2027.pdf"
STREETS = ["Church Road", "Main Street", "Chapel Lane", "Station Road", "Mill Road", "Green Park", "Bridge Street",
           "Fairgreen", "Convent Hill", "Abbey Road", "Ashgrove", "Pound Street", "Riverside", "Old Dublin Road",
           "Knock Road", "Sallins Road", "Cregg Close", "Oakfield", "Castle Street", "Lower Main Street"]
RATE = {"Open cut": 265, "Slip lining": 175, "Pipe bursting": 205, "Directional drilling": 190}
cand = df8[(df8.condition_grade >= 4) & df8.material.isin(["Cast iron", "Asbestos cement", "Steel"])]
cand = cand.sort_values(["condition_grade", "bursts_2020_2024", "asset_id"], ascending=[False, False, True])
cand = cand.head(44).sample(frac=1, random_state=52)
used_streets = set()
sch = []
for i, r in enumerate(cand.itertuples()):
    year = 2025 if i < 14 else (2026 if i < 30 else 2027)
    town = TOWN[r.dma_code]
    street = next(s_ for s_ in rnd.sample(STREETS, len(STREETS)) if (s_, town) not in used_streets)
    used_streets.add((street, town))
    method = ("Slip lining" if r.diameter_mm >= 225 else rnd.choice(["Open cut", "Open cut", "Pipe bursting",
                                                                      "Directional drilling"]))
    length = int(round(r.length_m * float(rng.uniform(1.6, 3.2)), -1))
    cost = round(length * RATE[method] * (1 + r.diameter_mm / 600) * float(rng.uniform(0.9, 1.12)) / 1000, 1)
    sch.append({"Year": year, "DMA": r.dma_code, "Location": f"{street}, {town}", "Material": r.material,
                "Dia": int(r.diameter_mm), "Length": length, "Method": method, "Cost": cost,
                "Start": f"Q{rnd.randint(1, 4)} {year}"})
df5 = pd.DataFrame(sch).sort_values(["Year", "DMA", "Location"]).reset_index(drop=True)
df5.insert(0, "Scheme", [f"RN-{y % 100}-{n:03d}" for y, n in zip(df5.Year, df5.groupby("Year").cumcount() + 1,
                                                                    strict=True)])
assert ((df5.DMA == "N101") & (df5.Material == "Cast iron")).sum() >= 2  # the report's recommendation 3
S5_RULE = ("Every main with condition grade 5 and two or more bursts since 2020 was included whatever its risk "
           "score.")
S5_NIGHT = ("Under the road opening licence from the county council, open-cut work on Main Street in Ardcarne may "
            "only take place between 19:00 and 06:00.")
S5_AC = ("Asbestos cement pipe that is removed goes to the licensed disposal site at Ballyfermot in sealed "
         "bags, with a consignment note for every load.")
ss = getSampleStyleSheet()
body5 = ParagraphStyle("b5", parent=ss["BodyText"], fontName="Helvetica", fontSize=9.5, leading=13, spaceAfter=5)
h5 = ParagraphStyle("h5", parent=ss["Heading2"], fontName="Helvetica-Bold", fontSize=12, leading=15,
                    textColor=colors.HexColor("#0B5394"), spaceBefore=8, spaceAfter=4)
cap5 = ParagraphStyle("c5", parent=body5, fontSize=8, leading=10, textColor=colors.HexColor("#444444"))


def footer5(canvas, doc_):
    canvas.saveState()
    canvas.setFont("Helvetica", 7.5)
    canvas.drawString(16 * mm, 10 * mm, "Glenmoy Water - Pipe renewal programme 2025-2027 - version 1.2")
    canvas.drawRightString(A4[0] - 16 * mm, 10 * mm, f"Page {doc_.page}")
    canvas.restoreState()


HDR5 = ["Scheme", "DMA", "Location", "Existing material", "Dia (mm)", "Length (m)", "Method", "Cost (EUR k)",
        "Start"]
t5 = [HDR5] + [[r.Scheme, r.DMA, r.Location, r.Material, str(r.Dia), f"{r.Length:,}", r.Method, f"{r.Cost:,.1f}",
                r.Start] for r in df5.itertuples()]
tab5 = Table(t5, colWidths=[18 * mm, 11 * mm, 42 * mm, 24 * mm, 13 * mm, 15 * mm, 26 * mm, 17 * mm, 14 * mm],
             repeatRows=1)
tab5.setStyle(TableStyle([
    ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#7F7F7F")),
    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#CFE2F3")),
    ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 7.5),
    ("FONT", (0, 1), (-1, -1), "Helvetica", 7.5),
    ("ALIGN", (4, 0), (5, -1), "RIGHT"), ("ALIGN", (7, 0), (7, -1), "RIGHT"),
    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ("TOPPADDING", (0, 0), (-1, -1), 2.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5)]))
yr5 = df5.groupby("Year").agg(n=("Scheme", "size"), length=("Length", "sum"), cost=("Cost", "sum"))
t5b = [["Year", "Schemes", "Length (m)", "Estimated cost (EUR k)"]]
t5b += [[str(r.Index), str(r.n), f"{r.length:,}", f"{r.cost:,.1f}"] for r in yr5.itertuples()]
t5b.append(["2025-2027", str(len(df5)), f"{df5.Length.sum():,}", f"{df5.Cost.sum():,.1f}"])
tab5b = Table(t5b, colWidths=[30 * mm, 22 * mm, 28 * mm, 40 * mm])
tab5b.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#7F7F7F")),
                           ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#CFE2F3")),
                           ("FONT", (0, 0), (-1, -1), "Helvetica", 8.5),
                           ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8.5),
                           ("FONT", (0, -1), (-1, -1), "Helvetica-Bold", 8.5),
                           ("ALIGN", (1, 0), (-1, -1), "RIGHT")]))
doc5 = SimpleDocTemplate(p(F5), pagesize=A4, invariant=1, title="Pipe renewal programme 2025-2027",
                         author="Asset Analytics", subject="Glenmoy Water mains renewal programme",
                         leftMargin=16 * mm, rightMargin=16 * mm, topMargin=16 * mm, bottomMargin=18 * mm)
P5, H5 = (lambda t: Paragraph(t, body5)), (lambda t: Paragraph(t, h5))
story5 = [
    Paragraph("<b>Pipe renewal programme 2025-2027</b>",
              ParagraphStyle("t5", parent=body5, fontSize=17, leading=21, spaceAfter=3)),
    Paragraph("Glenmoy Water, Asset Analytics with Network Operations. Version 1.2, issued 7 April 2025. "
              "Approved by the Capital Investment Committee on 3 April 2025.", cap5),
    Spacer(1, 5),
    H5("1. Purpose"),
    P5(f"This programme lists the {len(df5)} mains renewal schemes planned for the three years from April 2025. "
       f"Together they renew {df5.Length.sum() / 1000:.1f} km of cast iron, asbestos cement and steel mains at an "
       f"estimated cost of EUR {df5.Cost.sum() / 1000:.2f} million. The schemes were chosen from the pipe asset "
       "register extract of April 2025 and the burst history for 2020 to 2024."),
    H5("2. How schemes were selected"),
    P5("Each main received a risk score that multiplies its burst rate per kilometre by a consequence weight for "
       "criticality, pipe diameter and the number of customers downstream. " + S5_RULE + " Mains that are due to "
       "be abandoned under the Ardcarne network rationalisation were left out."),
    P5("The delivery method follows the pipe: mains of 225 mm and above are slip lined with PE100 where the host "
       "pipe is sound enough, and smaller mains are replaced by open cut, pipe bursting or directional drilling "
       "depending on the street and the services along it."),
    H5("3. Scheme list"),
    tab5,
    Paragraph("Table 1: Renewal schemes by delivery year. Lengths are the lengths to be laid, rounded to 10 m; "
              "costs are estimates at 2025 prices including reinstatement and service transfers.", cap5),
    H5("4. Summary by year"),
    tab5b,
    Spacer(1, 6),
    H5("5. Delivery"),
    P5(S5_NIGHT + " Traffic management plans for the town centre schemes go to the council eight weeks before the "
       "start date."),
    P5(S5_AC + " Crews working on asbestos cement mains must hold the current asbestos awareness certificate."),
    P5("Customers on each street get a letter two weeks before work starts and a card through the door the day "
       "before any planned interruption. Interruptions are limited to four hours."),
    H5("6. Review"),
    P5("The programme is reviewed every six months against the latest burst data. Schemes for 2027 may change "
       "after the condition assessments planned for 2026."),
]
doc5.build(story5, onFirstPage=footer5, onLaterPages=footer5)

# ============ File 6: Markdown runbook, nightly MNF alerts =======================
F6 = "RUNBOOK_nightly_MNF_alerts.md"
RB_RETRY = ("If the SCADA export has not landed by 04:30, the job retries every 20 minutes and pages the on-call "
            "analyst after the third failed attempt.")
RB_SILENCE = "Never silence an alert for more than 72 hours without a ticket in the leakage queue."
TH6 = [("N101", 9.2, 2, "ALC North"), ("N102", 7.4, 2, "ALC North"), ("N114", 11.5, 2, "ALC North"),
       ("C201", 13.8, 1, "ALC Central"), ("C204", 8.9, 2, "ALC Central"), ("C210", 4.6, 1, "ALC Central"),
       ("S310", 6.3, 2, "ALC South"), ("S311", 7.9, 2, "ALC South"), ("S318", 9.6, 2, "ALC South")]
tbl6 = "\n".join(f"| {c} | {DMA.loc[c, 'Name']} | {t:.1f} | {n} | {e} |" for c, t, n, e in TH6)
md6 = f"""# Runbook: nightly MNF alerts

Owner: Asset Analytics (Orla Devane). On call: analyst rota in the team calendar. Last reviewed 28 April 2025.

## What the job does

`mnf-alerts` runs at 04:15 every night. It loads the 15-minute inlet flows for all DMAs from the SCADA
historian export, takes the minimum night flow (MNF) between 02:00 and 04:00 and compares it with the
alert threshold of the DMA. An alert opens a ticket in the leakage queue and messages the active leakage
control (ALC) team for the zone.

{RB_RETRY} Late data is the most common cause of a missing report.

## Alert thresholds

| DMA code | DMA | MNF alert threshold (l/s) | Nights above before alert | Escalate to |
|---|---|---:|---:|---|
{tbl6}

DMAs not listed use a threshold of 1.5 times their median MNF over the last 28 nights.

## Re-running a night

```bash
# re-run one night for one DMA (dry run first)
mnfctl run --date 2025-04-14 --dma N102 --dry-run
mnfctl run --date 2025-04-14 --dma N102

# backfill the last three nights for every DMA after an outage
mnfctl backfill --nights 3 --all
```

## Checking the load

```sql
select dma_code, night, mnf_ls, threshold_ls, alerted
from analytics.mnf_nightly
where night >= current_date - 7
order by dma_code, night;
```

## Silencing alerts

Alerts for a DMA can be silenced during planned work, for example a step test or a mains flush:

```bash
mnfctl silence --dma S311 --hours 24 --reason "step test"
```

{RB_SILENCE} Silences are listed on the dashboard and expire on their own.

## Contacts

- SCADA historian: Control Room, extension 4410
- ALC team leaders: North - Seán Quigley; Central - Colm Ruane; South - Maeve Kilbride
"""
write_text(p(F6), md6)

# ============ File 7: PPTX board update (table, chart, speaker notes) ============
from pptx import Presentation
from pptx.util import Inches, Pt as PPt
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE, XL_LEGEND_POSITION
F7 = "leakage_board_update_2025-04.pptx"
TARGET7 = {"North": 1800, "Central": 1750, "South": 1650}
MONTHS7 = ["Oct 2024", "Nov 2024", "Dec 2024", "Jan 2025", "Feb 2025", "Mar 2025"]
REP7 = {"North": [int(x) for x in rng.integers(28, 47, 6)], "Central": [int(x) for x in rng.integers(31, 58, 6)],
        "South": [int(x) for x in rng.integers(19, 41, 6)]}
REP7["North"][3] += 22
REP7["Central"][3] += 18
REP7["South"][4] += 15
S7_NOTES = ("The acoustic logger contract starts on 1 June 2025 and puts 1,200 permanent loggers on the cast iron "
            "mains in Ardcarne and Rathmore.")
S7_NOTES2 = "January was the busiest month for the crews since the freeze of December 2010."
prs = stamped(Presentation(), FIXED_DT, author="Asset Analytics", title="Leakage and renewals - board update")
s = add_slide(prs, 0, "Leakage and pipe renewals", "Board update | Asset Analytics | 24 April 2025")
s = add_slide(prs, 5, "Leakage against target, 2024/25")
rows7 = []
for z in ZONES:
    act = round(float(ZT.loc[z, "LeakD"]))
    assert act > TARGET7[z]  # the notes say every zone is above target
    rows7.append([z, f"{TARGET7[z]:,}", f"{act:,}", f"{act - TARGET7[z]:+,}"])
slide_table(s, ["Zone", "Target (m³/day)", "Actual (m³/day)", "Gap (m³/day)"], rows7,
            (Inches(0.8), Inches(1.6), Inches(8.4), Inches(2.0)), 14)
tx = s.shapes.add_textbox(Inches(0.8), Inches(4.0), Inches(8.4), Inches(1.0))
tx.text_frame.text = "Actual is the average daily leakage over April 2024 to March 2025 from the DMA water balance."
tx.text_frame.word_wrap = True
notes(s, "All three zones are above target. The gap in the Central zone is mostly Ardcarne Town Centre, where "
         "acoustic logging starts this summer.")
s = add_slide(prs, 5, "Leaks repaired by active leakage control")
cd = CategoryChartData()
cd.categories = MONTHS7
for z in ZONES:
    cd.add_series(z, REP7[z], number_format="0")
gf = s.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(0.5), Inches(1.5), Inches(9), Inches(4.6), cd)
ch = gf.chart
ch.has_legend = True
ch.legend.position = XL_LEGEND_POSITION.BOTTOM
ch.legend.include_in_layout = False
ch.plots[0].has_data_labels = True
ch.plots[0].data_labels.font.size = PPt(10)
ch.value_axis.has_major_gridlines = False
notes(s, S7_NOTES2 + " " + S7_NOTES)
s = add_slide(prs, 1, "Pipe renewal programme 2025-2027")
bullets(s, [f"{len(df5)} schemes, {df5.Length.sum() / 1000:.1f} km of mains",
            (1, "Cast iron, asbestos cement and steel mains with condition grade 4 or 5"),
            f"Estimated cost EUR {df5.Cost.sum() / 1000:.2f} million at 2025 prices",
            (1, "Slip lining for mains of 225 mm and above"),
            "Schemes in one DMA are grouped so that each street is opened only once"])
notes(s, "The list of schemes is in the programme document; 2027 schemes may still change.")
s = add_slide(prs, 1, "Asks of the board")
bullets(s, ["Note the leakage position against target",
            "Support the pressure reducing valve change at Lisnagry Cross, subject to the fire service check",
            "Approve the renewal programme for 2025/26"])
save_doc(prs, p(F7), FIXED_DT)

# ============ File 9: HTML intranet page, water quality sampling programme =======
F9 = "intranet_water_quality_sampling_programme_2025.html"
SP9 = [("SP-N101-01", "Kilcolgan North, Church Road (customer tap)", "N101", "Customer tap", "Fortnightly"),
       ("SP-N102-01", "Kilcolgan South, Oakfield (customer tap)", "N102", "Customer tap", "Fortnightly"),
       ("SP-N110-R", "Ballinderry reservoir outlet", "N110", "Reservoir outlet", "Weekly"),
       ("SP-C201-01", "Ardcarne, Castle Street (customer tap)", "C201", "Customer tap", "Fortnightly"),
       ("SP-C204-01", "Ardcarne West, Ashgrove (customer tap)", "C204", "Customer tap", "Fortnightly"),
       ("SP-C204-02", "Ardcarne West, Sallins Road (hydrant standpipe)", "C204", "Hydrant", "Monthly"),
       ("SP-C212-01", "Glebe Park, community centre (customer tap)", "C212", "Customer tap", "Monthly"),
       ("SP-S318-R", "Lisnagry reservoir outlet", "S318", "Reservoir outlet", "Weekly"),
       ("SP-S311-01", "Tullyroe East, Knockane Heights (customer tap)", "S311", "Customer tap", "Fortnightly"),
       ("SP-S305-01", "Drumkeel Rural, Cloonagh (customer tap)", "S305", "Customer tap", "Monthly")]
H9_RESAMPLE = ("After any E. coli detection a resample must be taken within 24 hours at the same tap, together with "
               "samples at two neighbouring properties.")
H9_LOD = ("A result below the limit of detection is reported with a less-than sign, for example &lt;1.0 for lead "
          "in micrograms per litre.")
H9_CL = ("Free chlorine should stay between 0.2 and 0.8 mg/l at customer taps; below 0.1 mg/l the network team "
         "flushes the nearest hydrant.")
trs9 = "\n".join(f"        <tr><td>{c}</td><td>{loc}</td><td>{d}</td><td>{t}</td><td>{fq}</td></tr>"
                 for c, loc, d, t, fq in SP9)
html9 = f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Water quality sampling programme 2025 - Glenmoy Water intranet</title>
  <style>
    body {{ font-family: "Segoe UI", Arial, sans-serif; margin: 0; color: #1f1f1f; }}
    header.top {{ background: #0b5394; color: #fff; padding: 10px 22px; }}
    header.top a {{ color: #fff; margin-right: 14px; text-decoration: none; font-size: 13px; }}
    main {{ padding: 6px 22px 26px 22px; max-width: 980px; }}
    dl.glossary dt {{ font-weight: 600; margin-top: 10px; }}
    dl.glossary dd {{ margin: 2px 0 0 18px; }}
    table.points {{ border-collapse: collapse; margin: 10px 0; }}
    table.points th, table.points td {{ border: 1px solid #9fb6cd; padding: 4px 8px; font-size: 13px; }}
    table.points th {{ background: #e7f0f8; text-align: left; }}
    footer {{ border-top: 1px solid #ccc; padding: 8px 22px; font-size: 12px; color: #666; }}
  </style>
</head>
<body>
  <header class="top">
    <a href="/intranet/">Glenmoy intranet</a>
    <a href="/intranet/operations/">Operations</a>
    <a href="/intranet/water-quality/">Water quality</a>
    <a href="/intranet/asset-analytics/">Asset Analytics</a>
  </header>
  <main>
    <h1>Water quality sampling programme 2025</h1>
    <p>This page explains the terms used in the sampling results and lists the sampling points in the
    distribution network. Results are published every Monday in the water quality results file.</p>
    <h2>Terms used in the results</h2>
    <dl class="glossary">
      <dt>Compliance sample</dt>
      <dd>A sample taken at a customer tap or reservoir outlet under the regulatory monitoring plan.</dd>
      <dt>Operational sample</dt>
      <dd>A sample taken by our own samplers to check the network, for example after mains work.</dd>
      <dt>Free chlorine</dt>
      <dd>{H9_CL}</dd>
      <dt>Turbidity</dt>
      <dd>Cloudiness of the water in nephelometric turbidity units (NTU); results above 1.0 NTU at a customer tap are
      investigated.</dd>
      <dt>Limit of detection</dt>
      <dd>{H9_LOD}</dd>
      <dt>Resample</dt>
      <dd>{H9_RESAMPLE}</dd>
    </dl>
    <h2>Sampling points</h2>
    <table class="points">
      <thead>
        <tr><th>Point</th><th>Location</th><th>DMA</th><th>Type</th><th>Frequency</th></tr>
      </thead>
      <tbody>
{trs9}
      </tbody>
    </table>
    <p>Lead is analysed once a month at customer taps only. Reservoir outlets are also checked for
    temperature.</p>
  </main>
  <footer>
    Page owner: Water Quality Manager (Róisín Fallon). Last modified 3 January 2025. Internal use only.
  </footer>
</body>
</html>
"""
write_text(p(F9), html9)

# ============ File 10: TXT capital plan e-mail ===================================
F10 = "email_capital_plan_2026-2030_draft3.txt"
T10_TOTAL = ("Draft 3 of the capital plan for 2026-2030 comes to EUR 48.6 million, EUR 2.3 million less than "
             "draft 2.")
T10_METER = "Smart metering phase 2 moves to 2027 and covers 26,000 meters in the North and Central zones."
T10_BOARD = "The board will be asked to approve the plan at its meeting on 26 June 2025."
T10_CUT = ("The cut came from deferring the Ardcarne reservoir roof replacement to 2031, after the dive survey in "
           "March found the roof sound.")
txt10 = f"""From: Ciara Mulholland <ciara.mulholland@glenmoywater.ie>
To: Asset Analytics <asset.analytics@glenmoywater.ie>
Cc: Declan Furlong <declan.furlong@glenmoywater.ie>
Date: Mon, 12 May 2025 16:48:05 +0100
Subject: Capital plan 2026-2030 - draft 3 and what changed

Hi all,

{T10_TOTAL} {T10_CUT}

What changed since draft 2:

  - Mains renewal stays at EUR 9.6 million over the five years. 2026 and 2027 follow the pipe renewal
    programme 2025-2027; 2028 to 2030 are an allowance until the next condition assessments.
  - {T10_METER} Phase 1 (the four pilot DMAs) is finished.
  - Pressure management goes up from EUR 0.8 million to EUR 1.4 million, to add the Lisnagry Cross,
    Drumkeel Rural and Clooney Bridge schemes.
  - The new Tullyroe booster pumps stay in 2026 as planned.

Fergal, can you send me the leakage benefit of each pressure scheme in m3/day by Friday? Orla, please add the
meter numbers by DMA for phase 2.

{T10_BOARD} The papers go to the company secretary two weeks before, so I need everything by 6 June.

Thanks,
Ciara

--
Ciara Mulholland | Head of Asset Analytics | Glenmoy Water
Glenmoy House, Quay Road, Ardcarne | +353 93 551 020
"""
write_text(p(F10), txt10)

# ============ File 11: CSV water quality samples, Q1 2025 ========================
F11 = "water_quality_samples_2025Q1.csv"
FREQ_DAYS = {"Weekly": 7, "Fortnightly": 14, "Monthly": 28}
SAMPLERS = ["J. Tierney", "M. Ní Bhriain", "P. Costello"]
rows11 = []
for code, _loc, d, typ, fq in SP9:
    start = pd.Timestamp("2025-01-06") + pd.Timedelta(days=rnd.randint(0, 4))
    t_ = start
    cl_base = float(rng.uniform(0.22, 0.65)) if typ != "Reservoir outlet" else float(rng.uniform(0.7, 0.95))
    tb_base = float(rng.uniform(0.08, 0.3))
    n_ = 0
    while t_ < pd.Timestamp("2025-03-29"):
        ts = t_ + pd.Timedelta(hours=8, minutes=rnd.randint(5, 300))
        cl = cl_base + float(rng.normal(0, 0.07))
        tb = tb_base * float(rng.lognormal(0, 0.45))
        ec = 0
        cf = int(rng.random() < 0.06) * rnd.choice([1, 2, 3, 5])
        lead = ""
        if typ == "Customer tap" and n_ % (2 if fq == "Fortnightly" else 1) == 0:
            lv = float(rng.lognormal(0.2, 0.9))
            lead = "<1.0" if lv < 1.0 else f"{lv:.1f}"
        temp = f"{float(rng.uniform(5.5, 9.5)):.1f}" if typ == "Reservoir outlet" else ""
        rows11.append({"sampled_at": ts, "sampling_point": code, "dma_code": d, "sample_type": "compliance",
                       "free_chlorine_mg_l": "<0.1" if cl < 0.1 else f"{cl:.2f}",
                       "turbidity_ntu": "<0.10" if tb < 0.1 else f"{tb:.2f}", "e_coli_cfu_100ml": str(ec),
                       "coliforms_cfu_100ml": str(cf), "lead_ug_l": lead, "water_temp_c": temp,
                       "sampler": rnd.choice(SAMPLERS), "comment": ""})
        t_ += pd.Timedelta(days=FREQ_DAYS[fq])
        n_ += 1
# an E. coli detection at Tullyroe East and its resamples, and a low-chlorine event in Drumkeel Rural
rows11.append({"sampled_at": pd.Timestamp("2025-02-18 10:37"), "sampling_point": "SP-S311-01", "dma_code": "S311",
               "sample_type": "compliance", "free_chlorine_mg_l": "<0.1", "turbidity_ntu": "1.84",
               "e_coli_cfu_100ml": "2", "coliforms_cfu_100ml": "14", "lead_ug_l": "", "water_temp_c": "",
               "sampler": "P. Costello", "comment": "after burst repair on Tullyroe East Road"})
for h_, (cl, tb) in enumerate([("0.31", "0.62"), ("0.38", "0.41"), ("0.44", "0.27")]):
    rows11.append({"sampled_at": pd.Timestamp("2025-02-19 08:50") + pd.Timedelta(minutes=25 * h_),
                   "sampling_point": "SP-S311-01", "dma_code": "S311", "sample_type": "resample",
                   "free_chlorine_mg_l": cl, "turbidity_ntu": tb, "e_coli_cfu_100ml": "0",
                   "coliforms_cfu_100ml": "0", "lead_ug_l": "", "water_temp_c": "", "sampler": "P. Costello",
                   "comment": ["same tap", "neighbour, no. 12", "neighbour, no. 15"][h_]})
rows11.append({"sampled_at": pd.Timestamp("2025-03-11 13:05"), "sampling_point": "SP-S305-01", "dma_code": "S305",
               "sample_type": "operational", "free_chlorine_mg_l": "0.12", "turbidity_ntu": "0.35",
               "e_coli_cfu_100ml": "0", "coliforms_cfu_100ml": "0", "lead_ug_l": "", "water_temp_c": "",
               "sampler": "J. Tierney", "comment": "low chlorine check, hydrant flushed"})
df11 = pd.DataFrame(rows11).sort_values("sampled_at", kind="stable").reset_index(drop=True)
df11.insert(0, "sample_id", [f"WQ25-{i:04d}" for i in range(1, len(df11) + 1)])
with open(p(F11), "w", encoding="utf-8", newline="") as f:
    w11 = csv.writer(f, lineterminator="\r\n")
    w11.writerow(list(df11.columns))
    for r in df11.itertuples(index=False):
        w11.writerow([r.sample_id, r.sampled_at.strftime("%Y-%m-%d %H:%M")] + list(r[2:]))


def read11():
    return pd.read_csv(p(F11), parse_dates=["sampled_at"], dtype=str, keep_default_na=False).assign(
        sampled_at=lambda t: pd.to_datetime(t.sampled_at))


# ============ File 12: JSON work orders, March 2025 =============================
F12 = "work_orders_2025-03.json"
STAFF = {"GW0412": ("Dara Quigley", "Network technician"), "GW0418": ("Dara Quinn", "Leak detection technician"),
         "GW0433": ("Seán Quigley", "Ganger"), "GW0451": ("Aoife Lenihan", "Network technician"),
         "GW0460": ("Pádraig Ruane", "Plant operator"), "GW0472": ("Maeve Kilbride", "Leak detection technician"),
         "GW0487": ("Colm Ruane", "Ganger"), "GW0495": ("Tomasz Wróbel", "Plant operator"),
         "GW0503": ("Nuala Breen", "Meter technician"), "GW0511": ("Kieran Breen", "Meter technician")}
BY_ROLE = {}
for sid, (_nm, role) in STAFF.items():
    BY_ROLE.setdefault(role, []).append(sid)
TYPES12 = [("Leak repair", 11), ("Burst main repair", 6), ("Service pipe repair", 7), ("Meter exchange", 6),
           ("Valve exercise", 4), ("Hydrant repair", 4)]
CREW12 = {"Leak repair": ["Ganger", "Network technician", "Plant operator", "Leak detection technician"],
          "Burst main repair": ["Ganger", "Network technician", "Plant operator", "Network technician"],
          "Service pipe repair": ["Network technician", "Ganger"], "Meter exchange": ["Meter technician"],
          "Valve exercise": ["Network technician", "Leak detection technician"],
          "Hydrant repair": ["Network technician", "Ganger"]}
MAT12 = {"Leak repair": [("Repair clamp 100-150 mm", 1, 86.0), ("Backfill (t)", 2, 24.5)],
         "Burst main repair": [("Repair clamp 150-225 mm", 1, 142.0), ("Ductile iron pipe 1 m", 2, 61.0),
                               ("Backfill (t)", 4, 24.5), ("Tarmac reinstatement (m2)", 3, 48.0)],
         "Service pipe repair": [("PE service pipe 25 mm (m)", 6, 3.2), ("Compression coupling 25 mm", 2, 7.8)],
         "Meter exchange": [("Smart meter GM21", 1, 118.0)], "Valve exercise": [],
         "Hydrant repair": [("Hydrant seal kit", 1, 39.0)]}
kinds12 = [t for t, n in TYPES12 for _ in range(n)]
rnd.shuffle(kinds12)
wo12 = []
for typ in kinds12:
    code = rnd.choices(codes, weights=[3 if c in ("C201", "N114", "N101", "S311", "S318") else 1 for c in codes])[0]
    raised = pd.Timestamp("2025-03-01 07:00") + pd.Timedelta(minutes=int(rng.integers(0, 29 * 24 * 60)))
    prio = "P1" if typ == "Burst main repair" else rnd.choice(["P2", "P2", "P3"] if typ != "Leak repair"
                                                               else ["P1", "P2", "P2"])
    dur = {"P1": (3, 20), "P2": (20, 110), "P3": (48, 300)}[prio]
    done = raised + pd.Timedelta(minutes=int(rng.integers(dur[0] * 60, dur[1] * 60)))
    status = "completed" if done < pd.Timestamp("2025-03-31 18:00") else "in progress"
    crew = []
    used = set()
    for role in CREW12[typ]:
        sid = rnd.choice([x for x in BY_ROLE[role] if x not in used] or BY_ROLE[role])
        if sid in used:
            continue
        used.add(sid)
        hrs = round(float(rng.uniform(1.5, 4.5) if typ in ("Meter exchange", "Valve exercise", "Hydrant repair")
                          else rng.uniform(3.0, 11.5)) * 4) / 4
        crew.append({"staff_id": sid, "name": STAFF[sid][0], "role": role, "hours": hrs})
    mats = [{"item": it, "qty": q, "unit_cost_eur": c_} for it, q, c_ in MAT12[typ]]
    labour = sum(c_["hours"] for c_ in crew) * 48.0
    asset = None
    if typ in ("Leak repair", "Burst main repair", "Valve exercise"):
        asset = rnd.choice(df8[df8.dma_code == code].asset_id.tolist())
    wo12.append({"wo_id": None, "type": typ, "priority": prio, "status": status,
                 "dma": {"code": code, "name": DMA.loc[code, "Name"], "zone": DMA.loc[code, "Zone"]},
                 "asset_id": asset,
                 "location": {"street": rnd.choice(STREETS), "town": TOWN[code],
                              "lat": round(53.2 + float(rng.uniform(0, 0.45)), 5),
                              "lon": round(-8.9 + float(rng.uniform(0, 0.6)), 5)},
                 "raised_at": raised.strftime("%Y-%m-%dT%H:%M:00"),
                 "completed_at": done.strftime("%Y-%m-%dT%H:%M:00") if status == "completed" else None,
                 "crew": crew, "materials": mats,
                 "cost_eur": round(labour + sum(m_["qty"] * m_["unit_cost_eur"] for m_ in mats), 2)})
wo12.sort(key=lambda w: w["raised_at"])
for i, w in enumerate(wo12):
    w["wo_id"] = f"WO-25-03{101 + i * 3}"
# one leak repair with both Daras on the crew
wd = next(w for w in wo12 if w["type"] == "Leak repair" and w["dma"]["zone"] == "North")
wd["crew"] = [c_ for c_ in wd["crew"] if c_["staff_id"] not in ("GW0412", "GW0418")]
wd["crew"] += [{"staff_id": "GW0412", "name": "Dara Quigley", "role": "Network technician", "hours": 6.5},
               {"staff_id": "GW0418", "name": "Dara Quinn", "role": "Leak detection technician", "hours": 4.75}]
wd["cost_eur"] = round(sum(c_["hours"] for c_ in wd["crew"]) * 48.0 +
                       sum(m_["qty"] * m_["unit_cost_eur"] for m_ in wd["materials"]), 2)
WD_ID = wd["wo_id"]
write_json(p(F12), {"export": {"system": "Glenmoy Works Management", "generated_at": "2025-04-01T06:00:00Z",
                               "period": {"from": "2025-03-01", "to": "2025-03-31"}, "count": len(wo12),
                               "labour_rate_eur_per_hour": 48.0},
                    "work_orders": wo12}, indent=2)


def read12():
    return json.load(open(p(F12), encoding="utf-8"))["work_orders"]


def crew12():
    return pd.json_normalize(read12(), record_path="crew", meta=["wo_id", "type", "priority", ["dma", "code"],
                                                                  ["dma", "zone"]])


# ================================================================ reading the files back
from lxml import etree
W_NS = {"w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main"}


def docx_part_paras(path, part):
    """The paragraphs of a DOCX part (footnotes or comments) as text, one per w:p."""
    with zipfile.ZipFile(path) as z:
        if part not in z.namelist():
            return []
        root = etree.fromstring(z.read(part))
    return ["".join(t.text or "" for t in p_.iter(f"{{{W_NS['w']}}}t")) for p_ in root.iter(f"{{{W_NS['w']}}}p")]


def docx_text7(path):
    """Body paragraphs and table rows in order, then footnotes, then comments."""
    from docx.table import Table as DTable
    from docx.text.paragraph import Paragraph as DPar
    dd = Document(path)
    parts = []
    for el in dd.element.body.iterchildren():
        if el.tag == qn("w:p"):
            parts.append(DPar(el, dd).text)
        elif el.tag == qn("w:tbl"):
            parts += ["\t".join(c.text for c in row.cells) for row in DTable(el, dd).rows]
    parts += docx_part_paras(path, "word/footnotes.xml")
    parts += docx_part_paras(path, "word/comments.xml")
    return "\n".join(parts)


def text7(path):
    if path.endswith(".docx"):
        return docx_text7(path)
    if path.endswith((".tsv", ".md", ".txt", ".json")):
        return open(path, encoding="utf-8").read()
    return text_of(path)


def read3_summary():
    return pd.read_excel(p(F3), sheet_name="Zone summary", header=H3 - 1, nrows=RGT3 - H3)


def read3_raw():
    return pd.read_excel(p(F3), sheet_name="Monthly raw")


from pypdf import PdfReader
ROW5 = re.compile(r"(RN-\d\d-\d{3}) ([NCS]\d{3}) (.+?, [A-Z][a-z]+) (Cast iron|Asbestos cement|Steel) (\d+) "
                  r"([\d,]+) (Open cut|Slip lining|Pipe bursting|Directional drilling) ([\d,]+\.\d) (Q[1-4] \d{4})")


def read5_pages():
    return [re.sub(r"\s+", " ", pg.extract_text() or "") for pg in PdfReader(p(F5)).pages]


def read5():
    """The scheme table parsed back from the PDF's text, one row per scheme (header repeats skipped)."""
    rows, seen = [], set()
    for k_, pg in enumerate(read5_pages(), 1):
        for m in ROW5.finditer(pg):
            if m.group(1) in seen:
                continue
            seen.add(m.group(1))
            rows.append({"Scheme": m.group(1), "DMA": m.group(2), "Location": m.group(3), "Material": m.group(4),
                         "Dia": int(m.group(5)), "Length": int(m.group(6).replace(",", "")), "Method": m.group(7),
                         "Cost": float(m.group(8).replace(",", "")), "Start": m.group(9), "Page": k_})
    return pd.DataFrame(rows)


# ================================================================ questions
# ---- prose (13): worded like the documents
addq("prose", F1, "what hour-to-day factor was used to turn night leakage into a daily volume in the leakage report?",
     ["20.4 hours", "20.4"], FN2)
addq("prose", F1, "Per the reviewer's comment in the leakage technical report, when was the Tullyroe East logger "
     "offline?", ["3 to 17 February", "3-17 February", "3rd to 17th February"], CM1)
addq("prose", F1, "How much would lowering the Lisnagry Cross PRV set point to 52 m cut leakage by?",
     ["170 m³/day", "170 m3/day", "170"], D1_PRV)
addq("prose", F1, "On which night was the Tullyroe East step test carried out?",
     ["11 to 12 March 2025", "11-12 March 2025", "11 to 12 March"], FN3)
addq("prose", F2, "how many smart meters were fitted in the four pilot DMAs?", ["2,940", "2940"], NB_MD)
addq("prose", F2, "In the night use notebook output, how many meters had continuous night flow on 3 or more nights "
     "in a row?", [f"{len(flagged)} of 32", str(len(flagged))], NB_OUT)
addq("prose", F7, "when does the acoustic logger contract start, per the board deck notes?",
     date_alts("2025-06-01"), S7_NOTES)
addq("prose", F6, "After how many failed attempts does the MNF alert job page the on-call analyst?",
     ["third", "3"], RB_RETRY)
addq("prose", F9, "how soon after an E. coli detection must a resample be taken?", ["24 hours"], H9_RESAMPLE)
addq("prose", F10, "What does draft 3 of the 2026-2030 capital plan come to?", ["EUR 48.6 million", "48.6 million"],
     T10_TOTAL)
addq("prose", F10, "when will the board be asked to approve the capital plan?", date_alts("2025-06-26"), T10_BOARD)
addq("prose", F5, "During what hours can open-cut work on Main Street in Ardcarne take place?",
     ["between 19:00 and 06:00", "19:00 and 06:00", "19:00 to 06:00", "19:00-06:00"], S5_NIGHT)
addq("prose", F3, "is customer meter under-registration included in the DMA water balance?",
     ["not included", "reported separately"], X3_NOTE)

# ---- lookups (12): one cell of one table, read back from the written files
import openpyxl
wbr = openpyxl.load_workbook(p(F3))
wsr = wbr["Zone summary"]
hdr_r = [c.value for c in wsr[H3]]
row_by_a = {wsr.cell(row=i, column=1).value: i for i in range(H3 + 1, RGT3 + 1) if wsr.cell(row=i, column=1).value}
row_by_code = {wsr.cell(row=i, column=2).value: i for i in range(H3 + 1, RGT3 + 1) if wsr.cell(row=i, column=2).value}
v3s = float(wsr.cell(row=row_by_a["Zone South total"], column=hdr_r.index("Est. leakage (m³/day)") + 1).value)
addq("lookup", F3, "What's the estimated leakage on the Zone South total row of the DMA water balance?",
     one_dp_alts(v3s))
v3i = float(wsr.cell(row=row_by_code["C204"], column=hdr_r.index("ILI") + 1).value)
addq("lookup", F3, "ILI of DMA C204 in the 2024/25 water balance?", [f"{v3i:.2f}"])
t4r = read4()
r4 = t4r[(t4r.meter_serial == meters[11]["serial"]) & (t4r.read_date == "2025-03-14")].iloc[0]
addq("lookup", F4, f"consumption_m3 for meter {r4.meter_serial} on 2025-03-14?", m3_alts(r4.consumption_m3))
t8r = read8()
r8 = t8r.iloc[211]
addq("lookup", F8, f"What is the length_m of pipe asset {r8.asset_id} in the asset extract?", one_dp_alts(r8.length_m))
chart7 = dict(pptx_chart_rows(p(F7)))
v7 = int(chart7["Feb 2025"]["South"])
addq("lookup", F7, "How many leaks did active leakage control repair in the South zone in February 2025, per the board "
     "deck chart?", [str(v7)])
w12r = next(w for w in read12() if w["wo_id"] == WD_ID)
v12 = next(c_["hours"] for c_ in w12r["crew"] if c_["name"] == "Dara Quinn")
addq("lookup", F12, f"How many hours did Dara Quinn book on work order {WD_ID}?",
     list(dict.fromkeys([f"{v12:g}", f"{v12:.2f}"])))
t5r = read5()
r5 = t5r[t5r.Page == 2].iloc[3]
addq("lookup", F5, f"estimated cost of renewal scheme {r5.Scheme} in the pipe renewal programme?",
     list(dict.fromkeys([f"EUR {r5.Cost:,.1f}k", f"{r5.Cost:,.1f}", f"{r5.Cost:.1f}"])))
t11r = read11()
r11 = t11r[(t11r.lead_ug_l == "<1.0")].iloc[4]
addq("lookup", F11, f"What was the lead result for water sample {r11.sample_id}?",
     ["<1.0", "< 1.0", "less than 1.0", "below 1.0"])
from bs4 import BeautifulSoup
soup9 = BeautifulSoup(open(p(F9), encoding="utf-8").read(), "html.parser")
rows9 = [[td.get_text(strip=True) for td in tr.find_all("td")] for tr in soup9.find("table").find_all("tr")[1:]]
v9 = next(r_[4] for r_ in rows9 if r_[1].startswith("Glebe Park"))
addq("lookup", F9, "How often is the Glebe Park community centre tap sampled?", [v9])
md_rows6 = [[c_.strip() for c_ in ln.strip().strip("|").split("|")] for ln in open(p(F6), encoding="utf-8")
            if re.match(r"\| [NCS]\d{3} \|", ln)]
v6 = next(r_[2] for r_ in md_rows6 if r_[1] == "Kilcolgan South")
addq("lookup", F6, "what's the MNF alert threshold for Kilcolgan South in the runbook?", [v6, f"{v6} l/s"])
st_r = [[c_.text for c_ in row.cells] for row in Document(p(F1)).tables[1].rows]
v1s = next(r_[4] for r_ in st_r if r_[0] == "4")
addq("lookup", F1, "What flow drop was recorded at step 4 of the Tullyroe East step test?", [v1s, f"{v1s} l/s"])
nb_r = json.load(open(p(F2), encoding="utf-8"))
per_out = "".join(nb_r["cells"][3]["outputs"][0]["data"]["text/plain"]).splitlines()
per_hdr = per_out[0].split()
v2 = next(ln.split()[per_hdr.index("median_daily_m3") + 1] for ln in per_out if ln.startswith("N102"))
addq("lookup", F2, "In the notebook's per-DMA output, what is the median daily consumption for N102?", [v2])

# ---- aggregates (15): computed with pandas from the files re-read from disk
wk = t4r[(t4r.dma_code == "N102") & (t4r.read_date >= "2025-03-10") & (t4r.read_date <= "2025-03-16")]
a1 = round(float(wk.consumption_m3.sum()), 3)
addq("aggregate", F4, "total consumption_m3 for the N102 meters from 10 to 16 March inclusive?", m3_alts(a1),
     check=lambda: abs(read4().pipe(lambda t: t[(t.dma_code == "N102") & (t.read_date >= "2025-03-10")
                                                & (t.read_date <= "2025-03-16")]).consumption_m3.sum() - a1) < 5e-4)
a3 = float(t4r[t4r.customer_class == "non-household"].consumption_m3.mean())
addq("aggregate", F4, "average daily consumption of non-household meters in the March smart meter reads?",
     avg_alts(a3), check=lambda: abs(read4().query("customer_class == 'non-household'").consumption_m3.mean() - a3)
     < 1e-9)
a5 = round(float(t8r[(t8r.material == "Cast iron") & (t8r.dma_code == "N101")].length_m.sum()), 1)
assert (t8r[(t8r.material == "Cast iron") & (t8r.dma_code == "N101")]).shape[0] >= 3
addq("aggregate", F8, "total length of cast iron mains in DMA N101 per the pipe asset extract (metres)?",
     one_dp_alts(a5), check=lambda: abs(read8().query("material == 'Cast iron' and dma_code == 'N101'").length_m.sum()
                                        - a5) < 0.05)
a6 = int(((t8r.condition_grade == 5) & (t8r.install_year < 1970)).sum())
addq("aggregate", F8, "how many grade 5 pipes were installed before 1970?", int_alts(a6),
     check=lambda: int(read8().query("condition_grade == 5 and install_year < 1970").shape[0]) == a6)
ac = t8r[t8r.material == "Asbestos cement"].groupby("dma_code", observed=True).length_m.sum()
a7 = unique_arg(ac.values, ac.index)
addq("aggregate", F8, "Which DMA has the most asbestos cement main by length?", [a7, DMA.loc[a7, "Name"]],
     check=lambda: read8().query("material == 'Asbestos cement'").groupby("dma_code", observed=True).length_m.sum()
     .idxmax() == a7)
sv = t8r[(t8r.last_condition_assessment >= "2024-01-01") & (t8r.last_condition_assessment < "2024-07-01")]
a8 = len(sv)
assert a8 >= 5
addq("aggregate", F8, "How many pipes had their last condition assessment in the first half of 2024?", int_alts(a8),
     check=lambda: int(read8().pipe(lambda t: ((t.last_condition_assessment >= "2024-01-01")
                                               & (t.last_condition_assessment < "2024-07-01")).sum())) == a8)
raw3r = read3_raw()
mnf = raw3r.groupby("DMA code")["MNF (l/s)"].mean()
a9 = unique_arg(mnf.values, mnf.index)
addq("aggregate", F3, "which DMA had the highest average MNF over 2024/25 in the monthly raw data?",
     [a9, DMA.loc[a9, "Name"]], check=lambda: read3_raw().groupby("DMA code")["MNF (l/s)"].mean().idxmax() == a9)
siv = raw3r.groupby("DMA code")["System input (m³)"].sum().sort_values(ascending=False)
assert siv.iloc[0] > siv.iloc[1] > siv.iloc[2]
a10 = siv.index[1]
addq("aggregate", F3, "Which DMA had the second highest total system input for the year?",
     [a10, DMA.loc[a10, "Name"]], check=lambda: read3_raw().groupby("DMA code")["System input (m³)"].sum()
     .sort_values(ascending=False).index[1] == a10)
s3r = read3_summary().set_index("DMA name")
a11 = round(float(s3r.loc["Kilcolgan North", "Est. leakage (m³/day)"] - s3r.loc["Kilcolgan South",
                                                                                  "Est. leakage (m³/day)"]), 1)
assert a11 > 0
addq("aggregate", F3, "difference in estimated leakage between Kilcolgan North and Kilcolgan South, m3/day?",
     one_dp_alts(a11), check=lambda: abs(read3_summary().set_index("DMA name")["Est. leakage (m³/day)"].pipe(
         lambda s_: s_["Kilcolgan North"] - s_["Kilcolgan South"]) - a11) < 0.05)
a12 = int((t11r.lead_ug_l == "<1.0").sum())
addq("aggregate", F11, "how many Q1 samples had lead below the limit of detection?", int_alts(a12),
     check=lambda: int((read11().lead_ug_l == "<1.0").sum()) == a12)
fe = t11r[(t11r.sampling_point == "SP-C204-01") & (t11r.sampled_at.dt.month == 2)]
assert len(fe) >= 2 and not fe.free_chlorine_mg_l.str.startswith("<").any()
a13 = float(pd.to_numeric(fe.free_chlorine_mg_l).mean())
addq("aggregate", F11, "What was the average free chlorine at SP-C204-01 in February?", avg_alts(a13),
     check=lambda: abs(read11().pipe(lambda t: t[(t.sampling_point == "SP-C204-01") & (t.sampled_at.dt.month == 2)])
                       .free_chlorine_mg_l.astype(float).mean() - a13) < 1e-9)
tu = t11r.assign(tb=pd.to_numeric(t11r.turbidity_ntu, errors="coerce")).groupby("sampling_point").tb.max()
a14 = unique_arg(tu.values, tu.index)
addq("aggregate", F11, "which sampling point had the highest turbidity reading in Q1 2025?", [a14],
     check=lambda: read11().assign(tb=lambda t: pd.to_numeric(t.turbidity_ntu, errors="coerce"))
     .groupby("sampling_point").tb.max().idxmax() == a14)
c12 = crew12()
a15 = float(c12[(c12.type == "Leak repair") & (c12["dma.zone"] == "South")].hours.sum())
addq("aggregate", F12, "total crew hours on leak repair work orders in the South zone in March?",
     list(dict.fromkeys([f"{a15:g}", f"{a15:.2f}", f"{a15:.1f}"])),
     check=lambda: abs(crew12().query("type == 'Leak repair'").pipe(lambda t: t[t["dma.zone"] == "South"]).hours.sum()
                       - a15) < 1e-9)
a16 = int(sum(v_["Central"] for _c, v_ in pptx_chart_rows(p(F7))))
addq("aggregate", F7, "In the board deck chart, how many leaks did the Central zone repair from October to March in "
     "total?", int_alts(a16), check=lambda: int(sum(v_["Central"] for _c, v_ in pptx_chart_rows(p(F7)))) == a16)
oc = t5r[t5r.Start.str.endswith("2026") & (t5r.Method == "Open cut")]
a17 = round(float(oc.Cost.sum()), 1)
assert len(oc) >= 3 and (t5r.Start.str.endswith("2026") & (t5r.Method != "Open cut")).sum() >= 3
addq("aggregate", F5, "What's the total estimated cost of the open cut renewal schemes starting in 2026?",
     [f"EUR {a17:,.1f}k", *one_dp_alts(a17)],
     check=lambda: abs(read5().pipe(lambda t: t[t.Start.str.endswith("2026") & (t.Method == "Open cut")]).Cost.sum()
                       - a17) < 0.05)

# ---- paraphrases (8): the user's words; no content word shared with the answering sentence
addq("paraphrase", F1, "What genuine overnight draw is assumed for each home every sixty minutes?",
     ["1.7 litres", "1.7"], FN1)
addq("paraphrase", F1, "what minimum head do firefighters need at their standpipes once the Lisnagry valve is altered?",
     ["45 m", "45"], CM2)
addq("paraphrase", F2, "If a household's pipework looks like it's dripping, what's the maximum sum we'll cover for "
     "fixing it?", ["EUR 300", "300"], NB_LETTER)
addq("paraphrase", F5, "Where does AC taken out of the ground get dumped?", ["Ballyfermot"], S5_AC)
addq("paraphrase", F7, "which past winter was the last time repair teams were this stretched?",
     ["December 2010", "2010"], S7_NOTES2)
addq("paraphrase", F6, "What's the longest an MNF alarm may be muted with no job logged?", ["72 hours"], RB_SILENCE)
addq("paraphrase", F9, "Under what disinfectant residual do crews purge a fire plug?",
     ["0.1 mg/l", "0.1"], H9_CL)
addq("paraphrase", F10, "In the latest capital plan draft, why was redoing the service tank's top pushed back?",
     ["dive survey", "roof sound", "found the roof sound"], T10_CUT)

# ---- none (8): close in topic, answer in no file
NONE = [("What fluoride level was measured at the Ballinderry reservoir outlet?", [r"fluorid"]),
        ("How many customer complaints about discoloured water were logged in March?",
         [r"complain", r"discolou?r"]),
        ("What nitrate concentration did Tullyroe East samples show in Q1?", [r"nitrat"]),
        ("What is the energy cost per megalitre pumped at the Tullyroe booster station?",
         [r"energy", r"kwh", r"per megalitre", r"electricity"]),
        ("What's the mean time to repair a burst main in the South zone?",
         [r"mean time", r"\bmttr\b", r"time to repair"]),
        ("How long is the sewer network in the Central zone?", [r"sewer", r"wastewater", r"waste water"]),
        ("What water hardness is reported for Castlefield?", [r"hardness", r"calcium", r"caco3"]),
        ("Which contractor installs the smart meters for phase 2?",
         [r"contractor", r"installer", r"supplier"])]
for q_, _ in NONE:
    addq("none", None, q_, [])

# ================================================================ read-back verification
files = [F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12]
RAW = {fn: text7(p(fn)) for fn in files}
TEXT = {fn: norm(RAW[fn]) for fn in files}
problems = question_problems(files, TEXT, NONE, strict=True)

# DOCX: a real footnotes part with its relationship and content type, references in the body, real comments
# anchored in the body; the footnote and comment answers are in no body paragraph
with zipfile.ZipFile(p(F1)) as z:
    names1 = z.namelist()
    rels1 = z.read("word/_rels/document.xml.rels").decode()
    ctypes1 = z.read("[Content_Types].xml").decode()
    doc1 = z.read("word/document.xml").decode()
if "word/footnotes.xml" not in names1 or "word/comments.xml" not in names1 \
        or 'relationships/footnotes" Target="footnotes.xml"' not in rels1 or "footnotes+xml" not in ctypes1 \
        or "comments+xml" not in ctypes1:
    problems.append(("docx footnote / comment parts", names1, None))
if doc1.count("<w:footnoteReference ") != 3 or doc1.count("<w:commentRangeStart ") != 2 \
        or doc1.count("<w:commentReference ") != 2:
    problems.append(("docx references", None, None))
fns = docx_part_paras(p(F1), "word/footnotes.xml")
cms = docx_part_paras(p(F1), "word/comments.xml")
if [x.strip() for x in fns if x.strip()] != FOOTNOTES or [x.strip() for x in cms if x.strip()] != [CM1, CM2]:
    problems.append(("docx footnote / comment text", fns, cms))
d1r = Document(p(F1))
body1 = norm("\n".join([pp.text for pp in d1r.paragraphs] + [c_.text for t_ in d1r.tables for row in t_.rows
                                                              for c_ in row.cells]))
for leak_ in ("20.4", "3 to 17 february", "45 m", "1.7 litres", "11 to 12 march"):
    if leak_ in body1:
        problems.append(("footnote / comment answer also in the body", leak_, None))
if [c_.author for c_ in d1r.comments] != ["Ciara Mulholland", "Ciara Mulholland"]:
    problems.append(("docx comments not read by python-docx", None, None))
# notebook: valid nbformat 4, a text/plain DataFrame, a stream output, markdown facts only in markdown cells
import nbformat
nbv = nbformat.read(p(F2), as_version=4)
nbformat.validate(nbv)
outs = [o for c_ in nbv.cells if c_.cell_type == "code" for o in c_.outputs]
if not any(o.output_type == "stream" and NB_OUT in o.text for o in outs) \
        or not any(o.output_type == "execute_result" and "median_daily_m3" in o.data.get("text/plain", "")
                   for o in outs) or any("text/html" in o.get("data", {}) for o in outs):
    problems.append(("notebook outputs", None, None))
md_txt = norm("\n".join(c_.source for c_ in nbv.cells if c_.cell_type == "markdown"))
if norm(NB_MD) not in md_txt or "2940" in norm("\n".join(c_.source for c_ in nbv.cells if c_.cell_type == "code")):
    problems.append(("notebook markdown fact", None, None))
if abs(float(v2) - float(t4r[t4r.dma_code == "N102"].consumption_m3.median())) > 5e-4:
    problems.append(("notebook output does not match the TSV", v2, None))
# XLSX: the pivot-style summary (zone named once, subtotal rows after each zone, grand total), outline levels,
# the subtotals equal to the sum of their DMAs, real dates on the raw sheet
sumr = read3_summary()
lab = sumr.Zone.tolist()
if [x for x in lab if isinstance(x, str)] != ["North", "Zone North total", "Central", "Zone Central total", "South",
                                               "Zone South total", "Grand total"]:
    problems.append(("xlsx pivot labels", lab, None))
zf = sumr.assign(Zone=sumr.Zone.where(~sumr.Zone.astype(str).str.contains("total")).ffill())
dmas_r = zf[zf["DMA code"].notna()]
for z in ZONES:
    tot_r = sumr[sumr.Zone == f"Zone {z} total"].iloc[0]
    for col in ("Properties", "System input (m³/day)"):
        if int(dmas_r[dmas_r.Zone == z][col].sum()) != int(tot_r[col]):
            problems.append(("xlsx subtotal", z, col))
    if abs(dmas_r[dmas_r.Zone == z]["Est. leakage (m³/day)"].sum() - tot_r["Est. leakage (m³/day)"]) > 0.05:
        problems.append(("xlsx subtotal leakage", z, None))
if len(dmas_r) != 15 or sum(wsr.row_dimensions[i].outlineLevel == 1 for i in range(H3 + 1, RGT3)) != 15:
    problems.append(("xlsx DMA rows / outline", len(dmas_r), None))
if not isinstance(wbr["Monthly raw"]["D2"].value, dt.datetime) or len(raw3r) != 180:
    problems.append(("xlsx raw sheet", None, None))
# TSV: tab separated, units in the header, ISO dates, serials sharing a prefix
lines4 = open(p(F4), encoding="utf-8").read().splitlines()
hdr4 = lines4[0].split("\t")
if "consumption_m3" not in hdr4 or not all(ln.count("\t") == len(hdr4) - 1 for ln in lines4) \
        or not all(re.fullmatch(r"2025-03-\d\d", ln.split("\t")[3]) for ln in lines4[1:]) or len(lines4) != 993:
    problems.append(("tsv form", hdr4, len(lines4)))
if t4r.meter_serial.str[:7].value_counts().max() < 4 or t4r.read_flag.isna().sum() < 500 \
        or t4r.min_night_flow_lph.isna().sum() == 0:
    problems.append(("tsv prefixes / blanks", None, None))
# PDF: 3 pages, the scheme table split across pages 1 and 2 with its header repeated, every row read back
pages5 = read5_pages()
hdr5 = "Scheme DMA Location Existing material Dia (mm) Length (m) Method Cost (EUR k) Start"
if len(pages5) < 2 or hdr5 not in pages5[0] or hdr5 not in pages5[1] \
        or not (t5r.Page == 1).any() or not (t5r.Page == 2).any():
    problems.append(("pdf table across the page break", len(pages5), t5r.Page.value_counts().to_dict()))
if len(t5r) != len(df5) or int(t5r.Length.sum()) != int(df5.Length.sum()) \
        or abs(t5r.Cost.sum() - df5.Cost.sum()) > 0.05 or list(t5r.Scheme) != list(df5.Scheme):
    problems.append(("pdf rows read back", len(t5r), None))
if len(PdfReader(p(F5)).metadata.get("/CreationDate", "")) == 0:
    problems.append(("pdf metadata", None, None))
# Markdown: a pipe table with all rows, fenced code blocks
if len(md_rows6) != len(TH6) or md6.count("```") != 6 or "|---|---|---:|---:|---|" not in md6:
    problems.append(("markdown table / fences", None, None))
# PPTX: a table, a native chart with three series, notes facts only in the notes
from pptx import Presentation as PrsR
prs_r = PrsR(p(F7))
slide_txt = norm("\n".join(sh.text_frame.text for sl in prs_r.slides for sh in sl.shapes if sh.has_text_frame))
if "1,200" in slide_txt or "1200 permanent" in slide_txt or "2010" in slide_txt:
    problems.append(("notes fact on a slide", None, None))
if list(chart7) != MONTHS7 or sorted(chart7["Jan 2025"]) != sorted(ZONES) \
        or not any(getattr(sh, "has_table", False) and sh.has_table for sl in prs_r.slides for sh in sl.shapes):
    problems.append(("pptx chart / table", None, None))
# Parquet: datetime, categorical and integer columns, NaT present
sch8 = {f_.name: str(f_.type) for f_ in __import__("pyarrow.parquet", fromlist=["x"]).read_schema(p(F8))}
if not sch8["last_condition_assessment"].startswith("timestamp") or "dictionary" not in sch8["material"] \
        or "dictionary" not in sch8["dma_code"] or sch8["diameter_mm"] != "int16" \
        or str(t8r.material.dtype) != "category" or t8r.last_condition_assessment.isna().sum() == 0 \
        or len(t8r) != 420:
    problems.append(("parquet schema", sch8, None))
# HTML: a definition list with the terms, a table with every sampling point
dl9 = soup9.find("dl")
if dl9 is None or len(dl9.find_all("dt")) != 6 or len(dl9.find_all("dd")) != 6 or len(rows9) != len(SP9):
    problems.append(("html dl / table", None, None))
if "24 hours" not in " ".join(dd_.get_text(" ") for dd_ in dl9.find_all("dd")):
    problems.append(("html dd fact", None, None))
# CSV: below-detection values and blank cells, every sampling point in the HTML table
raw11 = open(p(F11), encoding="utf-8").read()
if ",<1.0," not in raw11 or ",<0.1," not in raw11 or ",<0.10," not in raw11 or ",," not in raw11 \
        or set(t11r.sampling_point) != {c_ for c_, *_ in SP9}:
    problems.append(("csv below-detection / blanks", None, None))
# JSON: nested dma, location, crew and materials; the lookup order has both Daras
w12a = read12()
if not all(isinstance(w["crew"], list) and isinstance(w["dma"], dict) for w in w12a) \
        or {c_["name"] for c_ in w12r["crew"]} < {"Dara Quigley", "Dara Quinn"} or len(w12a) != 38:
    problems.append(("json shape", None, None))

write_questions(BASE, "x", problems)
for fn in files:
    print(fn, os.path.getsize(p(fn)), "bytes,", len(TEXT[fn]), "chars extracted")
print("pdf pages:", len(pages5), "rows per page:", t5r.Page.value_counts().sort_index().to_dict(),
      "tsv rows:", len(lines4) - 1, "csv rows:", len(t11r), "parquet rows:", len(t8r), "work orders:", len(w12a))
if problems:
    sys.exit(1)
