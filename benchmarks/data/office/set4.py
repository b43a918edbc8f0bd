"""Office files and questions a helper wrote in session 49 without seeing the service's code
(held out: measured before any rule they could teach). ``python set4.py DIR`` writes DIR/files
and DIR/questions.jsonl, the same bytes on every run.

Subjects (new to this set): a regional airline's engineering and maintenance group (Tarnbrook
Airways: ATR 72-600 and Q400 fleets) - a deferred defect procedure with numbered sections, a
defined-terms section and a merged-header table (DOCX), a quarterly fleet reliability report with a
component removals table that runs over a page break and footnotes (PDF), a winter heavy check
programme deck with sub-bullets, a slot table and speaker notes (PPTX), a saved internal wiki page
on line stations with a table and a definition list (HTML), an AOG parts requests API export with
nested records (JSON), fleet utilisation in wide form with a notes sheet and a summary sheet whose
header is not on the first row (XLSX), a half-year technical log defects export with DD/MM/YYYY
dates, blank cells and free-text comments (TSV), reliability review meeting notes with a checklist
and a pipe table (Markdown) and an e-mail thread with quoted replies (TXT).

Kinds: "lookup" (one cell named by row and column), "aggregate" (count / sum / average / top /
second / difference computed with pandas from the data written), "prose" (a fact in one sentence,
including speaker notes, a footnote, a quoted e-mail reply, a definition list and a checklist item),
"paraphrase" (a prose fact asked in the user's own words; shares no content word with the sentence
that answers it, checked below) and "none" (close in topic, answered by no file; expect [])."""
import os, re, csv, json, random, sys, datetime as dt
os.environ["SOURCE_DATE_EPOCH"] = "1751878800"  # 2025-07-07 09:00 UTC
import numpy as np
import pandas as pd
from _common import (add_slide, addq, avg_alts, bullets, date_alts, int_alts, money_alts, norm, notes,
                     one_dp_alts, out_files, plain, question_problems, save_doc, slide_table, stamped, text_of,
                     unique_arg, write_json, write_questions, write_text)

BASE = sys.argv[1]
p = out_files(BASE)
rng, rnd = np.random.default_rng(49), random.Random(49)
FIXED_DT = dt.datetime(2025, 7, 7, 9, 0, 0)

ATR = ["G-TBRA", "G-TBRB", "G-TBRC", "G-TBRD", "G-TBRE", "G-TBRF"]
Q400 = ["G-TBRK", "G-TBRL", "G-TBRM", "G-TBRN"]
FLEET = ATR + Q400
TYPE_OF = {r: ("ATR 72-600" if r in ATR else "DHC-8-402") for r in FLEET}
MSN = dict(zip(FLEET, ["1187", "1203", "1219", "1096", "1241", "1262", "4421", "4436", "4447", "4459"]))

# ============ File 1: DOCX deferred defect procedure ========================
from docx import Document
from docx.shared import Pt
F1 = "CAM-PRO-014_deferred_defects_procedure_issue4.docx"
S1_REPET = ("Repetitive defect: the same defect, or a defect in the same ATA sub-chapter, reported on the "
            "same aircraft three times within 15 flight cycles.")
S1_EXT = ("A one-time extension of a category B, C or D item may be granted by the Continuing Airworthiness "
          "Manager for a period not exceeding the original interval.")
S1_DAILY = "MCC reviews all open deferrals at the 07:30 daily operations call."
S1_LIMIT = ("No aircraft may carry more than eight open deferred defects at once without written approval "
            "from the Head of Maintenance.")
S1_RECORDS = "Deferred defect records shall be retained for 36 months after the defect is closed."
intervals1 = [("A", "As stated in the MEL remarks", "As stated in the MEL remarks", "No", "-"),
              ("B", "3", "-", "Yes, once", "Continuing Airworthiness Manager"),
              ("C", "10", "-", "Yes, once", "Continuing Airworthiness Manager"),
              ("D", "120", "-", "Yes, once", "Continuing Airworthiness Manager"),
              ("ADD (non-MEL)", "30", "150", "No", "-")]
df1 = pd.DataFrame(intervals1, columns=["Cat", "Days", "Cycles", "Ext", "By"])

d = stamped(Document(), FIXED_DT, author="Ross Kinnaird",
            title="CAM-PRO-014 Management of Deferred Defects")
d.styles["Normal"].font.size = Pt(11)
d.add_heading("CAM-PRO-014 Management of Deferred Defects", 0)
d.add_paragraph("Tarnbrook Airways Ltd - Continuing Airworthiness Management Exposition, Part 4 procedures. "
                "Issue 4, Revision 0. Effective date: 1 May 2025. Procedure owner: Continuing Airworthiness "
                "Manager (Alasdair Penhaligon). Approved by: Head of Maintenance (Ross Kinnaird).")
H1 = lambda t: d.add_heading(t, 1)
H2 = lambda t: d.add_heading(t, 2)
PP = lambda t: d.add_paragraph(t)
H1("1. Purpose and scope")
H2("1.1 Purpose")
PP("This procedure sets out how defects that cannot be rectified before the next flight are assessed, deferred, "
   "tracked and closed on Tarnbrook Airways aircraft. It ensures that every deferral is made against an approved "
   "reference, that the rectification interval is never exceeded, and that Maintenance Control has an accurate "
   "picture of the open deferrals on each aircraft at all times.")
PP("Deferral is a tool for keeping the schedule running safely; it is not a substitute for rectification. Where a "
   "defect can be fixed within the available ground time, with the parts and tooling at the station, it should be "
   "fixed rather than deferred, even if this causes a short departure delay.")
H2("1.2 Scope")
PP("The procedure applies to the ATR 72-600 and DHC-8-402 (Q400) fleets operated under the company's air operator "
   "certificate, at the main base in Exeter and at all line stations, whether staffed by company engineers or by "
   "contracted maintenance organisations. It covers defects reported by flight crew in the technical log (pilot "
   "reports), defects found by engineers during line checks (maintenance reports) and defects reported by cabin "
   "crew through the cabin defect log.")
PP("It does not apply to defects found during base maintenance checks, which are controlled through the work "
   "package and the hangar's own procedures, unless the aircraft is released to service with the defect still "
   "open. In that case the defect is transferred to the technical log and managed under this procedure from the "
   "moment of release.")
H2("1.3 Responsibilities")
PP("The certifying engineer is responsible for assessing the defect, confirming that the MEL or another approved "
   "reference permits deferral, carrying out any maintenance procedure required by the MEL item, placarding the "
   "affected system and making a complete entry in the technical log.")
PP("Maintenance Control (MCC) is responsible for approving each deferral before the aircraft departs, entering it "
   "in the maintenance information system, planning the rectification within the interval and arranging parts, "
   "tooling and manpower at the station where the work will be done.")
PP("The Continuing Airworthiness Manager is responsible for this procedure, for approving extensions and for "
   "the monthly review of deferral trends with the reliability section. The commander of the aircraft remains "
   "responsible for deciding whether to accept the aircraft with the deferred defect, taking account of the "
   "operational restrictions in the MEL.")
H2("1.4 Related documents")
PP("ATR 72-600 MEL (current revision); DHC-8-402 MEL (current revision); CAME Part 1.8, Technical log system; "
   "CAME Part 1.10, Use of the MEL; MOE 2.16, Release to service; CAM-PRO-009, Reliability programme.")
H1("2. Definitions")
PP("In this procedure the following terms have the meanings given below. Where a term is not defined here, the "
   "definition in the CAME glossary applies.")
for t_ in ["Acceptable Deferred Defect (ADD): a defect that is not covered by the MEL or the configuration "
           "deviation list but which approved maintenance data, or an engineering assessment approved by the "
           "Continuing Airworthiness Manager, shows does not affect the airworthiness of the aircraft for a "
           "limited period.",
           "Certifying engineer: a B1 or B2 licensed engineer holding a current company authorisation for the "
           "aircraft type, or a contracted engineer holding an equivalent authorisation accepted by the company.",
           "Deferred defect: a defect whose rectification has been formally postponed in accordance with this "
           "procedure, with an entry in the technical log and an approved rectification interval.",
           "MEL: the Minimum Equipment List for the aircraft type, approved by the competent authority for use by "
           "Tarnbrook Airways.",
           "Outstation: any station other than the main base at Exeter, whether staffed or not.",
           "Rectification interval: the maximum period, in calendar days or flight cycles, during which a deferred "
           "defect may remain open. The day on which the defect was discovered is not counted.",
           S1_REPET]:
    PP(t_)
H1("3. Raising a deferral")
H2("3.1 Eligibility")
PP("A defect may be deferred only if it is covered by an MEL item, by the configuration deviation list or by an "
   "approved ADD, and only if any operational or maintenance procedure attached to that item can be carried out "
   "at the station. A defect that affects primary structure, flight controls or the engines and is not covered "
   "by the MEL cannot be raised as an ADD without a written engineering assessment.")
