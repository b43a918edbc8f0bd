"""Office files and questions a helper wrote in session 48 without seeing the service's code
(held out: measured before any rule they could teach). ``python set3.py DIR`` writes DIR/files
and DIR/questions.jsonl, the same bytes on every run.

Subjects (new to this set): a retail energy supplier's data-science team - smart meter programme
board minutes (DOCX), heat pump field trial interim report (PDF), time-of-use tariff A/B test
readout (PPTX), load forecast pipeline runbook (Markdown), a team e-mail (TXT), a customer
credits export (CSV), an engineer job log with a lookup sheet (XLSX) and forecast backtest
results (Parquet).

Kinds: lookup, aggregate, prose and none as in set 2, plus "paraphrase": a prose fact asked in
the user's own words (the question shares no content word with the sentence that answers it;
checked below)."""
import os, csv, random, sys, datetime as dt
os.environ["SOURCE_DATE_EPOCH"] = "1748854800"  # 2025-06-02 09:00 UTC
import numpy as np
import pandas as pd
from _common import (Q, add_slide, addq, avg_alts, date_alts, int_alts, money_alts, norm, notes, out_files,
                     plain, plain_bullets, question_problems, save_doc, slide_table, stamped, text_of, unique_arg,
                     write_questions, write_text)

BASE = sys.argv[1]
p = out_files(BASE)
rng, rnd = np.random.default_rng(48), random.Random(48)
FIXED_DT = dt.datetime(2025, 6, 2, 9, 0, 0)

REGIONS = ["Scotland", "North East", "North West", "Yorkshire", "Midlands", "Wales",
           "South West", "London & South East"]

# ============ File 1: DOCX programme board minutes ===========================
from docx import Document
from docx.shared import Pt
F1 = "smart_meter_programme_board_minutes_2025-05-14.docx"
S1_OWNER = "Dev Raghunathan owns the migration, with a target completion date of 30 June 2025."
S1_WAVES = ("Decision: the firmware 4.7 update will be rolled out in three waves, starting with "
            "2,000 meters on 2 June 2025.")
S1_WAVE2 = "Wave two follows only if the failed-update rate stays below 0.5%."
S1_INSTALL = "Installations in April reached 4,812 against a plan of 5,300."
S1_SMS = "She will send it to Legal for review by 23 May 2025."
actions1 = [
    ("A-01", "Migrate legacy head-end consumption data to the meter data platform", "Dev Raghunathan", "30 Jun 2025", "Open"),
    ("A-02", "Send revised appointment-reminder SMS wording to Legal", "Carys Pritchard", "23 May 2025", "Open"),
    ("A-03", "Weekly failed-update report during the firmware waves", "Oluwaseun Adebayo", "6 Jun 2025", "Open"),
    ("A-04", "North West installation recovery plan", "Fiona Gallagher", "28 May 2025", "Open"),
    ("A-05", "Freeze the load forecast model version for summer trading", "Oluwaseun Adebayo", "13 Jun 2025", "Open"),
    ("A-06", "Confirm budget for additional engineer overtime in May", "Naomi Achterberg", "16 May 2025", "Closed"),
    ("A-07", "Add cancellation reasons to the installer scheduling extract", "Marek Zielinski", "4 Jun 2025", "Open"),
]
df1 = pd.DataFrame(actions1, columns=["Ref", "Action", "Owner", "Due", "Status"])

d = stamped(Document(), FIXED_DT, author="Marek Zielinski",
            title="Smart Meter Programme Board - Minutes 14 May 2025")
d.add_heading("Smart Meter Programme Board - Minutes", 0)
d.add_paragraph("Date: 14 May 2025, 10:00-11:30, Larch room and Teams")
d.add_paragraph("Attendees: Naomi Achterberg (chair), Dev Raghunathan, Carys Pritchard, Oluwaseun Adebayo, "
                "Fiona Gallagher, Marek Zielinski (minutes). Apologies: Hugo Barrington.")
d.add_heading("1. Installation progress", 1)
d.add_paragraph(S1_INSTALL + " The shortfall was mainly in the North West patch, where two engineer teams "
                "were redeployed to emergency metering work for three weeks. Fiona Gallagher will bring a "
                "recovery plan for the North West to the next board.")
d.add_paragraph("First-time completion rate improved to 87% (March: 83%). Aborted visits due to no access "
                "remain the largest single cause of failed appointments.")
d.add_heading("2. Firmware update", 1)
d.add_paragraph(S1_WAVES + " " + S1_WAVE2 + " Oluwaseun Adebayo will produce a weekly failed-update "
                "report while the waves are running.")
d.add_heading("3. Meter data migration", 1)
d.add_paragraph("Consumption data held on the legacy head-end system will be moved to the new meter data "
                "platform before the head-end contract ends. Decision: the migration will be done in one "
                "cut-over weekend rather than region by region. " + S1_OWNER)
d.add_heading("4. Load forecasting", 1)
d.add_paragraph("The load forecast model version used for summer trading will be frozen on 13 June 2025, so "
                "that the trading desk can rely on a stable model through the summer. Any change after the "
                "freeze needs approval from the chair.")
