"""Office files and questions a helper wrote in session 50 without seeing the service's code
(held out: measured before any rule they could teach). ``python set5.py DIR`` writes DIR/files
and DIR/questions.jsonl, the same bytes on every run.

Subjects (new to this set): a food wholesaler in Belgium and the Netherlands (Scheldeveld
Foodservice NV: depots in Ghent, Antwerp, Brussels, Breda and Utrecht) - an ERP export of key
account sales order lines with ``;`` separators, decimal commas, a UTF-8 BOM and DD-MM-YYYY dates
(CSV), depot cases and revenue for 2024 with a two-row merged header and a notes sheet with real
dates (XLSX), a HACCP cold chain procedure with numbered steps and a temperature limits table
(ODT), a quarterly management letter in two columns with a key figures table and a footnote
(PDF), a cold chain review deck with a native chart, a table and speaker notes (PPTX), a saved
intranet page of delivery windows with rowspan and colspan (HTML), a refrigerated transport
service level agreement with a key/value table and numbered sub-clauses (DOCX), an analyst's
receivables ageing notebook with a printed DataFrame and an HTML table output (IPYNB), reefer
logger readings (Parquet) and an incident report with nested lists (Markdown).

Kinds: "lookup" (one cell named by row and column, including a two-row header, a rowspan table,
an ODT table, a key/value table, a chart's data and notebook outputs), "aggregate" (count / sum /
average / top computed with pandas from the data written, re-read from the files on disk),
"prose" (a fact in one sentence, including speaker notes, a footnote, the second column of the
PDF, notebook markdown and a nested list item), "paraphrase" (a prose fact asked in the user's own
words; shares no content word with the sentence that answers it, checked below) and "none" (close
in topic, answered by no file; expect [])."""
import os, re, io, csv, random, sys, zipfile, unicodedata, datetime as dt
os.environ["SOURCE_DATE_EPOCH"] = "1752138000"  # 2025-07-10 09:00 UTC
import numpy as np
import pandas as pd
from _common import (add_slide, addq, avg_alts, bullets, code_cell, int_alts, md_cell, money_alts, norm, notebook,
                     notes, odt_lines, one_dp_alts, out_files, pptx_chart_rows, question_problems, result,
                     save_doc, slide_table, stamped, stream, text_of, unique_arg, write_json, write_questions,
                     write_text)

BASE = sys.argv[1]
p = out_files(BASE)
rng, rnd = np.random.default_rng(50), random.Random(50)
FIXED_DT = dt.datetime(2025, 7, 10, 9, 0, 0)


def eu(x, dp=2):
    """1234.5 -> '1.234,50' (how the ERP writes it)"""
    return f"{x:,.{dp}f}".replace(",", "\x00").replace(".", ",").replace("\x00", ".")


def eu_money_alts(x):
    """plain forms first, then the decimal-comma forms the CSV uses"""
    x = round(float(x), 2)
    return list(dict.fromkeys(money_alts(x) + [eu(x), f"{x:.2f}".replace(".", ",")]))


DEPOTS = ["Ghent", "Antwerp", "Brussels", "Breda", "Utrecht"]
DCODE = {"Ghent": "GNT", "Antwerp": "ANR", "Brussels": "BRU", "Breda": "BRD", "Utrecht": "UTR"}
GROUPS = ["Dairy", "Fresh meat", "Poultry", "Fish & seafood", "Fruit & vegetables", "Frozen", "Bakery",
          "Dry grocery"]
# key accounts: (number, name, segment, depot, weight)
CUSTOMERS = [
    ("C10231", "Brasserie Het Vlaamsch Huys", "Horeca", "Ghent", 9),
    ("C10244", "Hotel Zilverberg", "Hotel", "Ghent", 8),
    ("C10258", "Traiteur Dewaele", "Catering", "Ghent", 10),
    ("C10262", "AZ Sint-Lieven Aalst", "Healthcare", "Ghent", 8),
    ("C10275", "Campus Schoonmeersen restaurant", "Education", "Ghent", 5),
    ("C20112", "Grand Café De Koophandel", "Horeca", "Antwerp", 8),
    ("C20137", "Hotel Scheldezicht", "Hotel", "Antwerp", 7),
    ("C20141", "Rivierland Hospital Group", "Healthcare", "Antwerp", 9),
    ("C20159", "Lunchbar Kaai 16", "Horeca", "Antwerp", 4),
    ("C30018", "Hôtel Le Cygne Bleu", "Hotel", "Brussels", 7),
    ("C30026", "Restaurant Sablon Doré", "Horeca", "Brussels", 6),
    ("C30041", "École Européenne Uccle cantine", "Education", "Brussels", 6),
    ("C40107", "Restaurant De Gouden Karpel", "Horeca", "Breda", 5),
    ("C40115", "Zorgcentrum De Linde", "Healthcare", "Breda", 6),
    ("C40123", "Hotel Het Valkenberg", "Hotel", "Breda", 4),
    ("C50204", "Grand Café Oranje", "Horeca", "Utrecht", 5),
    ("C50211", "Zorggroep Vechtstede", "Healthcare", "Utrecht", 6),
    ("C50219", "Studentenrestaurant Campus Noord", "Education", "Utrecht", 5),
    ("C50226", "Hotel Domstad", "Hotel", "Utrecht", 4),
]
CUST = pd.DataFrame(CUSTOMERS, columns=["No", "Name", "Segment", "Depot", "W"])

# ============ File 1: CSV ERP export, key account sales order lines H1 2025 =====
F1 = "ERP_export_key_account_order_lines_2025H1.csv"
unit1 = {"Dairy": "CS", "Fresh meat": "KG", "Poultry": "KG", "Fish & seafood": "KG", "Fruit & vegetables": "CS",
         "Frozen": "CS", "Bakery": "CS", "Dry grocery": "CS"}
price1 = {"Dairy": 34.0, "Fresh meat": 14.5, "Poultry": 8.9, "Fish & seafood": 21.0, "Fruit & vegetables": 22.0,
          "Frozen": 46.0, "Bakery": 18.5, "Dry grocery": 27.0}
gw1 = [16, 13, 11, 9, 14, 13, 10, 14]
EXPORT1 = dt.date(2025, 6, 30)
days1 = sorted(dt.date(2025, 1, 2) + dt.timedelta(days=int(x)) for x in rng.integers(0, 180, 190))
days1 = [d_ if d_.weekday() != 6 else d_ - dt.timedelta(days=1) for d_ in days1]  # no Sunday orders
rows1 = []
for i, day in enumerate(days1):
    c = CUST.iloc[rnd.choices(range(len(CUST)), weights=list(CUST.W))[0]]
    age = (EXPORT1 - day).days
    u = rnd.random()
    if age > 9:
        ostat = "Cancelled" if u < 0.07 else ("Delivered" if age < 16 and u < 0.5 else "Invoiced")
    elif age > 3:
        ostat = "Cancelled" if u < 0.05 else ("Open" if u < 0.2 else "Delivered")
    else:
        ostat = "Open"
    nlines = rnd.choices([1, 2, 3, 4], weights=[30, 38, 22, 10])[0]
    groups = rnd.sample(GROUPS, k=nlines) if c.Segment != "Education" else rnd.sample(GROUPS[:6], k=min(nlines, 3))
    for ln, g in enumerate(groups, 1):
        if unit1[g] == "KG":
            qty = round(float(rng.choice([2.5, 5.0, 7.5, 10.0, 12.5, 15.0, 20.0, 25.0, 30.0, 40.0, 55.0])) *
                        (1.0 if rnd.random() < 0.7 else float(rng.uniform(0.8, 1.2))), 1)
        else:
            qty = int(rng.integers(1, 41))
        amount = round(qty * price1[g] * float(rng.uniform(0.9, 1.1)), 2)
        lstat = ostat
        if ostat == "Invoiced" and rnd.random() < 0.03:
            lstat = "Cancelled"
        rows1.append({"Order": f"SO-25-{4512 + i:06d}", "Line": ln * 10, "Date": day, "CustNo": c.No,
                      "Customer": c.Name, "Segment": c.Segment, "Depot": c.Depot, "Group": g, "Qty": qty,
                      "Unit": unit1[g], "Amount": amount, "Status": lstat})
df1 = pd.DataFrame(rows1)
with open(p(F1), "w", encoding="utf-8-sig", newline="") as f:
    w = csv.writer(f, delimiter=";", lineterminator="\r\n")
    w.writerow(["Order No", "Line", "Order Date", "Customer No", "Customer Name", "Segment", "Depot",
                "Product Group", "Quantity", "Unit", "Net Amount EUR", "Status"])
    for r in df1.itertuples():
        qty = f"{r.Qty:.1f}".replace(".", ",") if r.Unit == "KG" else str(int(r.Qty))
        w.writerow([r.Order, r.Line, r.Date.strftime("%d-%m-%Y"), r.CustNo, r.Customer, r.Segment,
                    f"{DCODE[r.Depot]} {r.Depot}", r.Group, qty, r.Unit, eu(r.Amount), r.Status])

# ============ File 2: XLSX depot cases and revenue 2024 (two-row header) ======
from openpyxl import Workbook
from openpyxl.styles import Font, Alignment, PatternFill, Border, Side
F2 = "depot_cases_revenue_2024.xlsx"
QS = ["Q1 2024", "Q2 2024", "Q3 2024", "Q4 2024"]
dsize = {"Ghent": 1.25, "Antwerp": 1.4, "Brussels": 1.1, "Breda": 0.8, "Utrecht": 0.7}
gsize = {"Dairy": 1.3, "Fresh meat": 0.7, "Poultry": 0.8, "Fish & seafood": 0.45, "Fruit & vegetables": 1.2,
         "Frozen": 1.1, "Bakery": 0.9, "Dry grocery": 1.5}
gprice = {"Dairy": 38, "Fresh meat": 96, "Poultry": 61, "Fish & seafood": 112, "Fruit & vegetables": 29,
          "Frozen": 55, "Bakery": 24, "Dry grocery": 31}
season2 = [0.93, 1.02, 1.06, 0.99]
rows2 = []
for dep in DEPOTS:
    for g in GROUPS:
        rec = {"Depot": dep, "Group": g}
        for qi, qn in enumerate(QS):
            f_ = season2[qi] * float(rng.uniform(0.9, 1.1))
            if qn == "Q4 2024" and dep == "Utrecht":
                f_ *= 0.86  # 1-14 October booked under Breda (see Notes)
            if qn == "Q4 2024" and dep == "Breda":
                f_ *= 1.12
            cases = int(round(9000 * dsize[dep] * gsize[g] * f_))
            rec[(qn, "Cases")] = cases
            rec[(qn, "Revenue")] = int(round(cases * gprice[g] * float(rng.uniform(0.96, 1.04))))
        rows2.append(rec)
df2 = pd.DataFrame(rows2).set_index(["Depot", "Group"])
df2.columns = pd.MultiIndex.from_tuples(df2.columns)
S2_UTR = ("Because of the ERP migration, Utrecht's deliveries from 1 to 14 October 2024 were booked under the "
          "Breda depot.")
