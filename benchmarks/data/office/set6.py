"""Office files and questions a helper wrote in session 51 without seeing the service's code
(held out: measured before any rule they could teach). ``python set6.py DIR`` writes DIR/files
and DIR/questions.jsonl, the same bytes on every run.

Subjects (new to this set): a veterinary medicines distributor in Ireland and the UK (Lismore Animal
Health: a distribution centre in Naas and depots in Mallow, Lisburn and Shrewsbury) - a supply
planner's e-mail reply with quoted earlier lines, a plain text body, an HTML alternative and a CSV
attachment (EML), a batch recall memo with bold headings, a bullet list and escaped accented letters
and a euro sign (RTF), FY2025 territory sales with a second sheet of sales reps (ODS), a warehouse
system audit log with nested details (JSONL), a customer rebate model with formulas, percentage
cells, real dates, two tables on one sheet, a notes sheet and a hidden lists sheet (XLSX), a GDP
self-inspection report with numbered headings, a header and a footer, footnote-style notes and a
table nested in a table cell (DOCX), a quarterly commercial report with ruled tables and page
numbers (PDF), a vaccine season readiness deck with grouped shapes, a table and speaker notes
(PPTX), an analytics pipeline config with comments (YAML), a product master export (XML), an S&OP
call transcript with timestamps (TXT) and daily stock movements with ISO datetimes, product codes
sharing prefixes and blank cells (CSV).

Kinds: "lookup" (one cell named by row and column, including an ODS sheet, the second of two tables
on one XLSX sheet, a table nested in a DOCX table cell, a grouped PPTX shape, an e-mail attachment, a
JSON Lines record, an XML element and a YAML key), "aggregate" (count / sum / average / second highest
/ difference / sum over a code prefix / duration between two timestamps / average of monthly totals /
filtered count in a date range, computed with pandas from the files re-read from disk), "prose" (a
fact in one sentence, including a quoted e-mail line, a DOCX footer and note, speaker notes, a YAML
comment and a transcript line), "paraphrase" (a prose fact asked in the user's own words; shares no
content word with the sentence that answers it, checked below) and "none" (close in topic, answered
by no file; expect [])."""
import os, re, io, csv, json, random, sys, datetime as dt
os.environ["SOURCE_DATE_EPOCH"] = "1760518800"  # 2025-10-15 09:00 UTC
import numpy as np
import pandas as pd
from _common import (add_slide, addq, avg_alts, bullets, date_alts, int_alts, money_alts, norm, normalize_zip,
                     notes, one_dp_alts, out_files, question_problems, save_doc, slide_table, stamped, text_of,
                     unique_arg, write_questions, write_text)

BASE = sys.argv[1]
p = out_files(BASE)
rng, rnd = np.random.default_rng(51), random.Random(51)
FIXED_DT = dt.datetime(2025, 10, 15, 9, 0, 0)

SITES = {"NAS": "Naas", "MLW": "Mallow", "LSB": "Lisburn", "SHR": "Shrewsbury"}
LINES = ["Vaccines", "Antibiotics", "Anthelmintics", "Companion animal", "Mastitis & udder", "Nutrition"]
# code, name, line, species, pack, unit, IE category, UK category, storage, list price EUR, supplier, meat/milk days
PRODUCTS = [
    ("VX-101", "Bovirex IBR Live 10 dose", "Vaccines", "Cattle", "1 x 10 dose vial", "vial", "POM", "POM-V",
     "2-8 °C", 38.90, "Halden Biologics AS", 0, 0),
    ("VX-102", "Bovirex IBR Live 50 dose", "Vaccines", "Cattle", "1 x 50 dose vial", "vial", "POM", "POM-V",
     "2-8 °C", 162.50, "Halden Biologics AS", 0, 0),
    ("VX-110", "Clostrinex 10", "Vaccines", "Cattle and sheep", "50 mL vial (25 doses)", "vial", "LM", "POM-VPS",
     "2-8 °C", 21.40, "Carrow Pharma Ltd", 0, 0),
    ("VX-120", "Scourix Calf", "Vaccines", "Cattle", "1 x 5 dose vial", "vial", "POM", "POM-V",
     "2-8 °C", 64.80, "Halden Biologics AS", 0, 0),
    ("VX-130", "Leptarin Bovine", "Vaccines", "Cattle", "50 mL vial (25 doses)", "vial", "POM", "POM-V",
     "2-8 °C", 47.25, "Halden Biologics AS", 0, 0),
    ("AB-220", "Oxytetrin 20% LA 100 mL", "Antibiotics", "Cattle, sheep and pigs", "100 mL bottle", "bottle", "POM",
     "POM-V", "Below 25 °C", 12.60, "Carrow Pharma Ltd", 28, 7),
    ("AB-221", "Oxytetrin 20% LA 250 mL", "Antibiotics", "Cattle, sheep and pigs", "250 mL bottle", "bottle",
     "POM", "POM-V", "Below 25 °C", 27.95, "Carrow Pharma Ltd", 28, 7),
    ("AB-230", "Amoxivet LA 100 mL", "Antibiotics", "Cattle, sheep and pigs", "100 mL bottle", "bottle", "POM",
     "POM-V", "Below 25 °C", 19.80, "Vestmark Animal Health", 42, 4),
    ("AH-301", "Levamectin Pour-On 2.5 L", "Anthelmintics", "Cattle", "2.5 L backpack", "can", "LM", "POM-VPS",
     "Below 25 °C", 96.00, "Vestmark Animal Health", 28, None),
    ("AH-305", "Levamectin Pour-On 5 L", "Anthelmintics", "Cattle", "5 L backpack", "can", "LM", "POM-VPS",
     "Below 25 °C", 179.50, "Vestmark Animal Health", 28, None),
    ("AH-310", "Closafen Drench 5 L", "Anthelmintics", "Sheep", "5 L can", "can", "LM", "POM-VPS",
     "Below 25 °C", 88.40, "Carrow Pharma Ltd", 42, None),
    ("CP-410", "Fleagard Spot-On Dog L", "Companion animal", "Dogs", "3 pipettes", "pack", "CAM", "NFA-VPS",
     "Below 25 °C", 18.75, "Vestmark Animal Health", None, None),
    ("CP-412", "Fleagard Spot-On Cat", "Companion animal", "Cats", "3 pipettes", "pack", "CAM", "NFA-VPS",
     "Below 25 °C", 15.90, "Vestmark Animal Health", None, None),
    ("CP-420", "Dualtab Chewable Dog 10-25 kg", "Companion animal", "Dogs", "3 tablets", "pack", "POM", "POM-V",
     "Below 25 °C", 31.20, "Halden Biologics AS", None, None),
    ("MT-501", "Lactaclox Dry Cow", "Mastitis & udder", "Cattle", "24 intramammary tubes", "box", "POM", "POM-V",
     "Below 25 °C", 58.60, "Carrow Pharma Ltd", 28, 35),
    ("MT-502", "TeatGuard Sealer", "Mastitis & udder", "Cattle", "120 intramammary tubes", "box", "LM", "POM-VPS",
     "Below 25 °C", 118.00, "Carrow Pharma Ltd", 0, 0),
    ("NS-601", "Minaflex Cattle Bolus", "Nutrition", "Cattle", "20 boluses", "tub", "Feed supplement", "Feed",
     "Below 25 °C", 74.50, "Kestrel Nutrition Ltd", 0, 0),
]
PROD = pd.DataFrame(PRODUCTS, columns=["Code", "Name", "Line", "Species", "Pack", "Unit", "CatIE", "CatUK",
                                       "Storage", "Price", "Supplier", "Meat", "Milk"]).set_index("Code")

# ============ File 1: EML supply planner's reply with a CSV attachment ========
from email import policy
from email.message import EmailMessage
from email.headerregistry import Address
from email.utils import format_datetime
from bs4 import BeautifulSoup
F1 = "RE_Bovirex_IBR_allocation_week_38.eml"
F1_ATT = "bovirex_allocation_wk38.csv"
# the week 38 allocation: 70% of each open order of 50 dose vials (rounded down), 10 dose vials to small herds
alloc_cust = [("C1042", "Suir Valley Vets", "Munster East"), ("C1057", "Ballyfin Veterinary Clinic", "Leinster South"),
              ("C1063", "Drumlin Farm Co-op", "Ulster (ROI)"), ("C1071", "Mourne Farm Vets", "Northern Ireland"),
              ("C1088", "Blackwater Animal Hospital", "Munster West"),
              ("C1094", "Kildare Equine & Farm Vets", "Leinster North"),
              ("C1102", "Shannonside Agri Stores", "Munster West"),
              ("C1115", "Erne Valley Veterinary", "Northern Ireland"),
              ("C1123", "Corrib Vet Group", "Connacht"), ("C1131", "Boyne Valley Vets", "Leinster North"),
              ("C1158", "Lough Gowna Veterinary", "Ulster (ROI)"), ("C1162", "Moy Valley Co-op", "Connacht"),
              ("C1179", "Bann Vets", "Northern Ireland"), ("C1184", "Dungarvan Vet Practice", "Munster East")]
att_rows = []
for acc, name, terr in alloc_cust:
    open_ = int(rng.integers(12, 52))
    att_rows.append({"account": acc, "customer": name, "territory": terr, "product_code": "VX-102",
                     "open_order_vials": open_, "allocated_vials": int(open_ * 0.7),
                     "ship_date": "2025-09-17" if terr != "Northern Ireland" else "2025-09-18"})
for acc in ("C1057", "C1123", "C1184"):
    name, terr = next((n, t) for a, n, t in alloc_cust if a == acc)
    open_ = int(rng.integers(8, 30))
    att_rows.append({"account": acc, "customer": name, "territory": terr, "product_code": "VX-101",
                     "open_order_vials": open_, "allocated_vials": open_, "ship_date": "2025-09-17"})
att = pd.DataFrame(att_rows)
assert att[att.product_code == "VX-102"].allocated_vials.sum() * 50 <= 21500  # within the stock on hand
buf = io.StringIO()
att.to_csv(buf, index=False, lineterminator="\r\n")
att_bytes = buf.getvalue().encode("utf-8")

S1_SHIP = ("Halden Biologics confirmed this morning that the next Bovirex IBR Live shipment of 18,000 doses lands in "
           "Naas on 29 September, a week later than planned.")
S1_ALLOC = "Every account gets 70% of its open order on the 50 dose vials this week."
S1_LSB = "The Lisburn cold room compressor was replaced on Friday, so Lisburn can hold 60 pallets of vaccine again."
new_paras = [
    "Hi Declan,",
    "Thanks for the update on Lisburn. " + S1_SHIP,
    "Until then we have to allocate what we hold, and the attached file is the allocation for week 38. " + S1_ALLOC +
    " The 10 dose vials go only to practices whose clients mostly have herds under 100 cows, and those orders are "
    "filled in full.",
    "Niamh, can you load the file into the back-order dashboard so the sales team stop promising full orders? "
    "Customer service will phone the three largest accounts before 12:00 today.",
    "Tom, Shrewsbury is not on the list because GB stock comes through the UK licence holder and is not short.",
    "Regards,\nSiobhán",
]
sig = ("Siobhán Kelly | Supply Planning Manager | Lismore Animal Health Ltd\n"
       "Naas Enterprise Park, Naas, Co. Kildare W91 KX27 | +353 45 882 140")
quoted_head = "On Mon 15 Sep 2025 at 17:02, Declan Moran <declan.moran@lismoreah.ie> wrote:"
quoted = ["Siobhán,",
          "",
          S1_LSB,
          "We still have 21,500 doses of Bovirex 50 dose on hand in Naas after today's picks, all from batch BX25-114.",
          "Can you send me an allocation by tomorrow morning? I'd rather not pick anything for the practices until "
          "we know what each of them gets.",
          "",
          "Declan",
          "",
          "On Mon 15 Sep 2025 at 09:31, Siobhán Kelly <siobhan.kelly@lismoreah.ie> wrote:"]
quoted2 = ["Declan, Gareth,",
           "Halden have warned that the September Bovirex delivery may slip. Please tell me by tonight how much "
           "vaccine space you have free in Naas and Lisburn.",
           "Thanks, Siobhán"]
plain1 = ("\n\n".join(new_paras) + "\n\n" + sig + "\n\n" + quoted_head + "\n" +
          "\n".join(("> " + ln) if ln else ">" for ln in quoted) + "\n" +
          "\n".join(">> " + ln for ln in quoted2) + "\n")


