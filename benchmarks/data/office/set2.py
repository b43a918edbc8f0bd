"""Office files and questions a helper wrote in session 47 without seeing the service's code
(held out: measured before any rule they could teach). ``python set2.py DIR`` writes DIR/files
and DIR/questions.jsonl, the same bytes on every run."""
import os, csv, random, sys, datetime as dt
os.environ["SOURCE_DATE_EPOCH"] = "1714550400"  # 2024-05-01
import numpy as np
import pandas as pd
from _common import (add_slide, addq, avg_alts, norm, out_files, plain, plain_bullets, question_problems, save_doc,
                     slide_table, stamped, text_of, unique_arg, write_questions)

BASE = sys.argv[1]
p = out_files(BASE)
rng, rnd = np.random.default_rng(47), random.Random(47)
FIXED_DT = dt.datetime(2024, 5, 1, 9, 0, 0)

# ---------------------------------------------------------------- reportlab
from reportlab import rl_config
rl_config.invariant = 1
from reportlab.lib.pagesizes import A4
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.lib.styles import getSampleStyleSheet, ParagraphStyle
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.platypus import (SimpleDocTemplate, Paragraph, Spacer, Table,
                                TableStyle, PageBreak)

ss = getSampleStyleSheet()
body = ss["BodyText"]
hdr_style = ParagraphStyle("hdr", parent=body, fontName="Helvetica-Bold",
                           fontSize=8.5, leading=10, alignment=TA_CENTER)
cell_style = ParagraphStyle("cell", parent=body, fontSize=8.5, leading=10.5,
                            alignment=TA_LEFT)

# ============ File 1: annual report PDF =====================================
F1 = "halvorsen_maritime_annual_report_2023.pdf"
regions = ["Nordics", "Benelux", "DACH", "Iberia", "UK & Ireland", "Baltics",
           "Central Europe", "North America", "Middle East", "Asia Pacific"]
rev = rng.integers(18000, 175000, len(regions))
opex = (rev * rng.uniform(0.72, 0.95, len(regions))).astype(int)
emp = rng.integers(85, 1450, len(regions))
calls = rng.integers(320, 4900, len(regions))
df1 = pd.DataFrame({"Region": regions, "NetRevenue": rev, "Opex": opex,
                    "Employees": emp, "VesselCalls": calls})
df1["Margin"] = ((df1.NetRevenue - df1.Opex) / df1.NetRevenue * 100).round(1)

doc = SimpleDocTemplate(p(F1), pagesize=A4, invariant=1,
                        title="Halvorsen Maritime Group - Annual Report 2023",
                        author="Halvorsen Maritime Group", leftMargin=20*mm, rightMargin=20*mm)
st = []
st.append(Paragraph("Halvorsen Maritime Group ASA", ss["Title"]))
st.append(Paragraph("Annual Report 2023 &mdash; Letter from the Chief Executive", ss["Heading2"]))
letter = [
    "2023 was a year of steady recovery for the Group. Container volumes through our owned "
    "terminals rose by 7.4% compared with 2022, while bulk handling remained broadly flat.",
    "The Gdynia terminal opened on 14 March 2023 and handled its first full-draught vessel in May. "
    "Together with the expanded reefer yard in Rotterdam, it added roughly 310,000 TEU of annual capacity.",
    "Safety remains our first priority. The lost-time injury frequency rate fell to 1.9 per million "
    "hours worked, the lowest level in the Group's history.",
    "The Board proposes a final dividend of EUR 0.42 per share, payable on 28 May 2024 to shareholders "
    "on the register at the close of business on 10 May 2024.",
    "Ingrid Solberg, Chief Executive Officer",
]
for t in letter:
    st.append(Paragraph(t, body))
    st.append(Spacer(1, 4))
st.append(PageBreak())
st.append(Paragraph("Segment information by region", ss["Heading2"]))
st.append(Paragraph("The table below presents the Group's operating results by region for the "
                    "financial year ended 31 December 2023. Amounts are in EUR thousands unless stated otherwise.", body))
st.append(Spacer(1, 6))
heads = ["Region", "Net Revenue (EUR thousands)", "Operating Expenses (EUR thousands)",
         "Operating Margin (%)", "Employees at Year End", "Vessel Calls Handled"]