wb = stamped(Workbook(), FIXED_DT, creator="Business Control")
ws = wb.active
ws.title = "Depot x group"
bold = Font(bold=True)
hfill = PatternFill("solid", fgColor="DCE6F1")
thin = Side(style="thin", color="999999")
ws["A1"], ws["B1"] = "Depot", "Product group"
ws.merge_cells("A1:A2")
ws.merge_cells("B1:B2")
for qi, qn in enumerate(QS):
    c0 = 3 + 2 * qi
    ws.cell(row=1, column=c0, value=qn)
    ws.merge_cells(start_row=1, start_column=c0, end_row=1, end_column=c0 + 1)
    ws.cell(row=2, column=c0, value="Cases")
    ws.cell(row=2, column=c0 + 1, value="Revenue (EUR)")
for rr in (1, 2):
    for cc in range(1, 11):
        cell = ws.cell(row=rr, column=cc)
        cell.font = bold
        cell.fill = hfill
        cell.alignment = Alignment(horizontal="center", vertical="center")
        cell.border = Border(top=thin, bottom=thin, left=thin, right=thin)
for (dep, g), r in df2.iterrows():
    vals = [dep, g]
    for qn in QS:
        vals += [int(r[(qn, "Cases")]), int(r[(qn, "Revenue")])]
    ws.append(vals)
    for cc in range(3, 11):
        ws.cell(row=ws.max_row, column=cc).number_format = "#,##0"
ws.column_dimensions["A"].width = 11
ws.column_dimensions["B"].width = 20
for col in "CDEFGHIJ":
    ws.column_dimensions[col].width = 14
ws.freeze_panes = "C3"
ws2 = wb.create_sheet("Notes")
ws2["A1"] = "Depot cases and revenue 2024 - notes and definitions"
ws2["A1"].font = Font(bold=True, size=13)
notes2 = ["Cases: shipped cases as scanned at the dock door; a kilo article counts as one case per 10 kg.",
          "Revenue (EUR): net invoiced revenue after rebates and before VAT, excluding deposits on crates and pallets.",
          "Depot: the depot that loaded the delivery, not the depot of the customer's account.",
          S2_UTR,
          "Figures are final; Q4 2024 was closed by Business Control after the year-end stock count.",
          "Questions to Business Control (Annelies Goossens)."]
for i, line in enumerate(notes2):
    ws2.cell(row=3 + i, column=1, value=line)
ws2.cell(row=10, column=1, value="Quarter").font = bold
ws2.cell(row=10, column=2, value="From").font = bold
ws2.cell(row=10, column=3, value="To").font = bold
ws2.cell(row=10, column=4, value="Delivery days").font = bold
qdates = [(dt.datetime(2024, 1, 1), dt.datetime(2024, 3, 31), 77), (dt.datetime(2024, 4, 1), dt.datetime(2024, 6, 30), 75),
          (dt.datetime(2024, 7, 1), dt.datetime(2024, 9, 30), 78), (dt.datetime(2024, 10, 1), dt.datetime(2024, 12, 31), 76)]
for i, (qn, (a, b, n)) in enumerate(zip(QS, qdates)):
    ws2.cell(row=11 + i, column=1, value=qn)
    for cc, v in ((2, a), (3, b)):
        ws2.cell(row=11 + i, column=cc, value=v).number_format = "DD-MM-YYYY"
    ws2.cell(row=11 + i, column=4, value=n)
ws2.cell(row=16, column=1, value="Extracted from the BI warehouse on")
ws2.cell(row=16, column=2, value=dt.datetime(2025, 1, 17)).number_format = "DD-MM-YYYY"
ws2.column_dimensions["A"].width = 40
ws2.column_dimensions["B"].width = 12
ws2.column_dimensions["C"].width = 12
ws2.column_dimensions["D"].width = 14
save_doc(wb, p(F2), FIXED_DT)

# ============ File 3: ODT HACCP cold chain procedure ==========================
from odf.opendocument import OpenDocumentText
from odf.style import (Style, TextProperties, ParagraphProperties, TableColumnProperties, TableCellProperties,
                       TableProperties, ListLevelProperties)
from odf.text import H as OH, P as OP, List as OList, ListItem as OListItem, ListStyle, ListLevelStyleNumber, \
    ListLevelStyleBullet
from odf.table import Table as OTable, TableColumn as OTableColumn, TableRow as OTableRow, \
    TableCell as OTableCell, TableHeaderRows as OTableHeaderRows
from odf import meta as ometa, dc as odc
F3 = "HACCP-PRO-07_cold_chain_receiving_storage_dispatch.odt"
limits3 = [("Fresh meat and poultry", "0 °C to +4 °C", "+5 °C", "20"),
           ("Minced meat and meat preparations", "0 °C to +2 °C", "+3 °C", "15"),
           ("Fresh fish and seafood", "-1 °C to +2 °C (on melting ice)", "+2 °C", "15"),
           ("Dairy and chilled ready meals", "0 °C to +7 °C", "+8 °C", "30"),
           ("Fresh fruit and vegetables", "+4 °C to +10 °C", "+12 °C", "45"),
           ("Frozen food and ice cream", "-18 °C or colder", "-15 °C", "10")]
df3 = pd.DataFrame(limits3, columns=["Category", "Storage", "Accept", "Dock"])
S3_PROBE = ("Probe thermometers are checked every month in melting ice, and any probe that reads more than 0.5 °C "
            "away from 0 °C is taken out of use.")
S3_EVAP = "Pallets must never be stacked against an evaporator; keep a clearance of at least 30 cm."
S3_ILL = ("Staff who have had diarrhoea or vomiting may not return to work in the warehouse until 48 hours after "
          "their symptoms have stopped.")
odt = OpenDocumentText()
odt.meta.addElement(odc.Title(text="HACCP-PRO-07 Cold chain: receiving, storage and dispatch"))
odt.meta.addElement(odc.Creator(text="Sofie Van Damme"))
odt.meta.addElement(odc.Date(text="2025-07-10T09:00:00"))
odt.meta.addElement(ometa.CreationDate(text="2025-07-10T09:00:00"))
st_title = Style(name="Title", family="paragraph")
st_title.addElement(TextProperties(fontsize="18pt", fontweight="bold"))
st_title.addElement(ParagraphProperties(marginbottom="0.3cm"))
st_h1 = Style(name="Heading 1", family="paragraph")
st_h1.addElement(TextProperties(fontsize="14pt", fontweight="bold"))
st_h1.addElement(ParagraphProperties(margintop="0.4cm", marginbottom="0.2cm"))
st_h2 = Style(name="Heading 2", family="paragraph")
st_h2.addElement(TextProperties(fontsize="12pt", fontweight="bold"))
st_body = Style(name="Text body", family="paragraph")
st_body.addElement(TextProperties(fontsize="10.5pt"))
st_body.addElement(ParagraphProperties(marginbottom="0.2cm"))
st_note = Style(name="Note", family="paragraph")
st_note.addElement(TextProperties(fontsize="9pt", fontstyle="italic"))
for s_ in (st_title, st_h1, st_h2, st_body, st_note):
    odt.styles.addElement(s_)
st_th = Style(name="TH", family="paragraph")
st_th.addElement(TextProperties(fontweight="bold", fontsize="10pt"))
st_td = Style(name="TD", family="paragraph")
st_td.addElement(TextProperties(fontsize="10pt"))
st_tab = Style(name="TempTable", family="table")
st_tab.addElement(TableProperties(width="16.5cm", align="left"))
st_col1 = Style(name="TempTable.A", family="table-column")
st_col1.addElement(TableColumnProperties(columnwidth="6cm"))
st_col = Style(name="TempTable.B", family="table-column")
st_col.addElement(TableColumnProperties(columnwidth="3.5cm"))
st_cell = Style(name="TempTable.Cell", family="table-cell")
st_cell.addElement(TableCellProperties(border="0.5pt solid #000000", padding="0.1cm"))
num_style = ListStyle(name="Steps")
num_lvl = ListLevelStyleNumber(level=1, numformat="1", numsuffix=".")
num_lvl.addElement(ListLevelProperties(spacebefore="0.4cm", minlabelwidth="0.6cm"))
num_style.addElement(num_lvl)
bul_style = ListStyle(name="Bullets")
bul_lvl = ListLevelStyleBullet(level=1, bulletchar="•")
bul_lvl.addElement(ListLevelProperties(spacebefore="0.4cm", minlabelwidth="0.5cm"))
bul_style.addElement(bul_lvl)
for s_ in (st_th, st_td, st_tab, st_col1, st_col, st_cell, num_style, bul_style):
    odt.automaticstyles.addElement(s_)
T3 = odt.text


def oh(level, text):
    T3.addElement(OH(outlinelevel=level, stylename=st_h1 if level == 1 else st_h2, text=text))


def op(text, style=None):
    T3.addElement(OP(stylename=style or st_body, text=text))


def olist(items, numbered=True):
    lst = OList(stylename=num_style if numbered else bul_style)
    for it in items:
        li = OListItem()
        li.addElement(OP(stylename=st_body, text=it))
        lst.addElement(li)
    T3.addElement(lst)


T3.addElement(OP(stylename=st_title, text="HACCP-PRO-07 Cold chain: receiving, storage and dispatch"))
op("Scheldeveld Foodservice NV - Food Safety Management System. Version 5, effective 1 June 2025. "
   "Owner: QA Manager (Sofie Van Damme). Approved by: Operations Director (Pieter-Jan Claeys). "
   "Applies to the depots in Ghent, Antwerp, Brussels, Breda and Utrecht.")
oh(1, "1. Purpose")
op("This procedure describes how chilled and frozen products are kept within their temperature limits from the "
   "moment a supplier's vehicle is opened at our receiving dock until the goods are handed over to the customer. "
   "It is a prerequisite programme of the HACCP plan and covers critical control point CCP 2 (temperature at "
   "receipt) and CCP 4 (temperature at dispatch).")
op("The procedure meets the requirements of Regulation (EC) No 852/2004, the FAVV-AFSCA self-checking guide for "
   "wholesale (G-044) and the Dutch hygiene code for the wholesale trade. Where the Belgian and Dutch rules "
   "differ, the stricter limit applies at every depot.")
oh(1, "2. Scope and responsibilities")
op("The procedure applies to all warehouse staff, drivers and subcontracted hauliers who handle chilled or frozen "
   "products for Scheldeveld Foodservice. Ambient dry grocery is outside its scope, except for the hygiene rules "
   "in section 7.")
op("The depot manager is responsible for making sure the procedure is followed and that staff are trained before "
   "they work on the receiving dock. The shift leader signs off the temperature records at the end of each shift. "
   "The QA Manager reviews the records every week and keeps this procedure up to date.")
oh(1, "3. Temperature limits")
op("Table 1 gives the storage temperature for each product category, the highest product temperature at which a "
   "delivery may still be accepted, and the longest time a pallet of that category may stand on the dock outside "
   "the cold store. Product temperatures are core temperatures measured with a probe between two packs, never by "
   "piercing the packaging.")
tab = OTable(name="TemperatureLimits", stylename=st_tab)
tab.addElement(OTableColumn(stylename=st_col1))
tab.addElement(OTableColumn(stylename=st_col, numbercolumnsrepeated=3))


def orow(values, head=False):
    tr = OTableRow()
    for v in values:
        tc = OTableCell(valuetype="string", stylename=st_cell)
        tc.addElement(OP(stylename=st_th if head else st_td, text=v))
        tr.addElement(tc)
    return tr


hdr = OTableHeaderRows()
hdr.addElement(orow(["Product category", "Storage temperature", "Accept at receipt up to",
                     "Max. time on dock (minutes)"], head=True))
tab.addElement(hdr)
for r in df3.itertuples():
    tab.addElement(orow([r.Category, r.Storage, r.Accept, r.Dock]))