def h(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


html1 = ("<html>\n<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\">\n</head>\n"
         "<body style=\"font-family: Calibri, sans-serif; font-size: 11pt\">\n" +
         "".join(f"<p>{h(x).replace(chr(10), '<br>')}</p>\n" for x in new_paras) +
         "<p style=\"color:#555555; font-size:9pt\">" + h(sig).replace("\n", "<br>") + "</p>\n"
         "<div style=\"border-top: 1px solid #B5C4DF; padding-top: 3pt\">\n<p>" + h(quoted_head) + "</p>\n"
         "<blockquote style=\"margin-left: 8pt; border-left: 2px solid #1F4E79; padding-left: 6pt\">\n" +
         "".join(f"<p>{h(x)}</p>\n" for x in quoted if x) +
         "<blockquote>\n" + "".join(f"<p>{h(x)}</p>\n" for x in quoted2) + "</blockquote>\n</blockquote>\n</div>\n"
         "</body>\n</html>\n")
msg1 = EmailMessage()
msg1["From"] = Address("Siobhán Kelly", "siobhan.kelly", "lismoreah.ie")
msg1["To"] = Address("Declan Moran", "declan.moran", "lismoreah.ie")
msg1["Cc"] = [Address("Niamh Gallagher", "niamh.gallagher", "lismoreah.ie"),
              Address("Tom Whitfield", "tom.whitfield", "lismoreah.co.uk")]
msg1["Subject"] = "RE: Bovirex IBR allocation for week 38"
msg1["Date"] = format_datetime(dt.datetime(2025, 9, 16, 8, 47, 12, tzinfo=dt.timezone(dt.timedelta(hours=1))))
msg1["Message-ID"] = "<20250916074712.4471.siobhan.kelly@lismoreah.ie>"
msg1["In-Reply-To"] = "<20250915160214.2210.declan.moran@lismoreah.ie>"
msg1["References"] = ("<20250915083105.1187.siobhan.kelly@lismoreah.ie> "
                      "<20250915160214.2210.declan.moran@lismoreah.ie>")
msg1["X-Mailer"] = "Microsoft Outlook 16.0"
msg1.set_content(plain1, cte="quoted-printable")
msg1.add_alternative(html1, subtype="html", cte="quoted-printable")
msg1.add_attachment(att_bytes, maintype="text", subtype="csv", filename=F1_ATT)
msg1.set_boundary("----=_NextPart_000_0A1B_01DC26E5.4471F2C0")
msg1.get_payload()[0].set_boundary("----=_NextPart_001_0A1C_01DC26E5.4471F2C0")
for part in list(msg1.walk())[1:]:
    del part["MIME-Version"]  # only the top level carries it, as a mail client writes it
with open(p(F1), "wb") as f:
    f.write(msg1.as_bytes(policy=policy.SMTP))

# ============ File 2: RTF recall memo =========================================
F2 = "recall_memo_RC-2025-04_Oxytetrin_batch_24K117.rtf"
S2_QUAR = ("Quarantine all stock of batch 24K117 in the WMS by 17:00 on 19 September 2025 and move it to the "
           "returns cage.")
S2_FEE = ("Customers will be credited at invoice price plus a handling fee of €15.00 per return, whatever the number "
          "of bottles.")
S2_QTY = ("Between 2 June and 17 September 2025 we supplied 1,284 bottles of the batch to 63 customers in Ireland "
          "and Northern Ireland.")


def rtf_esc(s):
    """text -> RTF: backslash and braces escaped, non-ASCII as \\'hh (Windows-1252)"""
    s = s.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}")
    return "".join(c if ord(c) < 128 else "".join(f"\\'{b:02x}" for b in c.encode("cp1252")) for c in s)


def rtf_head(t):
    return "{\\pard\\keepn\\sb200\\sa80\\b\\fs26\\cf1 " + rtf_esc(t) + "\\par}\n"


def rtf_para(t):
    return "{\\pard\\sa120\\sl276\\slmult1 " + rtf_esc(t) + "\\par}\n"


def rtf_field(k, v):
    return "{\\pard\\sa40\\tx1400{\\b " + rtf_esc(k) + "}\\tab " + rtf_esc(v) + "\\par}\n"


def rtf_bullets(items):
    return "".join("{\\pard\\fi-360\\li720\\sa60\\tx720\\bullet\\tab " + rtf_esc(t) + "\\par}\n" for t in items)


rtf2 = ("{\\rtf1\\ansi\\ansicpg1252\\deff0\\deflang6153\n"
        "{\\fonttbl{\\f0\\fswiss\\fcharset0 Calibri;}{\\f1\\fnil\\fcharset2 Symbol;}}\n"
        "{\\colortbl ;\\red31\\green78\\blue121;\\red192\\green0\\blue0;}\n"
        "{\\*\\generator Lismore QA memo template 2.1;}\n"
        "{\\info{\\title Recall RC-2025-04}{\\author Aoife Brennan}{\\company Lismore Animal Health Ltd}"
        "{\\creatim\\yr2025\\mo9\\dy18\\hr11\\min20}{\\revtim\\yr2025\\mo9\\dy18\\hr11\\min52}}\n"
        "\\paperw11906\\paperh16838\\margl1304\\margr1304\\margt1134\\margb1134\n"
        "\\viewkind4\\uc1\\f0\\fs22\n"
        "{\\pard\\sa60\\b\\fs36\\cf1 MEMO: BATCH RECALL RC-2025-04\\par}\n"
        "{\\pard\\sa200\\b\\fs22\\cf2 URGENT - action required today\\par}\n" +
        rtf_field("To:", "All depot managers; Customer Service; Sales (Ireland and Northern Ireland)") +
        rtf_field("From:", "Aoife Brennan, Responsible Person (Ireland)") +
        rtf_field("Cc:", "Ciarán Ó Dálaigh, Operations Director; Renée Dwyer, QA Officer") +
        rtf_field("Date:", "18 September 2025") +
        rtf_field("Subject:", "Recall of Oxytetrin 20% LA 250 mL (AB-221), batch 24K117, expiry 11/2026") +
        rtf_head("Background") +
        rtf_para("Carrow Pharma Ltd, the marketing authorisation holder, told us at 09:40 this morning that batch "
                 "24K117 gave an out-of-specification result for oxytetracycline content at the 18-month stability "
                 "test point. The recall is at veterinary practice and merchant level; farmers who already hold the "
                 "product are not asked to return it.") +
        rtf_para(S2_QTY + " The batch was never supplied to Great Britain, so the Shrewsbury depot is not "
                 "affected. The HPRA and the VMD were notified by Carrow Pharma on 18 September.") +
        rtf_head("Actions for depots") +
        rtf_bullets([S2_QUAR,
                     "Do not pick batch 24K117 for any order; batch 25B032 is released and can be supplied instead.",
                     "Book each customer return against RMA type RCL and keep the bottles sealed in their original "
                     "boxes.",
                     "Send the count of returned bottles to Renée Dwyer every Friday until the recall is closed."]) +
        rtf_head("Customer credits") +
        rtf_para(S2_FEE + " Sales must not offer replacement stock free of charge without my approval.") +
        rtf_head("Deadlines") +
        rtf_para("Customer Service must contact every affected customer by 12:00 on 22 September 2025, and all "
                 "returns must reach Naas by 10 October 2025. Carrow Pharma will collect the returned stock from "
                 "Naas for destruction.") +
        rtf_para("Questions to me on extension 2150, or to Renée Dwyer on extension 2157.") +
        "{\\pard\\sb240 {\\i Aoife Brennan, Responsible Person (Ireland), Lismore Animal Health Ltd}\\par}\n"
        "}\n")
write_text(p(F2), rtf2)

# ============ File 3: ODS territory sales FY2025 and reps =====================
F3 = "territory_sales_FY2025.ods"
TERR = [("Leinster North", "IE", 1.15, "Fiachra Nolan"), ("Leinster South", "IE", 1.0, "Orla Byrne"),
        ("Munster East", "IE", 1.2, "Cormac Hegarty"), ("Munster West", "IE", 1.1, "Sinéad O'Mahony"),
        ("Connacht", "IE", 0.85, "Pádraig Joyce"), ("Ulster (ROI)", "IE", 0.7, "Emer McCaffrey"),
        ("Northern Ireland", "UK", 0.95, "Stephen Millar"), ("Welsh Marches", "UK", 0.8, "Gwen Pritchard"),
        ("West Midlands", "UK", 0.75, "Harpreet Sandhu"), ("North West England", "UK", 0.9, "Callum Reid")]
LSHARE = {"Vaccines": 0.22, "Antibiotics": 0.18, "Anthelmintics": 0.2, "Companion animal": 0.17,
          "Mastitis & udder": 0.13, "Nutrition": 0.10}
terr_rows = []
for name, ctry, size, _rep in TERR:
    rec = {"Territory": name, "Country": ctry}
    for ln in LINES:
        f_ = float(rng.uniform(0.85, 1.15)) * (1.5 if ln == "Companion animal" and ctry == "UK" else 1.0)
        rec[ln] = round(4800 * size * LSHARE[ln] * f_, 1)
    rec["Total"] = round(sum(rec[ln] for ln in LINES), 1)
    terr_rows.append(rec)
df3 = pd.DataFrame(terr_rows)
rep_rows = []
for (name, _c, _s, rep), tot in zip(TERR, df3.Total, strict=True):
    rep_rows.append({"Rep": rep, "Territory": name,
                     "Target FY2025 (EUR k)": round(tot * float(rng.uniform(0.92, 1.08)), 1),
                     "Actual FY2025 (EUR k)": tot, "Practices visited": int(rng.integers(38, 96)),
                     "Calls per week": round(float(rng.uniform(14, 27)), 1)})
df3r = pd.DataFrame(rep_rows)
with pd.ExcelWriter(p(F3), engine="odf") as xw:
    df3.rename(columns={ln: f"{ln} (EUR k)" for ln in LINES + ["Total"]}).to_excel(
        xw, sheet_name="Territory sales", index=False)
    df3r.to_excel(xw, sheet_name="Reps", index=False)
normalize_zip(p(F3), FIXED_DT)

# ============ File 4: JSONL warehouse system audit log, Naas, 1-21 Sep 2025 ====
F4 = "wms_audit_log_naas_2025-09-01_to_21.jsonl"
PICKERS = {"pkavanagh": 1.0, "jwalsh": 1.25, "lnowak": 1.1, "ekeane": 0.8, "dmoran": 0.15}
SKU_W = {"VX-101": 4, "VX-102": 9, "VX-110": 7, "VX-120": 3, "VX-130": 5, "AB-220": 6, "AB-221": 4, "AB-230": 5,
         "AH-301": 3, "AH-305": 4, "AH-310": 3, "CP-410": 7, "CP-412": 5, "CP-420": 3, "MT-501": 4, "MT-502": 3,
         "NS-601": 2}
BATCH = {"VX-101": ["BX25-109"], "VX-102": ["BX25-114"], "VX-110": ["CN4471", "CN4502"], "VX-120": ["SC25-031"],
         "VX-130": ["LB25-077"], "AB-220": ["24J088", "25C014"], "AB-221": ["24K117"], "AB-230": ["AM5120"],
         "AH-301": ["LV2503"], "AH-305": ["LV2503", "LV2511"], "AH-310": ["CF25-19"], "CP-410": ["FG7731"],
         "CP-412": ["FG7740"], "CP-420": ["DT2208"], "MT-501": ["LC5521"], "MT-502": ["TG0912"],
         "NS-601": ["MB2507"]}
QTY = {"VX": (2, 24), "AB": (6, 48), "AH": (1, 8), "CP": (6, 60), "MT": (1, 10), "NS": (1, 12)}
ZONE = {"VX": "COLD-1", "AB": "AMB-A", "AH": "AMB-B", "CP": "AMB-A", "MT": "AMB-A", "NS": "AMB-B"}
TEMP4 = [  # zone, sensor, raised, reading, cleared, reading at clear
    ("COLD-1", "T-1A", "2025-09-04T13:22:05Z", 8.6, "2025-09-04T13:39:05Z", 7.7),
    ("COLD-3", "T-3B", "2025-09-14T02:13:27Z", 9.4, "2025-09-14T03:01:27Z", 7.6),
    ("COLD-2", "T-2A", "2025-09-17T09:05:50Z", 8.3, "2025-09-17T09:19:20Z", 7.9)]
ev4 = []


def ev(ts, event, user, **kw):
    ev4.append(dict({"ts": ts, "site": "NAS", "event": event, "user": user}, **kw))


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