PP("Certifying engineers must check the MEL preamble and the item's remarks before deferring. Several items on "
   "both types are conditional on the serviceability of other systems; for example, an inoperative pack on the "
   "ATR 72-600 may be deferred only if the remaining pack and its associated controller are serviceable.")
H2("3.2 Technical log entry")
PP("The deferral is recorded in the technical log on the same page as the defect. The entry gives the MEL item or "
   "ADD reference, the category, the date and the flight cycles at deferral, the expiry of the rectification "
   "interval and the name and authorisation number of the certifying engineer. A placard is fitted to each "
   "affected control or indicator, and its position is noted in the entry.")
PP("Cabin defects that do not affect airworthiness, such as a torn seat cover or an inoperative reading light, "
   "are recorded in the cabin defect log and are not counted as deferred defects under this procedure unless an "
   "MEL item applies.")
H2("3.3 MCC approval")
PP("Before the aircraft departs, the certifying engineer telephones MCC, reads back the technical log entry and "
   "obtains a deferral number. MCC checks that the deferral does not conflict with any other open item on the "
   "aircraft or with the planned routing, for example a flight into known icing conditions with an inoperative "
   "ice protection system.")
PP("If MCC cannot be reached, the aircraft must not depart with a new deferral. This rule applies at every "
   "station, including stations covered by contracted engineers.")
H2("3.4 Placards and crew briefing")
PP("Placards are fitted by the certifying engineer before the technical log entry is signed. Each placard shows "
   "the deferral number issued by MCC and the expiry of the interval, so that the next crew and the next "
   "engineer can see at a glance how long the item may remain open. Placards are removed only when the defect "
   "is rectified and the rectification has been certified in the technical log.")
PP("Where the MEL item carries an operational procedure, the certifying engineer makes sure the commander has "
   "been told about it before departure. MCC also sends the deferral details to the operations control centre, "
   "which passes any performance or routing restriction to flight planning. Cabin crew are briefed by the "
   "commander where the deferral affects cabin equipment, for example an inoperative lavatory or galley unit.")
H1("4. Rectification intervals")
H2("4.1 Intervals by category")
PP("Table 1 gives the rectification interval for each MEL category and for ADDs, and whether an extension may be "
   "granted. Where both calendar days and flight cycles are given, the interval ends at whichever limit is "
   "reached first.")
tb = d.add_table(rows=2 + len(df1), cols=5)
tb.style = "Table Grid"
tb.cell(0, 0).merge(tb.cell(1, 0)).text = "MEL category"
tb.cell(0, 1).merge(tb.cell(0, 2)).text = "Rectification interval"
tb.cell(0, 3).merge(tb.cell(0, 4)).text = "Extension"
for j, h in [(1, "Calendar days"), (2, "Flight cycles"), (3, "Permitted"), (4, "Approved by")]:
    tb.cell(1, j).text = h
for rr in (0, 1):
    for cc in range(5):
        for r_ in tb.cell(rr, cc).paragraphs[0].runs:
            r_.bold = True
for i, r in enumerate(df1.itertuples()):
    for j, v in enumerate([r.Cat, r.Days, r.Cycles, r.Ext, r.By]):
        tb.cell(i + 2, j).text = v
PP("Table 1: Rectification intervals and extensions.")
H2("4.2 Extensions")
PP(S1_EXT + " Category A items and ADDs cannot be extended. A request for an extension must be made by MCC at "
   "least 24 hours before the interval expires and must explain why the defect could not be rectified, what "
   "parts or resources are awaited and when the rectification is now planned.")
PP("Extensions are recorded in the technical log and reported to the competent authority in the monthly "
   "extension return. An aircraft whose interval has expired without an approved extension is grounded until the "
   "defect is rectified.")
H2("4.3 Planning the rectification")
PP("MCC plans the rectification at the first suitable opportunity, normally the next night-stop at a station with "
   "the right parts, tooling and licence cover. Where the aircraft will not return to such a station before the "
   "interval expires, MCC arranges for an engineer and parts to be sent to the aircraft or re-plans the aircraft's "
   "routing with the operations control centre.")
H1("5. Monitoring and reporting")
H2("5.1 Daily review")
PP(S1_DAILY + " For each deferral the duty controller confirms the expiry, the planned rectification slot and the "
   "status of any parts on order. Items due to expire within 48 hours are highlighted to the duty operations "
   "manager.")
H2("5.2 Limits per aircraft")
PP(S1_LIMIT + " Where several deferrals affect the same system, or where their operational restrictions combine, "
   "MCC assesses the combined effect with the duty flight operations manager before the aircraft is dispatched.")
H2("5.3 Repetitive defects")
PP("When a defect becomes repetitive, MCC raises a reliability alert and the defect may not be deferred again "
   "until a troubleshooting plan has been agreed with the reliability section. The reliability section reviews "
   "repetitive defects at the monthly reliability review meeting.")
H2("5.4 Records")
PP(S1_RECORDS + " Records are kept in the maintenance information system; paper technical log pages are scanned "
   "within seven days and the originals are kept at the main base.")
H1("6. Document control")
PP("Issue 4 replaces Issue 3 dated 12 February 2024. The main changes are the new limit on the number of open "
   "deferrals per aircraft in section 5.2, the flight cycle limit for ADDs in Table 1 and the requirement in "
   "section 3.3 that no aircraft departs with a new deferral if MCC cannot be reached.")
PP("This procedure is reviewed every 24 months, or sooner if the MEL, the regulations or the company's "
   "organisation change. Comments should be sent to the Continuing Airworthiness Manager.")
save_doc(d, p(F1), FIXED_DT)

# ============ File 2: PDF quarterly reliability report ======================
from reportlab import rl_config
rl_config.invariant = 1
from reportlab.lib.pagesizes import A4
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.lib.styles import getSampleStyleSheet, ParagraphStyle
from reportlab.lib.enums import TA_JUSTIFY
from reportlab.platypus import SimpleDocTemplate, Paragraph, Spacer, Table, TableStyle

ss = getSampleStyleSheet()
body = ParagraphStyle("body4", parent=ss["BodyText"], fontSize=10.5, leading=14, alignment=TA_JUSTIFY,
                      spaceAfter=6)
small = ParagraphStyle("small4", parent=ss["BodyText"], fontSize=8, leading=10)
F2 = "fleet_reliability_report_Q1_2025.pdf"
parts2 = {
    "ATR": [("Pack valve", "21-51"), ("Cabin temperature controller", "21-61"), ("Recirculation fan", "21-25"),
            ("VHF transceiver", "23-12"), ("Audio control panel", "23-51"), ("DC starter-generator", "24-31"),
            ("Main battery", "24-38"), ("Static inverter", "24-24"), ("Aileron trim actuator", "27-11"),
            ("Flap actuator", "27-51"), ("Fuel quantity probe", "28-41"), ("ACW hydraulic pump", "29-11"),
            ("Windshield heat controller", "30-42"), ("Main wheel assembly", "32-41"),
            ("Brake assembly", "32-42"), ("Nose wheel steering actuator", "32-51"),
            ("Air data computer", "34-11"), ("Weather radar transceiver", "34-41"), ("TCAS computer", "34-43"),
            ("HP bleed valve", "36-11"), ("Propeller electronic control", "61-22"), ("Propeller de-ice timer", "61-21")],
    "Q400": [("Pack flow control valve", "21-51"), ("Cabin pressure controller", "21-31"),
             ("VHF transceiver", "23-12"), ("Cockpit voice recorder", "23-71"), ("DC starter-generator", "24-31"),
             ("Main battery", "24-38"), ("Flap drive motor", "27-51"), ("Spoiler actuator", "27-61"),
             ("Fuel quantity indicator", "28-41"), ("Engine-driven hydraulic pump", "29-11"),
             ("Windshield heat controller", "30-42"), ("Propeller de-ice timer", "30-61"),
             ("Main wheel assembly", "32-41"), ("Brake assembly", "32-42"), ("Brake control unit", "32-42"),
             ("Nose wheel steering actuator", "32-51"), ("Air data computer", "34-11"),
             ("Weather radar transceiver", "34-41"), ("Bleed air shutoff valve", "36-11"),
             ("APU starter-generator", "49-41"), ("Propeller electronic control", "61-22"),
             ("Propeller blade", "61-11")],
}
rows2 = []
fh12 = {"ATR": 6 * 2290, "Q400": 4 * 2160}
for fl, lst in parts2.items():
    for desc, ata in lst:
        pn = f"{rnd.choice(['D', 'C', 'S', 'P'])}{rnd.randint(10000, 99999)}-{rnd.randint(1, 19)}"
        unsch = int(rng.integers(1, 9)) if not ata.startswith("32") else int(rng.integers(2, 12))
        tot = unsch + int(rng.integers(0, 4))
        mtbur = int(round(fh12[fl] * 4 / (unsch * 4 + rng.integers(0, 6)) * (1 if fl == "ATR" else 1), -1))
        rows2.append({"PN": pn, "Desc": desc, "ATA": ata, "Fleet": fl, "Removals": tot, "Unsched": unsch,
                      "MTBUR": mtbur})