T3.addElement(tab)
op("Table 1: Temperature limits per product category.", st_note)
op("A delivery above the acceptance temperature is refused. A delivery between the storage limit and the "
   "acceptance temperature is accepted only if it is put into the cold store at once and the supplier has "
   "been informed by the shift leader.")
oh(1, "4. Receiving chilled and frozen goods")
op("The receiving clerk follows these steps for every supplier delivery of chilled or frozen goods:")
olist(["Check that the trailer is closed and sealed and that the seal number matches the delivery note.",
       "Read the trailer's display or temperature printout before opening the doors and write the value on the "
       "receiving form.",
       "Open the doors only when the pallet can be unloaded straight away; never leave a trailer open at the dock "
       "while waiting for a forklift.",
       "Probe one case from the front, one from the middle and one from the rear of the load.",
       "Compare the highest reading with Table 1 and accept, accept with remark or refuse the delivery.",
       "Check best-before and use-by dates: chilled products must have at least two thirds of their shelf life "
       "left, unless the buyer has agreed otherwise in writing.",
       "Move accepted pallets into the cold store within the time in Table 1 and book them in the warehouse system."])
op("If the probe readings differ by more than 2 °C between the front and the rear of the load, the receiving "
   "clerk calls the shift leader before accepting anything, because this usually points to a problem with the "
   "supplier's reefer unit.")
oh(1, "5. Storage")
op("Cold stores and freezer rooms are fitted with wireless sensors that record the air temperature every five "
   "minutes. The warehouse system raises an alarm on the shift leader's handset when a chilled room is above "
   "+5 °C or a freezer room above -18 °C for more than 15 minutes.")
op(S3_EVAP + " Pallets are placed on the floor markings so that air can circulate along the walls, and no "
   "goods are stored in front of the door curtains.")
op("Raw meat, poultry and fish are stored on the lowest racking level or in their own room, never above "
   "ready-to-eat products such as dairy or cooked meats.")
op("Stock is picked first-expired, first-out. Products with a use-by date in the next two days are moved to the "
   "short-date location and offered to the sales team before the end of the day.")
oh(1, "6. Loading and dispatch")
op("The loading team follows these steps for each route:")
olist(["Start the reefer unit at least 30 minutes before loading and check on the display that the load "
       "compartment has reached its set point.",
       "Load frozen goods last and unload them first; frozen pallets go into the front compartment of "
       "multi-temperature trucks.",
       "Probe one chilled case per route and record the value on the loading sheet.",
       "Close the doors between pallets whenever the dock seal is not in use.",
       "Hand the loading sheet to the driver, who checks the set point again before leaving the yard."])
op("Drivers keep the doors closed between drops and use the side door or the curtain for small deliveries. The "
   "truck's logger records the air temperature every five minutes, and the data is checked by the transport "
   "planner after every route.")
oh(1, "7. Hygiene and health")
op("Everyone entering the cold stores wears clean work clothes, a hair net and safety shoes. Hands are washed "
   "when entering the warehouse and after every break.")
op(S3_ILL + " The shift leader reports every case of illness to the QA Manager on the same day.")
op("Cuts and grazes on hands are covered with a blue detectable plaster and a glove.")
oh(1, "8. Calibration and corrective actions")
op(S3_PROBE + " The result is recorded in the calibration log with the serial number of the probe.")
op("When a limit in Table 1 is exceeded, the shift leader blocks the affected stock in the warehouse system and "
   "asks the QA Manager to decide on release, reuse or destruction within four hours. Every decision is recorded "
   "on a non-conformity form.")
oh(1, "9. Records")
op("Receiving forms, loading sheets, calibration logs and non-conformity forms are kept for two years. Sensor "
   "and logger data is kept in the warehouse system for the same period.")
save_doc(odt, p(F3), FIXED_DT)

# ============ File 4: PDF two-column management letter Q2 2025 ================
from reportlab import rl_config
rl_config.invariant = 1
from reportlab.lib.pagesizes import A4
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.lib.styles import getSampleStyleSheet, ParagraphStyle
from reportlab.lib.enums import TA_JUSTIFY
from reportlab.platypus import (BaseDocTemplate, PageTemplate, Frame, FrameBreak, NextPageTemplate, Paragraph,
                                Spacer, Table, TableStyle)
F4 = "management_letter_Q2_2025.pdf"
rev24 = float(df2[("Q2 2024", "Revenue")].sum()) / 1e6
cases24 = float(df2[("Q2 2024", "Cases")].sum()) / 1e3
rev25 = round(rev24 * 1.064, 1)
cases25 = round(cases24 * 1.031, 0)
EXC = {"Q1 2025": [14, 9, 17, 6, 10], "Q2 2025": [12, 11, 8, 7, 13]}  # also the deck's chart
key4 = [("Net revenue (EUR m)", f"{rev25:.1f}", f"{rev24:.1f}"),
        ("Gross margin", "21.8%", "21.1%"),
        ("Cases delivered (thousands)", f"{cases25:,.0f}", f"{cases24:,.0f}"),
        ("OTIF<super>1</super>", "96.4%", "95.2%"),
        ("Temperature excursions", str(sum(EXC["Q2 2025"])), "63"),
        ("Active key accounts", "412", "398"),
        ("Staff (FTE, end of quarter)", "684", "661")]
S4_BREDA = ("The new Breda cross-dock on the Hazeldonk logistics park will open on 3 November 2025 and doubles the "
            "chilled floor space we have in the Netherlands.")
S4_FN = ("OTIF (on time in full) counts an order line as on time only if it was delivered inside the customer's "
         "agreed delivery window, and as in full only if no case was short or substituted.")
S4_ENERGY = ("Energy costs in our cold stores fell by 11% after the new CO2 refrigeration plant in Antwerp came "
             "online in April.")
ss = getSampleStyleSheet()
body4 = ParagraphStyle("body5", parent=ss["BodyText"], fontName="Times-Roman", fontSize=9.5, leading=12.2,
                       alignment=TA_JUSTIFY, spaceAfter=5)
h4 = ParagraphStyle("h5", parent=ss["Heading3"], fontName="Helvetica-Bold", fontSize=10.5, leading=13,
                    spaceBefore=6, spaceAfter=3, textColor=colors.HexColor("#1B4F72"))
small4 = ParagraphStyle("small5", parent=ss["BodyText"], fontName="Helvetica", fontSize=7.5, leading=9)
cell4 = ParagraphStyle("cell5", parent=small4, fontSize=8, leading=9.5)
W4, H4 = A4
GUT, LM, RM = 8 * mm, 18 * mm, 18 * mm
CW = (W4 - LM - RM - GUT) / 2
first_frames = [Frame(LM, 34 * mm, CW, H4 - 34 * mm - 58 * mm, id="p1c1", leftPadding=0, rightPadding=0),
                Frame(LM + CW + GUT, 34 * mm, CW, H4 - 34 * mm - 58 * mm, id="p1c2", leftPadding=0, rightPadding=0)]
later_frames = [Frame(LM, 20 * mm, CW, H4 - 20 * mm - 24 * mm, id="c1", leftPadding=0, rightPadding=0),
                Frame(LM + CW + GUT, 20 * mm, CW, H4 - 20 * mm - 24 * mm, id="c2", leftPadding=0, rightPadding=0)]


def page_first(canvas, doc_):
    canvas.saveState()
    canvas.setFillColor(colors.HexColor("#1B4F72"))
    canvas.rect(0, H4 - 34 * mm, W4, 34 * mm, stroke=0, fill=1)
    canvas.setFillColor(colors.white)
    canvas.setFont("Helvetica-Bold", 20)
    canvas.drawString(LM, H4 - 17 * mm, "Management letter - Q2 2025")
    canvas.setFont("Helvetica", 10)
    canvas.drawString(LM, H4 - 25 * mm, "Scheldeveld Foodservice NV | To all staff and the Supervisory Board")
    canvas.setFillColor(colors.black)
    canvas.setFont("Helvetica-Oblique", 9)
    canvas.drawString(LM, H4 - 44 * mm, "Ghent, 15 July 2025 - from Els Verhaegen, Chief Executive Officer")
    canvas.setLineWidth(0.4)
    canvas.line(LM, 31 * mm, LM + 45 * mm, 31 * mm)
    fn = Paragraph("<super>1</super> " + S4_FN + " Lines delivered late at the customer's request are "
                   "counted as on time.", small4)
    w_, h_ = fn.wrap(W4 - LM - RM, 20 * mm)
    fn.drawOn(canvas, LM, 29 * mm - h_)
    canvas.restoreState()
    page_footer(canvas, doc_)


def page_footer(canvas, doc_):
    canvas.saveState()
    canvas.setFont("Helvetica", 7.5)
    canvas.drawString(LM, 10 * mm, "Scheldeveld Foodservice NV - Management letter Q2 2025 - internal")
    canvas.drawRightString(W4 - RM, 10 * mm, f"{doc_.page}")
    canvas.restoreState()


def page_later(canvas, doc_):
    canvas.saveState()
    canvas.setFont("Helvetica-Bold", 8)
    canvas.setFillColor(colors.HexColor("#1B4F72"))
    canvas.drawString(LM, H4 - 14 * mm, "MANAGEMENT LETTER Q2 2025")
    canvas.setLineWidth(0.4)
    canvas.line(LM, H4 - 16 * mm, W4 - RM, H4 - 16 * mm)
    canvas.restoreState()
    page_footer(canvas, doc_)


doc4 = BaseDocTemplate(p(F4), pagesize=A4, invariant=1, title="Management letter Q2 2025",
                       author="Els Verhaegen", subject="Scheldeveld Foodservice quarterly management letter",
                       leftMargin=LM, rightMargin=RM, topMargin=24 * mm, bottomMargin=20 * mm)
doc4.addPageTemplates([PageTemplate(id="first", frames=first_frames, onPage=page_first),
                       PageTemplate(id="later", frames=later_frames, onPage=page_later)])
P4 = lambda t: Paragraph(t, body4)
Hd4 = lambda t: Paragraph(t, h4)
tdata = [[Paragraph("<b>Key figures</b>", cell4), Paragraph("<b>Q2 2025</b>", cell4),
          Paragraph("<b>Q2 2024</b>", cell4)]]
for k, a, b in key4:
    tdata.append([Paragraph(k, cell4), a, b])