order_no = 48120
for day in pd.date_range("2025-09-01", "2025-09-21", freq="D"):
    if day.weekday() == 6:
        continue
    on = ["pkavanagh", "jwalsh", "lnowak", "ekeane", "dmoran"] if day.weekday() < 5 else ["jwalsh", "ekeane"]
    t = day + pd.Timedelta(hours=4, minutes=50)
    for k, u in enumerate(on):
        t += pd.Timedelta(seconds=int(rng.integers(20, 400)))
        ev(iso(t), "user_login", u, details={"terminal": f"RF-{k + 3:02d}"})
    n_picks = int(rng.integers(10, 16)) if day.weekday() < 5 else int(rng.integers(3, 6))
    n_put = int(rng.integers(2, 5)) if day.weekday() < 5 else 1
    kinds = ["pick"] * n_picks + ["put"] * n_put + (["adj"] if rnd.random() < 0.5 else [])
    rnd.shuffle(kinds)
    span = 36000 if day.weekday() < 5 else 14400
    offs = sorted(int(x) for x in rng.integers(1800, span, len(kinds)))
    for kind, off in zip(kinds, offs, strict=True):
        t = day + pd.Timedelta(hours=5, seconds=off)
        sku = rnd.choices(list(SKU_W), weights=list(SKU_W.values()))[0]
        if sku == "AB-221" and day >= pd.Timestamp("2025-09-18"):
            sku = "AB-220"  # the recalled batch is blocked
        pre = sku[:2]
        batch = rnd.choice(BATCH[sku])
        loc = {"zone": ZONE[pre], "bin": f"{ZONE[pre][0]}{rnd.randint(1, 9)}-{rnd.randint(1, 24):02d}-"
                                           f"{rnd.choice('ABCD')}"}
        if kind == "pick":
            pk = [u for u in on if u in PICKERS]
            u = rnd.choices(pk, weights=[PICKERS[x] for x in pk])[0]
            order_no += 1
            ev(iso(t), "pick_confirmed", u, order=f"SO-25-{order_no}",
               details={"sku": sku, "qty": int(rng.integers(*QTY[pre])), "batch": batch, "location": loc})
        elif kind == "put":
            ev(iso(t), "putaway", rnd.choice([u for u in on if u != "dmoran"]),
               details={"sku": sku, "qty": int(rng.integers(*QTY[pre])) * 10, "batch": batch, "location": loc})
        else:
            ev(iso(t), "stock_adjusted", "dmoran" if "dmoran" in on else on[0],
               details={"sku": sku, "batch": batch, "qty_delta": -int(rng.integers(1, 4)),
                        "reason": rnd.choice(["damaged in racking", "cycle count", "broken vial"])})
    t = day + pd.Timedelta(hours=15 if day.weekday() < 5 else 10, minutes=30)
    for u in on:
        t += pd.Timedelta(seconds=int(rng.integers(30, 900)))
        ev(iso(t), "user_logout", u)
for zone, sensor, t0, r0, t1, r1 in TEMP4:
    ev(t0, "temp_alarm_raised", "system", details={"zone": zone, "sensor": sensor, "reading_c": r0, "limit_c": 8.0})
    ev(t1, "temp_alarm_cleared", "system", details={"zone": zone, "sensor": sensor, "reading_c": r1, "limit_c": 8.0})
ev("2025-09-10T10:12:31Z", "batch_status_changed", "abrennan",
   details={"sku": "VX-110", "batch": "CN4502", "from": "quarantine", "to": "released", "reason": "QA release"})
ev("2025-09-18T10:05:43Z", "batch_status_changed", "abrennan",
   details={"sku": "AB-221", "batch": "24K117", "from": "released", "to": "quarantine",
            "reason": "Recall RC-2025-04"})
ev4.sort(key=lambda e: e["ts"])
with open(p(F4), "w", encoding="utf-8", newline="\n") as f:
    for i, e in enumerate(ev4):
        f.write(json.dumps(dict({"seq": 731200 + i}, **e), ensure_ascii=False) + "\n")
df4 = pd.json_normalize(ev4)

# ============ File 5: XLSX customer rebate model (two tables on one sheet) =====
from openpyxl import Workbook
from openpyxl.styles import Font, PatternFill, Alignment, Border, Side
from openpyxl.worksheet.datavalidation import DataValidation
F5 = "customer_rebates_FY2025.xlsx"
REB = [("C1042", "Suir Valley Vets", "Veterinary practice", "Munster East"),
       ("C1057", "Ballyfin Veterinary Clinic", "Veterinary practice", "Leinster South"),
       ("C1063", "Drumlin Farm Co-op", "Co-op", "Ulster (ROI)"),
       ("C1071", "Mourne Farm Vets", "Veterinary practice", "Northern Ireland"),
       ("C1088", "Blackwater Animal Hospital", "Veterinary practice", "Munster West"),
       ("C1094", "Kildare Equine & Farm Vets", "Equine hospital", "Leinster North"),
       ("C1102", "Shannonside Agri Stores", "Merchant", "Munster West"),
       ("C1123", "Corrib Vet Group", "Veterinary practice", "Connacht"),
       ("C1146", "Slaney Farm & Pet Supplies", "Merchant", "Leinster South"),
       ("C1162", "Moy Valley Co-op", "Co-op", "Connacht"),
       ("C1171", "Barrow Vale Co-op", "Co-op", "Leinster South"),
       ("C1179", "Bann Vets", "Veterinary practice", "Northern Ireland"),
       ("C1187", "Tirawley Co-op", "Co-op", "Connacht"),
       ("G2011", "Severnside Farm Vets", "Veterinary practice", "Welsh Marches"),
       ("G2024", "Marches Equine Hospital", "Equine hospital", "Welsh Marches"),
       ("G2032", "Ludlow Vet Partners", "Veterinary practice", "West Midlands"),
       ("G2053", "Eden Valley Agri Supplies", "Merchant", "North West England"),
       ("G2068", "Wrekin Animal Health Stores", "Merchant", "West Midlands")]
SALES_RANGE = {"Veterinary practice": (60000, 400000), "Co-op": (300000, 900000), "Merchant": (150000, 500000),
               "Equine hospital": (80000, 260000)}
reb_rows = []
for acc, name, typ, terr in REB:
    lo, hi = SALES_RANGE[typ]
    start = dt.datetime(2022, 1, 1) + dt.timedelta(days=30 * int(rng.integers(0, 34)))
    review = dt.datetime(2025, 11, 1) + dt.timedelta(days=int(rng.integers(0, 300)))
    reb_rows.append({"Account": acc, "Customer": name, "Type": typ, "Territory": terr,
                     "Sales": round(float(rng.uniform(lo, hi)), 2),
                     "Rate": float(rng.choice([0.02, 0.025, 0.03, 0.035, 0.04, 0.045])),
                     "Start": start.replace(day=1), "Review": review})
df5 = pd.DataFrame(reb_rows)
PARAMS5 = [("Base rebate rate", 0.02, "0.0%"), ("Volume bonus rate", 0.015, "0.0%"),
           ("Volume bonus threshold (EUR)", 250000, "#,##0"),
           ("Rebate payment date", dt.datetime(2025, 10, 31), "DD/MM/YYYY"),
           ("GBP to EUR rate for GB accounts", 1.1811, "0.0000")]
S5_CREDIT = "Rebates are paid as a credit note against the customer's account, never in cash."
wb = stamped(Workbook(), FIXED_DT, creator="Finance - Commercial", title="FY2025 customer rebates")
ws = wb.active
ws.title = "Rebates"
bold = Font(bold=True)
hfill = PatternFill("solid", fgColor="D9E1F2")
thin = Side(style="thin", color="999999")
ws["A1"] = "FY2025 customer rebate model (July 2024 - June 2025)"
ws["A1"].font = Font(bold=True, size=14)
for c, v in (("A3", "Parameter"), ("B3", "Value")):
    ws[c] = v
    ws[c].font = bold
    ws[c].fill = hfill
for i, (k, v, fmt) in enumerate(PARAMS5):
    ws.cell(row=4 + i, column=1, value=k)
    ws.cell(row=4 + i, column=2, value=v).number_format = fmt
HDR5 = ["Account", "Customer", "Type", "Territory", "Net sales FY2025 (EUR)", "Agreed rebate rate", "Volume bonus",
        "Rebate due (EUR)", "Share of rebates", "Agreement start", "Next review"]
R0 = 10  # header row of the second table; row 9 is left blank
for j, hd in enumerate(HDR5, 1):
    c = ws.cell(row=R0, column=j, value=hd)
    c.font = bold
    c.fill = hfill
    c.alignment = Alignment(wrap_text=True, vertical="center")
    c.border = Border(top=thin, bottom=thin)
n5 = len(df5)
RT = R0 + n5 + 1  # total row
for i, r in enumerate(df5.itertuples()):
    rr = R0 + 1 + i
    vals = [r.Account, r.Customer, r.Type, r.Territory, r.Sales, r.Rate, f"=IF(E{rr}>=$B$6,$B$5,0)",
            f"=E{rr}*(F{rr}+G{rr})", f"=H{rr}/$H${RT}", r.Start, r.Review]
    for j, v in enumerate(vals, 1):
        ws.cell(row=rr, column=j, value=v)
    ws.cell(row=rr, column=5).number_format = "#,##0.00"
    for j in (6, 7, 9):
        ws.cell(row=rr, column=j).number_format = "0.0%"
    ws.cell(row=rr, column=8).number_format = "#,##0.00"
    for j in (10, 11):
        ws.cell(row=rr, column=j).number_format = "DD/MM/YYYY"
ws.cell(row=RT, column=1, value="Total").font = bold
for j, col in ((5, "E"), (8, "H"), (9, "I")):
    c = ws.cell(row=RT, column=j, value=f"=SUM({col}{R0 + 1}:{col}{RT - 1})")
    c.font = bold
    c.number_format = "0.0%" if col == "I" else "#,##0.00"
    c.border = Border(top=thin)
for col, wdt in zip("ABCDEFGHIJK", (30, 28, 18, 18, 16, 10, 9, 14, 9, 12, 12), strict=True):
    ws.column_dimensions[col].width = wdt
ws.row_dimensions[R0].height = 30
ws.freeze_panes = f"C{R0 + 1}"
ws_l = wb.create_sheet("Lists")
ws_l["A1"], ws_l["B1"] = "Type", "Territory"
for i, v in enumerate(SALES_RANGE, 2):
    ws_l.cell(row=i, column=1, value=v)
for i, v in enumerate([t[0] for t in TERR], 2):
    ws_l.cell(row=i, column=2, value=v)
ws_l.sheet_state = "hidden"
dv = DataValidation(type="list", formula1=f"=Lists!$A$2:$A${1 + len(SALES_RANGE)}", allow_blank=False)
ws.add_data_validation(dv)
dv.add(f"C{R0 + 1}:C{RT - 1}")
ws_n = wb.create_sheet("Notes")
ws_n["A1"] = "Notes on the rebate model"
ws_n["A1"].font = Font(bold=True, size=13)
for i, line in enumerate([
        "Net sales are invoiced sales for July 2024 to June 2025 after credit notes and before VAT.",
        "GB accounts are converted from GBP at the rate in the parameters table.",
        "The volume bonus is added to the agreed rate for accounts at or above the threshold.",
        S5_CREDIT,
        "A rebate is withheld while the account has an invoice more than 60 days overdue.",
        "Agreement terms are reviewed on the next review date; Sales proposes, Finance approves.",
        "Owner: Finance - Commercial (Maeve Sheridan)."], 3):
    ws_n.cell(row=i, column=1, value=line)
ws_n.column_dimensions["A"].width = 100
save_doc(wb, p(F5), FIXED_DT)

# ============ File 6: DOCX GDP self-inspection report, Naas ===================
from docx import Document
from docx.shared import Pt, Cm
F6 = "GDP_self_inspection_report_Naas_2025.docx"
MAP6 = [("Cold room 1", "2-8 °C", 6, 3.1, 6.9), ("Cold room 2", "2-8 °C", 8, 2.6, 7.4),
        ("Cold room 3", "2-8 °C", 4, 3.4, 7.1), ("Ambient hall A", "15-25 °C", 6, 16.2, 23.8)]
FIND6 = [("1", "Temperature control", "Major", "Two data loggers in cold room 2 were past their calibration due date "
          "(June 2025).", "Declan Moran", "30 Sep 2025"),
         ("2", "Returns", "Major", "Returned medicines were stored on an open shelf next to released stock instead of "
          "in the returns cage.", "Declan Moran", "19 Sep 2025"),
         ("3", "Premises", "Minor", "Forklift charging area too close to the flammable goods cage (see 3.3).",
          "Brian Kehoe (Facilities)", "31 Oct 2025"),
         ("4", "Documentation", "Minor", "SOP-WH-011 (goods receipt) not updated after the change of carrier in July.",
          "Renée Dwyer", "15 Oct 2025"),
         ("5", "Training", "Minor", "Two agency pickers started work before completing the GDP induction.",
          "Lorna Daly (HR)", "30 Sep 2025"),
         ("6", "Pest control", "Other", "Bait station map on the notice board out of date.", "Brian Kehoe (Facilities)",
          "31 Oct 2025"),
         ("7", "Transport", "Minor", "Couriers for cold-chain parcels not checked against the approved carrier list "
          "in August.", "Siobhán Kelly", "15 Oct 2025"),
         ("8", "Security", "Other", "Visitor log not signed out for three visits.", "Reception", "30 Sep 2025"),
         ("9", "Cold-chain packing", "Major", "Gel packs taken from the freezer after 16 hours, against 24 hours in the "
          "validated packing instruction.", "Declan Moran", "26 Sep 2025")]