data = [[Paragraph(h, hdr_style) for h in heads]]
for r in df1.itertuples():
    data.append([r.Region, f"{r.NetRevenue:,}", f"{r.Opex:,}", f"{r.Margin:.1f}",
                 f"{r.Employees:,}", f"{r.VesselCalls:,}"])
tot_rev, tot_opex = int(df1.NetRevenue.sum()), int(df1.Opex.sum())
data.append(["Total", f"{tot_rev:,}", f"{tot_opex:,}", f"{(tot_rev-tot_opex)/tot_rev*100:.1f}",
             f"{int(df1.Employees.sum()):,}", f"{int(df1.VesselCalls.sum()):,}"])
t = Table(data, colWidths=[34*mm, 24*mm, 26*mm, 22*mm, 22*mm, 22*mm], repeatRows=1)
n = len(data)
t.setStyle(TableStyle([
    ("FONT", (0, 1), (-1, -1), "Helvetica", 8.5),
    ("ALIGN", (1, 1), (-1, -1), "RIGHT"),
    ("ALIGN", (0, 0), (-1, 0), "CENTER"),
    ("VALIGN", (0, 0), (-1, 0), "MIDDLE"),
    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#1F3B5A")),
    ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
    ("ROWBACKGROUNDS", (0, 1), (-1, n - 2), [colors.white, colors.HexColor("#E8EEF5")]),
    ("FONT", (0, n - 1), (-1, n - 1), "Helvetica-Bold", 8.5),
    ("LINEABOVE", (0, n - 1), (-1, n - 1), 1.0, colors.black),
    ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
    ("BOX", (0, 0), (-1, -1), 0.5, colors.grey),
]))
hdr_style.textColor = colors.white
st.append(t)
st.append(Spacer(1, 8))
st.append(Paragraph("Operating margin is calculated as net revenue less operating expenses, divided by net revenue. "
                    "Employee figures are full-time equivalents. Vessel calls exclude barge and feeder movements "
                    "below 1,000 gross tonnes.", body))
doc.build(st)

# ============ File 2: vendor risk register PDF ==============================
F2 = "vendor_risk_register_2024Q2.pdf"
vendors = [
    ("V-101", "Brightwater Payroll Services GmbH", "Payroll processing and statutory filings for the German and Austrian entities, including year-end certificates", "High", "18 Mar 2024", "Two findings on segregation of duties in the payroll approval workflow; remediation plan due end of Q3"),
    ("V-104", "Kestrel Data Centres Ltd", "Colocation hosting of production racks in the Slough campus with 24x7 remote hands", "High", "02 Apr 2024", "MFA not enforced on the customer portal for two admin accounts"),
    ("V-107", "Orchard Facilities Management", "Cleaning and building maintenance at three UK offices", "Low", "11 Jan 2024", ""),
    ("V-112", "Lumen Translation Partners", "Translation of customer contracts and marketing collateral into nine languages, with certified legal translation on request", "Medium", "", "Annual review overdue; vendor questionnaire sent 6 May 2024"),
    ("V-115", "Quarry Hill Logistics", "Secure document storage and off-site archive retrieval", "Medium", "27 Feb 2024", ""),
    ("V-118", "Sable Cloud Analytics Inc.", "Hosted BI platform processing anonymised customer transaction data; sub-processors in the US and Ireland", "High", "15 May 2024", "SOC 2 Type II report received; one exception on change management accepted by CISO"),
    ("V-121", "Northgate Recruitment", "Contingent staffing for the contact centre", "Low", "09 Feb 2024", ""),
    ("V-123", "Pinecrest Legal LLP", "External counsel for employment disputes and regulatory correspondence in the UK", "Medium", "21 Mar 2024", "Engagement letter to be renewed before 30 Sep 2024"),
    ("V-126", "Tidewater Print & Mail", "Printing and posting of customer statements, including handling of returned mail and address updates", "Medium", "04 Apr 2024", ""),
    ("V-130", "Ember Security Services", "Manned guarding and CCTV monitoring at the Leeds distribution site", "Low", "", ""),
    ("V-133", "Halcyon Software AB", "Licensing and support of the treasury management system", "High", "30 Apr 2024", "Penetration test scheduled for July; prior critical finding closed"),
    ("V-137", "Meridian Courier Group", "Same-day courier for legal documents between London offices", "Low", "14 Mar 2024", ""),
]
df2 = pd.DataFrame(vendors, columns=["Ref", "Vendor", "Scope", "Tier", "LastReview", "Notes"])
doc = SimpleDocTemplate(p(F2), pagesize=A4, invariant=1, title="Third-party risk register Q2 2024",
                        author="Group Procurement", leftMargin=15*mm, rightMargin=15*mm)