tbl4 = Table(tdata, colWidths=[CW * 0.52, CW * 0.24, CW * 0.24])
tbl4.setStyle(TableStyle([
    ("FONT", (1, 1), (-1, -1), "Helvetica", 8),
    ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ("LINEABOVE", (0, 0), (-1, 0), 0.8, colors.HexColor("#1B4F72")),
    ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.HexColor("#1B4F72")),
    ("LINEBELOW", (0, -1), (-1, -1), 0.8, colors.HexColor("#1B4F72")),
    ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#EAF2F8")]),
]))
story4 = [NextPageTemplate("later"),
          P4("Dear colleagues,"),
          P4("The second quarter was a good one for Scheldeveld. We delivered more cases than ever before in a "
             "spring quarter, our customers in hospitality had their busiest Easter and Whitsun since 2019, and "
             "the new healthcare contracts we won last winter are now fully running. Thank you to everyone in the "
             "depots, on the road and in the offices for making that possible."),
          Hd4("Trading in the second quarter"),
          P4(f"Net revenue for the quarter was EUR {rev25:.1f} million, 6.4% more than in the same quarter last "
             "year. About half of the growth came from volume and half from price, mainly in dairy and fresh meat, "
             "where our suppliers passed on higher costs in March. Gross margin improved to 21.8% because we bought "
             "better in fruit and vegetables and because fewer products were written off at their use-by date."),
          P4("Hotels and restaurants grew fastest, helped by good weather in May and by the long weekends. "
             "Healthcare and education were stable, as expected: their volumes are set by contract and change "
             "only when a new tender starts. The Dutch depots grew faster than the Belgian ones, with Utrecht "
             "up by a fifth on the back of two new hotel groups."),
          Spacer(1, 3), tbl4,
          Paragraph("Table: key figures for the quarter compared with Q2 2024.", small4),
          Spacer(1, 4),
          FrameBreak(),
          Hd4("Customers"),
          P4("We signed a four-year supply agreement with the Rivierland Hospital Group, which runs four sites "
             "around Mechelen and serves around 6,000 patient meals a day. Deliveries started on 2 June from "
             "Antwerp. We also renewed the contracts with the Ghent university restaurants for another three "
             "years, with a new clause on locally grown vegetables."),
          P4("We lost one significant account: a hotel chain in Brussels moved its purchasing to a national "
             "buying group in April. The volume was modest, but it reminds us that service alone does not keep "
             "a customer when the buying decision moves to a head office."),
          Hd4("Network"),
          P4(S4_BREDA + " The site has 24 dock doors, a frozen hall and a small fresh-cut area, and it will "
             "take over all Dutch deliveries that are now loaded in Breda's old building on the Minervum."),
          P4("The move will be done in two weekends so that no customer loses a delivery day. Jasper de Wit, our "
             "depot manager in Breda, leads the project together with the IT team, which has to set up the new "
             "scanners and the dock door sensors before the first trucks are loaded."),
          P4("In Brussels, the low emission zone rules tighten again on 1 January 2026. All our Brussels trucks "
             "already meet them, but two subcontracted vans do not, and we have asked the haulier to replace "
             "them before the end of the year."),
          Hd4("Cold chain and quality"),
          P4(f"The number of temperature excursions fell from 63 in Q2 2024 to {sum(EXC['Q2 2025'])} this "
             "quarter. The biggest improvement was in Brussels, where the door alarms fitted in March have cut "
             "the time doors stand open during city deliveries. We did have one serious incident: on 19 June a "
             "reefer unit failed on a Ghent truck, and part of the load had to be destroyed. The incident report "
             "has been shared with all depots and the lessons are being applied across the fleet."),
          P4("The FAVV-AFSCA inspection in Ghent in May and the NVWA visit in Utrecht in June both closed without "
             "major findings. Our BRC Storage and Distribution certificate was renewed with an AA grade."),
          Hd4("Energy and sustainability"),
          P4(S4_ENERGY + " The plant replaces an old installation that used synthetic refrigerants, and it "
             "recovers heat for the offices and the truck wash."),
          P4("Solar panels on the Ghent roof produced 412 MWh in the first half of the year, about 18% of the "
             "depot's own electricity use. We plan the same for Utrecht once the roof has been renovated."),
          Hd4("People"),
          P4("We welcomed 31 new colleagues during the quarter, most of them drivers and order pickers for the "
             "summer season. Absence due to illness was 5.2%, down from 6.0% a year ago, and there were two "
             "lost-time accidents in the warehouses, both minor. Every accident is one too many, and the safety "
             "walks by depot managers will continue every week."),
          P4("The driver academy in Antwerp trained its first group of twelve drivers for the C licence. Nine of "
             "them have already passed, and all of them will join our own fleet."),
          Hd4("Depot round-up"),
          P4("<b>Ghent.</b> The second picking shift for the coast routes started in May and will run until "
             "the end of September. The depot also took over the picking of bakery products for Brussels, which "
             "frees space in the Brussels frozen hall for the summer ice cream stock."),
          P4("<b>Antwerp.</b> Apart from the new refrigeration plant, the depot rebuilt four dock levellers and "
             "added two dock shelters on the chilled side. The Rivierland volumes are loaded on a separate wave "
             "so that hospital kitchens receive their goods before 07:00."),
          P4("<b>Brussels.</b> City routes were re-planned around the new pedestrian zones in the centre, "
             "which added a second van to the Sablon area. Customer complaints about late deliveries halved "
             "compared with the first quarter."),
          P4("<b>Breda.</b> While the team prepares the move, the old building is running at full capacity. "
             "Part of the Zeeland volume is carried by our transport partner Frigoroute, under the service level "
             "agreement signed in the spring."),
          P4("<b>Utrecht.</b> The depot passed 100 hotel and restaurant customers for the first time. A third "
             "route to the Gooi area is being tested in July and August, when many of those customers are at "
             "their busiest."),
          Hd4("Customer service portal"),
          P4("The new portal replaces the old web shop and the separate credit note forms. Customers will be "
             "able to see their order history, download invoices and delivery notes, report a missing or damaged "
             "case with a photo, and follow their truck on the day of delivery. Key accounts will move first, "
             "from 15 September, followed by all other customers in October."),
          P4("Customer service has tested the portal with twenty customers since May. Their main request was a "
             "simpler way to repeat last week's order, and that has been added. Please encourage customers to "
             "use the portal when they call; every call we save gives the team more time for the problems that "
             "really need a person."),
          Hd4("Outlook"),
          P4("The third quarter is normally our quietest in healthcare and education and our busiest on the "
             "coast. We expect revenue to grow at about the same rate as in the second quarter. The main risks "
             "are dairy prices, which are rising again, and the availability of drivers during the holidays."),
          P4("The Supervisory Board will discuss the budget for 2026 in October. Before then, each depot manager "
             "will present a plan for the Breda move, the cold chain actions and the new customer service "
             "portal, which goes live in September."),
          P4("Thank you again for your work this quarter. I look forward to seeing many of you at the summer "
             "barbecues in the depots."),
          P4("Els Verhaegen<br/>Chief Executive Officer")]
doc4.build(story4)

# ============ File 5: PPTX cold chain review H1 2025 (native chart) ===========
from pptx import Presentation
from pptx.util import Inches, Pt as PPt
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE, XL_LEGEND_POSITION
F5 = "cold_chain_review_H1_2025.pptx"
fleet5 = [("TR-03", "Ghent", "Chilled, 18 pallets", "Thermo King T-1000R", "6,420", "4 Aug 2025"),
          ("TR-05", "Ghent", "Frozen, 16 pallets", "Carrier Supra 1250", "8,915", "21 Jul 2025"),
          ("TR-07", "Antwerp", "Chilled, 18 pallets", "Thermo King T-1000R", "3,180", "15 Sep 2025"),
          ("TR-08", "Antwerp", "Multi-temp, 16 pallets", "Carrier Supra 1150 Mt", "9,870", "12 Aug 2025"),
          ("TR-11", "Brussels", "Chilled, 12 pallets", "Thermo King T-800R", "5,240", "29 Jul 2025"),
          ("TR-12", "Ghent", "Chilled, 18 pallets", "Thermo King T-1000R", "410", "Unit replaced 20 Jun 2025"),
          ("TR-14", "Breda", "Frozen, 16 pallets", "Carrier Supra 1250", "2,760", "3 Nov 2025"),
          ("TR-15", "Utrecht", "Chilled, 12 pallets", "Thermo King T-800R", "7,055", "18 Aug 2025")]
df5 = pd.DataFrame(fleet5, columns=["Truck", "Depot", "Body", "Unit", "Hours", "Next"])
S5_NOTES = ("Our insurer has made completion of the door-alarm retrofit on every truck a condition for renewing "
            "the fleet policy on 1 January 2026.")
S5_SMS = "Drivers who leave the reefer door open for more than 3 minutes now get an automatic SMS alert"
prs = stamped(Presentation(), FIXED_DT, author="Transport & Quality",
              title="Cold chain review H1 2025")
s = add_slide(prs, 0, "Cold chain review H1 2025", "Transport & Quality | Operations meeting, 8 July 2025")
s = add_slide(prs, 5, "Temperature excursions per depot")
cd = CategoryChartData()
cd.categories = DEPOTS
for qn, vals in EXC.items():
    cd.add_series(qn, vals, number_format="0")
gf = s.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(0.5), Inches(1.5), Inches(9), Inches(4.6), cd)
ch = gf.chart
ch.has_legend = True
ch.legend.position = XL_LEGEND_POSITION.BOTTOM
ch.legend.include_in_layout = False
ch.plots[0].has_data_labels = True
ch.plots[0].data_labels.font.size = PPt(11)
ch.value_axis.has_major_gridlines = False
tx = s.shapes.add_textbox(Inches(0.5), Inches(6.2), Inches(9), Inches(0.5))
tx.text_frame.text = "Excursion: logger air temperature outside the compartment's range for more than 15 minutes."
notes(s, "Brussels improved most once the door alarms went in at the end of March. Utrecht went the other way "
         "because of the new hotel routes with many short drops.")
s = add_slide(prs, 1, "What drove the excursions")
bullets(s, ["Doors open too long at drops",
            (1, "Two thirds of all excursions started at a drop, not on the road"),
            (1, "Worst on city routes with many small deliveries"),
            "Trucks loaded before the box had cooled down",
            (1, "Pre-cool check now part of the yard app"),
            "One reefer failure: TR-12 on 19 June (incident IR-2025-031)",
            (1, "Load partly destroyed; see the incident report")])
s = add_slide(prs, 5, "Reefer fleet status")
slide_table(s, ["Truck", "Depot", "Body", "Reefer unit", "Unit hours", "Next service"],
            [[r.Truck, r.Depot, r.Body, r.Unit, r.Hours, r.Next] for r in df5.itertuples()],
            (Inches(0.3), Inches(1.5), Inches(9.4), Inches(4.2)), 12)
tx = s.shapes.add_textbox(Inches(0.3), Inches(6.0), Inches(9.4), Inches(0.5))
tx.text_frame.text = "Reefer services are done by the unit dealer every 1,500 engine hours or 12 months."
s = add_slide(prs, 1, "Actions for H2 2025")
bullets(s, ["Door alarms fitted on 23 of 41 trucks",
            (1, "Remaining 18 trucks by the end of October"),
            (1, S5_SMS),
            "Pre-cool check before loading",
            (1, "Yard app blocks the loading sheet until the set point is reached"),
            "Cab display alarms can no longer be muted by the driver",
            (1, "Dealer changes the setting at each truck's next service")])
notes(s, S5_NOTES + " So the end of October date for the last 18 trucks is not just our own target.")
s = add_slide(prs, 1, "Asks for the operations meeting")
bullets(s, ["Approve the door-alarm budget for the remaining 18 trucks",
            "Agree that depot managers review excursions weekly with the transport planner",
            "Owner: Hannelore Peeters, Transport & Quality"])
save_doc(prs, p(F5), FIXED_DT)