df2 = pd.DataFrame(rows2)
assert df2.PN.is_unique

S2_DR = ("Dispatch reliability for the ATR 72-600 fleet was 98.7% in Q1 2025, against a target of 98.5%; the Q400 "
         "fleet achieved 97.9% against the same target.")
S2_FN1 = "Technical delays shorter than 15 minutes are excluded from the dispatch reliability figures."
S2_ALERT = ("The alert level for each ATA chapter is set at the mean plus two standard deviations of the pilot "
            "report rate over the previous four quarters.")
S2_FN2 = ("MTBUR: mean time between unscheduled removals, in flight hours, over the rolling 12 months to "
          "31 March 2025.")


def first_page(canvas, doc_):
    canvas.saveState()
    canvas.setLineWidth(0.4)
    canvas.line(25*mm, 30*mm, 75*mm, 30*mm)
    fn = Paragraph("<super>1</super> " + S2_FN1 + " Cancellations are counted as technical only where the "
                   "aircraft could not be released within the scheduled turnaround.", small)
    w, h = fn.wrap(A4[0] - 50*mm, 20*mm)
    fn.drawOn(canvas, 25*mm, 28*mm - h)
    later_pages(canvas, doc_)
    canvas.restoreState()


def later_pages(canvas, doc_):
    canvas.saveState()
    canvas.setFont("Helvetica", 8)
    canvas.drawString(25*mm, 12*mm, "Tarnbrook Airways - Reliability Section - Fleet Reliability Report Q1 2025")
    canvas.drawRightString(A4[0] - 25*mm, 12*mm, f"Page {doc_.page}")
    canvas.restoreState()


doc = SimpleDocTemplate(p(F2), pagesize=A4, invariant=1, title="Fleet Reliability Report Q1 2025",
                        author="Tarnbrook Airways Reliability Section", leftMargin=25*mm, rightMargin=25*mm,
                        topMargin=22*mm, bottomMargin=36*mm)
H = lambda t: Paragraph(t, ss["Heading2"])
P = lambda t: Paragraph(t, body)
st = [Paragraph("Fleet Reliability Report: Q1 2025", ss["Title"]),
      Paragraph("Tarnbrook Airways &mdash; Engineering, Reliability Section. Issued 22 April 2025. "
                "Distribution: Technical Review Board.", ss["Italic"]),
      Spacer(1, 8),
      H("1. Summary"),
      P("This report covers the three months from 1 January to 31 March 2025 for the ATR 72-600 fleet of six "
        "aircraft and the Q400 fleet of four aircraft. Dispatch reliability is reported for technical delays and "
        "cancellations only<super>1</super>. " + S2_DR),
      P("The ATR result was helped by a quiet February, when only four technical delays were recorded on the "
        "type. The Q400 shortfall against target was driven by propeller de-ice faults in January and by two "
        "long delays at Aberdeen while a replacement brake control unit was flown in from Exeter."),
      P("Pilot reports per 100 flight cycles fell slightly on both fleets compared with the previous quarter. "
        "Two ATA chapters exceeded their alert levels during the quarter and are discussed in section 3."),
      H("2. Technical delays and cancellations"),
      P("There were 41 technical delays of 15 minutes or more and 3 technical cancellations across both fleets "
        "in the quarter. Of the delays, 23 were on the ATR fleet and 18 on the Q400 fleet. The longest single "
        "delay was 4 hours 50 minutes, on G-TBRK at Aberdeen on 14 January, awaiting a brake control unit."),
      P("Landing gear (ATA 32) and ice and rain protection (ATA 30) together accounted for just under half of "
        "the delay minutes. Most ATA 32 delays were wheel and brake changes that could not be completed within "
        "the scheduled turnaround at outstations, which is also reflected in the removal figures in section 4."),
      P("Delays caused by the late arrival of parts at outstations fell from 9 in the previous quarter to 5. The "
        "new overnight courier arrangement for Aberdeen and Belfast City, which started on 3 February, appears "
        "to be working and will be reviewed again at the end of Q2."),
      H("3. Alert levels"),
      P(S2_ALERT + " A chapter that stays above its alert level for two consecutive months is treated as "
        "a sustained alert and requires a corrective action plan."),
      P("In Q1 2025, ATA 30 (ice and rain protection) on the Q400 fleet and ATA 21 (air conditioning) on the ATR "
        "fleet exceeded their alert levels. The Q400 ATA 30 alert was sustained in January and February and is "
        "linked to propeller de-ice timer and brush block faults. The ATR ATA 21 alert was a single-month "
        "exceedance in March, caused mainly by pack valve faults on two aircraft."),
      P("No other chapter was within 10% of its alert level at the end of the quarter. Alert levels for Q2 "
        "2025 have been recalculated and are published in the reliability database."),
      H("4. Component removals"),
      P("Table 2 lists all component removals recorded in the quarter, by part number and fleet. Unscheduled "
        "removals include units removed for troubleshooting that were later found serviceable (no fault found). "
        "The MTBUR column is shown for information; it is calculated over a rolling twelve months and is "
        "therefore less sensitive to a single bad quarter than the removal counts."),
      Spacer(1, 4)]
heads2 = ["Part number", "Description", "ATA", "Fleet", "Removals", "Unscheduled", "MTBUR (FH)\u00b2"]
hdr2 = ParagraphStyle("hdr4", parent=small, fontName="Helvetica-Bold", textColor=colors.white)
data = [[Paragraph(h.replace("\u00b2", "<super>2</super>"), hdr2) for h in heads2]]
for r in df2.itertuples():
    data.append([r.PN, r.Desc, r.ATA, r.Fleet, str(r.Removals), str(r.Unsched), f"{r.MTBUR:,}"])
t = Table(data, colWidths=[25*mm, 46*mm, 14*mm, 14*mm, 19*mm, 22*mm, 20*mm], repeatRows=1)
t.setStyle(TableStyle([
    ("FONT", (0, 1), (-1, -1), "Helvetica", 8.5),
    ("ALIGN", (4, 1), (-1, -1), "RIGHT"),
    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#1F3A5F")),
    ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#E8EEF5")]),
    ("BOX", (0, 0), (-1, -1), 0.5, colors.grey),
    ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
]))
st += [t, Paragraph("Table 2: Component removals, Q1 2025.", ss["Italic"]),
       Paragraph("<super>2</super> " + S2_FN2 + " Removals for access, where the unit was refitted, are not "
                 "counted.", small),
       Spacer(1, 8),
       P("Landing gear components again account for the largest number of unscheduled removals on both fleets. "
         "Brake wear on the Q400 is higher than the fleet plan assumed, mainly on aircraft operating the short "
         "island sectors, and the brake change interval in the planning system will be reset."),
       H("5. Actions"),
       P("The reliability section will issue a corrective action plan for the Q400 ATA 30 alert by 16 May 2025, "
         "with the powerplant engineer and the propeller manufacturer's field representative."),
       P("The ATR pack valve removals will be followed up with the component shop, and a strip report has been "
         "requested for the two units removed from G-TBRB in March."),
       P("Questions about this report should be sent to the reliability engineer, Ewan McCallister.")]
doc.build(st, onFirstPage=first_page, onLaterPages=later_pages)

# ============ File 3: PPTX winter heavy check programme =====================
from pptx import Presentation
from pptx.util import Inches
F3 = "winter_2025-26_heavy_check_programme.pptx"
checks3 = [("G-TBRF", "ATR 72-600", "C2 check", "6 Oct 2025"),
           ("G-TBRD", "ATR 72-600", "C4 check + corrosion programme", "20 Oct 2025"),
           ("G-TBRL", "DHC-8-402", "C-check + MLG overhaul", "10 Nov 2025"),
           ("G-TBRA", "ATR 72-600", "C2 check", "1 Dec 2025"),
           ("G-TBRN", "DHC-8-402", "C-check + MLG overhaul", "12 Jan 2026"),
           ("G-TBRC", "ATR 72-600", "C3 check", "9 Feb 2026")]
days3 = [16, 24, 21, 15, 20, 18]
mh3 = [int(round(d_ * rng.uniform(270, 330), -1)) for d_ in days3]
cost3 = [int(round(m_ * rng.uniform(0.052, 0.061))) for m_ in mh3]
df3 = pd.DataFrame({"Tail": [c[0] for c in checks3], "Type": [c[1] for c in checks3],
                    "Check": [c[2] for c in checks3], "In": [c[3] for c in checks3], "Days": days3,
                    "MH": mh3, "Cost": cost3})
gear3 = 2 * 38.5
budget3 = round((df3.Cost.sum() + gear3) * 1.10 / 1000, 1)
S3_BUDGET = f"Approve a programme budget of £{budget3}m including a 10% contingency"
S3_NOTES = ("Haldon Aero confirmed by phone that they can hold the second bay open until 14 November 2025 if "
            "G-TBRD overruns.")
S3_GEAR = ("Landing gear exchange sets for the two Q400s are leased from Heathfield Gear Services at £38,500 per "
           "shipset")