st = [Paragraph("Third-Party Risk Register &mdash; Q2 2024", ss["Title"]),
      Paragraph("This register lists in-scope suppliers reviewed under the Third-Party Risk Standard. "
                "Risk tiers are assigned by Group Procurement together with Information Security. "
                "Suppliers in the High tier are reviewed at least every six months; Medium and Low tier "
                "suppliers are reviewed annually. Blank cells indicate that no review has been recorded "
                "or that there are no open findings.", body),
      Spacer(1, 8)]
heads2 = ["Ref", "Vendor", "Service Scope", "Risk Tier", "Last Review", "Open Findings / Notes"]
data = [[Paragraph(h, hdr_style) for h in heads2]]
for r in df2.itertuples():
    data.append([r.Ref, Paragraph(r.Vendor, cell_style), Paragraph(r.Scope, cell_style), r.Tier,
                 r.LastReview, Paragraph(r.Notes, cell_style) if r.Notes else ""])
t = Table(data, colWidths=[13*mm, 33*mm, 52*mm, 17*mm, 20*mm, 45*mm], repeatRows=1)
t.setStyle(TableStyle([
    ("FONT", (0, 1), (-1, -1), "Helvetica", 8.5),
    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ("ALIGN", (3, 1), (4, -1), "CENTER"),
    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#3A3A3A")),
    ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
]))
st.append(t)
st.append(Spacer(1, 8))
st.append(Paragraph("Prepared by Group Procurement. Escalations should be sent to the Third-Party Risk "
                    "Lead, Amara Okafor.", body))
doc.build(st)
hdr_style.textColor = colors.black

# ============ File 3: matplotlib table figure PDF ===========================
import matplotlib
matplotlib.use("Agg")
matplotlib.rcParams["pdf.fonttype"] = 42
matplotlib.rcParams["svg.hashsalt"] = "47"
import matplotlib.pyplot as plt
F3 = "sequencer_throughput_fig3.pdf"
inst = ["NX-Alpha", "NX-Bravo", "NX-Cobalt", "NX-Delta", "NX-Ember", "MS-Fjord", "MS-Garnet",
        "MS-Harbor", "MS-Iris", "MS-Juniper", "HX-Kite", "HX-Lumen", "HX-Marble", "HX-Nova", "HX-Onyx"]
sites3 = ["Cambridge", "Leeds", "Cambridge", "Dundee", "Leeds", "Dundee", "Cambridge", "Leeds",
          "Dundee", "Cambridge", "Leeds", "Dundee", "Cambridge", "Leeds", "Dundee"]
runs = rng.integers(18, 95, 15)
samples = runs * rng.integers(24, 96, 15)
tat = rng.uniform(14, 52, 15).round(1)
failed = rng.integers(0, 9, 15)
df3 = pd.DataFrame({"Instrument": inst, "Site": sites3, "Runs": runs, "Samples": samples,
                    "TAT": tat, "Failed": failed})
fig, ax = plt.subplots(figsize=(8.5, 6.5))
ax.axis("off")
ax.set_title("Figure 3. Sequencer throughput by instrument, Q1 2024", fontsize=12, fontweight="bold")
cells = [[r.Instrument, r.Site, str(r.Runs), f"{r.Samples:,}", f"{r.TAT:.1f}", str(r.Failed)]
         for r in df3.itertuples()]
tb = ax.table(cellText=cells, colLabels=["Instrument", "Site", "Runs", "Samples Processed",
                                         "Median TAT (h)", "Failed Runs"], loc="center", cellLoc="center")
tb.auto_set_font_size(False)
tb.set_fontsize(9)
tb.scale(1, 1.35)
fig.text(0.5, 0.04, "Source: LIMS export, 2 April 2024. TAT = sample receipt to data release.",
         ha="center", fontsize=8)
fig.savefig(p(F3), format="pdf", metadata={"CreationDate": None, "ModDate": None,
                                             "Creator": "matplotlib", "Producer": "matplotlib"})
plt.close(fig)

# ============ File 4: DOCX budget review ======================================
from docx import Document
from docx.shared import Pt
from docx.enum.text import WD_ALIGN_PARAGRAPH
F4 = "capex_budget_review_FY24.docx"
ws_names = ["Data Platform", "Warehouse Automation", "Fleet Electrification", "Cyber Resilience",
            "Customer Portal", "Office Consolidation", "ERP Upgrade"]