# ============ File 6: HTML intranet page, delivery windows (rowspan/colspan) ==
F6 = "intranet_delivery_windows_and_cut-off_times.html"
routes6 = [("Ghent", "Ghent city", "Mon-Sat", "22:00 D-1", "15:00 D-1", "06:00-11:00"),
           ("Ghent", "Meetjesland and Waasland", "Mon-Fri", "20:00 D-1", "15:00 D-1", "07:00-13:00"),
           ("Ghent", "Coast (Ostend-Knokke)", "Tue, Thu, Sat", "18:00 D-1", "11:30 D-1", "08:00-14:00"),
           ("Antwerp", "Antwerp city and port", "Mon-Sat", "22:00 D-1", "15:00 D-1", "06:00-11:00"),
           ("Antwerp", "Kempen", "Mon, Wed, Fri", "19:00 D-1", "14:00 D-1", "07:30-13:30"),
           ("Antwerp", "Mechelen and Lier", "Mon-Fri", "21:00 D-1", "15:00 D-1", "06:30-12:00"),
           ("Brussels", "Brussels-Capital Region", "Mon-Sat", "21:00 D-1", "14:00 D-1", "05:00-10:00"),
           ("Brussels", "Flemish and Walloon Brabant", "Mon-Fri", "20:00 D-1", "14:00 D-1", "07:00-13:00"),
           ("Breda", "Breda and West-Brabant", "Mon-Sat", "21:00 D-1", "14:00 D-1", "06:00-11:30"),
           ("Breda", "Zeeland", "Tue, Fri", "17:00 D-1", "12:00 D-1", "08:30-14:30"),
           ("Utrecht", "Utrecht city", "Mon-Sat", "22:00 D-1", "15:00 D-1", "06:00-11:00"),
           ("Utrecht", "Gooi and Vecht", "Mon, Wed, Fri", "20:00 D-1", "14:00 D-1", "07:00-12:30")]
df6 = pd.DataFrame(routes6, columns=["Depot", "Route", "Days", "CutChilled", "CutFrozen", "Window"])
S6_SAT = "Saturday deliveries: chilled and ambient orders must be in by Friday 12:00, whatever the route."
S6_EMERG = ("Customers who miss the cut-off can still order through the emergency line, 09 241 77 30, for a fixed "
            "fee of EUR 35.")
trs = []
for dep in DEPOTS:
    sub = df6[df6.Depot == dep]
    for k, r in enumerate(sub.itertuples()):
        first_cell = f'<th scope="rowgroup" rowspan="{len(sub)}">{dep}</th>' if k == 0 else ""
        trs.append(f"        <tr>{first_cell}<td>{r.Route}</td><td>{r.Days}</td><td>{r.CutChilled}</td>"
                   f"<td>{r.CutFrozen}</td><td>{r.Window}</td></tr>")
trs.append('        <tr><td colspan="6" class="note">Public holidays: no deliveries; orders move to the next '
           'delivery day on the same route.</td></tr>')