prs = stamped(Presentation(), FIXED_DT, author="Maintenance Planning")
s = add_slide(prs, 0, "Winter 2025/26 heavy check programme",
              "Maintenance Planning | Technical Review Board, 17 June 2025")
s = add_slide(prs, 1, "Scope")
bullets(s, ["Six C-checks between October 2025 and February 2026",
            (1, "ATR 72-600: G-TBRF, G-TBRD, G-TBRA, G-TBRC"),
            (1, "Q400: G-TBRL, G-TBRN"),
            "Two main landing gear overhauls on the Q400s, done inside their C-checks",
            (1, "Exchange gear fitted; our own sets go to the overhaul shop"),
            "All checks at Haldon Aero Services, Exeter",
            (1, "Two bays booked; never more than two aircraft in the hangar at once")])
notes(s, "G-TBRB and G-TBRE are not due a C-check this winter.")
s = add_slide(prs, 5, "Slot plan")
slide_table(s, ["Aircraft", "Type", "Check", "Induction", "Planned days", "Est. man-hours", "Est. cost (£k)"],
            [[r.Tail, r.Type, r.Check, r.In, str(r.Days), f"{r.MH:,}", f"{r.Cost:,}"] for r in df3.itertuples()],
            (Inches(0.3), Inches(1.6), Inches(9.4), Inches(3.4)), 12)
tx = s.shapes.add_textbox(Inches(0.3), Inches(5.3), Inches(9.4), Inches(0.6))
tx.text_frame.text = "Man-hours and costs are Haldon Aero's budget quotes of 30 May 2025, excluding parts."
notes(s, "The G-TBRD package includes the 12-year corrosion prevention tasks, which is why it is the longest.")
s = add_slide(prs, 1, "Key risks")
bullets(s, ["G-TBRD is the oldest airframe in the fleet",
            (1, "Corrosion findings could extend the check"),
            (1, "Mitigation: second bay on standby"),
            "Christmas and New Year",
            (1, "Haldon Aero closed 24-26 December and 1 January"),
            (1, "G-TBRA check planned around the closure"),
            "Exchange landing gear delivery",
            (1, "Gear must be on site two weeks before each Q400 induction")])
notes(s, S3_NOTES + " Keep that in your back pocket if the board asks about overruns.")
s = add_slide(prs, 1, "Spares and landing gear")
bullets(s, [S3_GEAR,
            (1, "Lease runs from delivery until our overhauled sets are refitted"),
            "Rotable pool for the ATR checks provided by Skyline Rotables under the existing agreement",
            "Consumables kits ordered by Stores eight weeks before each induction"])
s = add_slide(prs, 1, "Decisions for the board")
bullets(s, [S3_BUDGET,
            (1, "Check packages as quoted, plus the two landing gear leases"),
            "Approve G-TBRD going first on the ATR side if the October slot is confirmed",
            "Note the risk of a late G-TBRN induction if the exchange gear is late"])
s = add_slide(prs, 1, "Next steps")
bullets(s, ["Sign the slot contract with Haldon Aero by 11 July 2025",
            "Issue work packages six weeks before each induction",
            "Programme owner: Morag Lindqvist, Maintenance Planning"])
save_doc(prs, p(F3), FIXED_DT)

# ============ File 4: HTML wiki page (line stations) ========================
F4 = "MCC_wiki_line_stations.html"
stations4 = [("EXT", "Exeter", "Full (main base)", "24 hours", 14, 6, "Company"),
             ("ABZ", "Aberdeen", "Full", "05:00-23:00", 5, 2, "Company"),
             ("BHD", "Belfast City", "Full", "05:30-22:30", 4, 3, "Lagan Aviation Services"),
             ("SOU", "Southampton", "Transit", "06:00-21:00", 2, 1, "Solent Line Maintenance"),
             ("MAN", "Manchester", "Transit", "06:00-22:00", 2, 1, "Northern Aero Support"),
             ("EDI", "Edinburgh", "On call", "On call", 1, 1, "Forth Aviation Engineering"),
             ("JER", "Jersey", "Transit", "06:30-20:30", 1, 1, "Channel Air Engineering"),
             ("INV", "Inverness", "Fly-in", "-", 0, 0, "-"),
             ("NQY", "Newquay", "Fly-in", "-", 0, 0, "-")]
df4 = pd.DataFrame(stations4, columns=["Code", "Airport", "Cover", "Hours", "B1", "B2", "Provider"])
S4_FLYIN = ("An engineer is flown or driven in from the nearest staffed station; allow a minimum of 4 hours from "
            "call-out to arrival on stand.")
S4_JER = "Jersey becomes a full cover station from 1 September 2025, when the new Channel Air Engineering contract starts."
S4_EXT = "Call MCC on extension 4417 before releasing any aircraft with an open MEL item from an outstation."
rows_html = "\n".join(
    f"      <tr><td>{r.Code}</td><td>{r.Airport}</td><td>{r.Cover}</td><td>{r.Hours}</td>"
    f"<td>{r.B1}</td><td>{r.B2}</td><td>{r.Provider}</td></tr>" for r in df4.itertuples())