d.add_heading("5. Customer communications", 1)
d.add_paragraph("Carys Pritchard presented the revised appointment-reminder SMS wording, which cut no-access "
                "aborts by 9% in the Preston pilot. " + S1_SMS)
d.add_heading("6. Any other business", 1)
d.add_paragraph("Naomi Achterberg confirmed the budget for additional engineer overtime in May. "
                "The next meeting is on 11 June 2025.")
d.add_heading("Action log", 1)
tb = d.add_table(rows=1 + len(df1), cols=5)
tb.style = "Table Grid"
for j, h in enumerate(["Ref", "Action", "Owner", "Due", "Status"]):
    tb.cell(0, j).text = h
    for r_ in tb.cell(0, j).paragraphs[0].runs:
        r_.bold = True
for i, r in enumerate(df1.itertuples()):
    for j, v in enumerate([r.Ref, r.Action, r.Owner, r.Due, r.Status]):
        tb.cell(i + 1, j).text = v
save_doc(d, p(F1), FIXED_DT)

# ============ File 2: PDF interim report (prose, one table) =================
from reportlab import rl_config
rl_config.invariant = 1
from reportlab.lib.pagesizes import A4
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.lib.styles import getSampleStyleSheet, ParagraphStyle
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY
from reportlab.platypus import SimpleDocTemplate, Paragraph, Spacer, Table, TableStyle

ss = getSampleStyleSheet()
body = ParagraphStyle("body3", parent=ss["BodyText"], fontSize=10.5, leading=14, alignment=TA_JUSTIFY,
                      spaceAfter=6)
hdr_style = ParagraphStyle("hdr3", parent=ss["BodyText"], fontName="Helvetica-Bold", fontSize=8.5,
                           leading=10, alignment=TA_CENTER, textColor=colors.white)

F2 = "heat_pump_field_trial_interim_report.pdf"
reg2 = ["Scotland", "North East", "North West", "Yorkshire", "Midlands", "South West"]
homes2 = rng.integers(150, 230, len(reg2))
homes2[-1] = 1146 - homes2[:-1].sum()
assert 120 < homes2[-1] < 260
scop2 = rng.uniform(2.7, 3.5, len(reg2)).round(1)
kwh2 = rng.uniform(21.0, 34.0, len(reg2)).round(1)
backup2 = rng.uniform(6.0, 22.0, len(reg2)).round(1)
sat2 = rng.uniform(3.7, 4.5, len(reg2)).round(2)
df2 = pd.DataFrame({"Region": reg2, "Homes": homes2, "SCOP": scop2, "KWh": kwh2, "Backup": backup2,
                    "Sat": sat2})
assert int(df2.Homes.sum()) == 1146

S2_HOMES = ("The trial recruited 1,146 households across six regions between October 2024 and "
            "January 2025, each with an air-source heat pump installed in the previous three years "
            "and a smart meter reporting half-hourly consumption.")
S2_CAUSE = ("The most common cause of poor performance was a flow temperature set higher than the "
            "radiators required, typically above 50°C.")
S2_EXCL = ("Data from 37 homes were excluded from the analysis because their smart meters reported "
           "gaps longer than 72 hours during the measurement period.")
S2_TARIFF = ("We recommend that the time-of-use heat pump tariff is offered to all trial customers from "
             "1 October 2025, ahead of the next heating season.")
S2_FINAL = ("An update covering summer hot-water use will be published in October 2025, and the final "
            "report in June 2026.")
doc = SimpleDocTemplate(p(F2), pagesize=A4, invariant=1,
                        title="Heat Pump Field Trial - Interim Evaluation Report",
                        author="Brackenridge Energy Data Science", leftMargin=25*mm, rightMargin=25*mm,
                        topMargin=22*mm, bottomMargin=22*mm)
H = lambda t: Paragraph(t, ss["Heading2"])
P = lambda t: Paragraph(t, body)
st = [Paragraph("Heat Pump Field Trial: Interim Evaluation Report", ss["Title"]),
      Paragraph("Brackenridge Energy &mdash; Data Science &amp; Customer Insight. Version 0.9, 16 May 2025.",
                ss["Italic"]),
      Spacer(1, 8),
      H("1. Executive summary"),
      P("This interim report summarises the first winter of the Brackenridge heat pump field trial. "
        + S2_HOMES),
      P("Across the trial, the median seasonal coefficient of performance (SCOP) was 3.1, in line with "
        "manufacturer expectations for a mild winter. Performance varied considerably between homes, "
        "however, and a minority of systems ran well below their rated efficiency for most of the season."),
      P("Several factors were examined, including the age of the property, the emitter type, the size "
        "of the unit relative to the heat loss of the home and the way customers used their controls. "
        + S2_CAUSE + " Where our advisers helped customers lower the flow temperature, daily consumption "
        "fell within two weeks and backup electric heater use fell by 4.2 percentage points."),
      P("Customers were, on the whole, positive about their heat pumps. Most of the dissatisfaction we "
        "recorded related to installation quality and to bills in January, which was the coldest month of "
        "the trial, rather than to comfort."),
      H("2. Trial design"),
      P("Households were recruited from customers who had registered a heat pump with us and who agreed to "
        "share half-hourly data for two winters. Participants were offered a £50 bill credit for completing "
        "the entry and exit surveys, and could leave the trial at any time without losing the credit."),
      P("Each home was assigned to one of two groups. The advice group received a one-hour video call with "
        "a heating adviser in November 2024; the comparison group received our standard information leaflet "
        "only. Assignment was random within each region, so that regional differences in climate and "
        "housing stock affect both groups equally."),
      P("Consumption was measured at the meter, and heat output was estimated from the heat pump's own "
        "controller data where customers gave consent (62% of homes). For the remaining homes, SCOP was "
        "estimated from consumption and local degree days, calibrated against the homes for which both "
        "sources were available. The two methods agreed to within 0.2 on the homes where both could be "
        "applied."),
      H("3. Results by region"),
      P("Table 1 shows results by region for the measurement period, 1 November 2024 to 31 March 2025. "
        "Mean daily use refers to whole-home electricity consumption in January, including the heat pump, "
        "and backup heater use is the share of homes in which an electric immersion or direct heater ran on "
        "more than ten days in the period."),
      Spacer(1, 4)]