h1b = rng.integers(400, 2500, 7) * 1
h1a = (h1b * rng.uniform(0.8, 1.25, 7)).round().astype(int)
h2b = rng.integers(400, 2500, 7)
h2a = (h2b * rng.uniform(0.8, 1.25, 7)).round().astype(int)
df4a = pd.DataFrame({"Workstream": ws_names, "H1B": h1b, "H1A": h1a, "H2B": h2b, "H2A": h2a})

owners = ["J. Marsh", "P. Lindqvist", "A. Okonkwo", "R. Tanaka", "S. Delacroix", "M. Brennan"]
ccs = ["CC-410", "CC-415", "CC-520", "CC-610"]
statuses = ["Approved", "Approved", "Approved", "In review", "Deferred"]
assets = ["Forklift battery swap station", "Edge switch refresh", "Conveyor sorter module",
          "HV charging bay", "Backup appliance", "Laptop refresh batch", "Firewall cluster",
          "Racking extension", "Dock leveller", "Telematics units", "Meeting room AV kit",
          "Data warehouse nodes", "Pallet wrapper", "Cold store panels", "EV van lease buyout",
          "Badge access readers", "Solar inverter", "SAN expansion", "Mobile scanners", "CCTV upgrade"]
codes = sorted(rnd.sample(range(200, 320), 40))
rows4 = []
for i, c in enumerate(codes):
    rows4.append({"Line": f"CX-{c:04d}", "Asset": f"{assets[i % len(assets)]}" + ("" if i < 20 else " (phase 2)"),
                  "Owner": rnd.choice(owners), "CostCentre": rnd.choice(ccs),
                  "Amount": int(rnd.randrange(3000, 250000, 50)), "Status": rnd.choice(statuses)})
df4b = pd.DataFrame(rows4)

d = stamped(Document(), FIXED_DT, author="Capital Planning Office", title="FY24 Capex Budget Review")
d.add_heading("FY24 Capital Expenditure Budget Review", 0)
d.add_paragraph("Prepared by the Capital Planning Office for the Investment Steering Committee, April 2024.")
d.add_heading("1. Summary", 1)
d.add_paragraph("Total FY24 capital spend remains within the envelope agreed by the Board in November 2023. "
                "Timing differences between half-years are mainly explained by late delivery of conveyor "
                "components and the re-phasing of the ERP Upgrade.")
d.add_paragraph("The steering committee approved a contingency reserve of EUR 1.8 million on 9 February 2024, "
                "to be released only with the joint sign-off of the CFO and the Chief Operating Officer.")
d.add_paragraph("Figures in Table 1 are in EUR thousands. Figures in Table 2 are in EUR.")
d.add_heading("2. Workstream budget versus actual", 1)
tb = d.add_table(rows=2 + len(df4a), cols=5)
tb.style = "Table Grid"
a = tb.cell(0, 0).merge(tb.cell(1, 0)); a.text = "Workstream"
m1 = tb.cell(0, 1).merge(tb.cell(0, 2)); m1.text = "H1 2024"
m2 = tb.cell(0, 3).merge(tb.cell(0, 4)); m2.text = "H2 2024"
for j, s in enumerate(["Budget", "Actual", "Budget", "Actual"]):
    tb.cell(1, j + 1).text = s
for c in (m1, m2):
    c.paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.CENTER
for i, r in enumerate(df4a.itertuples()):
    vals = [r.Workstream, f"{r.H1B:,}", f"{r.H1A:,}", f"{r.H2B:,}", f"{r.H2A:,}"]
    for j, v in enumerate(vals):
        tb.cell(i + 2, j).text = v
        if j:
            tb.cell(i + 2, j).paragraphs[0].alignment = WD_ALIGN_PARAGRAPH.RIGHT
d.add_paragraph("Table 1: Budget and actual spend by workstream (EUR thousands). H2 actuals are forecast "
                "outturn as at 31 March 2024.")
d.add_paragraph("Fleet Electrification is tracking ahead of plan after the depot grid connection at Tilbury "
                "was energised three weeks early. Cyber Resilience spend was held back pending the outcome "
                "of the managed detection tender.")
