"""Office files and questions a helper wrote in session 47 without seeing the service's code
(their misses taught four of the session's rules: not held out). ``python set1.py DIR``
writes DIR/files and DIR/questions.jsonl, the same bytes on every run."""
import csv
import datetime as dt
import json
import os
import random
import re
import sys

import numpy as np
import pandas as pd

HERE = sys.argv[1]
OUT = os.path.join(HERE, "files")
os.makedirs(OUT, exist_ok=True)

from reportlab import rl_config
rl_config.invariant = 1

Q = []  # questions


def q(kind, file, text, expect):
    Q.append({"kind": kind, "file": file, "q": text, "expect": [str(e) for e in expect]})


def num_forms(v, dps=(2,)):
    """Acceptable renderings of a numeric value."""
    out = []
    for d in dps:
        s = f"{v:.{d}f}"
        out.append(s)
        if "." in s:
            t = s.rstrip("0").rstrip(".")
            if t not in out:
                out.append(t)
    return out


def avg_forms(v):
    return num_forms(v, dps=(2, 1))


def int_form(v):
    return [str(int(round(v)))]


# ---------------------------------------------------------------------------
# 1. DOCX quarterly business review
# ---------------------------------------------------------------------------
F1 = "QBR_Q3_2026_Connected_Devices.docx"


def make_qbr():
    from docx import Document
    from docx.shared import Pt

    rng = random.Random(101)
    products = ["Argon Router", "Beacon Sensor", "Cobalt Switch", "Delta Gateway",
                "Ember Camera", "Falcon Tracker", "Granite Server", "Harbor Hub",
                "Ion Battery Pack", "Juniper Dock", "Kestrel Drone", "Lumen Panel"]
    regions = ["North", "South", "East", "West", "Central"]
    rows = []
    for p in products:
        base_price = rng.choice([45, 80, 120, 199, 349, 620, 1150])
        for r in regions:
            units = rng.randint(60, 4200)
            price = base_price * rng.uniform(0.85, 1.15)
            revenue = int(round(units * price, -2))
            margin = round(rng.uniform(18, 58), 1)
            yoy = round(rng.uniform(-12, 35), 1)
            rows.append([p, r, units, revenue, margin, yoy])
    df = pd.DataFrame(rows, columns=["Product", "Region", "Units", "Revenue", "Margin", "YoY"])

    doc = Document()
    doc.core_properties.author = "Priya Raman"
    doc.core_properties.created = dt.datetime(2026, 10, 14, 9, 0, 0)
    doc.core_properties.modified = dt.datetime(2026, 10, 14, 9, 0, 0)
    doc.core_properties.title = "Q3 2026 Quarterly Business Review - Connected Devices"
    doc.add_heading("Quarterly Business Review: Q3 2026", level=0)
    doc.add_paragraph("Connected Devices business unit")

    kv = [("Owner", "Priya Raman"), ("Review date", "14 October 2026"),
          ("Business unit", "Connected Devices"),
          ("Distribution", "Leadership team; Finance business partners"),
          ("Document version", "1.3")]
    t = doc.add_table(rows=0, cols=2)
    t.style = "Table Grid"
    for k, v in kv:
        c = t.add_row().cells
        c[0].text = k
        c[1].text = v

    doc.add_heading("1. Executive summary", level=1)
    doc.add_paragraph(
        "Q3 2026 (July to September) was the strongest quarter of the year for the Connected "
        "Devices unit. Net revenue retention reached 112% and gross churn fell to 3.2%, down from "
        "4.1% in Q2. Average deal size grew by 8.6% quarter over quarter, helped by bundling the "
        "Harbor Hub with two or more sensors.")
    doc.add_paragraph(
        "The Lisbon distribution centre went live on 2 September 2026 and now ships all orders for "
        "southern Europe; average delivery time in that market dropped from 6.5 to 3.1 days. The APAC "
        "expansion, led by Daniel Okafor, signed its first three reseller agreements in Singapore and "
        "Kuala Lumpur in August.")
    doc.add_heading("2. Highlights and risks", level=1)
    doc.add_paragraph(
        "Supply of the camera module used in the Ember Camera remained constrained through "
        "September. Procurement expects normal lead times to return by the end of November. "
        "The Kestrel Drone recall affecting 1,150 units was closed on 19 August 2026 with no "
        "further incidents reported.", style=None)
    doc.add_paragraph("Pricing changes of +4% on the Granite Server line take effect on 1 November 2026.",
                      style="List Bullet")
    doc.add_paragraph("Two field sales roles in the Central region remain open.", style="List Bullet")
    doc.add_paragraph("The next quarterly business review is scheduled for 14 January 2027.",
                      style="List Bullet")

    doc.add_heading("3. Performance by product and region", level=1)
    doc.add_paragraph(
        "The table below shows Q3 2026 results for every product line in each sales region. "
        "Revenue is in US dollars and rounded to the nearest hundred; gross margin and "
        "year-over-year growth are percentages.")
    hdr = ["Product", "Region", "Units sold", "Revenue (USD)", "Gross margin (%)", "YoY growth (%)"]
    t2 = doc.add_table(rows=1, cols=len(hdr))
    t2.style = "Table Grid"
    for i, h in enumerate(hdr):
        t2.rows[0].cells[i].text = h
    for _, r in df.iterrows():
        c = t2.add_row().cells
        c[0].text = r.Product
        c[1].text = r.Region
        c[2].text = f"{r.Units:,}"
        c[3].text = f"{r.Revenue:,}"
        c[4].text = f"{r.Margin:.1f}"
        c[5].text = f"{r.YoY:.1f}"
    for row in t2.rows:
        for cell in row.cells:
            for p in cell.paragraphs:
                for run in p.runs:
                    run.font.size = Pt(9)
    doc.add_heading("4. Outlook", level=1)
    doc.add_paragraph(
        "For Q4 we expect seasonal uplift in the North and West regions. The team will prioritise "
        "inventory for the Beacon Sensor and Falcon Tracker ahead of the holiday period.")
    doc.save(os.path.join(OUT, F1))

    # --- questions
    r = df[(df.Product == "Cobalt Switch") & (df.Region == "East")].iloc[0]
    q("lookup", F1, "What was Cobalt Switch revenue in the East region in Q3?", int_form(r.Revenue))
    r = df[(df.Product == "Juniper Dock") & (df.Region == "Central")].iloc[0]
    q("lookup", F1, "What gross margin did Juniper Dock have in Central?", num_forms(r.Margin, (1,)))
    q("lookup", F1, "Who is the owner of the Q3 QBR?", ["Priya Raman"])

    west = df[df.Region == "West"]
    q("aggregate", F1, "What was total Q3 revenue for the West region across all products?",
      int_form(west.Revenue.sum()))
    top = west.sort_values("Revenue", ascending=False)
    assert top.Revenue.iloc[0] != top.Revenue.iloc[1]
    q("aggregate", F1, "Which product had the highest revenue in the West?", [top.Product.iloc[0]])
    m = df[df.Product == "Falcon Tracker"].Margin.mean()
    q("aggregate", F1, "What's the average gross margin for Falcon Tracker across the five regions?",
      avg_forms(m))

    q("prose", F1, "What was net revenue retention in Q3 2026?", ["112"])
    q("prose", F1, "When did the Lisbon distribution centre go live?", ["2 September 2026"])
    q("prose", F1, "Who is leading the APAC expansion?", ["Daniel Okafor"])
    return df