S6_NEXT = "Next self-inspection due March 2026."
S6_CHG = ("The forklift charging area is 4 metres from the flammable goods cage, against the 10 metres required by "
          "the site's fire risk assessment.")
S6_NOTE1 = ("Mapping was done with 24 calibrated probes over 72 hours, from 7 to 10 July 2025, with the cold rooms "
            "fully loaded.")
d6 = stamped(Document(), FIXED_DT, author="Aoife Brennan", title="GDP self-inspection report - Naas 2025")
d6.styles["Normal"].font.size = Pt(10.5)
sec = d6.sections[0]
sec.header.paragraphs[0].text = ("Lismore Animal Health Ltd  |  QA-SI-2025-02 rev. 1  |  GDP self-inspection report: "
                                 "Naas distribution centre")
sec.footer.paragraphs[0].text = ("Controlled document. Approved by Aoife Brennan, Responsible Person, on 12 September "
                                 "2025. " + S6_NEXT)


def note_ref(par, text, n):
    par.add_run(text)
    par.add_run(str(n)).font.superscript = True


d6.add_heading("GDP self-inspection report: Naas distribution centre", 0)
d6.add_paragraph("Inspection dates: 2 and 3 September 2025. Inspectors: Aoife Brennan (Responsible Person) and "
                 "Renée Dwyer (QA Officer). Site contact: Declan Moran (Warehouse Manager).")
d6.add_heading("1 Purpose and scope", 1)
d6.add_paragraph("This report records the annual self-inspection of the Naas distribution centre against the "
                 "guidelines on Good Distribution Practice for veterinary medicinal products and the conditions of "
                 "our wholesale authorisation. It covers receipt, storage, picking, packing, returns, transport and "
                 "the quality system on site. The depots in Mallow, Lisburn and Shrewsbury are inspected separately.")
d6.add_heading("2 Site profile", 1)
outer = d6.add_table(rows=1, cols=2)
outer.style = "Table Grid"
left, right = outer.cell(0, 0), outer.cell(0, 1)
left.paragraphs[0].text = "Site: Naas distribution centre, Naas Enterprise Park, Co. Kildare"
for line in ["Authorisation: wholesale authorisation WDA(V)-IE-0417", "Floor area: 9,400 m²",
             "Cold rooms: 3 (2-8 °C), 620 pallet spaces", "Ambient storage: 2,850 pallet spaces",
             "Staff: 46 (plus agency pickers in the vaccine season)"]:
    left.add_paragraph(line)
right.paragraphs[0].text = "Temperature mapping, July 2025"
right.paragraphs[0].runs[0].bold = True
inner = right.add_table(rows=len(MAP6) + 1, cols=5)
inner.style = "Table Grid"
for j, hd in enumerate(["Zone", "Range", "Probes", "Min °C", "Max °C"]):
    inner.cell(0, j).text = hd
for i, (z, rg, n, lo, hi) in enumerate(MAP6, 1):
    for j, v in enumerate([z, rg, str(n), f"{lo:.1f}", f"{hi:.1f}"]):
        inner.cell(i, j).text = v
left.width, right.width = Cm(6.5), Cm(9.5)
pn = d6.add_paragraph()
note_ref(pn, "All zones stayed inside their ranges during the mapping.", 1)
pn.add_run(" The hot spot in cold room 2 is next to the door and is now covered by a fixed sensor.")
d6.add_heading("3 Findings", 1)
d6.add_paragraph("Findings are classified as critical, major, minor or other, following the classification used "
                 "by the competent authority. No critical finding was raised.")
ft = d6.add_table(rows=1, cols=6)
ft.style = "Table Grid"
for j, hd in enumerate(["No.", "Area", "Classification", "Finding", "Owner", "Due"]):
    ft.cell(0, j).text = hd
    ft.cell(0, j).paragraphs[0].runs[0].bold = True
for row in FIND6:
    cells = ft.add_row().cells
    for j, v in enumerate(row):
        cells[j].text = v
d6.add_heading("3.1 Temperature control", 2)
d6.add_paragraph("Cold rooms are monitored by the wireless sensor system, which raises an alarm above 8.0 °C. The "
                 "inspectors reviewed the alarm history for August and found every alarm acknowledged within 15 "
                 "minutes. Two loggers in cold room 2 had lapsed calibration and were replaced during the inspection.")
d6.add_heading("3.2 Returns and recalls", 2)
pr = d6.add_paragraph()
note_ref(pr, "Returned medicines waiting for assessment were found on an open shelf next to released stock.", 2)
pr.add_run(" They were moved to the returns cage at once. A mock recall of a vaccine batch was traced to every "
           "customer within 3 hours, well within the 24-hour target.")
d6.add_heading("3.3 Premises and equipment", 2)
d6.add_paragraph(S6_CHG + " The charging station will be moved to the east wall of the goods-in area.")
d6.add_heading("3.4 Transport and cold-chain packing", 2)
d6.add_paragraph("Validated shippers are packed following packing instruction PI-CC-04. On the second day the "
                 "inspectors saw gel packs used after 16 hours in the freezer, because the evening shift had run "
                 "out of conditioned packs. A second freezer has been ordered.")
d6.add_heading("4 Corrective actions", 1)
d6.add_paragraph("Owners enter their corrective and preventive actions in the CAPA log within 10 working days. The "
                 "Responsible Person checks major findings on site before they are closed.")
d6.add_heading("5 Notes", 1)
d6.add_paragraph("1 " + S6_NOTE1)
d6.add_paragraph("2 The shelf has since been labelled 'Returns - not for sale' and a weekly check added to the "
                 "warehouse checklist.")
save_doc(d6, p(F6), FIXED_DT)

# ============ File 7: PDF commercial report, Q1 FY2026 (ruled tables) ==========
from reportlab import rl_config
rl_config.invariant = 1
from reportlab.lib.pagesizes import A4
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.lib.styles import getSampleStyleSheet, ParagraphStyle
from reportlab.platypus import SimpleDocTemplate, Paragraph, Spacer, Table, TableStyle
F7 = "commercial_report_Q1_FY2026.pdf"
pl_rows = []
for ln, units, ns24, g, gm in [("Vaccines", 41200, 1890.0, 0.071, 0.284), ("Antibiotics", 58300, 1610.0, -0.034, 0.226),
                               ("Anthelmintics", 9650, 2240.0, 0.052, 0.241),
                               ("Companion animal", 88400, 1395.0, 0.142, 0.352),
                               ("Mastitis & udder", 12100, 845.0, 0.018, 0.263),
                               ("Nutrition", 7300, 610.0, -0.012, 0.198)]:
    ns25 = round(ns24 * (1 + g), 1)
    pl_rows.append({"Line": ln, "Units": units, "NS": ns25, "NSPY": ns24, "Chg": round((ns25 / ns24 - 1) * 100, 1),
                    "GM": round(gm * 100, 1)})
df7 = pd.DataFrame(pl_rows)
site_rows = [("Naas", 18420, 96310, 97.6, 5210, 212), ("Mallow", 6930, 31880, 96.2, 1840, 97),
             ("Lisburn", 5110, 22940, 93.8, 1260, 84), ("Shrewsbury", 7480, 30150, 95.9, 1515, 71)]
df7s = pd.DataFrame(site_rows, columns=["Site", "Orders", "Lines", "OTIF", "Cold", "Returns"])
fy25 = df3.Total.sum() / 1000
S7_COLD = ("The board approved EUR 1.9 million for a fourth cold room at Naas, which will add 380 pallet spaces at "
           "2-8 °C by May 2026.")
S7_SHR = "The Shrewsbury depot will move to a larger unit at Battlefield Enterprise Park on 1 December 2025."
S7_COURIER = "Courier charges per parcel went up by 6.5% in July when the contract with Celtic Express began."
ss = getSampleStyleSheet()
body7 = ParagraphStyle("b7", parent=ss["BodyText"], fontName="Helvetica", fontSize=10, leading=13.5, spaceAfter=6)
h7 = ParagraphStyle("h7", parent=ss["Heading2"], fontName="Helvetica-Bold", fontSize=12.5, leading=15,
                    textColor=colors.HexColor("#1F4E79"), spaceBefore=8, spaceAfter=4)
cap7 = ParagraphStyle("c7", parent=body7, fontSize=8.5, leading=10.5, textColor=colors.HexColor("#444444"))


def footer7(canvas, doc_):
    canvas.saveState()
    canvas.setFont("Helvetica", 8)
    canvas.setStrokeColor(colors.HexColor("#1F4E79"))
    canvas.line(18 * mm, 15 * mm, A4[0] - 18 * mm, 15 * mm)
    canvas.drawString(18 * mm, 10 * mm, "Lismore Animal Health - Commercial report Q1 FY2026 - internal")
    canvas.drawRightString(A4[0] - 18 * mm, 10 * mm, f"Page {doc_.page}")
    canvas.restoreState()


def grid(data, widths):
    t = Table(data, colWidths=widths, repeatRows=1)
    t.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#D9E1F2")),
        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8.5),
        ("FONT", (0, 1), (-1, -1), "Helvetica", 8.5),
        ("FONT", (0, -1), (-1, -1), "Helvetica-Bold", 8.5),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 3), ("BOTTOMPADDING", (0, 0), (-1, -1), 3)]))
    return t


t7a = [["Product line", "Units sold", "Net sales (EUR k)", "Same quarter FY2025 (EUR k)", "Change", "Gross margin"]]
for r in df7.itertuples():
    t7a.append([r.Line, f"{r.Units:,}", f"{r.NS:,.1f}", f"{r.NSPY:,.1f}", f"{r.Chg:+.1f}%", f"{r.GM:.1f}%"])
tot_ns, tot_py = df7.NS.sum(), df7.NSPY.sum()
t7a.append(["Total", f"{df7.Units.sum():,}", f"{tot_ns:,.1f}", f"{tot_py:,.1f}", f"{(tot_ns / tot_py - 1) * 100:+.1f}%",
            f"{(df7.NS * df7.GM).sum() / tot_ns:.1f}%"])
t7b = [["Site", "Orders shipped", "Order lines", "OTIF", "Cold-chain parcels", "Returned lines"]]
for r in df7s.itertuples():
    t7b.append([r.Site, f"{r.Orders:,}", f"{r.Lines:,}", f"{r.OTIF:.1f}%", f"{r.Cold:,}", str(r.Returns)])
t7b.append(["Total", f"{df7s.Orders.sum():,}", f"{df7s.Lines.sum():,}",
            f"{(df7s.OTIF * df7s.Lines).sum() / df7s.Lines.sum():.1f}%", f"{df7s.Cold.sum():,}",
            str(df7s.Returns.sum())])
ca = df7.set_index("Line").loc["Companion animal"]
doc7 = SimpleDocTemplate(p(F7), pagesize=A4, invariant=1, title="Commercial report Q1 FY2026",
                         author="Fionn Daly", subject="Lismore Animal Health quarterly commercial report",
                         leftMargin=18 * mm, rightMargin=18 * mm, topMargin=18 * mm, bottomMargin=22 * mm)