heads2 = ["Region", "Homes recruited", "Median SCOP", "Mean daily use, Jan (kWh)",
          "Backup heater use (% of homes)", "Satisfaction (1-5)"]
data = [[Paragraph(h, hdr_style) for h in heads2]]
for r in df2.itertuples():
    data.append([r.Region, f"{r.Homes:,}", f"{r.SCOP:.1f}", f"{r.KWh:.1f}", f"{r.Backup:.1f}", f"{r.Sat:.2f}"])
t = Table(data, colWidths=[32*mm, 24*mm, 22*mm, 28*mm, 28*mm, 24*mm], repeatRows=1)
t.setStyle(TableStyle([
    ("FONT", (0, 1), (-1, -1), "Helvetica", 9),
    ("ALIGN", (1, 1), (-1, -1), "RIGHT"),
    ("VALIGN", (0, 0), (-1, 0), "MIDDLE"),
    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#2E5D3A")),
    ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#EAF2EC")]),
    ("BOX", (0, 0), (-1, -1), 0.5, colors.grey),
    ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
]))
st += [t, Paragraph("Table 1: Heat pump trial results by region, winter 2024/25.", ss["Italic"]), Spacer(1, 6),
       P("Homes with underfloor heating achieved a median SCOP 0.4 higher than homes with radiators, "
         "regardless of region. Homes built before 1930 had the lowest median SCOP, at 2.6, and were also the "
         "most likely to use a backup heater during cold spells."),
       P("Customer satisfaction was high overall. Noise complaints were reported by 5.5% of homes, mostly "
         "concerning outdoor units mounted close to bedroom windows. None of the complaints led a customer to "
         "leave the trial."),
       P("The advice group used 7% less electricity per degree day than the comparison group over the "
         "measurement period. Most of the difference appeared in December and January, when flow temperatures "
         "matter most; in November the two groups were indistinguishable."),
       H("4. Data quality"),
       P(S2_EXCL + " A further 12 homes were excluded because their heat pump was replaced or decommissioned "
         "during the winter."),
       P("Half-hourly data were validated against monthly meter reads. Where the two differed by more than 3%, "
         "the half-hourly series was rescaled to match the meter read. This affected fewer than one home in "
         "forty and did not change any regional median by more than 0.1."),
       H("5. Limitations"),
       P("This is an interim analysis of a single winter, and the 2024/25 winter was milder than the ten-year "
         "average in every region except Scotland. Efficiency figures in a colder year are likely to be lower, "
         "and the gap between well-set-up and poorly set-up systems may widen."),
       P("Trial participants volunteered, and are likely to be more engaged with their heating than the typical "
         "heat pump owner. The effect of advice on a less engaged population could be smaller, and we do not "
         "recommend extrapolating the 7% figure to the wider customer base yet."),
       P("Regional samples are small, and differences between regions of less than 0.2 in median SCOP are "
         "within the uncertainty of the estimation method."),
       H("6. Recommendations"),
       P(S2_TARIFF),
       P("We recommend that flow temperature advice becomes part of the standard post-installation call for "
         "new heat pump customers, using the script tested with the advice group."),
       P("Regional results should not be used to set tariffs or marketing targets until the second winter of "
         "data is available."),
       H("7. Next steps"),
       P("The trial continues through the 2025/26 winter with the same households, subject to consent. "
         + S2_FINAL),
       P("Questions about this report should be directed to the trial analytics lead, Hannah Osei-Bonsu.")]
doc.build(st)

# ============ File 3: PPTX A/B test readout =================================
from pptx import Presentation
from pptx.util import Inches, Pt as PPt
F3 = "smart_saver_tariff_test_readout.pptx"
variants = ["Control", "Variant A", "Variant B", "Variant C"]
cust3 = rng.integers(5800, 6200, 4)
cust3[-1] = 24000 - cust3[:-1].sum()
ctrl_peak = float(rng.uniform(30.0, 32.0))
peak3 = np.array([ctrl_peak, ctrl_peak - rng.uniform(0.8, 1.6), ctrl_peak - rng.uniform(2.2, 3.0),
                  ctrl_peak - rng.uniform(3.4, 4.2)]).round(1)