d.add_heading("3. Line-item register", 1)
tb2 = d.add_table(rows=1 + len(df4b), cols=6)
tb2.style = "Light Grid Accent 1"
for j, h in enumerate(["Line", "Asset Description", "Owner", "Cost Centre", "Amount (EUR)", "Status"]):
    tb2.cell(0, j).text = h
for i, r in enumerate(df4b.itertuples()):
    for j, v in enumerate([r.Line, r.Asset, r.Owner, r.CostCentre, f"{r.Amount:,}", r.Status]):
        tb2.cell(i + 1, j).text = v
d.add_paragraph("Deferred items will be re-submitted in the FY25 planning round, which opens on 2 September 2024.")
save_doc(d, p(F4), FIXED_DT)

# ============ File 5: DOCX policy ===========================================
F5 = "travel_and_expenses_policy_v3.docx"
d = stamped(Document(), FIXED_DT, author="Group Finance", title="Travel and Expenses Policy v3.0")
d.add_heading("Travel and Expenses Policy (Version 3.0)", 0)
d.add_paragraph("Effective date: 1 July 2024. Policy owner: Head of Group Finance Operations.")
policy = [
    ("1. Purpose", ["This policy sets out how employees book business travel and claim reimbursement of "
                    "reasonable expenses incurred on company business."]),
    ("2. Scope", ["The policy applies to all employees, contractors engaged for more than three months, "
                  "and members of the Board when travelling on company business."]),
    ("3. Approval of travel", ["3.1 All international travel must be approved in advance by the employee's line manager.",
                               "3.2 Any single expense above EUR 2,500 requires prior approval by the Finance Business Partner for the business unit.",
                               "3.3 Travel by members of the Executive Committee is approved by the Chief Financial Officer."]),
    ("4. Air travel", ["4.1 Economy class is the standard for all flights.",
                       "4.2 Premium economy may be booked for flights with a scheduled duration longer than 6 hours. "
                       "Business class requires written approval from an Executive Committee member.",
                       "4.3 Flights must be booked through the appointed travel management company at least 14 days before departure where possible."]),
    ("5. Accommodation", ["5.1 Hotel costs are capped at EUR 185 per night in tier-1 cities (London, Paris, Zurich, New York) "
                          "and EUR 140 per night elsewhere, excluding local taxes.",
                          "5.2 Stays of more than 10 consecutive nights should be arranged as serviced apartments."]),
    ("6. Meals and daily allowance", ["6.1 A daily meal allowance of EUR 48 applies for each full day of travel.",
                                      "6.2 Alcohol is not reimbursable except at client entertainment events approved in advance."]),
    ("7. Submitting claims", ["7.1 Claims must be submitted within 30 calendar days of the expense being incurred. "
                              "Claims submitted after 90 days will not be paid.",
                              "7.2 Itemised receipts are required for every expense above EUR 25.",
                              "7.3 Where a receipt is lost, the employee must complete a lost receipt declaration (form TE-7) "
                              "countersigned by their line manager."]),
    ("8. Corporate cards", ["8.1 Corporate cards are issued to employees expected to travel at least four times a year.",
                            "8.2 Personal use of a corporate card is prohibited; any personal charge must be repaid within 5 working days.",
                            "8.3 Card statements are reconciled monthly by the Accounts Payable team."]),
    ("9. Breaches", ["9.1 Breaches of this policy may lead to disciplinary action and recovery of the amounts concerned."]),
]
for h, paras in policy:
    d.add_heading(h, 1)
    for t in paras:
        d.add_paragraph(t)
save_doc(d, p(F5), FIXED_DT)

# ============ File 6: XLSX =================================================
from openpyxl import Workbook
from openpyxl.styles import Font, Alignment
F6 = "river_monitoring_jan_apr_2024.xlsx"
sites6 = ["Alder Bridge", "Millrace Weir", "Stonebeck Outfall", "Heron Point", "Gorsey Ford"]
dates = [dt.date(2024, 1, 3) + dt.timedelta(days=3 * i) for i in range(40)]
rows6 = []
for dte in dates:
    for s_i, s in enumerate(sites6):
        rows6.append({"Date": dte, "Site": s,
                      "pH": round(float(rng.normal(7.25 - 0.1 * s_i, 0.3)), 2),
                      "Turbidity": round(float(rng.gamma(2.0, 4.0 + s_i)), 1),
                      "DO": round(float(rng.normal(9.0, 1.1)), 1),
                      "Nitrate": round(float(rng.gamma(3.0, 0.9 + 0.25 * s_i)), 2),
                      "Temp": round(float(5 + (dte - dates[0]).days * 0.07 + rng.normal(0, 1.2)), 1)})