P7, H7 = (lambda t: Paragraph(t, body7)), (lambda t: Paragraph(t, h7))
story7 = [
    Paragraph("<b>Commercial report: first quarter of FY2026 (July to September 2025)</b>",
              ParagraphStyle("t7", parent=body7, fontSize=16, leading=20, spaceAfter=4)),
    Paragraph("Lismore Animal Health Ltd and Lismore Animal Health (UK) Ltd. Prepared by Fionn Daly, Head of Sales, "
              "with Niamh Gallagher, Data &amp; Analytics. Issued 10 October 2025.", cap7),
    Spacer(1, 6),
    H7("1. Summary"),
    P7(f"FY2025 closed in June with net sales of EUR {fy25:.1f} million across the ten sales territories. The first "
       f"quarter of FY2026 brought net sales of EUR {tot_ns / 1000:.2f} million, {(tot_ns / tot_py - 1) * 100:.1f}% "
       "more than in the same quarter a year ago, with growth in every product line except antibiotics and "
       "nutrition."),
    P7(f"Companion animal products grew fastest, by {ca.Chg:.1f}%, helped by the Fleagard listing with two pet "
       "retail chains in Great Britain. Vaccine sales rose although Bovirex IBR Live was on allocation for most "
       "of September, because the autumn Clostrinex orders came in earlier than last year."),
    P7("Antibiotic sales fell as practices continued to cut back on routine dry cow and whole-flock treatment, "
       "in line with the national targets for responsible use. Credit notes for the Oxytetrin recall will reduce "
       "antibiotic sales by about EUR 36,000 in October."),
    H7("2. Sales by product line"),
    grid(t7a, [40 * mm, 22 * mm, 27 * mm, 38 * mm, 18 * mm, 24 * mm]),
    Paragraph("Table 1: Sales by product line, Q1 FY2026 against Q1 FY2025. Units are selling units (vials, bottles, "
              "cans, packs, boxes and tubs).", cap7),
    Spacer(1, 4),
    P7("Gross margin held up well in companion animal products and vaccines. In anthelmintics, margin came under "
       "pressure from generic ivermectin pour-ons sold by online merchants, and we matched prices for the larger "
       "co-ops to keep the autumn dosing business."),
    H7("3. Operations"),
    grid(t7b, [32 * mm, 27 * mm, 25 * mm, 18 * mm, 32 * mm, 27 * mm]),
    Paragraph("Table 2: Orders, service level and returns by site. OTIF counts an order line as on time if it was "
              "delivered on the promised day and in full if no unit was short.", cap7),
    Spacer(1, 4),
    P7("Lisburn had the lowest OTIF of the four sites because its cold room ran at half capacity for three weeks "
       "until the compressor was replaced on 12 September. Vaccine orders for Northern Ireland were shipped from "
       "Naas during that time, which added a day to the delivery time for many practices."),
    P7(S7_COURIER + " The new contract gives us tracked next-day delivery to every practice in Ireland and Northern "
       "Ireland and a temperature-controlled service for vaccine parcels, which replaces the dedicated vans on the "
       "western routes."),
    H7("4. Customers"),
    P7("Corrib Vet Group moved all seven of its clinics to us from 1 August, which makes it our largest veterinary "
       "practice customer in Connacht. We lost the buying group contract of a merchant chain in the West Midlands, "
       "worth about EUR 140,000 a year, to a national wholesaler."),
    P7("The new rebate terms, which pay the volume bonus only on net sales from EUR 250,000, were agreed with all "
       "co-ops except one. Rebates for FY2025 will be paid at the end of October."),
    H7("5. Investment and network"),
    P7(S7_COLD + " The design allows a fifth cold room to be added later without interrupting operations."),
    P7(S7_SHR + " The new unit has twice the floor space, a cold room for 150 pallets and room for the expected "
       "growth in companion animal volumes in Great Britain."),
    P7("Mallow will move to the central warehouse system in the second quarter, which completes the roll-out "
       "that started in Naas in 2023 and will give us a single view of stock across the four sites."),
    H7("6. Outlook"),
    P7("The second quarter is the peak season for vaccines and dry cow products. We expect net sales to grow by 4% "
       "to 5% against last year, provided that Bovirex IBR Live supply recovers in October as Halden Biologics "
       "has promised. The main risks are further vaccine shortages, the loss of another merchant account to a "
       "national buying group and the cost of the Oxytetrin recall."),
    P7("Fionn Daly, Head of Sales"),
]
doc7.build(story7, onFirstPage=footer7, onLaterPages=footer7)

# ============ File 8: PPTX vaccine season readiness (grouped shapes) ==========
from pptx import Presentation
from pptx.util import Inches, Pt as PPt
from pptx.dml.color import RGBColor
from pptx.enum.shapes import MSO_SHAPE, MSO_SHAPE_TYPE
F8 = "vaccine_season_readiness_autumn_2025.pptx"
TILES8 = [("Naas", 620, 2400, 180, "All three cold rooms in service"),
          ("Mallow", 140, 650, 45, "Extra shipper stock arrives 22 Sep"),
          ("Lisburn", 60, 520, 40, "Half capacity until compressor swap on 12 Sep"),
          ("Shrewsbury", 90, 700, 55, "Supplied by the UK licence holder")]
KPI8 = [("Doses in stock (all vaccines)", "1.26 million"), ("Same-day dispatch of vaccine orders", "96.8%"),
        ("Cold-chain excursions in 2025 so far", "3"), ("Shippers out with customers", "1,140")]
SUP8 = [("Bovirex IBR Live 50 dose", "VX-102", "96,000", "71,000", "22 Sep 2025"),
        ("Bovirex IBR Live 10 dose", "VX-101", "18,500", "15,000", "22 Sep 2025"),
        ("Clostrinex 10", "VX-110", "140,000", "150,000", "15 Sep 2025"),
        ("Scourix Calf", "VX-120", "22,000", "20,000", "6 Oct 2025"),
        ("Leptarin Bovine", "VX-130", "64,000", "48,000", "29 Sep 2025")]
S8_NOTES = ("Halden can only ship Leptarin Bovine in full pallets of 2,400 doses, so Mallow takes the whole first "
            "pallet.")
S8_GEL = "Every cold-chain shipper is packed with frozen gel packs conditioned for at least 24 hours"
prs = stamped(Presentation(), FIXED_DT, author="Supply Planning", title="Vaccine season readiness, autumn 2025")
s = add_slide(prs, 0, "Vaccine season readiness: autumn 2025", "Supply Planning and Operations | 8 September 2025")
s = add_slide(prs, 5, "Cold-chain capacity by site")


def tile(slide, x, y, w, hgt, title, lines, colour):
    grp = slide.shapes.add_group_shape()
    bg = grp.shapes.add_shape(MSO_SHAPE.ROUNDED_RECTANGLE, x, y, w, hgt)
    bg.fill.solid()
    bg.fill.fore_color.rgb = RGBColor(*colour)
    bg.line.color.rgb = RGBColor(0x1F, 0x4E, 0x79)
    tb = grp.shapes.add_textbox(x + Inches(0.1), y + Inches(0.08), w - Inches(0.2), Inches(0.45))
    tb.text_frame.text = title
    tb.text_frame.paragraphs[0].runs[0].font.bold = True
    tb.text_frame.paragraphs[0].runs[0].font.size = PPt(16)
    for k, line in enumerate(lines):
        t_ = grp.shapes.add_textbox(x + Inches(0.1), y + Inches(0.55 + 0.42 * k), w - Inches(0.2), Inches(0.4))
        t_.text_frame.text = line
        t_.text_frame.word_wrap = True
        t_.text_frame.paragraphs[0].runs[0].font.size = PPt(12)
    grp.name = f"Tile {title}"
    return grp


for k, (site, pal, shp, lg, note) in enumerate(TILES8):
    tile(s, Inches(0.3 + 2.35 * k), Inches(1.6), Inches(2.2), Inches(2.6), site,
         [f"Cold-room pallets: {pal}", f"Validated shippers: {shp:,}", f"Data loggers: {lg}", note],
         (0xEA, 0xF2, 0xF8))
tx = s.shapes.add_textbox(Inches(0.3), Inches(4.6), Inches(9.4), Inches(0.8))
tx.text_frame.text = "Pallet spaces are at 2-8 °C. Validated shippers hold 48 hours at 2-8 °C in summer conditions."
tx.text_frame.word_wrap = True
notes(s, "Lisburn is the constraint for Northern Ireland until the compressor is swapped. Until then Naas ships "
         "vaccine for the Northern Ireland practices directly.")
s = add_slide(prs, 5, "Season KPIs")
for k, (lab, val) in enumerate(KPI8):
    tile(s, Inches(0.3 + 2.35 * k), Inches(1.8), Inches(2.2), Inches(1.9), val, [lab], (0xFD, 0xF2, 0xE9))
s = add_slide(prs, 5, "Autumn vaccine supply, September to November")
slide_table(s, ["Product", "Code", "Doses forecast", "Doses secured", "Next delivery"],
            [list(r) for r in SUP8], (Inches(0.3), Inches(1.5), Inches(9.4), Inches(3.2)), 12)
notes(s, S8_NOTES + " The other depots get Leptarin from the second delivery.")
s = add_slide(prs, 1, "Packing and dispatch")
bullets(s, [S8_GEL,
            (1, "Shippers go out Monday to Thursday only, so no parcel sits in a courier depot at the weekend"),
            "Data logger in every shipper to Northern Ireland and Great Britain",
            "Courier collection at Naas moves earlier once the season peaks"])
notes(s, "Declan will confirm the new collection time with the courier before the end of September.")
s = add_slide(prs, 1, "Risks and asks")
bullets(s, ["Bovirex IBR Live: 25,000 doses short of forecast; allocation likely from mid-September",
            "Leptarin Bovine: 16,000 doses short; Halden looking for a second batch",
            "Ask: approve overtime for the Naas packing team from 15 September to 31 October"])
save_doc(prs, p(F8), FIXED_DT)

# ============ File 9: YAML analytics pipeline config ===========================
F9 = "lah_stock_sales_pipeline.yaml"
S9_MLW = "Mallow is left out until its WMS moves to the central instance on 3 November 2025."
S9_VAULT = "credentials come from the vault, never from this file"
yaml9 = f"""# Lismore Animal Health - analytics pipeline for the stock, sales and cold-chain marts
# Owner: Priya Raman (data engineering). Reviewer: Niamh Gallagher (data and analytics lead).
# Change this file through a pull request on the analytics-pipelines repository, never on the server.
version: 3

pipeline:
  name: lah_stock_and_sales
  schedule: "15 5 * * 1-6"        # 05:15 Monday to Saturday, before the depots open
  timezone: Europe/Dublin
  max_runtime_minutes: 50
  retries: 2
  retry_delay_minutes: 10
  concurrency: 1                  # runs must not overlap: the marts are rebuilt in place

sources:
  stock_movements:
    type: csv
    path: /data/landing/wms/stock_movements_*.csv
    timestamp_column: posted_at
    sites: [NAS, MLW, LSB, SHR]
    quality:
      required_columns: [movement_id, posted_at, site, product_code, movement_type, quantity, unit]
      max_null_ratio:
        batch: 0.10               # nutrition lines are not batch tracked
        reference: 0.35           # adjustments carry no reference
      allowed_units: [vial, bottle, can, pack, box, tub]
      unique_key: movement_id

  wms_audit:
    type: jsonl
    path: /data/landing/wms/audit/*.jsonl
    # {S9_MLW}
    sites: [NAS, LSB, SHR]
    flatten: [details, details.location]
    keep_events: [pick_confirmed, putaway, stock_adjusted, batch_status_changed, temp_alarm_raised,
                  temp_alarm_cleared]

  erp_sales:
    type: sqlserver
    connection: erp_readonly      # {S9_VAULT}
    query_file: sql/sales_lines.sql
    incremental_key: modified_at
    lookback_days: 3

  product_master:
    type: xml
    path: /data/landing/erp/product_master_export_*.xml
    record_path: /ProductMaster/Product
    key: code

transforms:
  - name: fx_to_eur
    rate_source: ecb_daily
    fallback_gbp_eur: 1.1811      # the FY2025 planning rate
  - name: cold_chain_flag
    when_storage: "2-8 °C"
  - name: recall_block
    batches: ["24K117"]           # RC-2025-04, Oxytetrin 20% LA 250 mL
  - name: rebate_accrual
    base_rate: 0.02
    volume_bonus_rate: 0.015
    volume_bonus_threshold_eur: 250000

outputs:
  warehouse: analytics_dw
  schema: ops
  tables:
    stock_daily:
      partition_by: posted_date
      retention_days: 730
    picks_by_user:
      partition_by: event_date
      retention_days: 400
    sales_lines:
      partition_by: invoice_month
      retention_days: 2555        # seven years, for the auditors

alerts:
  on_failure: ["#lah-data-alerts", priya.raman@lismoreah.ie]
  freshness_hours: 26
  row_count_drop_pct: 40          # alert when a load has 40% fewer rows than the 7-day average
"""
write_text(p(F9), yaml9)

# ============ File 10: XML product master export ===============================
import xml.etree.ElementTree as ET
F10 = "product_master_export_2025-09-30.xml"
root = ET.Element("ProductMaster", {"company": "Lismore Animal Health Ltd", "exported": "2025-09-30T18:00:00+01:00",
                                    "system": "ERP", "records": str(len(PROD))})
for code, r in PROD.iterrows():
    e = ET.SubElement(root, "Product", {"code": code, "status": "active"})
    for tag, val in (("Name", r.Name), ("Line", r.Line), ("Species", r.Species)):
        ET.SubElement(e, tag).text = val
    ET.SubElement(e, "Pack", {"unit": r.Unit}).text = r.Pack
    ET.SubElement(e, "LegalCategory", {"ie": r.CatIE, "uk": r.CatUK})
    ET.SubElement(e, "Storage").text = r.Storage
    ET.SubElement(e, "ListPrice", {"currency": "EUR"}).text = f"{r.Price:.2f}"
    ET.SubElement(e, "Supplier").text = r.Supplier
    if pd.notna(r.Meat):
        w = ET.SubElement(e, "Withdrawal", {"meat_days": str(int(r.Meat))})
        if pd.notna(r.Milk):
            w.set("milk_days", str(int(r.Milk)))
        else:
            w.text = "Not for use in animals producing milk for human consumption"
    ET.SubElement(e, "ColdChain").text = "true" if r.Storage == "2-8 °C" else "false"