# ---------------------------------------------------------------------------
# 2. PDF vendor risk + freight log
# ---------------------------------------------------------------------------
F2 = "Vendor_Risk_and_Freight_Review_Aug2026.pdf"


def make_vendor_pdf():
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet, ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import SimpleDocTemplate, Paragraph, Spacer, Table, TableStyle

    ss = getSampleStyleSheet()
    cell = ParagraphStyle("cell", parent=ss["BodyText"], fontSize=8, leading=9.5)

    vendors = [
        ["Hartwell Logistics", "Freight forwarding for EU and UK inbound shipments", "2027-03-31", 412000, "High",
         "Dual-source freight lanes with Brandt Cargo before renewal; quarterly performance review"],
        ["Kessler Data Services", "Payroll data processing", "2026-12-31", 188500, "Medium", ""],
        ["Northwind Cleaning", "Facilities cleaning", "", 64200, "Low", ""],
        ["Orion Cloud Hosting", "Managed hosting of customer-facing web portal and API gateway in two regions",
         "2028-06-30", 936000, "High",
         "Negotiate exit clause and test failover to secondary provider by Q1 2027"],
        ["Pinecrest Legal", "Outside counsel for commercial contracts", "2027-01-15", 275000, "Low", ""],
        ["Quillon Print", "Marketing print materials", "", 38900, "", ""],
        ["Redfern Security", "Office access control and CCTV monitoring at three sites", "2027-09-30", 152300,
         "Medium", "Request SOC 2 Type II report; current report expired June 2026"],
        ["Sable Telecom", "Mobile and fixed-line telephony", "2026-11-30", 97800, "Medium",
         "Move to new tariff on renewal"],
        ["Tidewater Staffing", "Temporary warehouse staff during peak season", "", 521400, "High",
         "Cap weekly hours and add a second agency (Meridian People) as backup before the November peak"],
        ["Umber Software", "Expense management SaaS", "2027-05-31", 46700, "Low", ""],
        ["Vantage Insurance Brokers", "Property and liability insurance placement", "2027-02-28", 129000,
         "Medium", ""],
        ["Westbrook Catering", "Staff canteen", "2026-10-31", 58600, "Low", "Retender; contract not renewed"],
    ]
    vdf = pd.DataFrame(vendors, columns=["Vendor", "Service", "ContractEnd", "Spend", "Risk", "Notes"])

    rng = random.Random(202)
    origins = ["Reno", "Memphis", "Columbus", "Allentown"]
    dests = ["Denver", "Phoenix", "Atlanta", "Dallas", "Chicago", "Seattle", "Boston", "Miami",
             "Portland", "Nashville", "Tampa", "Omaha"]
    ship = []
    sid = 3100
    d0 = dt.date(2026, 8, 1)
    for i in range(70):
        sid += rng.randint(1, 4)
        d = d0 + dt.timedelta(days=int(i * 30 / 70))
        pallets = rng.randint(2, 24)
        cost = int(round(pallets * rng.uniform(140, 310) + rng.uniform(150, 600)))
        ship.append([f"SHP-{sid}", rng.choice(origins), rng.choice(dests), d.isoformat(), pallets, cost])
    sdf = pd.DataFrame(ship, columns=["Shipment", "Origin", "Destination", "ShipDate", "Pallets", "Cost"])
    # make the maximum number of pallets unique
    imax = int(sdf.Pallets.idxmax())
    if (sdf.Pallets == sdf.Pallets.max()).sum() > 1:
        sdf.loc[imax, "Pallets"] = int(sdf.Pallets.max()) + 3
        sdf.loc[imax, "Cost"] = int(round(sdf.loc[imax, "Pallets"] * 225 + 310))

    path = os.path.join(OUT, F2)
    doc = SimpleDocTemplate(path, pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm,
                            topMargin=18 * mm, bottomMargin=18 * mm,
                            title="Vendor Risk and Freight Review - August 2026", author="Procurement")
    st = []
    st.append(Paragraph("Vendor Risk and Freight Review &ndash; August 2026", ss["Title"]))
    st.append(Paragraph(
        "This review was carried out by the procurement team between 3 and 21 August 2026 under the "
        "direction of Helena Voss. It covers all suppliers with annual spend above USD 25,000 and every "
        "outbound freight shipment booked in August.", ss["BodyText"]))
    st.append(Paragraph(
        "Vendors rated High must submit a remediation plan within 30 days of this review. Vendors "
        "without a contract end date are on rolling monthly terms. An empty mitigation cell means no "
        "action is required at this time.", ss["BodyText"]))
    st.append(Spacer(1, 6))
    st.append(Paragraph("Table 1. Vendor risk register", ss["Heading3"]))

    data = [["Vendor", "Service", "Contract end", "Annual spend (USD)", "Risk", "Mitigation notes"]]
    for v in vendors:
        data.append([Paragraph(v[0], cell), Paragraph(v[1], cell), v[2], f"{v[3]:,}", v[4],
                     Paragraph(v[5], cell) if v[5] else ""])
    t = Table(data, colWidths=[30 * mm, 42 * mm, 20 * mm, 23 * mm, 14 * mm, 45 * mm], repeatRows=1)
    t.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), "Helvetica", 8),
        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#d9e2ef")),
        ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("ALIGN", (3, 1), (3, -1), "RIGHT"),
    ]))
    st.append(t)
    st.append(Spacer(1, 8))
    st.append(Paragraph("Table 2. Outbound freight shipments, August 2026", ss["Heading3"]))
    st.append(Paragraph(
        "All shipments were booked through the central transport desk. Freight cost is the invoiced "
        "amount in US dollars including fuel surcharge.", ss["BodyText"]))
    data2 = [["Shipment", "Origin warehouse", "Destination", "Ship date", "Pallets", "Freight cost (USD)"]]
    for _, r in sdf.iterrows():
        data2.append([r.Shipment, r.Origin, r.Destination, r.ShipDate, str(r.Pallets), f"{r.Cost:,}"])
    t2 = Table(data2, colWidths=[26 * mm, 32 * mm, 28 * mm, 24 * mm, 18 * mm, 30 * mm], repeatRows=0)
    t2.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), "Helvetica", 8),
        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#d9e2ef")),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.grey),
        ("ALIGN", (4, 1), (-1, -1), "RIGHT"),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
    ]))
    st.append(t2)
    st.append(Spacer(1, 8))
    st.append(Paragraph(
        "Next steps: the transport desk will renegotiate the Memphis lane rates in September, and the "
        "vendor register will be refreshed in February 2027.", ss["BodyText"]))
    doc.build(st)

    # Which shipments landed on which page?
    from pypdf import PdfReader
    pages = [p.extract_text() for p in PdfReader(path).pages]
    assert len(pages) >= 2
    page_of = {}
    for s in sdf.Shipment:
        hits = [i for i, txt in enumerate(pages) if s in txt]
        assert len(hits) == 1, (s, hits)
        page_of[s] = hits[0]
    sdf["page"] = sdf.Shipment.map(page_of)
    first_page_rows = sdf[sdf.page == sdf.page.min()]
    later = sdf[sdf.page > sdf.page.min()]
    assert len(first_page_rows) >= 5 and len(later) >= 10, (len(first_page_rows), len(later))
    print(f"[{F2}] pages={len(pages)} freight rows per page:", sdf.page.value_counts().sort_index().to_dict())

    # --- questions
    r = vdf[vdf.Vendor == "Tidewater Staffing"].iloc[0]
    q("lookup", F2, "What mitigation is planned for Tidewater Staffing?",
      ["Meridian People", "second agency"])
    r = vdf[vdf.Vendor == "Northwind Cleaning"].iloc[0]
    q("lookup", F2, "What's our annual spend with Northwind Cleaning?", int_form(r.Spend))
    r2 = later.iloc[len(later) // 2]
    q("lookup", F2, f"What was the freight cost for shipment {r2.Shipment}?", int_form(r2.Cost))
    r3 = later.iloc[-3]
    q("lookup", F2, f"Where was shipment {r3.Shipment} going?", [r3.Destination])
    r4 = first_page_rows.iloc[2]
    q("lookup", F2, f"How many pallets were on shipment {r4.Shipment}?", [str(r4.Pallets)])

    q("aggregate", F2, "What was the total freight cost for all August shipments?", int_form(sdf.Cost.sum()))
    q("aggregate", F2, "How many August shipments went out of the Reno warehouse?",
      [str(int((sdf.Origin == "Reno").sum()))])
    top = sdf.sort_values("Pallets", ascending=False)
    assert top.Pallets.iloc[0] != top.Pallets.iloc[1]
    q("aggregate", F2, "Which shipment had the most pallets?", [top.Shipment.iloc[0]])

    q("prose", F2, "Who directed the vendor risk review?", ["Helena Voss"])
    q("prose", F2, "How long do High risk vendors have to submit a remediation plan?", ["30 days"])
    return vdf, sdf, pages


# ---------------------------------------------------------------------------
# 3. PDF grouped headcount table
# ---------------------------------------------------------------------------
F3 = "Headcount_Attrition_FY2026.pdf"


def make_headcount_pdf():
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import SimpleDocTemplate, Paragraph, Spacer, Table, TableStyle

    rng = random.Random(303)
    depts = ["Engineering", "Sales", "Finance", "Customer Support", "Marketing", "Operations"]
    base = {"Engineering": 410, "Sales": 265, "Finance": 74, "Customer Support": 188,
            "Marketing": 96, "Operations": 143}
    rows = []
    for d in depts:
        hc = base[d]
        for qi in range(1, 5):
            hc = hc + rng.randint(-9, 16)
            leavers = rng.randint(1, max(3, hc // 18))
            attr = round(100 * leavers / hc, 1)
            open_roles = rng.randint(0, 14)
            rows.append([d, f"Q{qi}", hc, leavers, attr, open_roles])
    df = pd.DataFrame(rows, columns=["Department", "Quarter", "Headcount", "Leavers", "Attrition", "OpenRoles"])

    ss = getSampleStyleSheet()
    path = os.path.join(OUT, F3)
    doc = SimpleDocTemplate(path, pagesize=A4, leftMargin=20 * mm, rightMargin=20 * mm,
                            topMargin=20 * mm, bottomMargin=20 * mm, title="Headcount and attrition FY2026",
                            author="People Analytics")
    st = [Paragraph("Headcount and Attrition by Department, FY2026", ss["Title"]),
          Paragraph(
              "Prepared by People Analytics for the October workforce planning session. Headcount is the "
              "number of permanent employees at quarter end; leavers counts voluntary and involuntary "
              "exits during the quarter; attrition is leavers divided by quarter-end headcount. The "
              "company-wide attrition target for FY2026 is 9.5% annualised. Contractors and interns are "
              "excluded.", ss["BodyText"]),
          Spacer(1, 8)]
    data = [["Department", "Quarter", "Headcount", "Leavers", "Attrition %", "Open roles"]]
    prev = None
    for _, r in df.iterrows():
        data.append([r.Department if r.Department != prev else "", r.Quarter, str(r.Headcount),
                     str(r.Leavers), f"{r.Attrition:.1f}", str(r.OpenRoles)])
        prev = r.Department
    t = Table(data, colWidths=[40 * mm, 20 * mm, 25 * mm, 22 * mm, 25 * mm, 22 * mm])
    style = [("FONT", (0, 0), (-1, -1), "Helvetica", 9),
             ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 9),
             ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
             ("ALIGN", (2, 1), (-1, -1), "RIGHT")]
    for gi in range(len(depts)):
        style.append(("LINEABOVE", (0, 1 + gi * 4), (-1, 1 + gi * 4), 0.4, colors.grey))
    t.setStyle(TableStyle(style))
    st.append(t)
    st.append(Spacer(1, 8))
    st.append(Paragraph(
        "Customer Support attrition remains the main concern; exit interviews point to shift patterns. "
        "A revised rota will be piloted from 5 January 2027.", ss["BodyText"]))
    doc.build(st)

    r = df[(df.Department == "Finance") & (df.Quarter == "Q3")].iloc[0]
    q("lookup", F3, "What was the attrition rate in Finance in Q3?", num_forms(r.Attrition, (1,)))
    r = df[(df.Department == "Engineering") & (df.Quarter == "Q2")].iloc[0]
    q("lookup", F3, "What was Engineering headcount at the end of Q2?", [str(r.Headcount)])
    q("aggregate", F3, "What was total headcount across all departments in Q4?",
      [str(int(df[df.Quarter == "Q4"].Headcount.sum()))])
    q("prose", F3, "What is the company attrition target for FY2026?", ["9.5"])
    return df


# ---------------------------------------------------------------------------
# 4. XLSX orders workbook
# ---------------------------------------------------------------------------
F4 = "online_orders_H1_2026.xlsx"


def make_orders_xlsx():
    from openpyxl import Workbook
    from openpyxl.styles import Font

    rng = random.Random(404)
    cats = {"Electronics": (49, 899), "Home & Garden": (12, 240), "Apparel": (9, 130),
            "Sports": (15, 320), "Books": (6, 45)}
    reps = ["Marcus Lindqvist", "Sofia Almeida", "Hannah Becker", "Arjun Mehta"]
    regions = ["Nordics", "DACH", "Benelux", "Iberia"]
    start = dt.date(2026, 1, 2)
    dates = sorted(start + dt.timedelta(days=rng.randint(0, 179)) for _ in range(150))
    rows = []
    for i, d in enumerate(dates):
        c = rng.choice(list(cats))
        lo, hi = cats[c]
        price = round(rng.uniform(lo, hi), 2)
        units = rng.randint(1, 40)
        disc = rng.choice([0, 0, 0, 5, 10, 15])
        net = round(units * price * (1 - disc / 100), 2)
        rows.append([f"ORD-{24001 + i}", d, rng.choice(regions), c, units, price, disc, net, rng.choice(reps)])
    hdr = ["Order ID", "Order Date", "Region", "Category", "Units", "Unit Price", "Discount %",
           "Net Amount", "Sales Rep"]

    wb = Workbook()
    ws = wb.active
    ws.title = "Orders"
    ws["A1"] = "Online orders export - January to June 2026 (amounts in EUR)"
    ws["A1"].font = Font(bold=True, size=13)
    ws.append(hdr)
    for c in ws[2]:
        c.font = Font(bold=True)
    for r in rows:
        ws.append(r)
    for row in ws.iter_rows(min_row=3, max_row=ws.max_row):
        row[1].number_format = "yyyy-mm-dd"
        row[5].number_format = "#,##0.00"
        row[7].number_format = "#,##0.00"
    for col, w in zip("ABCDEFGHI", [12, 12, 10, 15, 7, 11, 11, 12, 18]):
        ws.column_dimensions[col].width = w
    ws2 = wb.create_sheet("Notes")
    notes = [("Prepared by", "Marcus Lindqvist"), ("Source system", "ShopLedger v4"),
             ("Currency", "EUR"), ("Refresh cadence", "Weekly, every Monday"),
             ("Known issue", "Orders cancelled after dispatch are still included")]
    for k, v in notes:
        ws2.append([k, v])
    wb.properties.creator = "Marcus Lindqvist"
    wb.properties.created = dt.datetime(2026, 7, 3, 8, 0, 0)
    wb.properties.modified = dt.datetime(2026, 7, 3, 8, 0, 0)
    path = os.path.join(OUT, F4)
    wb.save(path)

    df = pd.read_excel(path, sheet_name="Orders", header=1)
    assert len(df) == 150
    r = df[df["Order ID"] == "ORD-24057"].iloc[0]
    q("lookup", F4, "How many units were on order ORD-24057?", [str(int(r["Units"]))])
    r = df[df["Order ID"] == "ORD-24112"].iloc[0]
    q("lookup", F4, "What was the net amount of order ORD-24112?", num_forms(r["Net Amount"]))
    q("aggregate", F4, "What's the total net amount for Electronics orders in H1?",
      num_forms(round(df[df.Category == "Electronics"]["Net Amount"].sum(), 2)))
    dts = pd.to_datetime(df["Order Date"])
    q("aggregate", F4, "How many orders were placed in March 2026?",
      [str(int(((dts.dt.year == 2026) & (dts.dt.month == 3)).sum()))])
    q("prose", F4, "What currency are the amounts in the orders export?", ["EUR", "euro", "Euro"])
    return df


# ---------------------------------------------------------------------------
# 5. PPTX roadmap deck
# ---------------------------------------------------------------------------
F5 = "Project_Atlas_Roadmap_H2_2026.pptx"


def make_deck():
    from pptx import Presentation
    from pptx.util import Inches, Pt

    prs = Presentation()
    prs.core_properties.author = "Product Office"
    prs.core_properties.created = dt.datetime(2026, 10, 8, 9, 0, 0)
    prs.core_properties.modified = dt.datetime(2026, 10, 8, 9, 0, 0)
    s = prs.slides.add_slide(prs.slide_layouts[0])
    s.shapes.title.text = "Project Atlas: Platform Roadmap"
    s.placeholders[1].text = "H2 2026 update | Product Steering Committee | 8 October 2026"

    def bullets(title, items):
        sl = prs.slides.add_slide(prs.slide_layouts[1])
        sl.shapes.title.text = title
        tf = sl.placeholders[1].text_frame
        tf.text = items[0]
        for it in items[1:]:
            tf.add_paragraph().text = it

    bullets("Where we are", [
        "Beta launch to 40 pilot customers planned for 15 November 2026",
        "Engineering lead: Tomasz Nowak",
        "Budget approved: EUR 1.8M for H2 2026",
        "Weekly active users on the alpha: 2,350",
    ])
    bullets("Risks and dependencies", [
        "Data migration tooling is two sprints behind plan",
        "Hiring: 3 of 5 backend roles filled",
        "Depends on payments provider API v3 (general availability expected December 2026)",
    ])
    sl = prs.slides.add_slide(prs.slide_layouts[5])
    sl.shapes.title.text = "Milestones"
    ms = [["Milestone", "Owner", "Target date", "Status"],
          ["SSO integration", "Lina Haddad", "30 Sep 2026", "Done"],
          ["Usage-based billing", "Omar Farouk", "31 Oct 2026", "At risk"],
          ["Activity log export", "Jenna Park", "15 Nov 2026", "On track"],
          ["Mobile app beta", "Carlos Mendes", "15 Dec 2026", "On track"],
          ["Self-serve onboarding", "Yuki Tanaka", "31 Jan 2027", "Not started"],
          ["EU data residency", "Lina Haddad", "28 Feb 2027", "Not started"]]
    tbl = sl.shapes.add_table(len(ms), 4, Inches(0.5), Inches(1.6), Inches(9), Inches(3.6)).table
    for i, row in enumerate(ms):
        for j, v in enumerate(row):
            tbl.cell(i, j).text = v
            for p in tbl.cell(i, j).text_frame.paragraphs:
                for run in p.runs:
                    run.font.size = Pt(14)
    bullets("Next steps", [
        "Confirm pilot customer list by 23 October 2026",
        "Decide on billing fallback if usage-based billing slips",
        "Next steering review: 12 November 2026",
    ])
    prs.save(os.path.join(OUT, F5))
    mdf = pd.DataFrame(ms[1:], columns=ms[0])
    r = mdf[mdf.Milestone == "Usage-based billing"].iloc[0]
    q("lookup", F5, "Who owns usage-based billing on the Atlas roadmap?", [r.Owner])
    q("prose", F5, "How many pilot customers are in the Atlas beta launch?", ["40"])
    q("prose", F5, "Who is the engineering lead for Project Atlas?", ["Tomasz Nowak"])
    return mdf


# ---------------------------------------------------------------------------
# 6. CSV helpdesk export
# ---------------------------------------------------------------------------
F6 = "helpdesk_tickets_export_2026-10-01.csv"


def make_tickets_csv():
    rng = random.Random(606)
    statuses = ["Open"] * 5 + ["In Progress"] * 4 + ["Pending Customer"] * 2 + ["Resolved"] * 9 + ["Closed"] * 5
    prios = ["Low"] * 4 + ["Medium"] * 5 + ["High"] * 3 + ["Critical"] * 1
    cats = ["Billing", "Login / Access", "Bug", "Feature Request", "Data Export", "Performance"]
    assignees = ["Nadia Petrova", "Samuel Osei", "Grace Liu", "Mateo Ruiz", "Ingrid Holm", "Kwame Asante"]
    causes = ["Configuration error", "User error", "Known defect", "Third-party outage",
              "Expired credentials", "Duplicate request", "Data sync delay"]
    rows = []
    tid = 100
    t0 = dt.datetime(2026, 7, 1, 8, 0)
    for i in range(300):
        tid += rng.randint(1, 3)
        created = t0 + dt.timedelta(minutes=int(i * 440 + rng.randint(0, 300)))
        st = rng.choice(statuses)
        pr = rng.choice(prios)
        assg = "" if rng.random() < 0.08 else rng.choice(assignees)
        if st in ("Resolved", "Closed"):
            scale = {"Critical": 6, "High": 14, "Medium": 30, "Low": 55}[pr]
            hours = "" if rng.random() < 0.04 else f"{rng.uniform(0.4, 1.8) * scale:.1f}"
            cause = "" if rng.random() < 0.15 else rng.choice(causes)
        else:
            hours, cause = "", ""
        rows.append({"ticket_id": f"TCK-{tid:05d}", "created_at": created.strftime("%Y-%m-%d %H:%M"),
                     "status": st, "priority": pr, "category": rng.choice(cats),
                     "assignee": assg, "resolution_hours": hours, "root_cause": cause,
                     "reopened": rng.choice(["", "", "", "yes"])})
    path = os.path.join(OUT, F6)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)

    df = pd.read_csv(path, dtype={"ticket_id": str})
    assert len(df) == 300
    r = df.iloc[22]
    q("lookup", F6, f"What is the status of ticket {r.ticket_id}?", [r.status])
    cand = df[df.root_cause.notna()]
    r = cand.iloc[len(cand) // 2]
    q("lookup", F6, f"Which root cause was given for {r.ticket_id}?", [r.root_cause])

    n = int(((df.status == "Open") & (df.priority == "Critical")).sum())
    q("aggregate", F6, "How many Critical priority tickets are in Open status?", [str(n)])
    m = df[df.priority == "High"].resolution_hours.dropna().mean()
    q("aggregate", F6, "What's the average resolution time in hours for High priority tickets?", avg_forms(m))
    vc = df[df.status == "Resolved"].assignee.value_counts()
    assert vc.iloc[0] != vc.iloc[1], vc
    q("aggregate", F6, "Which assignee has the most tickets in Resolved status?", [vc.index[0]])
    return df


# ---------------------------------------------------------------------------
# 7. DOCX meeting minutes
# ---------------------------------------------------------------------------
F7 = "Data_Platform_Steering_Minutes_2026-10-22.docx"


def make_minutes():
    from docx import Document
    doc = Document()
    doc.core_properties.author = "Elif Demir"
    doc.core_properties.created = dt.datetime(2026, 10, 22, 17, 0, 0)
    doc.core_properties.modified = dt.datetime(2026, 10, 22, 17, 0, 0)
    doc.add_heading("Data Platform Steering Group - Minutes", level=0)
    doc.add_paragraph("Date: 22 October 2026, 14:00-15:30, Room 4.12 and video call")
    doc.add_paragraph("Attendees: Aisha Bello (chair), Rui Santos, Ben Adeyemi, Elif Demir (minutes), "
                      "Priya Raman, Tomasz Nowak. Apologies: Helena Voss.")
    doc.add_heading("1. Reporting warehouse", level=1)
    doc.add_paragraph(
        "Ben Adeyemi presented the comparison of the three shortlisted warehouse platforms. Query costs "
        "on the current on-premise database server rose 27% since January, and two overnight loads failed in "
        "September. The group agreed that staying on the current setup is not viable beyond next year.")
    doc.add_paragraph(
        "Decision: the reporting warehouse will be migrated to Snowflake. Aisha Bello owns the migration, "
        "with completion targeted for 31 March 2027. Finance reporting moves first, followed by sales and "
        "marketing marts.")
    doc.add_heading("2. Data retention", level=1)
    doc.add_paragraph(
        "Legal has asked for a written retention policy covering customer support transcripts and web "
        "analytics events. Rui Santos will draft the data retention policy and circulate it by "
        "20 November 2026. Until then, no raw event data older than 24 months may be deleted.")
    doc.add_heading("3. Dashboards", level=1)
    doc.add_paragraph(
        "There are 212 dashboards on the legacy BI server, of which 61 were not opened in the last 90 days. "
        "Decision: unused dashboards will be archived on 1 December 2026; Elif Demir will send the list to "
        "dashboard owners by 6 November 2026.")
    doc.add_heading("4. Any other business", level=1)
    doc.add_paragraph(
        "Tomasz Nowak asked whether Project Atlas usage events can land in the new warehouse from day one; "
        "Ben Adeyemi will confirm feasibility at the next meeting. The next meeting is on 19 November 2026.")
    doc.save(os.path.join(OUT, F7))
    q("prose", F7, "Who owns the reporting warehouse migration?", ["Aisha Bello"])
    q("prose", F7, "When is the draft data retention policy due?", ["20 November 2026"])
    q("prose", F7, "Which platform did the steering group choose for the reporting warehouse?", ["Snowflake"])


# ---------------------------------------------------------------------------
# none questions
# ---------------------------------------------------------------------------
NONE = [
    ("What was our Net Promoter Score last quarter?", [r"net promoter", r"\bnps\b"]),
    ("How much did we spend on the Kubernetes cluster in September?", [r"kubernetes", r"\bcluster\b"]),
    ("Who is the external auditor for FY2026?", [r"auditor", r"\baudit"]),
    ("What were total CO2 emissions for the delivery fleet in 2026?", [r"\bco2\b", r"emission", r"\bfleet\b"]),
    ("How many patents did we file this year?", [r"patent"]),
    ("When is the lease renewal for the Dublin office?", [r"dublin", r"\blease\b"]),
]


# ---------------------------------------------------------------------------
# Read-back helpers
# ---------------------------------------------------------------------------
def text_of(fname):
    p = os.path.join(OUT, fname)
    if fname.endswith(".docx"):
        from docx import Document
        d = Document(p)
        parts = [x.text for x in d.paragraphs]
        for t in d.tables:
            for row in t.rows:
                parts.append(" | ".join(c.text for c in row.cells))
        return "\n".join(parts)
    if fname.endswith(".pdf"):
        from pypdf import PdfReader
        return "\n".join(pg.extract_text() for pg in PdfReader(p).pages)
    if fname.endswith(".xlsx"):
        from openpyxl import load_workbook
        wb = load_workbook(p)
        parts = []
        for ws in wb.worksheets:
            for row in ws.iter_rows(values_only=True):
                parts.append(" | ".join("" if v is None else str(v) for v in row))
        return "\n".join(parts)
    if fname.endswith(".pptx"):
        from pptx import Presentation
        parts = []
        for s in Presentation(p).slides:
            for sh in s.shapes:
                if sh.has_text_frame:
                    parts.append(sh.text_frame.text)
                if sh.has_table:
                    for row in sh.table.rows:
                        parts.append(" | ".join(c.text for c in row.cells))
        return "\n".join(parts)
    with open(p, encoding="utf-8") as fh:
        return fh.read()


def norm(s):
    s = re.sub(r"(?<=\d),(?=\d{3})", "", s)
    return re.sub(r"\s+", " ", s)


def fix_zip(path):
    """Rewrite an OOXML zip with fixed entry timestamps so output is byte-identical."""
    import zipfile
    with zipfile.ZipFile(path) as z:
        items = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in items:
            if name == "docProps/core.xml":
                data = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>2026-10-22T17:00:00Z", data)
            zi = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)


def main():
    make_qbr()
    make_vendor_pdf()
    make_headcount_pdf()
    make_orders_xlsx()
    make_deck()
    make_tickets_csv()
    make_minutes()
    for text, _ in NONE:
        q("none", None, text, [])

    files = sorted(os.listdir(OUT))
    for f in files:
        if f.endswith((".docx", ".pptx", ".xlsx")):
            fix_zip(os.path.join(OUT, f))
    texts = {f: norm(text_of(f)) for f in files}

    # verify lookups/prose strings occur in their file
    for item in Q:
        if item["kind"] in ("lookup", "prose"):
            t = texts[item["file"]]
            assert any(e in t for e in item["expect"]), item
    # row-level checks for PDF lookups: the value appears on the same extracted line as the row key
    for item in Q:
        if item["kind"] == "lookup" and item["file"] == F2:
            m = re.search(r"SHP-\d+", item["q"])
            if m:
                lines = [ln.strip() for ln in text_of(F2).split("\n")]
                idx = [i for i, ln in enumerate(lines) if ln == m.group(0)]
                assert len(idx) == 1, (item, idx)
                cells = [norm(c) for c in lines[idx[0]:idx[0] + 6]]
                assert any(e in cells for e in item["expect"]), (item, cells)
    # none: distinctive terms absent everywhere
    for text, pats in NONE:
        for f, t in texts.items():
            for pat in pats:
                assert not re.search(pat, t, re.I), (text, f, pat)

    # ids, order: group by kind
    order = {"lookup": 0, "aggregate": 1, "prose": 2, "none": 3}
    Qs = sorted(Q, key=lambda x: order[x["kind"]])
    counts = pd.Series([x["kind"] for x in Qs]).value_counts().to_dict()
    print("counts:", counts)
    assert counts == {"lookup": 15, "aggregate": 12, "prose": 12, "none": 6}, counts
    with open(os.path.join(HERE, "questions.jsonl"), "w", encoding="utf-8") as fh:
        for i, x in enumerate(Qs, 1):
            rec = {"id": f"h{i:02d}", "file": x["file"], "kind": x["kind"], "q": x["q"], "expect": x["expect"]}
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print("wrote", len(Qs), "questions; files:", files)


if __name__ == "__main__":
    main()