df6 = pd.DataFrame(rows6)
for col in ["pH", "Turbidity", "DO", "Nitrate", "Temp"]:
    mask = rng.random(len(df6)) < 0.07
    df6.loc[mask, col] = np.nan
wb = stamped(Workbook(), FIXED_DT, creator="Catchment Monitoring Team")
ws = wb.active
ws.title = "Readings"
h6 = ["Date", "Site", "pH", "Turbidity (NTU)", "Dissolved O2 (mg/L)", "Nitrate (mg/L)", "Water Temp (°C)"]
ws.append(h6)
for c in ws[1]:
    c.font = Font(bold=True)
for r in df6.itertuples():
    vals = [r.Date, r.Site] + [None if pd.isna(v) else float(v) for v in (r.pH, r.Turbidity, r.DO, r.Nitrate, r.Temp)]
    ws.append(vals)
    ws.cell(ws.max_row, 1).number_format = "yyyy-mm-dd"
ws.column_dimensions["A"].width = 12
ws.column_dimensions["B"].width = 20
df6["Month"] = pd.to_datetime(df6.Date).dt.strftime("%b")
piv = df6.pivot_table(index="Site", columns="Month", values="Turbidity", aggfunc="mean")[["Jan", "Feb", "Mar", "Apr"]]
piv = piv.reindex(sites6).round(2)
ws2 = wb.create_sheet("Summary")
ws2["A1"] = "Mean turbidity (NTU) by site and month, 2024"
ws2["A1"].font = Font(bold=True, size=12)
ws2.append([])
ws2.append(["Site", "Jan", "Feb", "Mar", "Apr"])
for c in ws2[3]:
    c.font = Font(bold=True)
    c.alignment = Alignment(horizontal="center")
for s in sites6:
    ws2.append([s] + [float(piv.loc[s, m_]) for m_ in ["Jan", "Feb", "Mar", "Apr"]])
ws2.append([])
ws2.append(["Blank cells in the Readings sheet indicate a failed probe or a sample not taken; they are excluded from the means."])
save_doc(wb, p(F6), FIXED_DT)

# ============ File 7: PPTX ==================================================
from pptx import Presentation
from pptx.util import Inches
F7 = "q3_2024_fulfilment_review.pptx"
dcs = ["Rotterdam", "Duisburg", "Lyon", "Milan North", "Poznan", "Barcelona", "Dublin", "Aarhus"]
orders = rng.integers(42000, 260000, 8)
ontime = rng.uniform(88.0, 99.0, 8).round(1)
returns_ = (orders * rng.uniform(0.012, 0.045, 8)).astype(int)
pick = rng.uniform(1.4, 4.2, 8).round(2)
df7 = pd.DataFrame({"DC": dcs, "Orders": orders, "OnTime": ontime, "Returns": returns_, "Pick": pick})
prs = stamped(Presentation(), FIXED_DT, author="European Fulfilment Operations")
s = add_slide(prs, 0, "Q3 2024 Fulfilment Review",
              "European Fulfilment Operations | Prepared for the Operations Council, 8 October 2024")
s = add_slide(prs, 1, "Quarter highlights")
plain_bullets(s, ["Network volume grew 11% year on year, driven by the back-to-school peak",
                  "Carrier capacity was tight in August; spot rates peaked at 23% above contract",
                  "Two new automated packing lines went live at Rotterdam in July",
                  "Damaged-in-transit claims fell to 0.31% of shipments"])
s = add_slide(prs, 5, "Performance by distribution centre, Q3 2024")
slide_table(s, ["Distribution Centre", "Orders Shipped", "On-Time Rate (%)", "Returns", "Avg Pick Time (min)"],
            [[r.DC, f"{r.Orders:,}", f"{r.OnTime:.1f}", f"{r.Returns:,}", f"{r.Pick:.2f}"] for r in df7.itertuples()],
            (Inches(0.5), Inches(1.6), Inches(9), Inches(4.2)), 14)
s = add_slide(prs, 1, "Priorities for Q4")
plain_bullets(s, ["Target on-time rate for Q4 is 96.5% across the network",
                  "WMS go-live at Duisburg scheduled for 18 November 2024",
                  "Recruit 140 seasonal associates for the peak, mainly in Poznan and Lyon",
                  "Renegotiate the Iberian parcel contract before it expires on 31 January 2025"])