shift3 = (peak3[0] - peak3).round(1)
opt3 = np.array([rng.uniform(0.3, 0.6), rng.uniform(0.5, 0.9), rng.uniform(0.6, 0.95),
                 rng.uniform(2.0, 3.0)]).round(2)
ctrl_bill = float(rng.uniform(92.0, 98.0))
bill3 = np.array([ctrl_bill, ctrl_bill - rng.uniform(0.5, 1.5), ctrl_bill - rng.uniform(1.8, 3.0),
                  ctrl_bill - rng.uniform(1.0, 3.5)]).round(2)
df3 = pd.DataFrame({"Variant": variants, "Customers": cust3, "Peak": peak3, "Shift": shift3,
                    "OptOut": opt3, "Bill": bill3})
assert int(df3.Customers.sum()) == 24000
S3_LAUNCH = "Launch Variant B nationally on 1 September 2025"
S3_METRIC = "Primary metric: share of household consumption in the 4-7pm peak window"
S3_WHYNOT = ("Variant C delivered the largest peak shift, but opt-outs were highest among customers over 75, "
             "so we should not roll it out without an opt-in vulnerability check.")
prs = stamped(Presentation(), FIXED_DT, author="Pricing Analytics")
s = add_slide(prs, 0, "Smart Saver tariff test - readout",
              "Pricing Analytics | Tariff steering group, 29 April 2025")
s = add_slide(prs, 1, "Why we ran this test")
plain_bullets(s, ["Network peak between 4pm and 7pm drives most of our wholesale cost in winter",
                  "We wanted to know how much demand customers will move for a given peak price",
                  "And whether app nudges add anything on top of price alone"])
notes(s, "Keep this short - the steering group has seen the business case before.")
s = add_slide(prs, 1, "Test design")
plain_bullets(s, ["Randomised 24,000 eligible smart-meter customers into a control group and three price variants",
                  "Test ran for 8 weeks, from 3 February to 30 March 2025",
                  S3_METRIC,
                  "Secondary metrics: opt-out rate and average monthly bill"])
notes(s, "Eligibility excluded prepayment customers and anyone on the priority services register.")
s = add_slide(prs, 5, "Results by variant")
slide_table(s, ["Variant", "Customers", "Peak share (%)", "Peak shift vs control (pp)", "Opt-out rate (%)",
                "Avg monthly bill (£)"],
            [[r.Variant, f"{r.Customers:,}", f"{r.Peak:.1f}", "-" if i == 0 else f"{r.Shift:.1f}", f"{r.OptOut:.2f}",
              f"{r.Bill:.2f}"] for i, r in enumerate(df3.itertuples())],
            (Inches(0.4), Inches(1.7), Inches(9.2), Inches(3.0)), 14)
tx = s.shapes.add_textbox(Inches(0.4), Inches(5.0), Inches(9.2), Inches(0.8))
tx.text_frame.text = ("Variant A: peak price 38p/kWh. Variant B: peak price 45p/kWh. "
                      "Variant C: peak price 45p/kWh plus app nudges.")
notes(s, "Read the peak shift column first; the bill column is noisy because February was mild.")
s = add_slide(prs, 5, "What we learned")
tx = s.shapes.add_textbox(Inches(0.6), Inches(1.6), Inches(8.8), Inches(4.5))
tf = tx.text_frame
tf.word_wrap = True
tf.text = ("Price does most of the work. Moving from a 38p to a 45p peak price more than doubled the shift "
           "out of the peak, while opt-outs rose only slightly.")
for t_ in [S3_WHYNOT,
           "App nudges on their own added little once the price signal was strong; the nudges mainly helped "
           "customers who already used the app every week."]:
    para = tf.add_paragraph()
    para.text = t_
    para.space_before = PPt(12)
notes(s, "If asked about vulnerable customers: the review with the customer care team is booked for Q3.")
s = add_slide(prs, 1, "Recommendation and next steps")
plain_bullets(s, [S3_LAUNCH,
                  "Revisit Variant C after the vulnerability review in Q3",
                  "Keep a 5% holdout group for six months to measure persistence",
                  "Launch owner: Priya Venkatesan, Pricing"])
save_doc(prs, p(F3), FIXED_DT)

# ============ File 4: Markdown runbook ======================================
F4 = "README_load_forecast_pipeline.md"
S4_PAGE = ("If the forecast is not published by 05:00 UTC, page the on-call data scientist through "
           "PagerDuty (service `load-forecast-prod`).")
S4_REVERT = "1. Set `ACTIVE_MODEL` in `config/prod.yaml` back to the previous tag."
S4_GATE = ("The new version must achieve a MAPE below 5.5% in every region; if any region is above the gate, "
           "stop and raise it in #forecasting.")