ET.indent(root, space="  ")
with open(p(F10), "wb") as f:
    f.write(b'<?xml version="1.0" encoding="UTF-8"?>\n')
    f.write(ET.tostring(root, encoding="utf-8"))
    f.write(b"\n")

# ============ File 11: TXT S&OP call transcript ================================
F11 = "sop_call_transcript_2025-09-23.txt"
S11_CUTOFF = "From Monday 6 October the Naas cut-off for next-day cold-chain orders moves from 15:00 to 14:00."
S11_RECALL = "So far 912 of the 1,284 bottles have come back."
S11_DASH = "The back-order dashboard now refreshes every two hours instead of once a day."
talk = [
    ("00:00:04", "Ciarán", "Morning all. Same order as usual: supply first, then the warehouse, the recall, the "
                           "depots and data. We have thirty minutes."),
    ("00:00:19", "Siobhán", "Bovirex first. Halden have confirmed the delivery for the 29th, and they've added "
                            "4,000 doses on top, so it's 22,000 doses in total."),
    ("00:00:41", "Ciarán", "Does that take us off allocation?"),
    ("00:00:47", "Siobhán", "Not fully. We stay at 70 percent on the 50 dose vials until the delivery is booked in "
                            "and released by QA, then we fill the back-orders oldest first."),
    ("00:01:30", "Aoife", "QA release normally takes two working days after arrival, so the first shipments would "
                          "go on the 1st of October."),
    ("00:02:05", "Siobhán", "Leptarin is still 16,000 doses short. Halden are looking for a second batch but won't "
                            "commit to a date."),
    ("00:03:12", "Ciarán", "Okay. Declan, warehouse."),
    ("00:03:15", "Declan", "Right, two things. " + S11_CUTOFF + " The courier wants the cold-chain parcels on the "
                           "trailer an hour earlier in the peak."),
    ("00:03:58", "Ciarán", "Have the practices been told?"),
    ("00:04:03", "Declan", "Customer service sends the notice on Thursday. The second thing is the gel packs. The "
                           "new freezer is in, so we're back to the full 24 hours of conditioning."),
    ("00:05:20", "Ciarán", "Aoife, the recall."),
    ("00:05:24", "Aoife", S11_RECALL + " Fifty-one of the 63 customers have returned everything, and customer "
                          "service is chasing the other twelve this week."),
    ("00:06:10", "Aoife", "The returns deadline is still the 10th of October. Carrow collect from Naas on the 14th."),
    ("00:06:45", "Tom", "Nothing from Shrewsbury on the recall, obviously. On the move, the lease for the new unit "
                        "is signed and racking goes in from 20 October."),
    ("00:07:31", "Gareth", "Lisburn has been at full cold-room capacity since the compressor swap on the 12th, and "
                           "we took the Northern Ireland vaccine orders back from Naas yesterday."),
    ("00:08:02", "Ciarán", "Good. Niamh?"),
    ("00:08:06", "Niamh", S11_DASH + " Sales asked for it because the allocation changes during the day."),
    ("00:08:40", "Niamh", "And the stock pipeline failed on Saturday morning. The quantity column in the Shrewsbury "
                          "file had text in it. Priya has added a check, and it ran clean on Monday."),
    ("00:09:22", "Ciarán", "Thanks. Actions as usual in the notes. Same time next week."),
]
lines11 = ["Weekly S&OP call - Tuesday 23 September 2025, 09:00",
           "Transcript from Teams, auto-generated and lightly edited by Niamh Gallagher",
           "Attendees: Ciarán Ó Dálaigh (chair), Siobhán Kelly, Declan Moran, Aoife Brennan, Tom Whitfield, "
           "Gareth Irvine, Niamh Gallagher",
           ""]
lines11 += [f"[{ts}] {who}: {what}" for ts, who, what in talk]
lines11 += ["", "Actions:",
            "- Siobhán: confirm the 29 September Bovirex booking and the back-order sequence.",
            "- Declan: customer notice on the new Naas cut-off (Thursday).",
            "- Aoife: recall status for the next call; collection by Carrow on 14 October.",
            "- Niamh: add the recall returns to the weekly dashboard.", ""]
write_text(p(F11), "\n".join(lines11))

# ============ File 12: CSV daily stock movements Q3 2025 =======================
F12 = "stock_movements_2025Q3.csv"
UNIT = {"VX": "vial", "AB": "bottle", "AH": "can", "CP": "pack", "MT": "box", "NS": "tub"}
GRN_Q = {"VX": (100, 600), "AB": (10, 41), "AH": (20, 81), "CP": (200, 1201), "MT": (20, 101), "NS": (40, 201)}
OUT_Q = {"VX": (5, 120), "AB": (6, 97), "AH": (2, 41), "CP": (10, 201), "MT": (2, 31), "NS": (5, 61)}
SKU12 = [c for c in PROD.index if c != "CP-420"]
W12 = [SKU_W[c] for c in SKU12]
rows12 = []
for day in pd.bdate_range("2025-07-01", "2025-09-30"):
    for _ in range(int(rng.integers(5, 9))):
        site = rnd.choices(list(SITES), weights=[40, 20, 20, 20])[0]
        if site == "NAS":
            mtype = rnd.choices(["GRN", "DISPATCH", "TRANSFER_OUT", "ADJUST", "RETURN"], weights=[20, 50, 18, 6, 6])[0]
        else:
            mtype = rnd.choices(["TRANSFER_IN", "DISPATCH", "ADJUST", "RETURN"], weights=[22, 62, 8, 8])[0]
        sku = rnd.choices(SKU12, weights=W12)[0]
        pre = sku[:2]
        if sku == "AB-221" and site == "SHR":
            sku = "AB-220"
        t = day + pd.Timedelta(hours=6) + pd.Timedelta(seconds=int(rng.integers(0, 12 * 3600)))
        batches = BATCH[sku] if sku != "AB-221" else (["24K117"] if day < pd.Timestamp("2025-09-18") else ["25B032"])
        batch = rnd.choice(batches)
        if mtype == "GRN":
            q = int(rng.integers(*GRN_Q[pre])) * (12 if pre == "AB" else 1)
            ref, com = f"PO-{45800 + len(rows12)}", ""
        elif mtype in ("DISPATCH", "TRANSFER_OUT"):
            q = -int(rng.integers(*OUT_Q[pre]))
            ref = f"SO-25-{30000 + len(rows12) * 7}" if mtype == "DISPATCH" else f"TO-{7100 + len(rows12)}"
            com = ""
        elif mtype == "TRANSFER_IN":
            q = int(rng.integers(*OUT_Q[pre])) * 2
            ref, com = f"TO-{7100 + len(rows12)}", ""
        elif mtype == "ADJUST":
            q = rnd.choice([-6, -4, -3, -2, -2, -1, -1, 1, 2])
            ref = ""
            com = rnd.choice(["cycle count", "damaged in racking", "broken in transit", "cycle count"])
        else:
            q = int(rng.integers(1, 13))
            ref = f"RMA-{5200 + len(rows12)}" if rnd.random() < 0.7 else ""
            com = rnd.choice(["", "customer over-ordered", "short-dated", ""])
        if pre == "NS" or rnd.random() < 0.05:
            batch = ""
        rows12.append({"movement_id": f"SM{250000 + len(rows12)}", "posted_at": t, "site": site,
                       "product_code": sku, "description": PROD.loc[sku, "Name"], "movement_type": mtype,
                       "quantity": q, "unit": UNIT[pre], "batch": batch, "reference": ref, "comment": com})
# recall returns of batch 24K117 after 18 September
for k, (d_, site, q) in enumerate([("2025-09-19 10:42:17", "NAS", 24), ("2025-09-22 14:05:51", "MLW", 12),
                                   ("2025-09-23 09:18:40", "LSB", 36), ("2025-09-24 11:27:03", "NAS", 48),
                                   ("2025-09-26 15:44:29", "MLW", 18)]):
    rows12.append({"movement_id": "", "posted_at": pd.Timestamp(d_), "site": site, "product_code": "AB-221",
                   "description": PROD.loc["AB-221", "Name"], "movement_type": "RETURN", "quantity": q,
                   "unit": "bottle", "batch": "24K117", "reference": f"RMA-RCL-{301 + k}",
                   "comment": "Recall RC-2025-04"})
df12 = pd.DataFrame(rows12).sort_values("posted_at", kind="stable").reset_index(drop=True)
df12["movement_id"] = [f"SM{250001 + i}" for i in range(len(df12))]
with open(p(F12), "w", encoding="utf-8", newline="") as f:
    w12 = csv.writer(f, lineterminator="\n")
    w12.writerow(list(df12.columns))
    for r in df12.itertuples(index=False):
        w12.writerow([r.movement_id, r.posted_at.strftime("%Y-%m-%dT%H:%M:%S")] + list(r[2:]))


# ================================================================ reading the new forms back
RTF_TOKEN = re.compile(r"\\([a-z]{1,32})(-?\d{1,10})? ?|\\'([0-9a-f]{2})|\\([^a-z])|([{}])|[\r\n]+|([^\\{}\r\n]+)",
                       re.I)
RTF_DEST = {"fonttbl", "colortbl", "stylesheet", "info", "listtable", "listoverridetable", "pict", "header",
            "footer"}
RTF_CHARS = {"par": "\n", "line": "\n", "tab": "\t", "bullet": "•", "emdash": "—", "endash": "–", "lquote": "‘",
             "rquote": "’", "ldblquote": "“", "rdblquote": "”", "cell": "\t", "row": "\n"}


def rtf_text(raw):
    """An RTF document's text: groups of destinations skipped, \\'hh read as Windows-1252."""
    out, stack, skip = [], [], False
    for m in RTF_TOKEN.finditer(raw):
        word, _arg, hexc, ch, brace, text = m.groups()
        if brace == "{":
            stack.append(skip)
        elif brace == "}":
            skip = stack.pop()
        elif ch is not None:
            if ch == "*":
                skip = True
            elif not skip and ch in "\\{}":
                out.append(ch)
            elif not skip and ch == "~":
                out.append("\u00a0")
        elif word is not None:
            if word in RTF_DEST:
                skip = True
            elif not skip and word in RTF_CHARS:
                out.append(RTF_CHARS[word])
        elif hexc is not None:
            if not skip:
                out.append(bytes([int(hexc, 16)]).decode("cp1252"))
        elif text is not None and not skip:
            out.append(text)
    return "".join(out)


def eml_parts(path):
    """An e-mail's headers, its text/plain and text/html bodies and its attachments (name -> bytes)."""
    from email.parser import BytesParser
    with open(path, "rb") as f_:
        m = BytesParser(policy=policy.default).parse(f_)
    plain_, html_, atts = "", "", {}
    for part in m.walk():
        if part.is_multipart():
            continue
        if part.get_filename():
            atts[part.get_filename()] = part.get_payload(decode=True)
        elif part.get_content_type() == "text/plain":
            plain_ = part.get_content()
        elif part.get_content_type() == "text/html":
            html_ = part.get_content()
    return m, plain_, html_, atts


def cell_str(v):
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return ""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def ods_text(path):
    parts = []
    for name, t in pd.read_excel(path, engine="odf", sheet_name=None, header=None).items():
        parts.append(name)
        parts += ["\t".join(cell_str(v) for v in row) for row in t.itertuples(index=False)]
    return "\n".join(parts)


def docx_text(path):
    """Body paragraphs and tables in order (a nested table's rows after its row), then headers and footers."""
    from docx.table import Table as DTable
    from docx.text.paragraph import Paragraph as DPar
    from docx.oxml.ns import qn
    dd = Document(path)
    parts = []

    def rows(tb):
        for row in tb.rows:
            parts.append("\t".join(c.text for c in row.cells))
            for c in row.cells:
                for tb2 in c.tables:
                    rows(tb2)
    for el in dd.element.body.iterchildren():
        if el.tag == qn("w:p"):
            parts.append(DPar(el, dd).text)
        elif el.tag == qn("w:tbl"):
            rows(DTable(el, dd))
    for s_ in dd.sections:
        for hf in (s_.header, s_.footer):
            parts += [pp.text for pp in hf.paragraphs]
    return "\n".join(parts)


def pptx_shape_text(shapes):
    """The text of a slide's shapes, group shapes opened, a table row as one tab-joined line."""
    out = []
    for sh in shapes:
        if sh.shape_type == MSO_SHAPE_TYPE.GROUP:
            out += pptx_shape_text(sh.shapes)
            continue
        if sh.has_text_frame and sh.text_frame.text:
            out.append(sh.text_frame.text)
        if getattr(sh, "has_table", False) and sh.has_table:
            out += ["\t".join(c.text for c in row.cells) for row in sh.table.rows]
    return out