html = f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Line stations - MCC Wiki</title>
  <style>
    body {{ font-family: Arial, sans-serif; margin: 0; }}
    nav.top {{ background: #1f3a5f; color: #fff; padding: 8px 16px; }}
    nav.top a {{ color: #fff; margin-right: 18px; text-decoration: none; }}
    ol.breadcrumb {{ list-style: none; padding: 8px 16px; margin: 0; font-size: 13px; }}
    ol.breadcrumb li {{ display: inline; }}
    ol.breadcrumb li + li:before {{ content: " / "; }}
    main {{ padding: 0 16px 24px 16px; max-width: 1000px; }}
    table {{ border-collapse: collapse; }}
    th, td {{ border: 1px solid #bbb; padding: 4px 8px; font-size: 14px; }}
    th {{ background: #e8eef5; }}
    footer {{ border-top: 1px solid #ccc; padding: 8px 16px; font-size: 12px; color: #555; }}
  </style>
</head>
<body>
  <nav class="top">
    <a href="/wiki/mcc/">MCC Wiki</a>
    <a href="/wiki/mcc/procedures/">Procedures</a>
    <a href="/wiki/mcc/network/">Network</a>
    <a href="/wiki/mcc/contacts/">Contacts</a>
    <a href="/wiki/mcc/tools/">Tools</a>
    <a href="/wiki/search/">Search</a>
  </nav>
  <ol class="breadcrumb">
    <li><a href="/wiki/mcc/">MCC Wiki</a></li>
    <li><a href="/wiki/mcc/network/">Network</a></li>
    <li>Line stations</li>
  </ol>
  <main>
    <h1>Line maintenance stations</h1>
    <p>This page lists the stations on the Tarnbrook Airways network and the line maintenance cover at each one. It is the first place to look when planning a deferral, a night-stop rectification or an aircraft swap.</p>
    <p>{S4_EXT}</p>
    <h2>Station cover</h2>
    <table>
      <thead>
      <tr><th>Station</th><th>Airport</th><th>Cover</th><th>Hours (local)</th><th>B1 engineers</th><th>B2 engineers</th><th>Provider</th></tr>
      </thead>
      <tbody>
{rows_html}
      </tbody>
    </table>
    <p>Headcounts are licensed engineers authorised on at least one of our types, as of the June 2025 roster.</p>
    <h2>Changes coming up</h2>
    <ul>
      <li>{S4_JER}</li>
      <li>Manchester moves to a new provider in the winter season; details to follow from the Head of Line Maintenance.</li>
      <li>The Newquay nitrogen trolley has been withdrawn; tyre pressure top-ups there need a fly-in engineer.</li>
    </ul>
    <h2>Cover types</h2>
    <dl>
      <dt>Full cover</dt>
      <dd>Engineers on site for the whole operating day, with B1 and B2 cover and a stock of line spares.</dd>
      <dt>Transit cover</dt>
      <dd>Engineers on site for scheduled turnarounds only; rectification beyond transit checks needs MCC approval.</dd>
      <dt>On-call cover</dt>
      <dd>A contracted engineer who can attend within 90 minutes during the published hours.</dd>
      <dt>Fly-in cover</dt>
      <dd>{S4_FLYIN}</dd>
      <dt>AOG desk</dt>
      <dd>The stores team that sources parts for aircraft on ground; contact through MCC out of hours.</dd>
    </dl>
  </main>
  <footer>
    Page owner: Head of Line Maintenance. Last edited 23 June 2025 by Ewan McCallister. Internal use only - do not forward outside Tarnbrook Airways.
  </footer>
</body>
</html>
"""
write_text(p(F4), html)

# ============ File 5: JSON AOG parts requests export =========================
F5 = "aog_parts_requests_export_2025-06-30.json"
suppliers5 = {"Skyline Rotables Ltd": "United Kingdom", "Nordavia Parts AB": "Sweden",
              "AeroSpares Toulouse SAS": "France", "Heathfield Gear Services": "United Kingdom",
              "Atlantic Component Exchange Inc.": "United States"}
catalogue5 = [("Brake assembly", "32-42", "Heathfield Gear Services", 6800),
              ("Main wheel assembly", "32-41", "Heathfield Gear Services", 4200),
              ("Brake control unit", "32-42", "Atlantic Component Exchange Inc.", 11800),
              ("Propeller de-ice timer", "30-61", "Skyline Rotables Ltd", 3900),
              ("Brush block assembly", "61-21", "Skyline Rotables Ltd", 1450),
              ("Pack valve", "21-51", "AeroSpares Toulouse SAS", 9200),
              ("Cabin temperature controller", "21-61", "AeroSpares Toulouse SAS", 5100),
              ("VHF transceiver", "23-12", "Nordavia Parts AB", 7300),
              ("DC starter-generator", "24-31", "Nordavia Parts AB", 14500),
              ("Air data computer", "34-11", "Atlantic Component Exchange Inc.", 16900),
              ("Nose wheel tyre", "32-45", "Skyline Rotables Ltd", 610),
              ("Landing light lamp", "33-42", "Skyline Rotables Ltd", 185)]
stations5 = ["EXT", "ABZ", "BHD", "SOU", "MAN", "EDI", "JER"]
staff5 = {"EXT": "Dan Pethick", "ABZ": "Kirsty Urquhart", "BHD": "Ciaran Devlin", "SOU": "Lee Mountford",
          "MAN": "Aisha Rahman", "EDI": "Graeme Tosh", "JER": "Luc Le Brocq"}
EXPORT_AT = dt.datetime(2025, 6, 30, 23, 0)
recs5 = []
for i in range(96):
    req = dt.datetime(2025, 1, 6, 6, 0) + dt.timedelta(minutes=int(rng.integers(0, 174 * 24 * 60)))
    recs5.append(req)
recs5.sort()
records5 = []
for i, req in enumerate(recs5):
    desc, ata, sup, base = catalogue5[rnd.randrange(len(catalogue5))]
    reg = rnd.choice(FLEET)
    if ata.startswith("30") and reg in ATR:
        reg = rnd.choice(Q400)
    prio = rnd.choices(["AOG", "Critical", "Routine"], weights=[32, 30, 38])[0]
    lead = {"AOG": (6, 40), "Critical": (20, 96), "Routine": (72, 400)}[prio]
    lead_h = float(rng.uniform(*lead))
    rec_at = req + dt.timedelta(minutes=int(lead_h * 60))
    ship_at = req + dt.timedelta(minutes=int(lead_h * 60 * rng.uniform(0.3, 0.7)))
    if prio == "Routine" and rnd.random() < 0.08:
        status, ship_at, rec_at = "Cancelled", None, None
    elif rec_at > EXPORT_AT:
        status = "In transit" if ship_at <= EXPORT_AT else "Open"
        rec_at = None
        if status == "Open":
            ship_at = None
    else:
        status = "Received"
    qty = 1 if base > 1000 else rnd.randint(1, 4)
    amount = round(base * qty * float(rng.uniform(0.85, 1.2)) * (1.35 if prio == "AOG" else 1.0), 2)
    st_ = rnd.choices(stations5, weights=[30, 18, 16, 10, 10, 8, 8])[0]
    iso = lambda x: None if x is None else x.strftime("%Y-%m-%dT%H:%M:00Z")
    records5.append({
        "request_id": f"RQ-25-{101 + i:04d}",
        "priority": prio,
        "status": status,
        "aircraft": {"registration": reg, "type": TYPE_OF[reg], "msn": MSN[reg]},
        "part": {"description": desc, "ata": ata, "quantity": qty},
        "supplier": {"name": sup, "country": suppliers5[sup]},
        "timeline": {"requested_at": iso(req), "shipped_at": iso(ship_at), "received_at": iso(rec_at)},
        "cost": {"amount": amount, "currency": "GBP"},
        "requested_by": {"name": staff5[st_], "station": st_},
    })
export5 = {"export": {"source": "Stores API v2 /aog/requests", "generated_at": "2025-06-30T23:00:00Z",
                      "filter": "requested_at >= 2025-01-01", "record_count": len(records5)},
           "records": records5}
write_json(p(F5), export5, indent=2)

# ============ File 6: XLSX fleet utilisation 2024 ===========================
from openpyxl import Workbook
from openpyxl.styles import Font
F6 = "fleet_utilisation_2024.xlsx"
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
season = np.array([0.82, 0.84, 0.93, 1.0, 1.08, 1.14, 1.2, 1.22, 1.1, 0.98, 0.86, 0.88])
fh6 = {}
for reg in FLEET:
    base = 195 if reg in ATR else 178
    v = base * season * rng.uniform(0.9, 1.1, 12)
    if reg == "G-TBRE":
        v[0] = 24.6
    if reg == "G-TBRM":
        v[7] = v[7] * 1.15
    fh6[reg] = np.round(v, 1)
df6 = pd.DataFrame(fh6, index=MONTHS).T
df6.insert(0, "Type", [TYPE_OF[r] for r in df6.index])
S6_LEASE = ("G-TBRM was wet-leased to Skerry Island Air from 1 to 28 August 2024; hours flown during the lease "
            "are included.")
wb = stamped(Workbook(), FIXED_DT, creator="Fleet Technical")
ws = wb.active
ws.title = "FH by month"
ws.append(["Registration", "Type"] + MONTHS)
for c in ws[1]:
    c.font = Font(bold=True)
for reg, r in df6.iterrows():
    ws.append([reg, r.Type] + [float(r[m]) for m in MONTHS])
ws.column_dimensions["A"].width = 14
ws.column_dimensions["B"].width = 13
ws2 = wb.create_sheet("Notes")
for line in ["Fleet utilisation 2024 - notes",
             "Flight hours are airborne hours (wheels off to wheels on) taken from the technical log, not block hours.",
             "G-TBRE was in its C-check at Exeter from 6 to 31 January 2024, so its January hours are low.",
             S6_LEASE,
             "Figures for December were finalised on 14 January 2025 after the tech log audit.",
             "Questions to Fleet Technical (Jonah Treloar)."]:
    ws2.append([line])
ws2.column_dimensions["A"].width = 110
ws3 = wb.create_sheet("Summary")
ws3.append(["Fleet utilisation summary 2024"])
ws3["A1"].font = Font(bold=True, size=13)
ws3.append(["Flight hours by type, from the FH by month sheet"])
ws3.append([])
ws3.append([])
ws3.append(["Type", "Aircraft", "Total FH", "Avg FH per aircraft per month", "H1 FH", "H2 FH"])
for c in ws3[5]:
    c.font = Font(bold=True)
for ty in ["ATR 72-600", "DHC-8-402"]:
    sub = df6[df6.Type == ty][MONTHS]
    ws3.append([ty, int(len(sub)), round(float(sub.values.sum()), 1),
                round(float(sub.values.sum()) / len(sub) / 12, 1),
                round(float(sub[MONTHS[:6]].values.sum()), 1), round(float(sub[MONTHS[6:]].values.sum()), 1)])
allm = df6[MONTHS]
ws3.append(["Fleet total", int(len(allm)), round(float(allm.values.sum()), 1),
            round(float(allm.values.sum()) / len(allm) / 12, 1),
            round(float(allm[MONTHS[:6]].values.sum()), 1), round(float(allm[MONTHS[6:]].values.sum()), 1)])
ws3.column_dimensions["A"].width = 16
ws3.column_dimensions["D"].width = 28
save_doc(wb, p(F6), FIXED_DT)

# ============ File 7: TSV tech log defects H1 2025 ==========================
F7 = "techlog_defects_H1_2025.tsv"
defects7 = {
    "21": ["Pack 1 valve fault caution", "Pack 2 valve fault caution", "Cabin too warm reported by crew",
           "Recirculation fan noisy", "Cabin temperature controller fault"],
    "23": ["VHF 2 intermittent reception", "PA inaudible in rear cabin", "Interphone crackling"],
    "24": ["DC GEN 2 caution on start", "Battery temperature caution", "Lavatory light inoperative"],
    "25": ["Seat 12C recline inoperative", "Galley oven 1 tripping", "Overhead bin 7L latch broken",
           "Toilet flush inoperative"],
    "27": ["Aileron trim indication flickering", "Flap asymmetry caution"],
    "28": ["Fuel quantity indication fluctuating LH tank"],
    "29": ["Hydraulic fluid seep at main gear actuator", "Blue hydraulic low quantity advisory"],
    "30": ["Windshield heat inoperative", "LH wiper slow", "PROP DEICE caution", "Prop de-ice timer fault"],
    "32": ["Nose wheel steering off centre", "Main wheel tyre worn to limit", "Brake wear pin at limit",
           "Gear door unsafe light"],
    "33": ["LH landing light inoperative", "Logo light inoperative", "Reading light 9A inoperative"],
    "34": ["Weather radar no display", "ADC 1 fault message", "TCAS fail message"],
    "36": ["Bleed leak caution", "HP valve fault"],
    "52": ["Cargo door seal damaged", "Passenger door handle stiff"],
    "61": ["Propeller vibration reported", "PEC fault light"],
}
ata_w = {"21": 9, "23": 5, "24": 6, "25": 12, "27": 3, "28": 3, "29": 4, "30": 9, "32": 14, "33": 8, "34": 6,
         "36": 4, "52": 4, "61": 4}
comments7 = {"Closed": ["", "", "", "", "Ops check satisfactory", "Replaced unit, ops test good",
                        "Cleaned and re-seated connector, no further fault", "Rectified at EXT night stop",
                        "No fault found on ground test, crew advised", "Repeat of earlier defect - reliability informed",
                        "Troubleshooting IAW FIM, fault isolated to wiring"],
             "Deferred": ["", "Parts on order", "Carried forward to night stop", "Deferred IAW MEL, placard fitted"],
             "Open": ["", "", "Parts on order", "Awaiting access, see MCC", "Carried forward to night stop"]}
stations7 = ["EXT", "ABZ", "BHD", "SOU", "MAN", "EDI", "JER", "INV", "NQY"]
st_w = [30, 17, 14, 10, 10, 8, 6, 3, 2]
reg_w = {"G-TBRA": 10, "G-TBRB": 13, "G-TBRC": 9, "G-TBRD": 11, "G-TBRE": 8, "G-TBRF": 9,
         "G-TBRK": 14, "G-TBRL": 12, "G-TBRM": 8, "G-TBRN": 9}
END7 = dt.date(2025, 6, 30)
rows7 = []
for i in range(342):
    day = dt.date(2025, 1, 2) + dt.timedelta(days=int(rng.integers(0, 180)))
    reg = rnd.choices(list(reg_w), weights=list(reg_w.values()))[0]
    ata = rnd.choices(list(ata_w), weights=list(ata_w.values()))[0]
    if ata == "30" and reg in ATR and rnd.random() < 0.6:
        reg = rnd.choice(Q400)
    if ata == "21" and reg == "G-TBRK" and rnd.random() < 0.5:
        reg = "G-TBRB"
    sub_ = f"{ata}-{rnd.choice(['11', '12', '21', '31', '41', '51', '61'])}"
    desc = rnd.choice(defects7[ata])
    if reg in ATR and desc == "PROP DEICE caution":
        desc = "Prop de-ice timer fault"
    src = rnd.choices(["PIREP", "MAREP"], weights=[64, 36])[0]
    stn = rnd.choices(stations7, weights=st_w)[0]
    age = (END7 - day).days
    u = rnd.random()
    if age > 30:
        status = "Closed" if u < 0.93 else "Deferred"
    else:
        status = "Closed" if u < 0.6 else ("Deferred" if u < 0.85 else "Open")
    closed = None
    if status == "Closed":
        closed = day + dt.timedelta(days=rnd.choice([0, 0, 0, 1, 1, 2, 3, 5, 8]))
        if closed > END7:
            closed, status = None, "Deferred"
    mh = round(float(rng.choice([0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0], p=[.2, .25, .18, .15, .1, .07, .05])), 1) \
        if status == "Closed" and rnd.random() > 0.12 else None
    com = rnd.choice(comments7[status])
    if status == "Closed" and "tyre" in desc and rnd.random() < 0.7:
        com = "Tyre changed, pressures checked"
    if status == "Deferred" and rnd.random() < 0.6:
        com = f"Deferred MEL {ata}-{rnd.randint(10, 60)} cat {rnd.choice(['B', 'C', 'C', 'D'])}"
    rows7.append({"Date": day, "Reg": reg, "Type": TYPE_OF[reg], "Station": stn, "ATA": sub_, "Source": src,
                  "Description": desc, "Status": status, "Closed": closed, "MH": mh, "Comments": com})
df7 = pd.DataFrame(rows7).sort_values(["Date", "Reg", "ATA"], kind="stable").reset_index(drop=True)
df7.insert(0, "Ref", [f"TL25-{i + 1:04d}" for i in range(len(df7))])
fmt = lambda x: "" if x is None or (isinstance(x, float) and np.isnan(x)) else x.strftime("%d/%m/%Y")
with open(p(F7), "w", encoding="utf-8", newline="") as f:
    w = csv.writer(f, delimiter="\t", lineterminator="\n")
    w.writerow(["Defect Ref", "Date Raised", "Reg", "A/C Type", "Station", "ATA", "Source", "Description",
                "Status", "Date Closed", "Man-hours", "Comments"])
    for r in df7.itertuples():
        w.writerow([r.Ref, fmt(r.Date), r.Reg, r.Type, r.Station, r.ATA, r.Source, r.Description, r.Status,
                    fmt(r.Closed), "" if r.MH is None or pd.isna(r.MH) else f"{r.MH:.1f}", r.Comments])

# ============ File 8: Markdown reliability review meeting notes =============
F8 = "reliability_review_meeting_2025-07-03.md"
q2 = df7[(df7.Date >= dt.date(2025, 4, 1)) & (df7.Source == "PIREP")].copy()
q2["Chapter"] = q2.ATA.str[:2]
piv8 = q2.pivot_table(index="Chapter", columns="Type", values="Ref", aggfunc="count", fill_value=0)
piv8["Total"] = piv8.sum(axis=1)
piv8 = piv8.sort_values(["Total"], ascending=False, kind="stable").head(5)
assert "30" in piv8.index
CHAPTER_NAMES = {"21": "Air conditioning", "23": "Communications", "24": "Electrical power",
                 "25": "Equipment/furnishings", "27": "Flight controls", "28": "Fuel", "29": "Hydraulic power",
                 "30": "Ice and rain protection", "32": "Landing gear", "33": "Lights", "34": "Navigation",
                 "36": "Pneumatic", "52": "Doors", "61": "Propellers"}
table8 = "\n".join(f"| {ch} | {CHAPTER_NAMES[ch]} | {int(r['ATR 72-600'])} | {int(r['DHC-8-402'])} | {int(r.Total)} |"
                   for ch, r in piv8.iterrows())
S8_CHECK = "Ewan to ask Haldon Aero for a revised quote for the G-TBRD C-check by 18 July 2025"
S8_NEXT = "Next meeting: Thursday 7 August 2025, 10:00, Tech Services meeting room and Teams."
S8_KIT = "Reliability has been given £18,000 from the engineering budget to buy a second borescope kit for Aberdeen."
S8_PACK = ("The pack valve on G-TBRB has been replaced three times since April, so the removed unit will go to the "
           "manufacturer for a strip report.")
md = f"""# Reliability review meeting - 3 July 2025

**Attendees:** Alasdair Penhaligon (chair), Ewan McCallister (reliability), Priya Natarajan (MCC), Tomasz Wrobel (powerplant), Morag Lindqvist (planning), Jonah Treloar (fleet technical)
**Apologies:** Ross Kinnaird

## 1. Q2 pilot reports

PIREPs by ATA chapter for Q2 2025 (1 April to 30 June), top five chapters, from the tech log export:

| ATA | Chapter | ATR 72-600 | Q400 | Total |
|-----|---------|-----------:|-----:|------:|
{table8}

- Landing gear is still the biggest chapter, mostly tyres and brake wear pins at the island stations.
- ATA 30 on the Q400 is back above the alert level in June after a quiet May. Tomasz thinks most of it is the G-TBRL brush block (see Priya's e-mail of 4 July).

## 2. Repetitive defects

{S8_PACK} Ewan will check whether the other ATRs have the same part number fitted.

G-TBRK brake control unit: no repeat since the unit change in April. Closed.

## 3. Borescope inspections

{S8_KIT} Until it arrives, ABZ will keep borrowing the Exeter kit, which adds a day to any borescope inspection there.

## 4. Winter check programme

Morag confirmed the board approved the winter programme on 17 June. The G-TBRD quote looks light given the corrosion tasks, so we want a revised figure before the slot contract is signed.

## Actions

- [x] Ewan to update the Q400 ATA 30 alert level in the reliability database
- [ ] {S8_CHECK}
- [ ] Priya to send the G-TBRL brush block to the propeller shop for a strip report
- [ ] Jonah to add airborne hours for June to the utilisation workbook
- [x] Tomasz to confirm the borescope kit specification with stores

{S8_NEXT}
"""
write_text(p(F8), md)

# ============ File 9: e-mail thread ==========================================
F9 = "email_RE_G-TBRL_prop_deice_findings.txt"
S9_BOOK = "I've booked G-TBRL into the Exeter hangar on the night of 15 July to change the brush block assembly."
S9_WEAR = "Brush block wear measured 2.1 mm against a limit of 2.5 mm, so it is inside limits but not by much."
S9_PIREPS = "We've had three PROP DEICE caution PIREPs on G-TBRL since 20 June, all on the No. 2 propeller."
rq9 = next(r["request_id"] for r in records5 if r["part"]["description"] == "Brush block assembly")
email = f"""From: Priya Natarajan <priya.natarajan@tarnbrook-air.co.uk>
Sent: Friday, 4 July 2025 16:12
To: Tomasz Wrobel <tomasz.wrobel@tarnbrook-air.co.uk>
Cc: Maintenance Control <mcc@tarnbrook-air.co.uk>; Ewan McCallister <ewan.mccallister@tarnbrook-air.co.uk>
Subject: RE: G-TBRL No. 2 prop de-ice - findings

Thanks Tomasz, that's really helpful.

{S9_BOOK} Stores have a unit on the shelf (it came in on {rq9}), so no need to order anything.

Ewan - can you keep the ATA 30 alert open until we see whether this fixes it? I'd rather not close it on the strength of one good week.

Priya

Priya Natarajan
Duty Maintenance Controller, MCC
Tarnbrook Airways | Exeter Airport | ext. 4417

> From: Tomasz Wrobel <tomasz.wrobel@tarnbrook-air.co.uk>
> Sent: Friday, 4 July 2025 11:47
> To: Priya Natarajan <priya.natarajan@tarnbrook-air.co.uk>
> Subject: RE: G-TBRL No. 2 prop de-ice - findings
>
> Hi Priya,
>
> The slip ring and brush block on No. 2 were inspected last night at ABZ by Kirsty's team.
> {S9_WEAR}
> The slip ring itself was clean, with no arcing marks.
>
> The timer tested serviceable on the bench last week, so my money is on the brushes. I'd change the brush block at the next hangar opportunity rather than wait for the next scheduled inspection.
>
> Tomasz
>
>> From: Priya Natarajan <priya.natarajan@tarnbrook-air.co.uk>
>> Sent: Thursday, 3 July 2025 09:05
>> To: Tomasz Wrobel <tomasz.wrobel@tarnbrook-air.co.uk>
>> Subject: G-TBRL No. 2 prop de-ice - findings
>>
>> Tomasz,
>>
>> {S9_PIREPS} Each time the caution cleared on the ground and the de-ice timer passed its BITE test.
>>
>> G-TBRL night-stops at ABZ tonight. Could you get someone to look at the slip ring and brush block while it's there?
>>
>> Thanks,
>> Priya
"""
write_text(p(F9), email)

# ================================================================ questions
# ---- prose (14): worded like the documents
addq("prose", F1, "In the deferred defects procedure, when does a defect count as a repetitive defect?",
     ["three times within 15 flight cycles", "within 15 flight cycles"], S1_REPET)
addq("prose", F1, "Who can grant a one-time extension for a category C MEL item?",
     ["Continuing Airworthiness Manager"], S1_EXT)
addq("prose", F1, "how long do we have to keep deferred defect records after the defect is closed?",
     ["36 months"], S1_RECORDS)
addq("prose", F2, "What was the ATR 72-600 dispatch reliability in Q1 2025?", ["98.7%"], S2_DR)
addq("prose", F2, "In the Q1 2025 reliability report, which technical delays are left out of the dispatch reliability figures?",
     ["shorter than 15 minutes", "15 minutes"], S2_FN1)
addq("prose", F3, "Until when can Haldon Aero keep the second hangar bay open if G-TBRD overruns?",
     ["14 November 2025", "14 November", "14 Nov 2025"], S3_NOTES)
addq("prose", F3, "What programme budget is the board being asked to approve for the winter heavy checks?",
     [f"£{budget3}m", f"{budget3}m"], S3_BUDGET)
addq("prose", F4, "for fly-in cover, how long should I allow from call-out until the engineer is on stand?",
     ["minimum of 4 hours", "4 hours"], S4_FLYIN)
addq("prose", F4, "From when does Jersey become a full cover station?", ["1 September 2025", "2025-09-01"], S4_JER)
addq("prose", F8, "By what date is Ewan supposed to get the revised G-TBRD C-check quote from Haldon Aero?",
     ["18 July 2025", "2025-07-18"], S8_CHECK)
addq("prose", F8, "when's the next reliability review meeting?", ["7 August 2025", "Thursday 7 August 2025"], S8_NEXT)
addq("prose", F9, "How much brush block wear did Kirsty's team measure on G-TBRL's No. 2 prop?",
     ["2.1 mm"], S9_WEAR)
addq("prose", F9, "How many PROP DEICE caution PIREPs had G-TBRL had since 20 June when Priya first emailed Tomasz?",
     ["three"], S9_PIREPS)
addq("prose", F6, "who was G-TBRM wet leased to in aug 2024?", ["Skerry Island Air"], S6_LEASE)

# ---- lookups (8): one cell of one table
r1 = df1.set_index("Cat").loc["D"]
addq("lookup", F1, "how many calendar days can a cat D MEL item stay open?", [r1.Days])
pr2 = df2[(df2.Fleet == "Q400") & (df2.Desc == "Brake control unit")].iloc[0]
addq("lookup", F2, "whats the MTBUR for the Q400 brake control unit in the Q1 reliability report?", int_alts(pr2.MTBUR))
r3 = df3.set_index("Tail").loc["G-TBRN"]
addq("lookup", F3, "How many days is G-TBRN planned to be in the hangar for its C-check this winter?", [str(r3.Days)])
r4 = df4.set_index("Code").loc["BHD"]
addq("lookup", F4, "how many B2 engineers are there at BHD?", [str(r4.B2)])
rec5 = records5[36]
amt5 = rec5["cost"]["amount"]
addq("lookup", F5, f"How much did parts request {rec5['request_id']} cost?",
     list(dict.fromkeys(money_alts(amt5) + [plain(amt5)])))
v6 = float(df6.loc["G-TBRC", "Mar"])
addq("lookup", F6, "G-TBRC flight hrs in march 2024?", list(dict.fromkeys([f"{v6:.1f}", plain(v6)])))
row7 = df7[(df7.Status == "Closed") & (df7.Date >= dt.date(2025, 3, 1)) & (df7.Reg == "G-TBRL")
           & (df7.Closed != df7.Date)].iloc[0]
addq("lookup", F7, f"When was tech log defect {row7.Ref} closed?", date_alts(row7.Closed, dmy=True))
addq("lookup", F8, "in the Q2 PIREP table from the reliability meeting, how many Q400 PIREPs were there for ATA 30?",
     [str(int(piv8.loc["30", "DHC-8-402"]))])

# ---- aggregates (11): computed with pandas from the data written


def read7():
    t7 = pd.read_csv(p(F7), sep="\t", dtype=str, keep_default_na=False)
    t7["d"] = pd.to_datetime(t7["Date Raised"], format="%d/%m/%Y")
    return t7


def read6():
    return pd.read_excel(p(F6), sheet_name="FH by month", index_col=0)


def pdf_removals():
    """the removals table read back from the PDF text, one row per line"""
    from pypdf import PdfReader as _R
    pat = re.compile(r"\b([CDSP]\d{5}-\d{1,2}) (.+?) (\d\d-\d\d) (ATR|Q400) (\d+) (\d+) ([\d,]+)")
    out = []
    for pg in _R(p(F2)).pages:
        flat = re.sub(r"\s+", " ", pg.extract_text() or "")
        for m in pat.finditer(flat):
            out.append({"PN": m[1], "ATA": m[3], "Fleet": m[4], "Unsched": int(m[6])})
    t2 = pd.DataFrame(out)
    assert len(t2) == len(df2), len(t2)
    return t2


def read5():
    with open(p(F5), encoding="utf-8") as f:
        t5 = pd.json_normalize(json.load(f)["records"])
    for c in ["timeline.requested_at", "timeline.received_at"]:
        t5[c] = pd.to_datetime(t5[c])
    return t5


n_mar = int(((df7.Date >= dt.date(2025, 3, 1)) & (df7.Date <= dt.date(2025, 3, 15))).sum())
addq("aggregate", F7, "How many tech log defects were raised between 1 and 15 March 2025 inclusive?", int_alts(n_mar),
     check=lambda: int(((read7().d >= "2025-03-01") & (read7().d <= "2025-03-15")).sum()) == n_mar)
n_k = int(((df7.Reg == "G-TBRK") & (df7.Status != "Closed")).sum())
addq("aggregate", F7, "how many defects on G-TBRK are not closed yet?", int_alts(n_k),
     check=lambda: int(((read7().Reg == "G-TBRK") & (read7().Status != "Closed")).sum()) == n_k)
dstn = df7[df7.Status == "Deferred"].Station.value_counts()
top_stn = unique_arg(dstn.values, dstn.index)
addq("aggregate", F7, "Which station has the most defects with status Deferred in the H1 tech log?", [top_stn],
     check=lambda: read7().query("Status == 'Deferred'").Station.value_counts().idxmax() == top_stn)
vc = df7.Reg.value_counts()
assert vc.iloc[0] > vc.iloc[1] > vc.iloc[2], "tie in aircraft defect counts"
second = vc.index[1]
addq("aggregate", F7, "Which aircraft had the second highest number of tech log defects in H1 2025?", [second],
     check=lambda: read7().Reg.value_counts().index[1] == second)
q4avg = float((df7.Type == "DHC-8-402").sum() / 6)
addq("aggregate", F7, "What's the avg number of defects raised per month on the Q400s, Jan to Jun 2025?",
     avg_alts(q4avg), check=lambda: abs((read7()["A/C Type"] == "DHC-8-402").sum() / 6 - q4avg) < 1e-9)
q3atr = round(float(df6[df6.Type == "ATR 72-600"][["Jul", "Aug", "Sep"]].values.sum()), 1)
addq("aggregate", F6, "What was the total flight hours for the ATR fleet in Q3 2024?", one_dp_alts(q3atr),
     check=lambda: abs(read6().query("Type == 'ATR 72-600'")[["Jul", "Aug", "Sep"]].values.sum() - q3atr) < 0.05)
tot6 = df6[MONTHS].sum(axis=1).round(1)
most6 = unique_arg(tot6.values, tot6.index)
addq("aggregate", F6, "which aircraft flew the most hours in 2024?", [most6],
     check=lambda: read6()[MONTHS].sum(axis=1).idxmax() == most6)
diff6 = round(abs(float(tot6["G-TBRA"]) - float(tot6["G-TBRK"])), 1)
addq("aggregate", F6, "Difference in total 2024 flight hours between G-TBRA and G-TBRK?", one_dp_alts(diff6),
     check=lambda: abs(abs(read6().loc["G-TBRA", MONTHS].sum() - read6().loc["G-TBRK", MONTHS].sum()) - diff6) < 0.05)
t5 = pd.json_normalize(records5)
t5["req"] = pd.to_datetime(t5["timeline.requested_at"])
t5["rec"] = pd.to_datetime(t5["timeline.received_at"])
maysel = t5[(t5.priority == "AOG") & (t5.req >= "2025-05-01") & (t5.req < "2025-06-01")]
assert len(maysel) >= 3
may_sum = round(float(maysel["cost.amount"].sum()), 2)
addq("aggregate", F5, "total cost of AOG priority parts requests raised in May 2025?", money_alts(may_sum),
     check=lambda: abs(read5().query("priority == 'AOG'").pipe(
         lambda x: x[(x["timeline.requested_at"] >= "2025-05-01") & (x["timeline.requested_at"] < "2025-06-01")]
     )["cost.amount"].sum() - may_sum) < 0.005)
sky = t5[(t5.priority == "AOG") & (t5["supplier.name"] == "Skyline Rotables Ltd") & t5.rec.notna()]
assert len(sky) >= 3
sky_h = float(((sky.rec - sky.req).dt.total_seconds() / 3600).mean())
addq("aggregate", F5, "What's the average lead time in hours from request to receipt for AOG requests supplied by Skyline Rotables?",
     avg_alts(sky_h),
     check=lambda: abs(read5().query("priority == 'AOG' and `supplier.name` == 'Skyline Rotables Ltd'").pipe(
         lambda x: ((x["timeline.received_at"] - x["timeline.requested_at"]).dt.total_seconds() / 3600).mean())
         - sky_h) < 1e-6)
u32 = int(df2[df2.ATA.str.startswith("32")].Unsched.sum())
addq("aggregate", F2, "How many unscheduled removals of ATA 32 landing gear parts were there in Q1 2025, both fleets together?",
     int_alts(u32), check=lambda: pdf_removals()[lambda x: x.ATA.str.startswith("32")].Unsched.sum() == u32)

# ---- paraphrases (7): the user's words; no content word shared with the answering sentence
addq("paraphrase", F1, "What's the ceiling on outstanding postponed faults any single airframe can have?",
     ["eight", "8 open deferred"], S1_LIMIT)
addq("paraphrase", F1, "At what time each morning is the list of outstanding postponed faults gone through?",
     ["07:30"], S1_DAILY)
addq("paraphrase", F2, "How is the warning threshold worked out in the quarterly dependability document?",
     ["mean plus two standard deviations", "two standard deviations"], S2_ALERT)
addq("paraphrase", F3, "What's the rental price of each swap kit of undercarriage?",
     ["£38,500", "38,500", "38500"], S3_GEAR)
addq("paraphrase", F4, "What number do I dial to reach the control desk?", ["4417"], S4_EXT)
addq("paraphrase", F8, "How much money was set aside to purchase another engine-inspection camera set?",
     ["£18,000", "18,000", "18000"], S8_KIT)
addq("paraphrase", F9, "When is the worn contact part on the Q400 with the ice-protection faults going to be swapped?",
     ["15 July", "night of 15 July"], S9_BOOK)

# ---- none (6): close in topic, answer in no file
NONE = [("What torque is specified for the brush block screws on G-TBRL's No. 2 propeller?",
         [r"torque", r"in-?lb", r"\d\s?nm\b", r"lbf"]),
        ("What penalty does Haldon Aero charge if one of the winter check slots is cancelled at short notice?",
         [r"penalt", r"cancellation (fee|charge)", r"short notice", r"cancel[^.]{0,40}slot", r"slot[^.]{0,40}cancel"]),
        ("What was the Q400 fleet's dispatch reliability in Q4 2024?",
         [r"q4 2024", r"fourth quarter", r"october to december 2024", r"q4 24"]),
        ("Which aircraft had the bird strike reported in the H1 2025 tech log?",
         [r"bird", r"strike"]),
        ("When was the last engine change on G-TBRA?",
         [r"engine change", r"engine (removal|replacement)", r"\besn\b", r"pw127", r"pw150"]),
        ("How much did G-TBRE's C-check in January 2024 cost?",
         [r"g-tbre[^.]{0,80}£", r"£[^.]{0,80}g-tbre", r"g-tbre[^.]{0,80}cost"])]
for q_, _ in NONE:
    addq("none", None, q_, [])

# ================================================================ read-back verification
from pypdf import PdfReader
from bs4 import BeautifulSoup
from pptx import Presentation as PrsR

files = [F1, F2, F3, F4, F5, F6, F7, F8, F9]
RAW = {fn: text_of(p(fn)) for fn in files}
TEXT = {fn: norm(RAW[fn]) for fn in files}
problems = question_problems(files, TEXT, NONE)
# the PDF table: every row is in the text, and the table runs over a page break with its header repeated
pages2 = [norm(pg.extract_text() or "") for pg in PdfReader(p(F2)).pages]
for r in df2.itertuples():
    if not any(f"{r.PN.lower()} {r.Desc.lower()} {r.ATA} {r.Fleet.lower()} {r.Removals} {r.Unsched} {r.MTBUR}" in pg
               for pg in pages2):
        problems.append(("pdf table row not found", r.PN, None))
pg_first = [i for i, pg in enumerate(pages2) if df2.PN.iloc[0].lower() in pg]
pg_last = [i for i, pg in enumerate(pages2) if df2.PN.iloc[-1].lower() in pg]
if not (pg_first and pg_last and pg_last[0] > pg_first[0]):
    problems.append(("pdf table does not span a page break", pg_first, pg_last))
elif not all("part number description" in pages2[i] for i in range(pg_first[0], pg_last[0] + 1)):
    problems.append(("pdf table header not repeated", None, None))
if len(pages2) < 3:
    problems.append(("pdf shorter than 3 pages", len(pages2), None))
# the PDF footnote really is at the foot of page 1
if "15 minutes are excluded" not in pages2[0]:
    problems.append(("footnote not on page 1", None, None))
# the speaker-notes fact is only in the notes; the quoted-reply fact only on a quoted line
slide_text = []
for sl in PrsR(p(F3)).slides:
    for sh in sl.shapes:
        if sh.has_text_frame:
            slide_text.append(sh.text_frame.text)
if "14 november" in norm("\n".join(slide_text)):
    problems.append(("notes fact also on a slide", None, None))
if not any(line.startswith(">") and "2.1 mm" in line for line in RAW[F9].splitlines()):
    problems.append(("quoted-reply fact not on a quoted line", None, None))
if not any(line.startswith("- [ ]") and "18 July 2025" in line for line in RAW[F8].splitlines()):
    problems.append(("checklist fact not in a checklist item", None, None))
soup = BeautifulSoup(open(p(F4), encoding="utf-8").read(), "html.parser")
if not any("4 hours" in dd_.get_text() for dd_ in soup.find_all("dd")):
    problems.append(("definition-list fact not in a <dd>", None, None))
ndocx_words = len(re.findall(r"\w+", RAW[F1]))
if ndocx_words < 1500:
    problems.append(("docx probably shorter than 3 pages", ndocx_words, None))
if len(df7) < 300 or (df7.Comments == "").sum() < 30 or df7.MH.isna().sum() < 30:
    problems.append(("tsv too short or too few blanks", len(df7), None))
if len(PrsR(p(F3)).slides) < 6:
    problems.append(("pptx has fewer than 6 slides", None, None))

write_questions(BASE, "n", problems)
for fn in files:
    print(fn, len(TEXT[fn]), "chars extracted")
print("pdf pages:", len(pages2), "table pages:", pg_first, pg_last, "docx words:", ndocx_words, "tsv rows:", len(df7))
if problems:
    sys.exit(1)