rows_html = "\n".join(trs)
html6 = f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Delivery windows and order cut-off times - Scheldeveld intranet</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <style>
    body {{ font-family: "Segoe UI", Arial, sans-serif; margin: 0; color: #222; }}
    header.site {{ background: #1b4f72; color: #fff; padding: 10px 20px; }}
    header.site a {{ color: #fff; margin-right: 16px; text-decoration: none; font-size: 14px; }}
    nav.crumbs {{ padding: 8px 20px; font-size: 12px; color: #666; }}
    main {{ padding: 0 20px 30px 20px; max-width: 1050px; }}
    table.routes {{ border-collapse: collapse; margin: 12px 0; }}
    table.routes th, table.routes td {{ border: 1px solid #aab7c4; padding: 5px 9px; font-size: 14px; }}
    table.routes thead th {{ background: #eaf2f8; }}
    td.note {{ font-style: italic; background: #fafafa; }}
    aside.related {{ border-left: 3px solid #1b4f72; padding: 4px 12px; margin: 18px 0; font-size: 13px; }}
    footer {{ border-top: 1px solid #ccc; padding: 10px 20px; font-size: 12px; color: #666; }}
  </style>
</head>
<body>
  <header class="site">
    <a href="/sites/intranet/">Scheldeveld intranet</a>
    <a href="/sites/intranet/news/">News</a>
    <a href="/sites/customer-service/">Customer service</a>
    <a href="/sites/operations/">Operations</a>
    <a href="/sites/hr/">HR</a>
    <a href="/sites/intranet/search/">Search</a>
  </header>
  <nav class="crumbs" aria-label="breadcrumb">
    <a href="/sites/intranet/">Home</a> &gt; <a href="/sites/customer-service/">Customer service</a> &gt;
    Delivery windows and order cut-off times
  </nav>
  <main>
    <h1>Delivery windows and order cut-off times</h1>
    <p>This page is the reference for customer service when a customer asks by when an order has to be placed
    and at what time the truck will arrive. The times below apply to all key accounts and to web shop orders.
    D-1 means the working day before the delivery day.</p>
    <h2>Routes per depot</h2>
    <table class="routes">
      <thead>
        <tr><th rowspan="2">Depot</th><th rowspan="2">Route</th><th rowspan="2">Delivery days</th>
            <th colspan="2">Order cut-off</th><th rowspan="2">Delivery window</th></tr>
        <tr><th>Chilled and ambient</th><th>Frozen</th></tr>
      </thead>
      <tbody>
{rows_html}
      </tbody>
    </table>
    <h2>Exceptions</h2>
    <ul>
      <li>{S6_SAT}</li>
      <li>Deliveries inside the Brussels low emission zone are made by Euro 6 trucks only; the window cannot be
      moved earlier than 05:00.</li>
      <li>Customers on the coast route get one extra delivery day (Wednesday) in July and August.</li>
    </ul>
    <h2>Late orders</h2>
    <p>{S6_EMERG} Emergency orders are delivered by van on the same day if the depot confirms stock before
    11:00.</p>
    <aside class="related">
      <strong>Related pages:</strong>
      <a href="/sites/customer-service/returns/">Returns and credit notes</a> |
      <a href="/sites/customer-service/webshop/">Web shop help</a> |
      <a href="/sites/operations/depots/">Depot addresses</a>
    </aside>
  </main>
  <footer>
    Page owner: Customer Service Manager (Nathalie Desmet). Last modified 2 July 2025.
    &copy; Scheldeveld Foodservice NV - internal use only.
    <a href="/sites/intranet/privacy/">Privacy</a> | <a href="/sites/intranet/help/">Help</a>
  </footer>
</body>
</html>
"""
write_text(p(F6), html6)

# ============ File 7: DOCX refrigerated transport SLA ==========================
from docx import Document
from docx.shared import Pt, Cm
F7 = "SLA_Frigoroute_Logistics_Scheldeveld_2025.docx"
kv7 = [("Agreement reference", "SLA-2025-014"),
       ("Service Provider", "Frigoroute Logistics BV, Tilburg (Chamber of Commerce no. 58213467)"),
       ("Customer", "Scheldeveld Foodservice NV, Ghent (enterprise no. BE 0448.213.906)"),
       ("Commencement Date", "1 April 2025"),
       ("Initial term", "24 months"),
       ("Notice period", "6 months, in writing, before the end of the term"),
       ("Routes covered", "Zeeland; Gooi and Vecht; overflow for Breda and West-Brabant"),
       ("Vehicles committed", "9 rigid trucks with dual-temperature bodies and data loggers"),
       ("Rates", "EUR 1.42 per loaded km plus EUR 38.00 per drop, indexed each 1 January"),
       ("Payment terms", "45 days end of month"),
       ("Contract managers", "Ruud Verschuren (Service Provider); Hannelore Peeters (Customer)")]
S7_NOTE = ("Note: for the first three months after the Commencement Date, the on-time delivery target in "
           "clause 3.1 is 95%.")
S7_LOGS = ("5.2 The Service Provider shall keep the logger data for each trip for at least 13 months and make it "
           "available to the Customer within 24 hours of a request.")
S7_CAP = ("6.2 The Service Provider's total liability for loss of or damage to goods shall not exceed EUR 250,000 "
          "per event.")
d7 = stamped(Document(), FIXED_DT, author="Legal - Scheldeveld Foodservice",
             title="Service Level Agreement - Refrigerated transport")
d7.styles["Normal"].font.size = Pt(10.5)
d7.add_heading("Service Level Agreement: Refrigerated Transport", 0)
d7.add_paragraph("between Frigoroute Logistics BV and Scheldeveld Foodservice NV")
kt = d7.add_table(rows=len(kv7), cols=2)
kt.style = "Table Grid"
for i, (k, v) in enumerate(kv7):
    kt.cell(i, 0).text = k
    kt.cell(i, 1).text = v
    for r_ in kt.cell(i, 0).paragraphs[0].runs:
        r_.bold = True
    kt.cell(i, 0).width = Cm(4.5)
    kt.cell(i, 1).width = Cm(11.5)
d7.add_paragraph("")
CL = lambda t: d7.add_heading(t, 1)
SC = lambda t: d7.add_paragraph(t)
CL("1. Definitions")
SC("1.1 \"Delivery Window\" means the time window agreed with each end customer and published in the Customer's "
   "route schedule.")
SC("1.2 \"Drop\" means one delivery stop at one end customer's address, whatever the number of pallets or cases.")
SC("1.3 \"Temperature Excursion\" means any period of more than 15 consecutive minutes during which the logged air "
   "temperature in a load compartment is outside the range set for that compartment.")
SC("1.4 \"Working Day\" means Monday to Friday, excluding public holidays in the Netherlands.")
CL("2. Services")
SC("2.1 The Service Provider shall collect loaded trailers or loose pallets at the Customer's Breda depot and "
   "deliver them to the Customer's end customers on the routes listed in the table above.")
SC("2.2 The Service Provider shall provide drivers who have completed the Customer's cold chain and food "
   "hygiene induction before their first route, and shall keep a record of that training.")
SC("2.3 The Service Provider shall not subcontract any route without the Customer's prior written consent.")
SC("2.4 Returned goods, crates and pallets shall be brought back to the Breda depot on the same day and handed "
   "over with the driver's return slip.")
CL("3. Service levels")
SC("3.1 At least 97.5% of Drops in each calendar month shall be delivered within the Delivery Window.")
d7.add_paragraph(S7_NOTE).runs[0].italic = True
SC("3.2 At least 99.5% of trips in each calendar month shall be completed without a Temperature Excursion.")
SC("3.3 Signed proof of delivery shall be uploaded to the Customer's transport portal within 2 hours of each Drop.")
SC("3.4 The Service Provider shall send a monthly service report by the fifth Working Day of the following month, "
   "covering on-time delivery, Temperature Excursions, damages and complaints.")
CL("4. Service credits")
SC("4.1 For each full percentage point by which on-time delivery falls below the target in clause 3.1, the "
   "Service Provider shall credit 2% of the charges for that month.")
SC("4.2 For each trip with a Temperature Excursion above the level allowed by clause 3.2, the Service Provider "
   "shall credit the charges for that trip in full.")
SC("4.3 Service credits in any month shall not exceed 10% of the charges for that month.")
SC("4.4 Service credits are without prejudice to the Customer's other rights under this Agreement.")
CL("5. Temperature monitoring")
SC("5.1 Every vehicle shall carry a calibrated data logger for each load compartment that records the air "
   "temperature at least every 5 minutes.")
SC(S7_LOGS)
SC("5.3 The Customer may refuse or destroy any goods that have suffered a Temperature Excursion, and the "
   "Service Provider shall bear the cost of those goods subject to clause 6.")
CL("6. Liability and insurance")
SC("6.1 The Service Provider is liable for loss of or damage to goods from collection until delivery, in "
   "accordance with the CMR Convention where it applies.")
SC(S7_CAP)
SC("6.3 The Service Provider shall hold goods-in-transit insurance covering at least the amount in clause 6.2 "
   "and shall provide a copy of the certificate each year.")
CL("7. Term and termination")
SC("7.1 This Agreement starts on the Commencement Date and runs for the initial term, after which it continues "
   "for successive periods of 12 months unless terminated with the notice period stated in the table above.")
SC("7.2 The Customer may terminate this Agreement with immediate effect if on-time delivery is below 92% for "
   "three consecutive months.")
SC("7.3 Either party may terminate this Agreement with immediate effect if the other party becomes insolvent.")
CL("8. Governing law")
SC("8.1 This Agreement is governed by Belgian law. Disputes shall be submitted to the courts of Ghent.")
d7.add_paragraph("")
d7.add_paragraph("Signed for Frigoroute Logistics BV: ______________________    Date: ____________")
d7.add_paragraph("Signed for Scheldeveld Foodservice NV: ______________________    Date: ____________")
save_doc(d7, p(F7), FIXED_DT)

# ============ File 8: Jupyter notebook, receivables ageing analysis ===========
F8 = "AR_ageing_key_accounts_2025-06.ipynb"
dso_seg = {"Healthcare": 51, "Education": 43, "Catering": 38, "Hotel": 34, "Horeca": 30}
ar_rows = []
for c in CUST.itertuples():
    bal = round(float(rng.uniform(6000, 48000)) * (1.4 if c.Segment == "Healthcare" else 1.0), 2)
    dso = round(dso_seg[c.Segment] + float(rng.normal(0, 4)), 1)
    late = min(0.85, max(0.05, (dso - 25) / 45))
    split = rng.dirichlet([4, 3, 2, 1]) * late
    b90 = round(bal * float(split[3]), 2) if c.Name not in ("Hotel Domstad", "Lunchbar Kaai 16") else 0.0
    b61 = round(bal * float(split[2]), 2)
    b31 = round(bal * float(split[1]), 2)
    b1 = round(bal * float(split[0]), 2)
    nd = round(bal - b1 - b31 - b61 - b90, 2)
    ar_rows.append({"customer_no": c.No, "customer": c.Name, "segment": c.Segment, "not_due": nd,
                    "d1_30": b1, "d31_60": b31, "d61_90": b61, "d90_plus": b90, "balance": round(bal, 2),
                    "dso_days": dso})
ar = pd.DataFrame(ar_rows)
ar.loc[ar.customer == "Zorgcentrum De Linde", ["d61_90", "d90_plus"]] += [2150.0, 3875.4]
ar.loc[ar.customer == "Zorgcentrum De Linde", "balance"] += 2150.0 + 3875.4
ar.loc[ar.customer == "Restaurant Sablon Doré", "d90_plus"] += 2960.15
ar.loc[ar.customer == "Restaurant Sablon Doré", "balance"] += 2960.15
ar["balance"] = ar["balance"].round(2)
ar["overdue_60_plus"] = (ar.d61_90 + ar.d90_plus).round(2)
seg8 = ar.groupby("segment").agg(accounts=("customer", "count"), open_balance=("balance", "sum"),
                                 overdue_60_plus=("overdue_60_plus", "sum"), avg_dso=("dso_days", "mean"))
seg8 = seg8.round({"open_balance": 2, "overdue_60_plus": 2, "avg_dso": 1}).sort_values("avg_dso", ascending=False)
assert seg8.index[0] == "Healthcare" and seg8.avg_dso.iloc[0] > seg8.avg_dso.iloc[1]
top8 = (ar.sort_values("overdue_60_plus", ascending=False).head(8)
        [["customer", "segment", "d61_90", "d90_plus", "overdue_60_plus", "dso_days"]].reset_index(drop=True))
tot8 = round(float(ar.balance.sum()), 2)
o60_8 = round(float(ar.overdue_60_plus.sum()), 2)
hz = float(seg8.loc["Horeca", "avg_dso"])
hh = float(seg8.loc["Healthcare", "avg_dso"])
S8_HEALTH = (f"Healthcare accounts take the longest to pay, with an average DSO of {hh:.1f} days against {hz:.1f} "
             "days for Horeca.")
S8_WO = ("Write-offs in the first half of 2025 came to EUR 18,430, mostly from two restaurants that went bankrupt "
         "in March.")
S8_REC = "Recommendation: move Zorgcentrum De Linde to weekly direct debit from 1 September 2025."
assert "Zorgcentrum De Linde" in set(top8.customer) and "Restaurant Sablon Doré" in set(top8.customer)


with pd.option_context("display.width", 120, "display.max_columns", 20):
    seg_txt = seg8.to_string() + "\n"
    top_plain = top8.to_string()
top_html = ('<div>\n<style scoped>\n    .dataframe tbody tr th:only-of-type {\n        vertical-align: middle;\n    }\n'
            '</style>\n' + top8.to_html() + "\n</div>")
cells8 = [
    md_cell("a1f0c2d3", "# Key accounts: receivables ageing at 30 June 2025\n\n"
            "Analysis for the credit committee of 10 July. Source: AR ageing report from the ERP (customer ledger, "
            "open items at 30 June 2025), key accounts only. Prepared by Wouter Lambrecht, Finance."),
    md_cell("a1f0c2d4", "## Findings\n\n"
            f"- Total open receivables for the key accounts on 30 June 2025 were EUR {tot8:,.2f}, of which EUR "
            f"{o60_8:,.2f} is more than 60 days past due.\n"
            f"- {S8_HEALTH} Their payment runs are monthly, so invoices that miss a run wait another four weeks.\n"
            f"- {S8_WO} Both were Brussels accounts and neither had a personal guarantee.\n"
            "- Overdue amounts are concentrated: the eight accounts in the table below hold "
            f"{top8.overdue_60_plus.sum() / o60_8:.0%} of the balance over 60 days.\n\n"
            f"{S8_REC} Restaurant Sablon Doré should go on pro-forma terms until its balance over 90 days is cleared."),
    code_cell("b2e1d3c4", 1, "import pandas as pd\n\n"
              "ar = pd.read_excel('AR_ageing_2025-06-30.xlsx', sheet_name='key accounts')\n"
              "ar['overdue_60_plus'] = ar['d61_90'] + ar['d90_plus']\n"
              "ar.shape", [result(1, {"text/plain": f"({len(ar)}, {ar.shape[1]})"})]),
    md_cell("a1f0c2d5", "### Ageing and DSO by segment\n\nDSO is the customer's days sales outstanding over the "
            "last three months (count-back method)."),
    code_cell("b2e1d3c5", 2, "seg = (ar.groupby('segment')\n"
              "         .agg(accounts=('customer', 'count'), open_balance=('balance', 'sum'),\n"
              "              overdue_60_plus=('overdue_60_plus', 'sum'), avg_dso=('dso_days', 'mean'))\n"
              "         .round({'open_balance': 2, 'overdue_60_plus': 2, 'avg_dso': 1})\n"
              "         .sort_values('avg_dso', ascending=False))\n"
              "print(seg)", [stream(seg_txt)]),
    md_cell("a1f0c2d6", "### Accounts with the most overdue over 60 days"),
    code_cell("b2e1d3c6", 3, "top = (ar.sort_values('overdue_60_plus', ascending=False).head(8)\n"
              "       [['customer', 'segment', 'd61_90', 'd90_plus', 'overdue_60_plus', 'dso_days']]\n"
              "       .reset_index(drop=True))\n"
              "top", [result(3, {"text/html": top_html, "text/plain": top_plain})]),
    md_cell("a1f0c2d7", "### Next steps\n\n"
            "- Share the table with the account managers before the credit committee.\n"
            "- Re-run after the July payment runs of the hospitals."),
    code_cell("b2e1d3c7", None, "", []),
]
nb8 = notebook(cells8, "3.11.9")
write_json(p(F8), nb8, indent=1)

# ============ File 9: Parquet reefer logger readings ==========================
F9 = "reefer_logger_readings_2025-06-16_to_19.parquet"
trucks9 = {"TR-03": ("Ghent", 3.0, 0.15), "TR-05": ("Ghent", -20.0, 0.12), "TR-07": ("Antwerp", 3.0, 0.14),
           "TR-08": ("Antwerp", 2.0, 0.16), "TR-11": ("Brussels", 3.0, 0.30), "TR-12": ("Ghent", 3.0, 0.15),
           "TR-14": ("Breda", -20.0, 0.10), "TR-15": ("Utrecht", 4.0, 0.22)}
tr12_19 = [(2.9, False), (3.1, False), (3.4, True), (3.0, False), (3.2, False), (3.6, False), (5.4, False),
           (7.3, False), (8.6, True), (9.5, False), (10.6, False), (11.4, False), (11.1, True), (10.2, False),
           (9.8, False), (9.1, False)]
rows9 = []
for day in pd.date_range("2025-06-16", "2025-06-19", freq="D"):
    for tr, (dep, sp, pdoor) in trucks9.items():
        drift = float(rng.normal(0, 0.3))
        for k in range(16):
            ts = day + pd.Timedelta(hours=5) + pd.Timedelta(minutes=30 * k)
            if tr == "TR-12" and day == pd.Timestamp("2025-06-19"):
                t_, door = tr12_19[k]
            else:
                door = bool(k > 1 and rng.random() < pdoor)
                bump = (float(rng.uniform(1.5, 3.6)) if sp > 0 else float(rng.uniform(2.5, 5.0))) if door else 0.0
                t_ = round(sp + drift + float(rng.normal(0, 0.45)) + bump, 1)
            rows9.append({"truck_id": tr, "depot": dep, "recorded_at": ts, "temp_c": t_, "setpoint_c": sp,
                          "door_open": door})
df9 = pd.DataFrame(rows9)
df9["recorded_at"] = df9["recorded_at"].astype("datetime64[ms]")
df9.to_parquet(p(F9), engine="pyarrow", index=False, compression="snappy")

# ============ File 10: Markdown incident report with nested lists ==============
F10 = "incident_report_IR-2025-031_TR-12_reefer_failure.md"
S10_MUTE = "The driver noticed the alarm only at the fourth drop, in Aalst, because the cab display had been muted."
S10_MINCE = "14 cases of minced beef: core temperature 9.1 °C, destroyed"
S10_CAUSE = ("The compressor clutch relay on the Thermo King unit had failed, so the compressor stopped while the "
             "evaporator fans kept running.")
md10 = f"""# Incident report IR-2025-031: reefer failure on TR-12

| | |
|---|---|
| **Date** | Thursday 19 June 2025 |
| **Depot / route** | Ghent, route G-07 (Aalst and Dendermonde) |
| **Vehicle** | TR-12, DAF XD rigid, Thermo King T-1000R reefer unit |
| **Reported by** | Kevin Maes (driver), Sofie Van Damme (QA Manager) |
| **Status** | Closed on 27 June 2025 |

## Summary

The reefer unit on TR-12 stopped cooling at about 07:40, after the truck had left Ghent with a full chilled load
for 19 drops. {S10_MUTE} By then the logger showed the box above 7 °C. The truck returned to Ghent, the remaining
load was quarantined and the QA Manager decided on each product.

## Timeline

- 05:10 TR-12 leaves the Ghent depot; pre-cool check on the loading sheet shows 2.8 °C
- 06:00 to 07:30 first three drops delivered in Ghent and Merelbeke, doors closed between drops
- 07:40 reefer unit alarm on the cab display (not seen: display muted)
- 08:55 driver sees the alarm at the fourth drop, in Aalst, and calls the transport planner
  - planner tells the driver to stop delivering and return to Ghent
  - customers on the rest of the route are called by customer service
- 10:45 truck back at Ghent; load moved to cold store 2 and blocked in the warehouse system
- 13:30 QA decision on all products (see below)

## Product affected

- Delivered before the failure was noticed: 3 drops, no complaints received
- Quarantined and assessed by QA:
  - Meat
    - {S10_MINCE}
    - 9 cases of chicken fillet: core temperature 6.8 °C, destroyed (poultry limit exceeded for more than two hours)
  - Dairy and ready meals
    - 23 cases released after probing between 5.9 °C and 6.6 °C
    - 4 cases of fresh cream destroyed because the packaging was wet
  - Fruit and vegetables: all released
- Replacement deliveries made in the afternoon by TR-03 and a rental van

## Root cause

{S10_CAUSE} The unit's alarm worked, but the cab display had been muted after a false alarm on 12 June and had not
been switched back on.

## Actions

1. Immediate
   - Reefer unit replaced by the dealer on 20 June 2025
   - All Ghent drivers reminded that the cab display must never be muted
2. Preventive
   - Cab display alarms locked so that drivers cannot mute them
     - setting changed by the dealer at each truck's next service
     - Ghent trucks done first, before 31 July 2025
   - Door alarms and SMS alerts extended to the whole fleet
3. Follow-up
   - Transport planner checks the logger data of every route on the same day instead of the next morning
   - QA Manager to review the incident at the next cold chain meeting

## Cost

Product destroyed, replacement deliveries and the rental van came to EUR 4,870, excluding the reefer unit,
which was replaced under the dealer's warranty.
"""
write_text(p(F10), md10)

# ================================================================ questions
# ---- prose (13): worded like the documents
addq("prose", F3, "how far off can a probe thermometer read in the monthly ice check before it's taken out of use?",
     ["0.5 °C", "0.5°C", "0.5 degrees"], S3_PROBE)
addq("prose", F3, "What clearance do pallets need from an evaporator in the cold store?", ["30 cm"], S3_EVAP)
addq("prose", F4, "when does the new Breda cross-dock open?", ["3 November 2025", "3 Nov 2025", "2025-11-03"],
     S4_BREDA)
addq("prose", F4, "In the Q2 management letter, when does an order line count as in full for OTIF?",
     ["no case was short or substituted", "short or substituted"], S4_FN)
addq("prose", F5, "What has the insurer made a condition for renewing the fleet policy?",
     ["door-alarm retrofit", "door alarm retrofit"], S5_NOTES)
addq("prose", F6, "what's the order cut-off for saturday deliveries of chilled goods?", ["Friday 12:00"], S6_SAT)
addq("prose", F7, "What on-time delivery target applies to Frigoroute in the first three months of the SLA?",
     ["95%"], S7_NOTE)
addq("prose", F7, "how long does Frigoroute have to keep the logger data for each trip?", ["13 months"], S7_LOGS)
addq("prose", F8, "Which customer segment takes the longest to pay according to the AR ageing notebook?",
     ["Healthcare"], S8_HEALTH)
addq("prose", F8, "what does the analyst recommend for Zorgcentrum De Linde?", ["weekly direct debit"], S8_REC)
addq("prose", F10, "How many cases of minced beef were destroyed after the TR-12 reefer failure?", ["14 cases"],
     S10_MINCE)
addq("prose", F10, "what was the root cause of the reefer failure on TR-12?", ["compressor clutch relay"], S10_CAUSE)
addq("prose", F2, "In the 2024 depot workbook, which depot were Utrecht's deliveries from 1 to 14 October booked under?",
     ["Breda"], S2_UTR)

# ---- lookups (10): one cell of one table
v2a = int(df2.loc[("Ghent", "Dairy"), ("Q2 2024", "Revenue")])
addq("lookup", F2, "revenue of the Ghent depot for Dairy in Q2 2024?", int_alts(v2a))
v2b = int(df2.loc[("Breda", "Frozen"), ("Q4 2024", "Cases")])
addq("lookup", F2, "How many cases of Frozen did Breda ship in Q4 2024?", int_alts(v2b))
r6c = df6[(df6.Depot == "Ghent") & df6.Route.str.startswith("Coast")].iloc[0]
addq("lookup", F6, "what's the frozen order cut-off for the coast route out of Ghent?", [r6c.CutFrozen.split()[0]])
r6z = df6[df6.Route == "Zeeland"].iloc[0]
addq("lookup", F6, "Delivery window for the Zeeland route?",
     [r6z.Window.split("-")[0]])
r3f = df3[df3.Category.str.startswith("Fresh fish")].iloc[0]
addq("lookup", F3, "what storage temperature does the HACCP procedure set for fresh fish?",
     list(dict.fromkeys([r3f.Storage.split(" (")[0], r3f.Storage.split(" (")[0].replace(" °C", "°C"),
                         r3f.Storage.split(" (")[0].replace(" °C", "")])))
addq("lookup", F7, "payment terms in the Frigoroute SLA?", [dict(kv7)["Payment terms"], "45 days"])
v5c = EXC["Q1 2025"][DEPOTS.index("Brussels")]
addq("lookup", F5, "How many temperature excursions did Brussels have in Q1 2025 according to the cold chain deck?",
     [str(v5c)])
r5t = df5.set_index("Truck").loc["TR-08"]
_d5 = pd.Timestamp(r5t.Next)
addq("lookup", F5, "when is TR-08's next reefer service?",
     [r5t.Next, _d5.strftime("%-d %B %Y"), _d5.strftime("%Y-%m-%d")])
v8h = float(top8.set_index("customer").loc["Restaurant Sablon Doré", "d90_plus"])
addq("lookup", F8, "In the AR ageing notebook, how much does Restaurant Sablon Doré have outstanding over 90 days?",
     money_alts(v8h))
v8p = float(seg8.loc["Education", "open_balance"])
addq("lookup", F8, "total open balance for the Education segment in the AR ageing notebook?", money_alts(v8p))

# ---- aggregates (11): computed with pandas from the data written


def read1():
    t = pd.read_csv(p(F1), sep=";", decimal=",", thousands=".", encoding="utf-8-sig")
    t["d"] = pd.to_datetime(t["Order Date"], format="%d-%m-%Y")
    return t


def read2():
    return pd.read_excel(p(F2), sheet_name="Depot x group", header=[0, 1], index_col=[0, 1])


def read9():
    return pd.read_parquet(p(F9))


dd1 = pd.to_datetime(df1.Date)
sel1 = df1[(df1.Status == "Cancelled") & (dd1.dt.month == 4)]
assert len(sel1) >= 5
can_apr = round(float(sel1.Amount.sum()), 2)
addq("aggregate", F1, "total net amount of cancelled order lines in April 2025?", eu_money_alts(can_apr),
     check=lambda: abs(read1().pipe(lambda t: t[(t.Status == "Cancelled") & (t.d.dt.month == 4)])["Net Amount EUR"]
                       .sum() - can_apr) < 0.005)
ords = df1.groupby("Depot").Order.nunique()
top_dep = unique_arg(ords.values, ords.index)
assert df1.Depot.value_counts().idxmax() == top_dep  # the same depot whether orders or lines are counted
addq("aggregate", F1, "which depot had the most orders in the H1 2025 ERP export?", [top_dep],
     check=lambda: read1().groupby("Depot")["Order No"].nunique().idxmax() == f"{DCODE[top_dep]} {top_dep}")
fish = float(df1[df1.Group == "Fish & seafood"].Amount.mean())
addq("aggregate", F1, "What's the average net amount of a Fish & seafood order line in the ERP export?",
     list(dict.fromkeys(avg_alts(fish) + [f"{fish:.2f}".replace(".", ",")])),
     check=lambda: abs(read1().query("`Product Group` == 'Fish & seafood'")["Net Amount EUR"].mean() - fish) < 1e-9)
n_bru = int(((df1.Depot == "Brussels") & (df1.Status == "Cancelled")).sum())
assert n_bru >= 3
addq("aggregate", F1, "how many order lines for Brussels customers were cancelled?", int_alts(n_bru),
     check=lambda: int(((read1().Depot == "BRU Brussels") & (read1().Status == "Cancelled")).sum()) == n_bru)
q2inv = df1[(df1.Status == "Invoiced") & (dd1 >= "2025-04-01")].groupby("Customer").Amount.sum()
top_cust = unique_arg(q2inv.values, q2inv.index)
ascii_cust = unicodedata.normalize("NFKD", top_cust).encode("ascii", "ignore").decode()
addq("aggregate", F1, "Which customer had the highest invoiced net amount in Q2 2025?",
     list(dict.fromkeys([top_cust, ascii_cust])),
     check=lambda: read1().pipe(lambda t: t[(t.Status == "Invoiced") & (t.d >= "2025-04-01")])
     .groupby("Customer Name")["Net Amount EUR"].sum().idxmax() == top_cust)
kg_feb = round(float(df1[(df1.Group == "Fresh meat") & (dd1.dt.month == 2) & (df1.Status != "Cancelled")].Qty.sum()), 1)
addq("aggregate", F1, "How many kg of Fresh meat were ordered in February 2025, not counting cancelled lines?",
     list(dict.fromkeys(one_dp_alts(kg_feb) + [f"{kg_feb:.1f}".replace(".", ",")])),
     check=lambda: abs(read1().pipe(lambda t: t[(t["Product Group"] == "Fresh meat") & (t.d.dt.month == 2)
                                                & (t.Status != "Cancelled")]).Quantity.sum() - kg_feb) < 0.05)
rq3 = df2[("Q3 2024", "Revenue")].groupby(level=0).sum()
top_q3 = unique_arg(rq3.values, rq3.index)
addq("aggregate", F2, "which depot had the highest total revenue in Q3 2024?", [top_q3],
     check=lambda: read2()[("Q3 2024", "Revenue (EUR)")].groupby(level=0).sum().idxmax() == top_q3)
fz = int(sum(df2.xs("Frozen", level=1)[(qn, "Cases")].sum() for qn in QS))
addq("aggregate", F2, "total Frozen cases across all depots in 2024?", int_alts(fz),
     check=lambda: int(read2().xs("Frozen", level=1).xs("Cases", axis=1, level=1).values.sum()) == fz)
n12 = int(((df9.truck_id == "TR-12") & (df9.temp_c > 7)).sum())
addq("aggregate", F9, "how many readings above 7 °C for truck TR-12?", int_alts(n12),
     check=lambda: int(read9().query("truck_id == 'TR-12' and temp_c > 7").shape[0]) == n12)
dopen = df9.groupby("truck_id").door_open.sum()
top_door = unique_arg(dopen.values, dopen.index)
addq("aggregate", F9, "which truck logged the most door-open readings?", [top_door],
     check=lambda: read9().groupby("truck_id").door_open.sum().idxmax() == top_door)
m03 = float(df9[(df9.truck_id == "TR-03") & (df9.recorded_at.dt.date == dt.date(2025, 6, 17))].temp_c.mean())
addq("aggregate", F9, "What was TR-03's average temperature on 17 June?", avg_alts(m03),
     check=lambda: abs(read9().pipe(lambda t: t[(t.truck_id == "TR-03") & (t.recorded_at.dt.date == dt.date(2025, 6, 17))])
                       .temp_c.mean() - m03) < 1e-9)

# ---- paraphrases (7): the user's words; no content word shared with the answering sentence
addq("paraphrase", F3, "After a stomach bug, how soon can someone come back on shift?", ["48 hours"], S3_ILL)
addq("paraphrase", F4, "How much less are we paying to power the chillers since the carbon-dioxide cooling installation went live?",
     ["11%"], S4_ENERGY)
addq("paraphrase", F5, "What happens when a chauffeur keeps the back of the lorry ajar for an extended period?",
     ["SMS alert", "SMS", "text message"], S5_SMS)
addq("paraphrase", F6, "A client is past the deadline - which phone number can they use for a rush request?",
     ["09 241 77 30"], S6_EMERG)
addq("paraphrase", F7, "What's the most Frigoroute pays out if a load is ruined in one incident?",
     ["250,000", "250000"], S7_CAP)
addq("paraphrase", F8, "How much unpaid money did we give up on between January and June?", ["18,430", "18430"],
     S8_WO)
addq("paraphrase", F10, "In the TR-12 write-up, why didn't the chauffeur spot the warning sooner?", ["muted"],
     S10_MUTE)

# ---- none (8): close in topic, answer in no file
NONE = [("What fuel surcharge applies under the Frigoroute SLA?", [r"fuel", r"diesel", r"surcharge"]),
        ("What temperature must the blast freezer reach in the HACCP cold chain procedure?",
         [r"blast", r"shock.?freez"]),
        ("What was EBITDA in Q2 2025 according to the management letter?",
         [r"ebitda", r"\bprofit", r"operating (result|income)", r"net income"]),
        ("How many temperature excursions did the Rotterdam depot have in Q2 2025?", [r"rotterdam"]),
        ("What was the gross margin on Poultry order lines in April 2025?",
         [r"poultry.{0,80}margin", r"margin.{0,80}poultry"]),
        ("What was the humidity in TR-12's load compartment during the reefer failure?", [r"humidit", r"\brh\b"]),
        ("What credit limit does Zorgcentrum De Linde have?", [r"credit limit", r"credit line", r"limit of eur"]),
        ("What's the minimum order value for free delivery on the Ghent city route?",
         [r"minimum order", r"free delivery", r"order value", r"delivery charge", r"delivery fee"])]
for q_, _ in NONE:
    addq("none", None, q_, [])

# ================================================================ read-back verification
from pypdf import PdfReader
import openpyxl
from bs4 import BeautifulSoup
from docx import Document as DocR
from pptx import Presentation as PrsR
from odf.opendocument import load as odf_load

files = [F1, F2, F3, F4, F5, F6, F7, F8, F9, F10]
RAW = {fn: text_of(p(fn)) for fn in files}
TEXT = {fn: norm(RAW[fn]) for fn in files}
problems = question_problems(files, TEXT, NONE, strict=True)

# CSV: BOM, ';', decimal commas with thousands dots, DD-MM-YYYY dates, 250-400 rows, read back equal
raw1 = open(p(F1), "rb").read()
if not raw1.startswith(b"\xef\xbb\xbf") or b"\r\n" not in raw1:
    problems.append(("csv has no BOM or no CRLF", None, None))
lines1 = raw1.decode("utf-8-sig").splitlines()
if not all(ln.count(";") == 11 for ln in lines1):
    problems.append(("csv rows without 12 fields", None, None))
if not re.search(r";\d{1,3}\.\d{3},\d\d;", raw1.decode("utf-8-sig")):
    problems.append(("csv has no amount with a thousands dot", None, None))
if not all(re.fullmatch(r"\d\d-\d\d-2025", ln.split(";")[2]) for ln in lines1[1:]):
    problems.append(("csv date not DD-MM-YYYY", None, None))
t1 = read1()
if not (250 <= len(t1) <= 400) or abs(t1["Net Amount EUR"].sum() - df1.Amount.sum()) > 0.01 \
        or abs(t1.Quantity.sum() - df1.Qty.sum()) > 0.01:
    problems.append(("csv does not read back", len(t1), None))
# XLSX: two-row header with merged group headers, cells read back under it, real dates on the notes sheet
wbr = openpyxl.load_workbook(p(F2))
merged = {str(m) for m in wbr["Depot x group"].merged_cells.ranges}
if not {"A1:A2", "B1:B2", "C1:D1", "E1:F1", "G1:H1", "I1:J1"} <= merged:
    problems.append(("xlsx header not merged", sorted(merged), None))
x2 = read2()
if int(x2.loc[("Ghent", "Dairy"), ("Q2 2024", "Revenue (EUR)")]) != v2a \
        or int(x2.loc[("Breda", "Frozen"), ("Q4 2024", "Cases")]) != v2b:
    problems.append(("xlsx lookups do not read back under the two-row header", None, None))
if sum(isinstance(c, dt.datetime) for row in wbr["Notes"].iter_rows(values_only=True) for c in row) < 9:
    problems.append(("xlsx notes sheet has no real dates", None, None))
# ODT: the table cell, a numbered list
odt_rows = [ln.split("\t") for ln in odt_lines(p(F3)) if "\t" in ln]
hit = [r for r in odt_rows if r[0] == "Fresh fish and seafood"]
if not hit or not hit[0][1].startswith("-1 °C to +2 °C"):
    problems.append(("odt table lookup", hit, None))
odoc = odf_load(p(F3))
from odf.text import List as _L
if sum(1 for l_ in odoc.getElementsByType(_L) if l_.getAttribute("stylename") == "Steps") < 2:
    problems.append(("odt has no numbered lists", None, None))
with zipfile.ZipFile(p(F3)) as z:
    if z.infolist()[0].filename != "mimetype" or z.infolist()[0].compress_type != zipfile.ZIP_STORED:
        problems.append(("odt mimetype not first and stored", None, None))
# PDF: 2-3 pages, table read back, the footnote at the foot of page 1, the Breda sentence in column 2
pdf = PdfReader(p(F4))
pages4 = [norm(pg.extract_text() or "") for pg in pdf.pages]
if not 2 <= len(pages4) <= 3:
    problems.append(("pdf not 2-3 pages", len(pages4), None))
for k, a, b in key4:
    k_ = re.sub(r"<[^>]+>", "", k).lower()
    if not re.search(re.escape(k_) + r"\d? " + re.escape(norm(a)) + " " + re.escape(norm(b)), pages4[0]):
        problems.append(("pdf table row not found on page 1", k_, None))
if "no case was short or substituted" not in pages4[0]:
    problems.append(("footnote not on page 1", None, None))


def pdf_lines(pg):
    out = []
    pg.extract_text(visitor_text=lambda text, cm, tm, fd, fs: out.append(
        (tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5], text)) if text.strip() else None)
    return out


l4 = pdf_lines(pdf.pages[0])
br = [x for x, y, t_ in l4 if "The new Breda cross-dock" in t_]
fnl = [y for x, y, t_ in l4 if "OTIF (on time in full)" in t_]
if not br or br[0] < W4 / 2:
    problems.append(("Breda sentence not in the second column", br, None))
if not fnl or fnl[0] > 34 * mm:
    problems.append(("footnote not below the columns", fnl, None))
if len({round(x) for pg in pdf.pages for x, y, t_ in pdf_lines(pg) if round(x) in (round(LM), round(LM + CW + GUT))}) != 2:
    problems.append(("pdf text not in two columns", None, None))
# PPTX: chart data, table cell, notes fact only in the notes
chart = dict(pptx_chart_rows(p(F5)))
if chart.get("Brussels", {}).get("Q1 2025") != v5c or list(chart) != DEPOTS:
    problems.append(("pptx chart data", chart, None))
prs_r = PrsR(p(F5))
tbl_cells = [[c.text for c in row.cells] for sl in prs_r.slides for sh in sl.shapes
             if getattr(sh, "has_table", False) and sh.has_table for row in sh.table.rows]
if not any(r_[0] == "TR-08" and r_[5] == "12 Aug 2025" for r_ in tbl_cells):
    problems.append(("pptx table lookup", None, None))
slide_text = norm("\n".join(sh.text_frame.text for sl in prs_r.slides for sh in sl.shapes if sh.has_text_frame))
if "insurer" in slide_text or "fleet policy" in slide_text:
    problems.append(("notes fact also on a slide", None, None))
# HTML: expand rowspan/colspan into a grid and read the two cells
soup = BeautifulSoup(open(p(F6), encoding="utf-8").read(), "html.parser")


def html_grid(table):
    grid, pending = [], {}
    for tr in table.find_all("tr"):
        row, col = [], 0
        cells = tr.find_all(["th", "td"])
        while cells or pending.get(col):
            if pending.get(col):
                txt, left = pending[col]
                row.append(txt)
                pending[col] = (txt, left - 1) if left > 1 else None
                col += 1
                continue
            c = cells.pop(0)
            txt = c.get_text(" ", strip=True)
            for _ in range(int(c.get("colspan", 1))):
                if int(c.get("rowspan", 1)) > 1:
                    pending[col] = (txt, int(c["rowspan"]) - 1)
                row.append(txt)
                col += 1
        grid.append(row)
    return grid


g6 = html_grid(soup.find("table", class_="routes"))
hdr6 = [f"{a} {b}" if a != b else a for a, b in zip(g6[0], g6[1])]
rows6 = {(r_[0], r_[1]): dict(zip(hdr6, r_)) for r_ in g6[2:] if len(r_) == 6 and r_[0] != r_[1]}
if rows6.get(("Ghent", "Coast (Ostend-Knokke)"), {}).get("Order cut-off Frozen") != r6c.CutFrozen \
        or rows6.get(("Breda", "Zeeland"), {}).get("Delivery window") != r6z.Window or len(rows6) != len(df6):
    problems.append(("html rowspan lookups", None, None))
# DOCX: key/value table without a header row, the Note paragraph
d7r = DocR(p(F7))
kv_r = [(r_.cells[0].text, r_.cells[1].text) for r_ in d7r.tables[0].rows]
if kv_r != kv7 or len(d7r.tables[0].columns) != 2:
    problems.append(("docx key/value table", None, None))
if not any(pp.text.startswith("Note:") and "95%" in pp.text for pp in d7r.paragraphs):
    problems.append(("docx note paragraph", None, None))
# notebook: valid nbformat 4, a printed DataFrame (stream) and an HTML table output
import nbformat
nbr = nbformat.read(p(F8), as_version=4)
nbformat.validate(nbr)
outs = [o for c in nbr.cells if c.cell_type == "code" for o in c.outputs]
if not any(o.output_type == "stream" and "open_balance" in o.text for o in outs) \
        or not any(o.output_type == "execute_result" and "text/html" in o.data for o in outs):
    problems.append(("notebook outputs", None, None))
html_tab = pd.read_html(io.StringIO(next(o.data["text/html"] for o in outs if "text/html" in o.get("data", {}))))[0]
if abs(float(html_tab.set_index("customer").loc["Restaurant Sablon Doré", "d90_plus"]) - v8h) > 0.005:
    problems.append(("notebook html table lookup", None, None))
# Parquet: rows and columns
t9 = read9()
if len(t9) < 300 or list(t9.columns) != ["truck_id", "depot", "recorded_at", "temp_c", "setpoint_c", "door_open"]:
    problems.append(("parquet shape", t9.shape, None))
# Markdown: the fact is in a nested list item
if not any(re.match(r"^ {4,}- ", ln) and "14 cases of minced beef" in ln for ln in RAW[F10].splitlines()):
    problems.append(("nested-list fact not in a nested item", None, None))

write_questions(BASE, "v", problems)
for fn in files:
    print(fn, os.path.getsize(p(fn)), "bytes,", len(TEXT[fn]), "chars extracted")
print("pdf pages:", len(pages4), "csv rows:", len(t1), "parquet rows:", len(t9))
if problems:
    sys.exit(1)