save_doc(prs, p(F7), FIXED_DT)

# ============ File 8: TSV survey ============================================
F8 = "staff_pulse_survey_2024.tsv"
depts = ["Engineering", "Finance", "Customer Support", "Operations", "Marketing", "People & Culture"]
dept_bias = {"Engineering": 0.3, "Finance": 0.0, "Customer Support": -0.5, "Operations": -0.2,
             "Marketing": 0.1, "People & Culture": 0.4}
comments = ["Too many meetings on Mondays", "Great team, unclear career paths",
            "Hybrid policy works well for me", "Need better laptops", "Workload spikes at month end",
            "Manager is very supportive", "Onboarding was rushed", "Pay is below market for my role",
            "Would like more training budget", "Canteen food has improved",
            "Tooling for ticket triage is slow", "Communication from leadership is good",
            "Parking at the Leeds site is a problem", "Flexible hours are appreciated"]
ids = sorted(set(rnd.sample(range(1, 400), 149)) | {42})
ids = ids[:150] if len(ids) >= 150 else ids
while len(ids) < 150:
    c = rnd.randrange(1, 400)
    if c not in ids:
        ids.append(c); ids.sort()
rows8 = []
for i in ids:
    dep = depts[int(rng.integers(0, len(depts)))]
    ten = round(float(rng.uniform(0.3, 24.0)), 1)
    sat = int(np.clip(round(float(rng.normal(3.4 + dept_bias[dep], 0.95))), 1, 5))
    com = rnd.choice(comments) if (rnd.random() > 0.3 or i == 42) else ""
    rows8.append({"respondent_id": f"R-{i:04d}", "department": dep, "tenure_years": ten,
                  "satisfaction": sat, "comment": com})