S4_RETRAIN = "Models are retrained every second Monday using the previous 18 months of smart meter and weather data."
S4_RUN = "It runs nightly at 02:30 UTC on the scheduler and publishes the forecast to the trading desk's shared bucket by 05:00 UTC."
md = f"""# Load Forecast Pipeline - Runbook

Owner: Forecasting squad (Data Science). Last reviewed: 12 May 2025.

## Overview

The load forecast pipeline produces the day-ahead half-hourly demand forecast for each supply region.
{S4_RUN}
{S4_RETRAIN}

## Prerequisites

- Access to the `lf-prod` project and the model registry.
- The `lfp` command-line tool, version 2.3 or later (`pip install lfp-cli`).
- Membership of the `forecast-deployers` group.

## Deploying a new model version

1. Merge the model change to `main` and tag the release, e.g. `git tag lf-v3.8.0`.
2. Run the backtest on the 48-hour horizon: `make backtest HORIZON=48`. {S4_GATE}
3. Register the model: `lfp registry push --tag lf-v3.8.0`.
4. Set `ACTIVE_MODEL` in `config/prod.yaml` to the new tag and open a pull request; a second reviewer from the forecasting squad must approve it.
5. After merge, run `make redeploy` and watch the next scheduled run.
6. Record the deployment in the model change log with the backtest report attached.

## Rolling back a failed deployment

If the first run after a deployment fails, or the forecast looks wrong (for example a region flat-lining at zero), roll back immediately; do not try to fix forward during trading hours.

{S4_REVERT}
2. Run `make redeploy`.
3. Re-run today's forecast with the previous model (commands below).
4. Tell the trading desk in #trading-ops that a re-issued forecast is on its way, and post the incident in #forecasting.

```bash
# roll back to the previous model and re-issue today's forecast
git checkout main && git pull
sed -i 's/^ACTIVE_MODEL:.*/ACTIVE_MODEL: lf-v3.7.2/' config/prod.yaml
make redeploy
lfp run --date today --force --publish
lfp status --last 1
```

## Monitoring and alerts

- {S4_PAGE}
- A data-freshness alert fires when weather inputs are more than 6 hours old; the pipeline then falls back to the previous day's weather forecast and flags the output as degraded.
- Backtest results for every model version are kept in `backtests/` as Parquet files.

## Contacts

- Pipeline owner: Oluwaseun Adebayo
- Escalation: Head of Data Science, Rosalind Okoye
"""
write_text(p(F4), md)

# ============ File 5: TXT e-mail ============================================
F5 = "email_summer_model_freeze.txt"
S5_FREEZE = ("The churn model freeze is 20 June 2025; after that date only hotfixes that I have approved go "
             "to production until the end of August.")
S5_ONCALL = "Aleksander Brandt covers the first week, then Mei Lin Tan, then Oluwaseun."
S5_BUDGET = "Each team member has a conference budget of £1,200 for this financial year."
email = f"""From: Rosalind Okoye <rosalind.okoye@brackenridge-energy.co.uk>
To: Data Science team <ds-team@brackenridge-energy.co.uk>
Cc: Naomi Achterberg <naomi.achterberg@brackenridge-energy.co.uk>
Date: Mon, 19 May 2025 08:47:12 +0100
Subject: Summer model freeze, on-call rota and a few reminders

Hi all,

A few things before the summer planning cycle kicks off.

1) Model freeze. {S5_FREEZE} The forecasting squad keeps its own, earlier freeze date agreed at the programme board, so please check with Oluwaseun before assuming this one applies to load forecasting.

2) On-call rota. From 2 June the on-call rota for the load forecast pipeline moves to weekly shifts that start on Monday at 09:00. {S5_ONCALL} Swaps are fine but put them in the rota spreadsheet, not just in chat.

3) Quarterly model review. Slides for the quarterly model review are due to me by 27 June 2025. Please use the new template and keep it to five slides per model.

4) Conferences and training. {S5_BUDGET} Anything above that, or any trip outside Europe, needs my sign-off before you book.

5) Smart Saver. Great work from the pricing analytics folks on the tariff test readout. The steering group has accepted the recommendation; I will share the launch plan once it is signed off.

Thanks,
Rosalind

--
Rosalind Okoye
Head of Data Science, Brackenridge Energy
"""
write_text(p(F5), email)

# ============ File 6: CSV credits export ====================================
F6 = "customer_credits_export_2025-05-31.csv"
reasons6 = ["Billing error", "Goodwill", "Outage compensation", "Missed appointment", "Smart meter fault"]
channels6 = ["Phone", "Email", "Web chat", "Complaint escalation"]
start6 = dt.date(2025, 1, 2)
days6 = [start6 + dt.timedelta(days=i) for i in range((dt.date(2025, 5, 30) - start6).days + 1)]
days6 = [x for x in days6 if x.weekday() < 5]
rows6 = []
for _ in range(264):
    dte = rnd.choice(days6)
    reason = rnd.choices(reasons6, weights=[30, 25, 15, 15, 15])[0]
    if reason == "Billing error":
        amt = round(float(np.exp(rng.normal(np.log(110), 0.6))), 2)
    elif reason == "Goodwill":
        amt = float(rnd.choice([10, 15, 20, 25, 30, 40, 50, 75]))
    elif reason == "Outage compensation":
        amt = float(rnd.choice([30, 60, 90, 120]))
    elif reason == "Missed appointment":
        amt = float(rnd.choice([40, 40, 40, 80]))
    else:
        amt = round(float(rng.uniform(15, 150)), 2)
    rows6.append({"issued_date": dte, "region": rnd.choice(REGIONS), "reason": reason,
                  "channel": rnd.choices(channels6, weights=[45, 20, 25, 10])[0], "amount_gbp": amt})