def pptx_text(path):
    parts = []
    for sl in Presentation(path).slides:
        parts += pptx_shape_text(sl.shapes)
        if sl.has_notes_slide:
            parts.append(sl.notes_slide.notes_text_frame.text)
    return "\n".join(parts)


def text6(path):
    """A written file's text as the checks read it (text_of for the forms it knows)."""
    if path.endswith(".eml"):
        m, plain_, html_, atts = eml_parts(path)
        return "\n".join([f"Subject: {m['subject']}", f"From: {m['from']}", f"Date: {m['date']}", plain_,
                          BeautifulSoup(html_, "html.parser").get_text(" ")] +
                         [f"{k}\n{v.decode('utf-8')}" for k, v in atts.items()])
    if path.endswith(".rtf"):
        return rtf_text(open(path, encoding="ascii").read())
    if path.endswith(".ods"):
        return ods_text(path)
    if path.endswith(".docx"):
        return docx_text(path)
    if path.endswith(".pptx"):
        return pptx_text(path)
    if path.endswith((".jsonl", ".yaml", ".xml", ".txt")):
        return open(path, encoding="utf-8").read()
    return text_of(path)


def read_att():
    return pd.read_csv(io.BytesIO(eml_parts(p(F1))[3][F1_ATT]))


def read3(sheet):
    return pd.read_excel(p(F3), engine="odf", sheet_name=sheet)


def read4():
    return pd.json_normalize([json.loads(ln) for ln in open(p(F4), encoding="utf-8")])


def read5():
    t = pd.read_excel(p(F5), sheet_name="Rebates", header=R0 - 1)
    return t[t.Account.notna() & (t.Account != "Total")]


def read6_findings():
    from docx import Document as DocR
    tb = [t for t in DocR(p(F6)).tables if t.cell(0, 0).text == "No."][0]
    vals = [[c.text for c in row.cells] for row in tb.rows]
    return pd.DataFrame(vals[1:], columns=vals[0])


def read10():
    return pd.read_xml(p(F10), xpath="//Product", parser="lxml")


def read12():
    return pd.read_csv(p(F12), parse_dates=["posted_at"])


# ================================================================ questions
# ---- prose (13): worded like the documents
addq("prose", F1, "when does the next bovirex shipment land in Naas?", date_alts("2025-09-29") + ["29 September"],
     S1_SHIP)
addq("prose", F1, "In Declan's earlier email, how many pallets of vaccine can Lisburn hold again?", ["60 pallets"],
     S1_LSB)
addq("prose", F2, "by when do depots have to quarantine batch 24K117?",
     ["17:00 on 19 September 2025", "19 September 2025"], S2_QUAR)
addq("prose", F2, "What handling fee per return do customers get credited in the Oxytetrin recall memo?",
     ["€15.00", "€15", "15.00"], S2_FEE)
addq("prose", F5, "how are the FY2025 rebates paid out, according to the rebate workbook notes?", ["credit note"],
     S5_CREDIT)
addq("prose", F6, "when is the next GDP self-inspection of Naas due?", ["March 2026"], S6_NEXT)
addq("prose", F6, "How many calibrated probes were used for the July temperature mapping at Naas?",
     ["24 calibrated probes", "24"], S6_NOTE1)
addq("prose", F7, "how much did the board approve for the fourth cold room at Naas?",
     ["EUR 1.9 million", "1.9 million"], S7_COLD)
addq("prose", F7, "When does the Shrewsbury depot move to Battlefield Enterprise Park?",
     date_alts("2025-12-01"), S7_SHR)
addq("prose", F8, "per the readiness deck notes, in what quantity does Halden ship Leptarin Bovine?",
     ["full pallets of 2,400 doses", "2,400 doses", "2400 doses"], S8_NOTES)
addq("prose", F9, "When does Mallow's WMS move to the central instance?", date_alts("2025-11-03"), S9_MLW)
addq("prose", F11, "what is the new Naas cut-off for next-day cold-chain orders from 6 October?", ["14:00"],
     S11_CUTOFF)
addq("prose", F11, "in the S&OP call, how many bottles of the recalled batch had come back so far?", ["912"],
     S11_RECALL)

# ---- lookups (11): one cell of one table
t3 = df3.set_index("Territory")
v3a = float(t3.loc["Munster West", "Anthelmintics"])
addq("lookup", F3, "Anthelmintics sales for Munster West in the territory sales ods?", one_dp_alts(v3a))
v3b = float(df3r.set_index("Rep").loc["Cormac Hegarty", "Target FY2025 (EUR k)"])
addq("lookup", F3, "what was Cormac Hegarty's FY2025 target on the Reps sheet?", one_dp_alts(v3b))
addq("lookup", F5, "what's the volume bonus threshold in the rebate model?", int_alts(250000))
v5r = float(df5.set_index("Customer").loc["Drumlin Farm Co-op", "Rate"])
addq("lookup", F5, "Agreed rebate rate for Drumlin Farm Co-op in the FY2025 rebate workbook?",
     [f"{v5r * 100:.1f}%", f"{v5r * 100:g}%", repr(v5r)])
v6 = next(hi for z, rg, n, lo, hi in MAP6 if z == "Cold room 2")
addq("lookup", F6, "what max temperature did cold room 2 reach in the July mapping, per the self-inspection report?",
     [f"{v6:.1f}"])
v8 = next(shp for site, pal, shp, lg, note in TILES8 if site == "Mallow")
addq("lookup", F8, "How many validated shippers does Mallow have, per the vaccine readiness deck?", int_alts(v8))
v1 = int(att.query("customer == 'Suir Valley Vets' and product_code == 'VX-102'").allocated_vials.iloc[0])
addq("lookup", F1, "how many 50 dose vials were allocated to Suir Valley Vets in the week 38 allocation attachment?",
     [str(v1)])
v4 = next(r0 for zone, sensor, t0, r0, t1, r1 in TEMP4 if zone == "COLD-3")
addq("lookup", F4, "In the WMS audit log, what did sensor T-3B read when the COLD-3 alarm was raised on 14 September?",
     [f"{v4}", f"{v4} °C"])
v10 = float(PROD.loc["AH-305", "Price"])
addq("lookup", F10, "list price of Levamectin Pour-On 5 L in the product master export?", money_alts(v10))
addq("lookup", F9, "what's the max null ratio for the batch column of stock movements in the pipeline config?",
     ["0.10", "0.1", "10%"])
v7 = float(df7.set_index("Line").loc["Anthelmintics", "GM"])
addq("lookup", F7, "gross margin of Anthelmintics in the Q1 FY2026 commercial report?", [f"{v7:.1f}%"])

# ---- aggregates (13): computed with pandas from the data written, re-read from the files
dd12 = df12.posted_at
grn = df12[df12.movement_type == "GRN"]
g1 = int(grn[grn.product_code.str.startswith("AB-22")].quantity.sum())
assert grn.product_code.str.startswith("AB-22").sum() >= 3 and (grn.product_code == "AB-230").any()
addq("aggregate", F12, "per the stock csv, total quantity received (GRN) in Q3 for product codes starting AB-22?",
     int_alts(g1), check=lambda: int(read12().query("movement_type == 'GRN'").pipe(
         lambda t: t[t.product_code.str.startswith("AB-22")]).quantity.sum()) == g1)
m12 = (df12.movement_type == "ADJUST") & (dd12 >= "2025-08-11") & (dd12 < "2025-08-25")
g2 = int(m12.sum())
assert g2 >= 3
addq("aggregate", F12, "How many stock adjustments were posted between 11 and 24 August inclusive?", int_alts(g2),
     check=lambda: int(read12().pipe(lambda t: ((t.movement_type == "ADJUST") & (t.posted_at >= "2025-08-11")
                                                & (t.posted_at < "2025-08-25")).sum())) == g2)
cp = df12[(df12.product_code == "CP-410") & (df12.movement_type == "DISPATCH")]
g3 = float((-cp.quantity).groupby(cp.posted_at.dt.month).sum().mean())
assert cp.posted_at.dt.month.nunique() == 3
addq("aggregate", F12, "what's the average monthly dispatched quantity of CP-410 over July to September?",
     avg_alts(g3), check=lambda: abs(read12().query("product_code == 'CP-410' and movement_type == 'DISPATCH'")
                                     .pipe(lambda t: (-t.quantity).groupby(t.posted_at.dt.month).sum().mean())
                                     - g3) < 1e-9)
mlw = df12[(df12.site == "MLW") & (df12.movement_type == "DISPATCH")].product_code.value_counts()
g4 = unique_arg(mlw.values, mlw.index)
addq("aggregate", F12, "which product code has the most dispatch lines from Mallow in the stock movements?", [g4],
     check=lambda: read12().query("site == 'MLW' and movement_type == 'DISPATCH'").product_code.value_counts()
     .idxmax() == g4)
z4 = df4[(df4["details.zone"] == "COLD-3") & df4.event.str.startswith("temp_alarm")]
g5 = (pd.Timestamp(z4[z4.event == "temp_alarm_cleared"].ts.iloc[0]) -
      pd.Timestamp(z4[z4.event == "temp_alarm_raised"].ts.iloc[0])).total_seconds() / 60
assert g5 == 48
addq("aggregate", F4, "how long did the COLD-3 temperature alarm on 14 September last, per the audit log?",
     ["48 minutes", "48 min", "0:48"],
     check=lambda: read4().pipe(lambda t: t[t["details.zone"] == "COLD-3"]).pipe(
         lambda t: (pd.to_datetime(t[t.event == "temp_alarm_cleared"].ts).iloc[0]
                    - pd.to_datetime(t[t.event == "temp_alarm_raised"].ts).iloc[0]).total_seconds() / 60) == g5)
picks = df4[df4.event == "pick_confirmed"].user.value_counts()
g6 = unique_arg(picks.values, picks.index)
addq("aggregate", F4, "Which user confirmed the most picks in the Naas WMS audit log?", [g6],
     check=lambda: read4().query("event == 'pick_confirmed'").user.value_counts().idxmax() == g6)
g7 = int(df4[(df4.event == "pick_confirmed") & (df4["details.sku"] == "VX-102")]["details.qty"].sum())
addq("aggregate", F4, "total qty of VX-102 picked in the audit log (1-21 Sep)?", int_alts(g7),
     check=lambda: int(read4().query("event == 'pick_confirmed'").pipe(
         lambda t: t[t["details.sku"] == "VX-102"])["details.qty"].sum()) == g7)
caS = df3.set_index("Territory")["Companion animal"].sort_values(ascending=False)
assert caS.iloc[0] > caS.iloc[1] > caS.iloc[2]
g8 = caS.index[1]
addq("aggregate", F3, "which territory had the second highest companion animal sales in FY2025?", [g8],
     check=lambda: read3("Territory sales").set_index("Territory")["Companion animal (EUR k)"]
     .sort_values(ascending=False).index[1] == g8)
g9 = round(float(t3.loc["Munster East", "Vaccines"] - t3.loc["Connacht", "Vaccines"]), 1)
assert g9 > 0
addq("aggregate", F3, "difference in vaccine sales between Munster East and Connacht, per the territory ods?",
     one_dp_alts(g9), check=lambda: read3("Territory sales").set_index("Territory")["Vaccines (EUR k)"].pipe(
         lambda s_: abs(s_["Munster East"] - s_["Connacht"] - g9) < 0.05))
g10 = round(float(df5[df5.Type == "Co-op"].Sales.sum()), 2)
addq("aggregate", F5, "total FY2025 net sales of the co-op accounts in the rebate model?", money_alts(g10),
     check=lambda: abs(read5().query("Type == 'Co-op'")["Net sales FY2025 (EUR)"].sum() - g10) < 0.005)
g11 = float(PROD[PROD.Storage == "2-8 °C"].Price.mean())
addq("aggregate", F10, "average list price of the products stored at 2-8 °C in the product master?", avg_alts(g11),
     check=lambda: abs(read10().query("Storage == '2-8 °C'").ListPrice.mean() - g11) < 1e-9)
g12 = int(att[att.product_code == "VX-102"].allocated_vials.sum())
addq("aggregate", F1, "How many 50 dose vials were allocated in total in the week 38 allocation file?", int_alts(g12),
     check=lambda: int(read_att().query("product_code == 'VX-102'").allocated_vials.sum()) == g12)
g13 = sum(f_[2] == "Major" for f_ in FIND6)
addq("aggregate", F6, "how many major findings did the Naas self-inspection raise?", [str(g13), "three"],
     check=lambda: int((read6_findings().Classification == "Major").sum()) == g13)

# ---- paraphrases (7): the user's words; no content word shared with the answering sentence
addq("paraphrase", F1,
     "what fraction of each customer's outstanding request for the bigger Bovirex pack are we shipping right now?",
     ["70%"], S1_ALLOC)