df8 = pd.DataFrame(rows8)
assert len(df8) == 150
with open(p(F8), "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f, delimiter="\t", lineterminator="\n")
    w.writerow(df8.columns)
    for r in df8.itertuples(index=False):
        w.writerow([r.respondent_id, r.department, f"{r.tenure_years:.1f}", r.satisfaction, r.comment])

# ================================================================ questions
# ---- lookups (14)
r = df1.set_index("Region")
addq("lookup", F1, "opex for Iberia in 2023?", [plain(r.loc["Iberia", "Opex"])])
addq("lookup", F1, "how many employees did Baltics have at year end", [plain(r.loc["Baltics", "Employees"])])
v = df2.set_index("Vendor")
addq("lookup", F2, "what's the service scope for Brightwater Payroll", ["statutory filings", "year-end certificates"])
lr = v.loc["Orchard Facilities Management", "LastReview"]
addq("lookup", F2, "when was Orchard Facilities last reviewed?",
     [lr, pd.to_datetime(lr).strftime("%-d %B %Y"), pd.to_datetime(lr).strftime("%Y-%m-%d")])
addq("lookup", F2, "risk tier for Lumen Translation Partners?", [v.loc["Lumen Translation Partners", "Tier"]])
i3 = df3.set_index("Instrument")
addq("lookup", F3, "samples processed on MS-Garnet in Q1", [plain(i3.loc["MS-Garnet", "Samples"])])
addq("lookup", F3, "median TAT for HX-Lumen?", [f"{i3.loc['HX-Lumen', 'TAT']:.1f}"])
a4 = df4a.set_index("Workstream")
addq("lookup", F4, "H2 actual for Data Platform (capex review)", [plain(a4.loc["Data Platform", "H2A"])])
addq("lookup", F4, "what was the H1 2024 budget for fleet electrification", [plain(a4.loc["Fleet Electrification", "H1B"])])
line_q = df4b.iloc[17]
addq("lookup", F4, f"amount on capex line {line_q.Line}?", [plain(line_q.Amount)])
# xlsx reading where pH is blank but turbidity present (empty-adjacent)
cand = df6[df6.pH.isna() & df6.Turbidity.notna() & (df6.Site == "Heron Point")]
if cand.empty:
    cand = df6[df6.pH.isna() & df6.Turbidity.notna()]
row6 = cand.iloc[0]
dstr = pd.to_datetime(row6.Date)
addq("lookup", F6, f"turbidity at {row6.Site} on {dstr.day} {dstr.strftime('%b %Y')}?", [f"{row6.Turbidity:.1f}"])
addq("lookup", F6, "summary tab - Feb mean turbidity Gorsey Ford", [f"{piv.loc['Gorsey Ford', 'Feb']:.2f}", f"{piv.loc['Gorsey Ford', 'Feb']:.1f}"])
d7 = df7.set_index("DC")
addq("lookup", F7, "Q3 on-time rate for Milan North DC?", [f"{d7.loc['Milan North', 'OnTime']:.1f}"])
t42 = df8.set_index("respondent_id").loc["R-0042", "tenure_years"]
addq("lookup", F8, "tenure for respondent R-0042?", [f"{t42:.1f}"] + ([str(int(t42))] if float(t42).is_integer() else []))

# ---- aggregates (12)
addq("aggregate", F1, "avg number of employees per region at year end 2023?", avg_alts(df1.Employees.mean()))
addq("aggregate", F1, "which region had the lowest net revenue",
     [unique_arg(df1.NetRevenue, df1.Region, largest=False)])
addq("aggregate", F2, "how many vendors are High risk tier in the Q2 register?", [plain((df2.Tier == "High").sum())])
addq("aggregate", F3, "which sequencer processed the most samples?", [unique_arg(df3.Samples, df3.Instrument)])
addq("aggregate", F4, "total H1 2024 budget across all workstreams (EUR k)", [plain(df4a.H1B.sum())])
over = df4a.H2A - df4a.H2B
addq("aggregate", F4, "which workstream has the biggest H2 overspend vs budget?", [unique_arg(over, df4a.Workstream)])
addq("aggregate", F4, "sum of line items for cost centre CC-520?", [plain(df4b[df4b.CostCentre == "CC-520"].Amount.sum())])
addq("aggregate", F6, "average nitrate at Millrace Weir jan-apr", avg_alts(df6[df6.Site == "Millrace Weir"].Nitrate.mean()))
addq("aggregate", F6, "how many Alder Bridge readings had pH below 7?",
     [plain(((df6.Site == "Alder Bridge") & (df6.pH < 7)).sum())])
addq("aggregate", F7, "total orders shipped across all DCs in Q3", [plain(df7.Orders.sum())])
addq("aggregate", F8, "avg satisfaction score for Engineering?", avg_alts(df8[df8.department == "Engineering"].satisfaction.mean()))
addq("aggregate", F8, "how many survey responses per department - how many from Customer Support?",
     [plain((df8.department == "Customer Support").sum())])

# ---- prose (9)
addq("prose", F1, "what final dividend per share is the board proposing?", ["0.42"])
addq("prose", F1, "when did the Gdynia terminal open", ["14 March 2023", "2023-03-14"])
addq("prose", F4, "how big is the contingency reserve the steering committee approved?", ["1.8 million", "1800000"])
addq("prose", F5, "deadline for submitting expense claims?", ["30 calendar days", "30 days"])
addq("prose", F5, "hotel cap per night in tier-1 cities", ["185"])
addq("prose", F5, "who has to approve a single expense over 2500 EUR", ["Finance Business Partner"])
addq("prose", F5, "which form for a lost receipt?", ["TE-7"])
addq("prose", F7, "when's the WMS go-live at Duisburg", ["18 November 2024", "18 Nov 2024", "2024-11-18"])
addq("prose", F7, "what's the Q4 on-time target?", ["96.5"])

# ---- none (5)
NONE = [("what was group EBITDA for 2023?", ["EBITDA"]),
        ("mileage reimbursement rate per km for private cars?", ["mileage", " per km", "kilomet"]),
        ("dissolved phosphate reading at Alder Bridge in January?", ["phosphate", "phosphorus"]),
        ("what's the staff attrition rate in the Q3 fulfilment review", ["attrition", "turnover"]),
        ("who holds the cafeteria catering contract in the vendor register?", ["catering", "cafeteria"])]
for q_, _ in NONE:
    addq("none", None, q_, [])

# ================================================================ read-back verification
files = [F1, F2, F3, F4, F5, F6, F7, F8]
TEXT = {fn: norm(text_of(p(fn))) for fn in files}
problems = question_problems(files, TEXT, NONE, file_checks=False)  # the none terms hold no regex characters

write_questions(BASE, "k", problems)
for fn in files:
    print(fn, len(TEXT[fn]), "chars extracted")