df6 = pd.DataFrame(rows6).sort_values("issued_date", kind="mergesort").reset_index(drop=True)
df6.insert(0, "credit_id", [f"CR-{10001 + i}" for i in range(len(df6))])
with open(p(F6), "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(df6.columns)
    for r in df6.itertuples(index=False):
        w.writerow([r.credit_id, r.issued_date.isoformat(), r.region, r.reason, r.channel, f"{r.amount_gbp:.2f}"])

# ============ File 7: XLSX engineer job log (data + lookup sheet) ===========
from openpyxl import Workbook
from openpyxl.styles import Font
F7 = "engineer_jobs_week19_2025.xlsx"
names7 = ["Gareth Pugh", "Siobhan Kerr", "Imran Qureshi", "Leanne Whitfield", "Tomasz Wojcik", "Declan Murphy",
          "Priya Shah", "Callum Reid", "Joanna Baxter", "Kwame Mensah", "Rhys Evans", "Stacey Holt",
          "Nadia Rahman", "Owen Clarke", "Beth Lomax", "Arjun Patel"]
depots7 = ["Preston", "Wigan", "Bolton", "Blackburn"]
grades7 = ["Installer", "Senior installer", "Technician"]
eng = pd.DataFrame({"EngineerID": [f"E-{101 + i}" for i in range(len(names7))], "Name": names7,
                    "Depot": [depots7[i % 4] if i < 12 else rnd.choice(depots7) for i in range(len(names7))],
                    "Grade": [rnd.choice(grades7) for _ in names7],
                    "StartDate": [dt.date(2016 + rnd.randrange(0, 9), rnd.randrange(1, 13), 1) for _ in names7]})
types7 = ["Install", "Exchange", "Fault visit", "Removal"]
base7 = {"Install": 95, "Exchange": 80, "Fault visit": 55, "Removal": 40}
outs7 = ["Completed", "Aborted - no access", "Aborted - safety", "Rescheduled"]
rows7 = []
for day in [dt.date(2025, 5, 5) + dt.timedelta(days=i) for i in range(6)]:
    for e in eng.EngineerID:
        n = int(rng.integers(1, 4)) if day.weekday() < 5 else int(rng.integers(0, 2))
        for _ in range(n):
            jt = rnd.choices(types7, weights=[50, 25, 17, 8])[0]
            oc = rnd.choices(outs7, weights=[80, 11, 4, 5])[0]
            dur = int(round(base7[jt] * float(rng.uniform(0.7, 1.4)))) if oc == "Completed" else int(rng.integers(10, 31))
            rows7.append({"Date": day, "EngineerID": e, "JobType": jt, "Duration": dur, "Outcome": oc})
df7 = pd.DataFrame(rows7)
df7.insert(0, "JobID", [f"J-{50001 + i}" for i in range(len(df7))])
wb = stamped(Workbook(), FIXED_DT, creator="Field Operations North")
ws = wb.active
ws.title = "Jobs"
ws.append(["Job ID", "Date", "Engineer ID", "Job Type", "Duration (min)", "Outcome"])
for c in ws[1]:
    c.font = Font(bold=True)
for r in df7.itertuples():
    ws.append([r.JobID, r.Date, r.EngineerID, r.JobType, r.Duration, r.Outcome])
    ws.cell(ws.max_row, 2).number_format = "yyyy-mm-dd"
for col, wdt in zip("ABCDEF", [10, 12, 12, 12, 14, 22]):
    ws.column_dimensions[col].width = wdt
ws2 = wb.create_sheet("Engineers")
ws2.append(["Engineer ID", "Name", "Depot", "Grade", "Start Date"])
for c in ws2[1]:
    c.font = Font(bold=True)
for r in eng.itertuples():
    ws2.append([r.EngineerID, r.Name, r.Depot, r.Grade, r.StartDate])
    ws2.cell(ws2.max_row, 5).number_format = "yyyy-mm-dd"
ws2.column_dimensions["B"].width = 18
save_doc(wb, p(F7), FIXED_DT)

# ============ File 8: Parquet backtest results ==============================
F8 = "forecast_backtest_results_2025-05.parquet"
models8 = ["naive_seasonal", "gbm_v3", "gbm_v4", "tft_v1"]
horizons8 = [1, 6, 24, 48]
basem = {"naive_seasonal": [3.9, 5.8, 8.2, 10.5], "gbm_v3": [2.1, 3.2, 4.6, 6.1],
         "gbm_v4": [1.8, 2.8, 4.1, 5.6], "tft_v1": [2.3, 3.0, 4.3, 5.2]}
reg8 = REGIONS[:6]
rfac = dict(zip(reg8, rng.uniform(0.9, 1.15, len(reg8))))
rows8 = []
for m_ in models8:
    for hi, h_ in enumerate(horizons8):
        for rg in reg8:
            mape = round(float(basem[m_][hi] * rfac[rg] * rng.normal(1.0, 0.05)), 2)
            rows8.append({"model": m_, "horizon_h": h_, "region": rg, "mape_pct": mape,
                          "rmse_mw": round(float(mape * rng.uniform(9.0, 14.0)), 1), "n_days": 120})
df8 = pd.DataFrame(rows8)
df8["horizon_h"] = df8["horizon_h"].astype("int32")
df8["n_days"] = df8["n_days"].astype("int32")
df8.to_parquet(p(F8), engine="pyarrow", index=False, compression="snappy")

# ================================================================ questions
# ---- prose (14): worded like the documents
addq("prose", F1, "According to the smart meter programme board minutes, how many installations were completed in April?",
     int_alts(4812), S1_INSTALL)
addq("prose", F1, "When does the first wave of the firmware 4.7 rollout start?",
     ["2 June 2025", "2 Jun 2025", "2025-06-02"], S1_WAVES)
addq("prose", F1, "By when must Carys Pritchard send the revised appointment-reminder SMS wording to Legal?",
     ["23 May 2025", "2025-05-23"], S1_SMS)
addq("prose", F2, "How many homes were excluded from the heat pump trial analysis because of smart meter data gaps?",
     ["37"], S2_EXCL)
addq("prose", F2, "From when does the interim report recommend offering the time-of-use heat pump tariff to trial customers?",
     ["1 October 2025", "2025-10-01"], S2_TARIFF)
addq("prose", F2, "When will the final report of the heat pump field trial be published?", ["June 2026"], S2_FINAL)
addq("prose", F3, "How many customers were randomised in the Smart Saver tariff test?", int_alts(24000),
     "Randomised 24,000 eligible smart-meter customers")
addq("prose", F3, "What was the primary metric of the Smart Saver tariff test?",
     ["4-7pm peak window", "share of household consumption in the 4-7pm peak"], S3_METRIC)
addq("prose", F3, "Why should Variant C not be rolled out yet?",
     ["opt-in vulnerability check", "vulnerability check", "customers over 75"], S3_WHYNOT)
addq("prose", F4, "What MAPE must a new load forecast model version achieve in the backtest before it is deployed?",
     ["below 5.5%", "5.5%"], S4_GATE)
addq("prose", F4, "Which command re-runs today's load forecast after a rollback?",
     ["lfp run --date today --force --publish", "lfp run --date today --force"], "lfp run --date today --force --publish")
addq("prose", F4, "How often are the load forecast models retrained?", ["every second Monday"], S4_RETRAIN)
addq("prose", F5, "According to Rosalind's email, when is the churn model freeze?", ["20 June 2025", "2025-06-20"], S5_FREEZE)
addq("prose", F5, "Who covers the first week of the new on-call rota for the load forecast pipeline?",
     ["Aleksander Brandt"], S5_ONCALL)

# ---- lookups (6): one cell of one table
r1 = df1.set_index("Ref").loc["A-05"]
addq("lookup", F1, "In the programme board action log, what is the due date for freezing the load forecast model?",
     date_alts(r1.Due))
r2 = df2.set_index("Region")
addq("lookup", F2, "What was the median SCOP for the Scotland region in the heat pump trial?",
     [f"{r2.loc['Scotland', 'SCOP']:.1f}"])
r3 = df3.set_index("Variant")
addq("lookup", F3, "What was the opt-out rate for Variant B in the Smart Saver test?", [f"{r3.loc['Variant B', 'OptOut']:.2f}"])
row6 = df6[(df6.index >= 130) & (df6.reason == "Billing error")].iloc[0]  # an amount with pence
addq("lookup", F6, f"What amount was credit {row6.credit_id} for?", [f"{row6.amount_gbp:.2f}"])
e7 = eng.set_index("EngineerID").loc["E-109"]
addq("lookup", F7, "Which depot is engineer E-109 based at?", [e7.Depot])
v8 = df8[(df8.model == "gbm_v4") & (df8.horizon_h == 24) & (df8.region == "Yorkshire")].mape_pct
assert len(v8) == 1
v8 = float(v8.iloc[0])
addq("lookup", F8, "What MAPE did gbm_v4 get at the 24-hour horizon for Yorkshire in the backtest results?",
     list(dict.fromkeys([f"{v8:.2f}", plain(v8)])))

# ---- aggregates (9): computed with pandas from the data written
addq("aggregate", F2, "Which region had the highest share of homes using a backup heater in the heat pump trial?",
     [unique_arg(df2.Backup, df2.Region)])
addq("aggregate", F3, "Which Smart Saver variant had the lowest average monthly bill?",
     [unique_arg(df3.Bill, df3.Variant, largest=False)])
sel = df6[(df6.reason == "Billing error") & (df6.region == "Scotland")]
assert len(sel) >= 3
addq("aggregate", F6, "What is the total amount credited for billing errors in Scotland in the credits export?",
     money_alts(sel.amount_gbp.sum()))
inrange = df6[(df6.issued_date >= dt.date(2025, 4, 1)) & (df6.issued_date <= dt.date(2025, 4, 15))]
addq("aggregate", F6, "How many customer credits were issued between 1 and 15 April 2025 inclusive?",
     [plain(len(inrange))])
addq("aggregate", F6, "What was the average Goodwill credit amount?",
     avg_alts(df6[df6.reason == "Goodwill"].amount_gbp.mean()))
addq("aggregate", F7, "How many Exchange jobs in week 19 were aborted because of no access?",
     [plain(((df7.JobType == "Exchange") & (df7.Outcome == "Aborted - no access")).sum())])
addq("aggregate", F7, "What was the average duration in minutes of completed Install jobs in week 19?",
     avg_alts(df7[(df7.JobType == "Install") & (df7.Outcome == "Completed")].Duration.mean()))
j7 = df7.merge(eng, on="EngineerID")
addq("aggregate", F7, "How many jobs were completed by engineers based at the Preston depot in week 19?",
     [plain(((j7.Depot == "Preston") & (j7.Outcome == "Completed")).sum())])
m48 = df8[df8.horizon_h == 48].groupby("model").mape_pct.mean()
addq("aggregate", F8, "Which model has the lowest average MAPE across regions at the 48-hour horizon?",
     [unique_arg(m48.values, m48.index, largest=False)])

# ---- paraphrases (8): the user's words; no content word shared with the answering sentence
addq("paraphrase", F1, "Who is tasked with moving the old usage records into the replacement store?",
     ["Dev Raghunathan", "Raghunathan"], S1_OWNER)
addq("paraphrase", F1, "What proportion of unsuccessful upgrades can be tolerated before the next batch is held back?",
     ["0.5%", "0.5 %", "0.5 per cent"], S1_WAVE2)
addq("paraphrase", F2, "How many homes were enrolled in the study?", int_alts(1146), S2_HOMES)
addq("paraphrase", F2, "What was the chief reason some installations underperformed?",
     ["flow temperature set higher than the radiators required", "flow temperature set higher", "flow temperature"],
     S2_CAUSE)
addq("paraphrase", F3, "From what date will the winning price option go live everywhere?",
     ["1 September 2025", "1 Sep 2025", "2025-09-01"], S3_LAUNCH)
addq("paraphrase", F4, "The overnight job hasn't delivered its output on time - who should I alert?",
     ["on-call data scientist", "PagerDuty", "load-forecast-prod"], S4_PAGE)
addq("paraphrase", F4, "How do I revert to the earlier release if something breaks after shipping a new one?",
     ["back to the previous tag", "previous tag", "ACTIVE_MODEL"], S4_REVERT)
addq("paraphrase", F5, "What's the per-person allowance for going to industry events?",
     ["£1,200", "1,200", "1200"], S5_BUDGET)

# ---- none (6): close in topic, answer in no file
NONE = [("What refrigerant do the heat pumps in the field trial use?",
         [r"refrigerant", r"\bR-?32\b", r"\bR-?290\b", r"propane"]),
        ("How much overtime budget did the programme board approve for installation engineers in May?",
         [r"overtime[^\n.]{0,80}£", r"£[\d,.]+[^\n.]{0,80}overtime", r"overtime[^\n.]{0,80}(gbp|eur|\d+k\b)"]),
        ("What was the p-value for Variant B's peak shift in the Smart Saver test?",
         [r"p-value", r"p\s*[<=]\s*0\.", r"significan", r"confidence interval"]),
        ("Which Kubernetes namespace does the load forecast pipeline deploy to?",
         [r"kubernetes", r"namespace", r"\bk8s\b"]),
        ("When is the data science team offsite mentioned in Rosalind's email?",
         [r"off-?site", r"away day", r"away-day"]),
        ("What was the average travel time between jobs for the engineers in week 19?",
         [r"travel time", r"travel_time", r"drive time", r"driving", r"mileage"])]
for q_, _ in NONE:
    addq("none", None, q_, [])

# ================================================================ read-back verification
from pypdf import PdfReader

files = [F1, F2, F3, F4, F5, F6, F7, F8]
RAW = {fn: text_of(p(fn), slide_notes=False) for fn in files}  # no question relies on speaker notes
TEXT = {fn: norm(RAW[fn]) for fn in files}
problems = question_problems(files, TEXT, NONE, stemmed=False, file_checks=False)
# hard-but-fair properties the set relies on
wrapped = [q for q in Q if q["file"] == F2 and q["src"] and norm(q["expect"][0]) in norm(q["src"])
           and q["expect"][0] not in RAW[F2]]
if not wrapped:
    problems.append(("no PDF answer phrase wraps across lines", None, None))
if sum("2 june" in TEXT[fn] for fn in files) < 2 or sum("5.5%" in TEXT[fn] for fn in files) < 2:
    problems.append(("near-duplicate distractors missing", None, None))
if len(PdfReader(p(F2)).pages) < 3:
    problems.append(("pdf shorter than 3 pages", None, None))
if len(df6) < 200:
    problems.append(("csv shorter than 200 rows", None, None))

write_questions(BASE, "m", problems)
for fn in files:
    print(fn, len(TEXT[fn]), "chars extracted")
if problems:
    sys.exit(1)