addq("paraphrase", F2, "How many units of the faulty Oxytetrin lot had we shipped out before the withdrawal?",
     ["1,284", "1284"], S2_QTY)
addq("paraphrase", F6, "How close is the spot where lift trucks get recharged to the store of combustible stock?",
     ["4 metres"], S6_CHG)
addq("paraphrase", F7, "By how much did the cost of sending each package rise with the new carrier?", ["6.5%"],
     S7_COURIER)
addq("paraphrase", F8, "How long do the ice blocks need to sit before going into the insulated boxes?",
     ["24 hours"], S8_GEL)
addq("paraphrase", F9, "where's the ERP login secret kept?", ["vault"], S9_VAULT)
addq("paraphrase", F11, "how frequently does the shortage report get reloaded at present?",
     ["every two hours", "two hours"], S11_DASH)

# ---- none (8): close in topic, answer in no file
NONE = [("What's the shelf life of Fleagard Spot-On Cat once opened?",
         [r"shelf.?life", r"once opened", r"after opening"]),
        ("Which practice in Galway returned the most stock last quarter?", [r"galway"]),
        ("what humidity did the cold room mapping record at Naas?", [r"humidit", r"\brh\b"]),
        ("What was the EBITDA margin in Q1 FY2026?", [r"ebitda", r"operating profit", r"net profit", r"\bebit\b"]),
        ("How many doses of bluetongue vaccine do we have in stock?", [r"bluetongue", r"\bbtv"]),
        ("Which S3 bucket does the analytics pipeline land raw files in?", [r"\bs3\b", r"bucket"]),
        ("what was staff turnover at the Mallow depot this year?", [r"turnover", r"attrition", r"leavers?\b"]),
        ("What's the freight cost per pallet from Naas to Lisburn?", [r"freight", r"per pallet", r"haulage"])]
for q_, _ in NONE:
    addq("none", None, q_, [])

# ================================================================ read-back verification
import email
import openpyxl
import yaml
from lxml import etree
from pypdf import PdfReader
from odf.opendocument import load as odf_load
from odf import teletype
from odf.table import Table as OTable, TableRow as OTableRow, TableCell as OTableCell

files = [F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12]
RAW = {fn: text6(p(fn)) for fn in files}
TEXT = {fn: norm(RAW[fn]) for fn in files}
problems = question_problems(files, TEXT, NONE, strict=True)

# EML: mixed(alternative(plain, html), csv) with CRLF, quoted '>' lines, the attachment read by the compat32 parser
raw1 = open(p(F1), "rb").read()
m1 = email.message_from_bytes(raw1)
if [x.get_content_type() for x in m1.walk()] != ["multipart/mixed", "multipart/alternative", "text/plain",
                                                  "text/html", "text/csv"] or b"\r\n" not in raw1:
    problems.append(("eml structure", [x.get_content_type() for x in m1.walk()], None))
pl1 = [x for x in m1.walk() if x.get_content_type() == "text/plain"][0].get_payload(decode=True).decode("utf-8")
if not any(ln.startswith("> " + S1_LSB) for ln in pl1.splitlines()) or not any(ln.startswith(">> ")
                                                                                 for ln in pl1.splitlines()):
    problems.append(("eml quoted lines", None, None))
csv1 = [x for x in m1.walk() if x.get_filename() == F1_ATT][0].get_payload(decode=True)
a1 = pd.read_csv(io.BytesIO(csv1))
if int(a1.query("customer == 'Suir Valley Vets' and product_code == 'VX-102'").allocated_vials.iloc[0]) != v1:
    problems.append(("eml attachment lookup", None, None))
# RTF: the header, bold headings, a bullet list, Windows-1252 escapes, ASCII only, balanced groups
raw2 = open(p(F2), "rb").read()
s2 = raw2.decode("ascii")
depth, lowest = 0, 0
for m in re.finditer(r"\\\\|\\[{}]|[{}]", s2):
    depth += {"{": 1, "}": -1}.get(m.group(), 0)
    lowest = min(lowest, depth)
if not s2.startswith("{\\rtf1\\ansi") or depth != 0 or lowest < 0 or s2.count("\\bullet\\tab") != 4 \
        or "\\'e9" not in s2 or "\\'80" not in s2 or "\\b\\fs26" not in s2:
    problems.append(("rtf form", depth, lowest))
t2 = rtf_text(s2)
if "Ciarán Ó Dálaigh" not in t2 or "Renée Dwyer" not in t2 or "€15.00" not in t2 or "{" in t2 or "\\" in t2:
    problems.append(("rtf text", None, None))
# ODS: two sheets read with odfpy itself; the two lookups by row and column
od = odf_load(p(F3))
sheets3 = {}
for tb in od.spreadsheet.getElementsByType(OTable):
    grid3 = [[teletype.extractText(c) for c in tr.getElementsByType(OTableCell)]
             for tr in tb.getElementsByType(OTableRow)]
    sheets3[tb.getAttribute("name")] = grid3
if list(sheets3) != ["Territory sales", "Reps"]:
    problems.append(("ods sheets", list(sheets3), None))
else:
    g_ = sheets3["Territory sales"]
    row_ = next(r for r in g_ if r[0] == "Munster West")
    if float(row_[g_[0].index("Anthelmintics (EUR k)")]) != v3a:
        problems.append(("ods lookup", row_, None))
    g_ = sheets3["Reps"]
    row_ = next(r for r in g_ if r[0] == "Cormac Hegarty")
    if float(row_[g_[0].index("Target FY2025 (EUR k)")]) != v3b:
        problems.append(("ods reps lookup", row_, None))
# JSONL: one object a line, a few hundred lines, nested details, the lookup
lines4 = open(p(F4), encoding="utf-8").read().splitlines()
objs4 = [json.loads(ln) for ln in lines4]
if not 250 <= len(objs4) <= 500 or not any(isinstance(o.get("details", {}).get("location"), dict) for o in objs4):
    problems.append(("jsonl shape", len(objs4), None))
hit4 = [o for o in objs4 if o["event"] == "temp_alarm_raised" and o["details"]["sensor"] == "T-3B"
        and o["ts"].startswith("2025-09-14")]
if len(hit4) != 1 or hit4[0]["details"]["reading_c"] != v4:
    problems.append(("jsonl lookup", hit4, None))
# XLSX: formulas, percentage cells, real dates, two tables split by a blank row, a hidden sheet
wbr = openpyxl.load_workbook(p(F5))
wsr = wbr["Rebates"]
formulas = [c.coordinate for row in wsr.iter_rows() for c in row
            if isinstance(c.value, str) and c.value.startswith("=")]
pct = [c.coordinate for row in wsr.iter_rows() for c in row if c.number_format == "0.0%"]
dates = [c for row in wsr.iter_rows(min_row=R0 + 1) for c in row if isinstance(c.value, dt.datetime)]
if len(formulas) < 3 * n5 or len(pct) < 3 * n5 or len(dates) != 2 * n5:
    problems.append(("xlsx formulas / percentages / dates", len(formulas), len(pct)))
if any(wsr.cell(row=R0 - 1, column=j).value is not None for j in range(1, 12)) \
        or wsr.cell(row=3, column=1).value != "Parameter" or wsr.cell(row=R0, column=1).value != "Account":
    problems.append(("xlsx two tables", None, None))
if wbr["Lists"].sheet_state != "hidden" or wbr.sheetnames != ["Rebates", "Lists", "Notes"]:
    problems.append(("xlsx sheets", wbr.sheetnames, None))
if any(re.match(r"[EF]\d", c) for c in formulas if int(re.sub(r"\D", "", c)) < RT):
    problems.append(("asked column holds formulas", None, None))
x5 = read5()
pt = pd.read_excel(p(F5), sheet_name="Rebates", header=2, nrows=len(PARAMS5))
if float(x5.set_index("Customer").loc["Drumlin Farm Co-op", "Agreed rebate rate"]) != v5r or len(x5) != n5 \
        or int(pt.set_index("Parameter").loc["Volume bonus threshold (EUR)", "Value"]) != 250000:
    problems.append(("xlsx lookups", None, None))
# DOCX: header and footer, numbered headings, superscript note marks, the table nested in a cell
from docx import Document as DocR
d6r = DocR(p(F6))
if "QA-SI-2025-02" not in d6r.sections[0].header.paragraphs[0].text \
        or S6_NEXT not in d6r.sections[0].footer.paragraphs[0].text:
    problems.append(("docx header / footer", None, None))
heads = [pp.text for pp in d6r.paragraphs if pp.style.name.startswith("Heading")]
if sum(bool(re.match(r"\d+(\.\d+)? [A-Z]", t_)) for t_ in heads) != 9:
    problems.append(("docx numbered headings", heads, None))
if sum(bool(r_.font.superscript) for pp in d6r.paragraphs for r_ in pp.runs) != 2:
    problems.append(("docx note marks", None, None))
nested = d6r.tables[0].cell(0, 1).tables
if len(nested) != 1 or [c.text for c in nested[0].rows[2].cells][4] != f"{v6:.1f}" \
        or nested[0].cell(2, 0).text != "Cold room 2":
    problems.append(("docx nested table", None, None))
if any(f"{v6:.1f}" in c.text for c in d6r.tables[0].rows[0].cells):
    problems.append(("nested value visible to a flat reader", None, None))
# PDF: 2-3 pages, a page number in each footer, the two ruled tables read back
pdf = PdfReader(p(F7))
pages7 = [norm(pg.extract_text() or "") for pg in pdf.pages]
if not 2 <= len(pages7) <= 3 or not all(f"page {i}" in pg for i, pg in enumerate(pages7, 1)):
    problems.append(("pdf pages / page numbers", len(pages7), None))
all7 = " ".join(pages7)
for row_ in t7a[1:] + t7b[1:]:
    if norm(" ".join(row_)) not in all7:
        problems.append(("pdf table row", row_, None))
# PPTX: grouped tiles hold the lookup; the value is in no top-level shape; notes fact only in the notes
prs_r = Presentation(p(F8))
groups = [sh for sl in prs_r.slides for sh in sl.shapes if sh.shape_type == MSO_SHAPE_TYPE.GROUP]
tile_txt = {g.name: [x.text_frame.text for x in g.shapes if x.has_text_frame and x.text_frame.text] for g in groups}
if len(groups) != 8 or tile_txt.get("Tile Mallow", [None, None, ""])[2] != f"Validated shippers: {v8:,}":
    problems.append(("pptx groups", tile_txt, None))
top = norm("\n".join(sh.text_frame.text for sl in prs_r.slides for sh in sl.shapes if sh.has_text_frame))
if "validated shippers: 650" in top or "2400 doses" in top:
    problems.append(("pptx grouped / notes text also at the top level", None, None))
# YAML: parses, comments kept, the lookup
y9 = yaml.safe_load(open(p(F9), encoding="utf-8"))
if y9["sources"]["stock_movements"]["quality"]["max_null_ratio"]["batch"] != 0.1 \
        or sum(ln.lstrip().startswith("#") or " # " in ln for ln in yaml9.splitlines()) < 10:
    problems.append(("yaml", None, None))
# XML: parses, one Product per code, the price lookup by XPath
x10 = etree.parse(p(F10))
if len(x10.findall("Product")) != len(PROD) or \
        float(x10.xpath("string(/ProductMaster/Product[@code='AH-305']/ListPrice)")) != v10:
    problems.append(("xml", None, None))
# TXT: every spoken line is '[hh:mm:ss] Name: text', times rising
said = [ln for ln in RAW[F11].splitlines() if ln.startswith("[")]
stamps = [ln[1:9] for ln in said]
if len(said) != len(talk) or not all(re.match(r"\[\d\d:\d\d:\d\d\] [^\s:]+: \S", ln) for ln in said) \
        or stamps != sorted(stamps):
    problems.append(("transcript lines", None, None))
# CSV: a few hundred rows, datetimes with times, shared code prefixes, blank cells, units
t12 = read12()
if not 300 <= len(t12) <= 700 or (t12.posted_at.dt.hour == 0).all() or t12.batch.isna().sum() == 0 \
        or t12.reference.isna().sum() == 0 or t12.comment.isna().sum() == 0 \
        or set(t12.unit) != set(UNIT.values()) or t12.product_code.str[:3].value_counts().min() < 1 \
        or not {"AB-220", "AB-221", "AB-230", "VX-101", "VX-102", "VX-110"} <= set(t12.product_code):
    problems.append(("csv shape", len(t12), None))

write_questions(BASE, "w", problems)
for fn in files:
    print(fn, os.path.getsize(p(fn)), "bytes,", len(TEXT[fn]), "chars extracted")
print("pdf pages:", len(pages7), "csv rows:", len(t12), "jsonl lines:", len(objs4))
if problems:
    sys.exit(1)
