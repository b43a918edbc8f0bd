# ruff: noqa: E501 - mostly sentence templates, easier to read whole
"""Write the retrieval-quality evaluation set: ``python -m benchmarks.retrieval_corpus``.

A seeded generator of a small company's files (city reports, project notes, product
sheets, service configs, code, CSV tables, handbook policies, incident reports) and of
labelled questions over them: answerable ones (with the file and the exact text that
answers), questions that no file answers (general knowledge, and near misses that name
a city, product or service that is not in the files), and follow-ups given as a
conversation. Each question is put in ``dev`` or ``test`` by a hash of its id, never by
how it scores. The output is committed under ``benchmarks/data/retrieval/``; running this
again writes the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

OUT = Path(__file__).parent / "data" / "retrieval"
SEED = 20261122

CITIES = [
    "Lyon",
    "Nice",
    "Bordeaux",
    "Lille",
    "Nantes",
    "Toulouse",
    "Porto",
    "Valencia",
    "Leipzig",
    "Graz",
    "Ghent",
    "Turin",
    "Krakow",
    "Aarhus",
    "Bergen",
    "Utrecht",
    "Brno",
    "Malmo",
    "Cork",
    "Split",
    "Seville",
    "Bologna",
    "Dresden",
    "Tampere",
]
MISSING_CITIES = [
    "Marseille",
    "Lisbon",
    "Zurich",
    "Oslo",
    "Vilnius",
    "Palermo",
    "Salzburg",
    "Antwerp",
]
QUARTERS = ("Q1", "Q2", "Q3", "Q4")
FIRST = [
    "Amira",
    "Bruno",
    "Chloe",
    "Dario",
    "Elena",
    "Farid",
    "Greta",
    "Hugo",
    "Ines",
    "Jonas",
    "Kira",
    "Luca",
    "Maya",
    "Nils",
    "Olga",
    "Pavel",
    "Rosa",
    "Sami",
    "Tara",
    "Umar",
    "Vera",
    "Wim",
    "Yara",
    "Zoe",
]
LAST = [
    "Moreau",
    "Keller",
    "Novak",
    "Rossi",
    "Jansen",
    "Berger",
    "Silva",
    "Lindqvist",
    "Horvat",
    "Dubois",
    "Costa",
    "Weber",
    "Nowak",
    "Fischer",
    "Petit",
    "Brandt",
    "Marin",
    "Vogel",
    "Sousa",
    "Laurent",
]
CODENAMES = [
    "Aurora",
    "Basalt",
    "Cedar",
    "Dunlin",
    "Ember",
    "Fjord",
    "Garnet",
    "Heron",
    "Indigo",
    "Juniper",
    "Kestrel",
    "Lichen",
    "Magpie",
    "Nimbus",
    "Obsidian",
    "Puffin",
    "Quartz",
    "Raven",
    "Sorrel",
    "Tamarack",
    "Umber",
    "Vireo",
    "Wren",
    "Yarrow",
    "Zircon",
    "Alder",
    "Bramble",
    "Cormorant",
    "Dolomite",
    "Egret",
    "Flint",
    "Gannet",
    "Hazel",
    "Ibis",
    "Jasper",
    "Kite",
    "Larch",
    "Marten",
    "Nettle",
    "Osprey",
]
PROJECT_GOALS = (
    "migrate the billing database to PostgreSQL",
    "replace the mobile login flow with passkeys",
    "build a demand forecast for the warehouses",
    "cut the monthly cloud bill by a fifth",
    "translate the customer portal into Polish and Czech",
    "move the nightly reports to a streaming pipeline",
    "add fraud scoring to card payments",
    "redesign the onboarding emails",
    "consolidate the three ticketing tools into one",
    "launch a self-service refund page",
    "automate the quarterly tax filings",
    "measure delivery times per courier",
)
RISKS = (
    "the vendor contract ends before the pilot does",
    "two engineers leave the team in spring",
    "the legacy schema has no foreign keys",
    "the data protection review is still open",
    "test devices arrive late from the supplier",
    "the budget was approved for one quarter only",
)
PRODUCT_NOUNS = [
    "drill",
    "saw",
    "sander",
    "lamp",
    "kettle",
    "blender",
    "heater",
    "fan",
    "router",
    "speaker",
    "headset",
    "scale",
    "projector",
    "vacuum",
    "grinder",
]
PRODUCT_BRANDS = [
    "Kestrel",
    "Solano",
    "Brixton",
    "Vega",
    "Tundra",
    "Halcyon",
    "Orca",
    "Pinnacle",
    "Meridian",
    "Corvid",
    "Sable",
    "Larkspur",
]
MATERIALS = ("aluminium", "recycled plastic", "steel", "bamboo", "glass-fibre composite")
SERVICE_A = [
    "billing",
    "ledger",
    "payments",
    "search",
    "catalog",
    "inventory",
    "shipping",
    "identity",
    "pricing",
]
SERVICE_B = ["gateway", "worker", "scheduler", "api", "indexer", "exporter", "notifier"]
REGIONS = ("eu-west", "eu-central", "us-east", "ap-south")
TEAMS = ("platform", "payments", "data", "growth", "support", "security", "logistics")
WAREHOUSES = [
    "Rotterdam",
    "Hamburg",
    "Gdansk",
    "Bilbao",
    "Genoa",
    "Antwerpen",
    "Le-Havre",
    "Trieste",
]
DEPARTMENTS = [
    "finance",
    "legal",
    "marketing",
    "research",
    "operations",
    "procurement",
    "sales",
    "design",
]
POLICIES = (
    ("parental leave", "Parents get {n} weeks of paid parental leave, to be taken within "
     "the first two years.", "How many weeks of paid parental leave do parents get?"),
    ("remote work", "Employees may work from home up to {n} days a week after their "
     "probation period.", "How many days a week can employees work from home?"),
    ("equipment budget", "Every new hire receives an equipment budget of {n}00 euros for "
     "a desk chair, a monitor and accessories.", "How big is the equipment budget for a new hire?"),
    ("travel reimbursement", "Hotel nights are reimbursed up to {n}0 euros per night in "
     "most cities.", "What is the hotel limit per night when travelling?"),
    ("training", "Each employee may spend {n} days a year on conferences and courses.",
     "How many training days per year does an employee get?"),
    ("sick leave", "A doctor's note is required from the {n}th day of sick leave onwards.",
     "From which day of sick leave is a doctor's note needed?"),
    ("on-call", "On-call engineers are paid a flat {n}0 euros per weekend shift.",
     "How much is an on-call weekend shift paid?"),
    ("bike lease", "The company pays {n}0 percent of a leased bicycle over three years.",
     "How much of a leased bike does the company pay for?"),
    ("expenses", "Expense claims must be filed within {n} weeks of the purchase.",
     "How long do I have to file an expense claim?"),
    ("referral bonus", "A successful referral earns a bonus of {n}00 euros after the "
     "new colleague's sixth month.", "What is the bonus for referring a new hire?"),
    ("sabbatical", "After {n} years of service an employee may take an unpaid sabbatical "
     "of up to six months.", "When can an employee take a sabbatical?"),
    ("overtime", "Overtime beyond {n} hours a month is compensated with time off.",
     "How is overtime compensated?"),
    ("probation", "The probation period lasts {n} months for all permanent contracts.",
     "How long is the probation period?"),
    ("meal vouchers", "Staff receive meal vouchers worth {n} euros per working day.",
     "How much are the meal vouchers worth per day?"),
    ("password rotation", "Passwords of service accounts are rotated every {n}0 days.",
     "How often are service account passwords rotated?"),
    ("laptop replacement", "Laptops are replaced every {n} years, or sooner if they fail.",
     "How often do we get a new laptop?"),
    ("visitor access", "Visitors must be registered at reception at least {n} hours ahead.",
     "How far ahead must a visitor be registered?"),
    ("data retention", "Customer support chats are deleted after {n} months.",
     "When are support chat transcripts deleted?"),
    ("holiday allowance", "Full-time staff get {n} days of paid holiday per year.",
     "How many paid holidays do full-time staff get?"),
    ("company car", "Company cars are offered from salary band {n} upwards.",
     "Who is eligible for a company car?"),
    ("gifts", "Gifts from suppliers worth more than {n}0 euros must be declared.",
     "Which supplier gifts have to be declared?"),
    ("mentoring", "Each new engineer is paired with a mentor for the first {n} months.",
     "How long does mentoring last for new engineers?"),
    ("night shift", "Night shifts in the warehouses carry a {n}5 percent pay supplement.",
     "What is the supplement for night shifts in the warehouse?"),
    ("notice period", "The notice period is {n} months for either side after probation.",
     "What is the notice period after probation?"),
    ("public transport", "The company refunds {n}0 percent of a monthly public transport pass.",
     "How much of a transit pass is refunded?"),
)  # fmt: skip
GENERAL = (
    "What is the capital of Australia?",
    "Who wrote Hamlet?",
    "How tall is Mount Everest?",
    "When did the Berlin Wall fall?",
    "What is the boiling point of water at sea level?",
    "Who painted the Mona Lisa?",
    "How many moons does Mars have?",
    "What is the speed of light in a vacuum?",
    "Which planet is the largest in the solar system?",
    "What language is spoken in Brazil?",
    "Who discovered penicillin?",
    "How many bones are in the adult human body?",
    "What is the chemical symbol for gold?",
    "When was the first moon landing?",
    "What is the longest river in Africa?",
    "Who invented the telephone?",
    "What is the population of Tokyo?",
    "How do I bake sourdough bread?",
    "What is the best way to learn the violin?",
    "Which football club won the 1998 World Cup final?",
    "What is the square root of 144?",
    "How deep is the Mariana Trench?",
    "What does DNA stand for?",
    "Who was the first woman to win a Nobel Prize?",
    "What is the currency of Japan?",
    "How many players are on a rugby union team?",
    "What causes the northern lights?",
    "Where is the Great Barrier Reef?",
    "What is photosynthesis?",
    "Which composer wrote the Four Seasons?",
    "How long does it take to hard-boil an egg?",
    "What is the tallest building in Dubai?",
    "Who is the author of Don Quixote?",
    "What is the freezing point of mercury?",
    "How many strings does a cello have?",
    "What is the distance from the Earth to the Moon?",
)


@dataclass
class Corpus:
    rng: random.Random
    files: dict[str, str] = field(default_factory=dict)
    questions: list[dict[str, Any]] = field(default_factory=list)

    def add_file(self, path: str, text: str) -> None:
        assert path not in self.files, path
        self.files[path] = text

    def ask(self, kind: str, question: str, path: str | None, answer: str | None,
            history: list[dict[str, str]] | None = None) -> None:  # fmt: skip
        if path is not None:
            assert answer is not None, path
            assert answer in self.files[path], (path, answer)
        qid = f"q{len(self.questions) + 1:04d}"
        digest = hashlib.sha256(f"{SEED}:{qid}:{question}".encode()).digest()
        self.questions.append(
            {
                "id": qid,
                "split": "dev" if digest[0] % 10 < 4 else "test",
                "kind": kind,
                "messages": [*(history or []), {"role": "user", "content": question}],
                "file": path,
                "answer": answer,
            }
        )

    def pick(self, seq: Any) -> Any:
        return self.rng.choice(seq)


def _person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def city_reports(c: Corpus) -> None:
    """A Markdown report per city, one section per quarter; questions on one quarter."""
    for city in CITIES:
        path = f"reports/{city.lower()}-2026.md"
        lines = [f"# {city} branch: 2026 in review", ""]
        facts = {}
        for q in QUARTERS:
            churn = c.rng.randint(2, 14)
            growth = c.rng.randint(-6, 18)
            nps = c.rng.randint(12, 71)
            hires = c.rng.randint(0, 9)
            issue = c.pick(("late deliveries", "the support backlog", "a pricing change",
                            "a competitor's discount", "an outage of the app",
                            "staff turnover"))  # fmt: skip
            churn_s = (
                f"Customer churn in {city} was {churn} percent in {q}, mostly because of {issue}."
            )
            growth_s = f"Revenue grew {growth} percent over the previous quarter." if growth >= 0 else (
                f"Revenue fell {-growth} percent against the previous quarter.")  # fmt: skip
            nps_s = f"The {q} net promoter score of the {city} branch stood at {nps}."
            hires_s = f"The branch hired {hires} people in {q}." if hires else (
                f"No one was hired in {q}.")  # fmt: skip
            lines += [f"## {q}", "", f"{growth_s} {churn_s}", f"{nps_s} {hires_s}", ""]
            facts[q] = (churn_s, growth_s, nps_s)
        lines.append(f"Prepared by {_person(c.rng)}, regional controller.")
        c.add_file(path, "\n".join(lines) + "\n")
        q = c.pick(QUARTERS)
        churn_s, growth_s, nps_s = facts[q]
        c.ask("report", c.pick((f"What was the churn in {city} in {q}?",
                                f"How many customers did {city} lose in {q}, in percent?",
                                f"{q} churn rate for the {city} branch?")), path, churn_s)  # fmt: skip
        q2 = c.pick([x for x in QUARTERS if x != q])
        c.ask("report", c.pick((f"What was the net promoter score of {city} in {q2}?",
                                f"NPS of the {city} branch in {q2}",)), path, facts[q2][2])  # fmt: skip
    # follow-ups: a churn question about one city, then "And in <other>?"
    for i in range(24):
        a, b = c.rng.sample(CITIES, 2)
        q = c.pick(QUARTERS)
        path = f"reports/{b.lower()}-2026.md"
        answer = next(
            line for line in c.files[path].split("\n")
            if f"churn in {b} was" in line and f" in {q}," in line
        )  # fmt: skip
        answer = answer[answer.index("Customer churn") :]
        history = [
            {"role": "user", "content": f"What was the {q} churn in {a}?"},
            {"role": "assistant", "content": f"Customer churn in {a} was about 7 percent."},
        ]
        c.ask("follow-up", c.pick((f"And in {b}?", f"What about {b}?", f"How about {b}?")),
              path, answer, history)  # fmt: skip
        if i % 3 == 0:  # a topic switch inside a conversation: nothing answers it
            c.ask("no-answer-in-conversation", c.pick(GENERAL), None, None, history)


def project_notes(c: Corpus) -> None:
    for name in CODENAMES:
        path = f"notes/project-{name.lower()}.txt"
        owner, sponsor = _person(c.rng), _person(c.rng)
        goal, risk = c.pick(PROJECT_GOALS), c.pick(RISKS)
        month = c.pick(("January", "March", "May", "July", "September", "November"))
        budget = c.rng.randint(40, 900)
        owner_s = f"{owner} leads project {name}; {sponsor} is the sponsor on the board."
        goal_s = f"The aim of {name} is to {goal}."
        date_s = f"{name} should ship by the end of {month} 2027."
        budget_s = f"Its budget is {budget} thousand euros, reviewed every quarter."
        risk_s = f"The main risk we see is that {risk}."
        text = (
            f"Project {name}: kick-off notes\n\n{owner_s} {goal_s}\n\n"
            f"Timeline. {date_s} Weekly check-ins on Tuesdays.\n\n"
            f"Money. {budget_s}\n\nRisks. {risk_s} Mitigations are tracked in the wiki.\n"
        )
        c.add_file(path, text)
        c.ask("note", c.pick((f"Who leads project {name}?", f"Who is in charge of {name}?")),
              path, owner_s)  # fmt: skip
        c.ask("note", c.pick((f"When is {name} due?", f"What is the deadline of project {name}?")),
              path, date_s)  # fmt: skip
        if c.rng.random() < 0.5:
            c.ask("note", f"What is the budget of {name}?", path, budget_s)
        if c.rng.random() < 0.4:  # follow-up with a pronoun
            history = [
                {"role": "user", "content": f"What is project {name} about?"},
                {"role": "assistant", "content": f"It aims to {goal}."},
            ]
            c.ask("follow-up", c.pick(("What is its main risk?", "And what risks does it face?")),
                  path, risk_s, history)  # fmt: skip


def products(c: Corpus) -> list[str]:
    names = []
    for brand in PRODUCT_BRANDS:
        for noun in c.rng.sample(PRODUCT_NOUNS, 4):
            model = f"{brand} {c.rng.randint(2, 9)}{c.rng.choice('0ABX')}"
            names.append(f"{model} {noun}")
    for full in names:
        path = f"products/{full.lower().replace(' ', '-')}.md"
        weight = round(c.rng.uniform(0.3, 9.5), 1)
        battery = c.rng.randint(2, 40)
        price = c.rng.randint(19, 899)
        warranty = c.rng.randint(1, 5)
        material = c.pick(MATERIALS)
        weight_s = f"| Weight | {weight} kg |"
        battery_s = f"The battery lasts {battery} hours on a full charge."
        price_s = f"| List price | {price} EUR |"
        warranty_s = f"It comes with a {warranty}-year warranty covering parts and labour."
        text = (
            f"# {full}\n\nThe {full} has a housing of {material}. {battery_s} "
            f"{warranty_s}\n\n| Spec | Value |\n|---|---|\n{weight_s}\n{price_s}\n"
            f"| Colour | {c.pick(('black', 'grey', 'sand', 'teal'))} |\n"
        )
        c.add_file(path, text)
        c.ask("product", c.pick((f"How long does the battery of the {full} last?",
                                 f"Battery life of the {full}?")), path, battery_s)  # fmt: skip
        c.ask("product", c.pick((f"How much does the {full} cost?",
                                 f"What is the list price of the {full}?",
                                 f"How heavy is the {full}?")),
              path, weight_s if "heavy" in c.questions[-1]["messages"][-1]["content"] else price_s)  # fmt: skip
        if c.rng.random() < 0.3:
            c.ask("product", f"What warranty does the {full} have?", path, warranty_s)
    return names


def _fix_product_labels(c: Corpus) -> None:
    """The price/weight label depends on which wording was drawn: set it from the question."""
    for q in c.questions:
        if q["kind"] != "product" or q["file"] is None:
            continue
        text = q["messages"][-1]["content"]
        lines = c.files[q["file"]].split("\n")
        if "heavy" in text:
            q["answer"] = next(line for line in lines if line.startswith("| Weight"))
        elif "cost" in text or "price" in text:
            q["answer"] = next(line for line in lines if line.startswith("| List price"))


def services(c: Corpus) -> list[str]:
    names = []
    for a in SERVICE_A:
        for b in c.rng.sample(SERVICE_B, 4):
            names.append(f"{a}-{b}")
    names = names[:34]
    for name in names:
        path = f"config/{name}.json"
        config = {
            "service": name,
            "owner_team": c.pick(TEAMS),
            "region": c.pick(REGIONS),
            "port": c.rng.randint(3000, 9900),
            "timeout_seconds": c.pick((5, 10, 15, 30, 60, 120)),
            "retries": c.rng.randint(0, 6),
            "replicas": c.rng.randint(1, 12),
            "on_call": _person(c.rng),
        }
        text = json.dumps(config, indent=2) + "\n"
        c.add_file(path, text)
        c.ask("config", c.pick((f"Which port does {name} listen on?",
                                f"What port is the {name} service on?")),
              path, f'"port": {config["port"]}')  # fmt: skip
        c.ask("config", c.pick((f"Which team owns {name}?", f"Who is on call for {name}?",
                                f"How many replicas does {name} run?")), path, "")  # fmt: skip
        text_q = c.questions[-1]["messages"][-1]["content"]
        key = "owner_team" if "team" in text_q else "on_call" if "on call" in text_q else "replicas"
        c.questions[-1]["answer"] = f'"{key}": {json.dumps(config[key])}'
    return names


CODE_TOPICS = (
    ("late_fee", "compute_late_fee", "invoice", "Late fees are {a} percent of the open amount "
     "per started month, capped at {b} percent.", "How is the late fee on an invoice computed?"),
    ("vat", "vat_rate", "country", "The reduced VAT rate of {a} percent applies to books and "
     "food; everything else pays {b} percent.", "Which VAT rate applies to books?"),
    ("shipping", "shipping_cost", "parcel", "Parcels under {a} kg ship for a flat fee; heavier "
     "ones cost {b} cents per extra kilogram.", "How is the shipping cost of a heavy parcel computed?"),
    ("password", "check_password", "candidate", "A password needs at least {a} characters and "
     "may not reuse any of the last {b} passwords.", "What are the password rules?"),
    ("discount", "loyalty_discount", "customer", "Customers with more than {a} orders get a "
     "{b} percent loyalty discount.", "When does a customer get a loyalty discount?"),
    ("retry", "backoff_delay", "attempt", "The delay doubles after each failed attempt, starting "
     "at {a}00 milliseconds and never above {b} seconds.", "How long does the client wait between retries?"),
    ("rounding", "round_amount", "amount", "Amounts are rounded half to even to {a} decimal "
     "places, never with floats.", "How are money amounts rounded?"),
    ("session", "session_expired", "session", "A session expires after {a} minutes without a "
     "request, or {b} hours after login.", "When does a user session expire?"),
    ("stock", "reorder_point", "item", "An item is reordered when stock falls below {a} days "
     "of average demand plus a safety stock of {b} units.", "When is an item reordered?"),
    ("fraud", "fraud_score", "payment", "Payments above {a}00 euros from a new device add {b} "
     "points to the fraud score.", "What raises the fraud score of a payment?"),
)  # fmt: skip


def code(c: Corpus) -> None:
    for i, (mod, func, arg, doc, question) in enumerate(CODE_TOPICS * 3):
        variant = i // len(CODE_TOPICS)
        a, b = c.rng.randint(2, 9), c.rng.randint(10, 30)
        sentence = doc.format(a=a, b=b)
        path = f"src/{mod}{'' if variant == 0 else f'_v{variant + 1}'}.py"
        region = ("", "legacy ", "experimental ")[variant]
        text = (
            f'"""The {region}{mod.replace("_", " ")} rules of the shop backend."""\n\n'
            f"from decimal import Decimal\n\n\n"
            f"def {func}({arg}, *, today=None):\n"
            f'    """{sentence}"""\n'
            f"    limit = Decimal({b})\n"
            f"    value = Decimal({a}) * limit\n"
            f"    return min(value, limit)\n"
        )
        c.add_file(path, text)
        if variant == 0:
            c.ask("code", question, path, sentence)
        elif variant == 1:
            c.ask("code", question.replace("?", " in the legacy code?"), path, sentence)


def tables(c: Corpus, product_names: list[str]) -> None:
    for w in WAREHOUSES:
        path = f"data/stock-{w.lower()}.csv"
        rows = ["sku,product,units_in_stock,aisle"]
        chosen = c.rng.sample(product_names, 12)
        for k, name in enumerate(chosen):
            rows.append(
                f"SKU-{w[:3].upper()}{k:03d},{name},{c.rng.randint(0, 480)},{c.rng.randint(1, 40)}"
            )
        c.add_file(path, "\n".join(rows) + "\n")
        for line in c.rng.sample(rows[1:], 2):
            product = line.split(",")[1]
            c.ask("table", c.pick((f"How many {product} units are in stock in {w}?",
                                   f"Stock of {product} at the {w} warehouse")), path, line)  # fmt: skip
    for d in DEPARTMENTS:
        path = f"data/staff-{d}.csv"
        rows = ["name,department,office,start_year,role"]
        people = []
        for _ in range(10):
            p = _person(c.rng)
            while p in people:
                p = _person(c.rng)
            people.append(p)
            role = c.pick(("analyst", "manager", "engineer", "specialist", "lead", "assistant"))
            rows.append(f"{p},{d},{c.pick(CITIES)},{c.rng.randint(2008, 2026)},{role}")
        c.add_file(path, "\n".join(rows) + "\n")
        line = c.pick(rows[1:])
        person = line.split(",")[0]
        c.ask("table", c.pick((f"Which office does {person} of {d} work in?",
                               f"When did {person} join the {d} team?")), path, line)  # fmt: skip


def handbook(c: Corpus) -> None:
    for topic, sentence, question in POLICIES:
        n = c.rng.randint(2, 9)
        text_s = sentence.format(n=n)
        path = f"handbook/{topic.replace(' ', '-')}.md"
        text = (
            f"# Policy: {topic}\n\n_Last reviewed by {_person(c.rng)}._\n\n"
            f"## Rule\n\n{text_s}\n\n## Exceptions\n\nExceptions need the written approval "
            f"of the department head and of human resources.\n"
        )
        c.add_file(path, text)
        c.ask("policy", question, path, text_s)


def incidents(c: Corpus, service_names: list[str]) -> None:
    causes = (
        "an expired TLS certificate", "a full disk on the primary database",
        "a bad configuration push", "a memory leak in the connection pool",
        "a DNS change at the hosting provider", "a runaway batch job",
    )  # fmt: skip
    for i, name in enumerate(c.rng.sample(service_names, 30)):
        path = f"incidents/inc-{2026_0 + i:05d}.txt"
        cause = c.pick(causes)
        minutes = c.rng.randint(4, 180)
        day = f"{c.rng.randint(1, 28)} {c.pick(('April', 'June', 'August', 'October'))}"
        cause_s = f"Root cause: {cause} took {name} down."
        dur_s = f"The outage lasted {minutes} minutes on {day}."
        text = (
            f"Incident report INC-{i + 100}\n\nSummary\n{dur_s} Customers saw errors in the "
            f"checkout.\n\n{cause_s}\n\nFollow-up\nAdd an alert and a runbook entry "
            f"(owner: {_person(c.rng)}).\n"
        )
        c.add_file(path, text)
        c.ask("incident", c.pick((f"What caused the {name} outage?",
                                  f"Why did {name} go down?")), path, cause_s)  # fmt: skip
        if c.rng.random() < 0.4:
            c.ask("incident", f"How long was {name} down?", path, dur_s)


def no_answers(c: Corpus, product_names: list[str], service_names: list[str]) -> None:
    for q in GENERAL:
        c.ask("no-answer", q, None, None)
    for city in MISSING_CITIES:  # near misses: the same kind of question, a city not in the files
        c.ask("no-answer-near", c.pick((f"What was the churn in {city} in Q2?",
                                        f"Net promoter score of the {city} branch in Q3?")),
              None, None)  # fmt: skip
        c.ask("no-answer-near", f"Who leads the {city} office move?", None, None)
    for brand in ("Nordlys", "Quokka", "Zephyra", "Marlowe", "Tessellate", "Ocelot"):
        noun = c.pick(PRODUCT_NOUNS)
        c.ask("no-answer-near", f"How long does the battery of the {brand} 7X {noun} last?",
              None, None)  # fmt: skip
    for a in ("fraudwatch", "geocoder", "thumbnailer", "mailroom", "ratecard", "sitemap"):
        c.ask("no-answer-near", f"Which port does the {a}-relay service listen on?", None, None)
    for name in ("Pelican", "Sequoia", "Tourmaline", "Walrus", "Manatee", "Cobblestone"):
        c.ask("no-answer-near", c.pick((f"Who leads project {name}?",
                                        f"What is the budget of project {name}?")), None, None)  # fmt: skip
    for topic in ("dental insurance", "pet-friendly office", "stock options", "jury duty",
                  "blood donation leave", "standing desks"):  # fmt: skip
        c.ask("no-answer-near", f"What is our policy on {topic}?", None, None)


def build() -> Corpus:
    c = Corpus(random.Random(SEED))
    city_reports(c)
    project_notes(c)
    product_names = products(c)
    _fix_product_labels(c)
    service_names = services(c)
    code(c)
    tables(c, product_names)
    handbook(c)
    incidents(c, service_names)
    no_answers(c, product_names, service_names)
    return c


def write(out: Path = OUT) -> Corpus:
    c = build()
    if (out / "files").exists():
        shutil.rmtree(out / "files")
    for path, text in sorted(c.files.items()):
        target = out / "files" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    lines = [json.dumps(q, ensure_ascii=False) for q in c.questions]
    (out / "questions.jsonl").write_text("\n".join(lines) + "\n")
    return c


if __name__ == "__main__":
    corpus = write()
    kinds: dict[str, int] = {}
    for q in corpus.questions:
        kinds[q["kind"]] = kinds.get(q["kind"], 0) + 1
    print(f"{len(corpus.files)} files, {len(corpus.questions)} questions: {kinds}")
