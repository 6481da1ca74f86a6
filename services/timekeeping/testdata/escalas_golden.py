#!/usr/bin/env python3
"""Writes escalas-2024-11.json and escalas-aej-2024-11.txt, the golden month
of every schedule kind (TestEscalasGoldenMonth, escalas_test.go).

Written apart from the Go code, from the CLT and Portaria 671 as
docs/compliance.md reads them: each figure is computed below from the punches
and the schedule, each AEJ record built field by field.

The scenario (company 9, São Paulo, UTC-3; November 2024: holidays Saturday
2 Finados, Friday 15 Proclamação da República, Wednesday 20 Consciência
Negra), every punch on the scheduled minute unless said:
  1 Dia       Mon-Fri 08:00-12:00 13:00-17:00, admitted 01/11; absent on
              Thursday 07 (costs Sunday 10's DSR); Tuesday 12 leaves 17:40.
  2 Noite     Mon-Fri 22:00-02:00 03:00-05:30 (next day), admitted 01/11:
              the 14->15 and 19->20 nights run into a holiday, the 15->16
              and 20->21 ones start on one.
  3 Plantão   12x36 from 01/11, 07:00-12:00 13:00-19:00, admitted 01/11:
              its shift on Friday 15 (holiday) is ordinary (art. 59-A).
  4 Admitida  as Dia, admitted 11/11: nothing owed before.
  5 Demitido  as Dia, admitted 01/11, terminated 14/11: nothing owed after.
The hour bank is off. Files read on 2024-12-02 10:30:45.

Run: python3 escalas_golden.py  (rewrites both files)
"""
import datetime as dt
import json

FERIADOS = {"2024-11-02", "2024-11-15", "2024-11-20"}
DAY = (8 * 60, [8 * 60, 12 * 60, 13 * 60, 17 * 60])          # entrada, marks
NIGHT = (22 * 60, [22 * 60, 26 * 60, 27 * 60, 29 * 60 + 30])  # past 24:00 = next day
PLANTAO = (7 * 60, [7 * 60, 12 * 60, 13 * 60, 19 * 60])

EMPLOYEES = [
    # name, cpf digits, kind, schedule, admission, termination
    ("Dia", "12345678909", "semana", DAY, "2024-11-01", None),
    ("Noite", "98765432100", "semana", NIGHT, "2024-11-01", None),
    ("Plantão", "11144477735", "12x36", PLANTAO, "2024-11-01", None),
    ("Admitida", "52998224725", "semana", DAY, "2024-11-11", None),
    ("Demitido", "39053344705", "semana", DAY, "2024-11-01", "2024-11-14"),
]
DAYS = [dt.date(2024, 11, d) for d in range(1, 31)]


def pairs(m):
    return [(m[i], m[i + 1]) for i in range(0, len(m) - 1, 2)]


def overlap(a, b, lo, hi):
    return max(0, min(b, hi) - max(a, lo))


def scheduled(kind, d):
    if kind == "12x36":
        return (d - dt.date(2024, 11, 1)).days % 2 == 0
    return d.weekday() < 5


def in_bond(e, d):
    s = d.isoformat()
    return s >= e[4] and (e[5] is None or s <= e[5])


def punches(e, d):
    """The day's punches (minutes after the workday's midnight), None for none."""
    name, kind, sched = e[0], e[2], e[3]
    if not scheduled(kind, d) or not in_bond(e, d):
        return None
    if name == "Dia" and d.day == 7:
        return None
    m = list(sched[1])
    if name == "Dia" and d.day == 12:
        m[3] += 40
    return m


def noturnos(m):
    """Art. 73: 22:00-05:00 on any night the marks meet, plus Súmula 60 II's
    extension: work under way at 05:00 with night minutes over half the day's
    work goes on counting as night."""
    nights = [(22 * 60 + k * 1440, 29 * 60 + k * 1440) for k in (-2, -1, 0, 1)]
    night = sum(overlap(a, b, lo, hi) for a, b in pairs(m) for lo, hi in nights)
    worked = sum(b - a for a, b in pairs(m))
    if night * 2 > worked:
        for lo, hi in nights:
            if any(a < hi < b for a, b in pairs(m)):
                night += sum(overlap(a, b, hi, hi + 1440) for a, b in pairs(m))
                break
    return night


def apurar(e, d):
    kind, (entrada, marks) = e[2], e[3]
    m = punches(e, d) or []
    fora = not in_bond(e, d)
    turno = marks if scheduled(kind, d) and not fora else None
    s, nxt = d.isoformat(), (d + dt.timedelta(days=1)).isoformat()
    feriado, seguinte, domingo = s in FERIADOS, nxt in FERIADOS, d.weekday() == 6
    if kind == "12x36" and turno:            # art. 59-A sole paragraph
        feriado = seguinte = domingo = False
    faixas = ([(0, 1440)] if feriado else []) + ([(1440, 2880)] if seguinte else [])
    trab = sum(b - a for a, b in pairs(m))
    no_fer = sum(overlap(a, b, lo, hi) for a, b in pairs(m) for lo, hi in faixas)
    prev, tolerancia = 0, False
    if turno:
        t_fer = sum(overlap(a, b, lo, hi) for a, b in pairs(turno) for lo, hi in faixas)
        prev = sum(b - a for a, b in pairs(turno)) - t_fer
        # art. 58 §1: every punch within 5 minutes, 10 a day (only off holidays)
        tolerancia = (t_fer == 0 and no_fer == 0 and len(m) == len(turno) and
                      all(abs(x - y) <= 5 for x, y in zip(m, turno)) and
                      sum(abs(x - y) for x, y in zip(m, turno)) <= 10)
    ordinario = trab - no_fer - prev
    saldo = 0 if tolerancia else ordinario + no_fer
    ordinario = 0 if tolerancia else ordinario
    e50, e100 = (0, max(0, ordinario)) if domingo else (max(0, ordinario), 0)
    e100 += no_fer
    falta = bool(turno) and prev > 0 and not m
    return {"data": s, "minutosTrabalhados": trab, "minutosPrevistos": prev, "minutosExtras50": e50,
            "minutosExtras100": e100, "minutosNoturnos": noturnos(m), "saldoMinutos": saldo,
            "falta": falta, "foraDoVinculo": fora}


def timesheet(e):
    # rows: the schedule's working days and the days with punches
    return [apurar(e, d) for d in DAYS if scheduled(e[2], d) or punches(e, d)]


def dh(d, minutes):
    t = dt.datetime(d.year, d.month, d.day) + dt.timedelta(minutes=minutes)
    return t.strftime("%Y-%m-%dT%H:%M:00-0300")


def hhmm(m):
    m %= 1440
    return "%02d%02d" % (m // 60, m % 60)


def code(marks):
    return "-".join(hhmm(a) + "-" + hhmm(b) for a, b in pairs(marks))


def cnpj(n):
    d = "%08d0001" % (11222000 + n)
    for w in ([5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]):
        r = sum(int(a) * b for a, b in zip(d, w)) % 11
        d += str(0 if r < 2 else 11 - r)
    return d


def aej():
    recs = [["01", "1", cnpj(9), "", "", "Panificação São João 9 Ltda", "2024-11-01", "2024-11-30",
             "2024-12-02T10:30:00-0300", "001"],
            ["02", "1", "3", "12345678901234567"]]
    for i, e in enumerate(EMPLOYEES):
        recs.append(["03", str(i + 1), e[1], e[0]])
    # durJornada: the shift's minutes, night ones reduced (52'30": x 8/7, rounded)
    seen = []
    for e in EMPLOYEES:
        marks = e[3][1]
        if code(marks) not in [c for c, _ in seen]:
            work = sum(b - a for a, b in pairs(marks))
            n = noturnos(marks)
            seen.append((code(marks), work - n + (n * 8 + 3) // 7))
            recs.append(["04", code(marks), str(seen[-1][1])] + [hhmm(x) for x in marks])
    for i, e in enumerate(EMPLOYEES):
        for d in DAYS:
            m = punches(e, d)
            if not m:
                continue
            for k, x in enumerate(m):
                tp = "E" if k % 2 == 0 else "S"
                recs.append(["05", str(i + 1), dh(d, x), "1", tp, "%03d" % (k // 2 + 1), "O",
                             code(e[3][1]) if k == 0 else "", ""])
    for i, e in enumerate(EMPLOYEES):
        out = []
        rows = {r["data"]: r for r in timesheet(e)}
        for d in DAYS:
            s = d.isoformat()
            if s in rows and rows[s]["falta"]:
                out.append((s, "2"))
            # a paid weekly rest (Sunday, weekly schedules) within the bond:
            # no unexcused absence in the six days before
            if e[2] == "semana" and d.weekday() == 6 and in_bond(e, d):
                before = [(d - dt.timedelta(days=k)) for k in range(1, 7)]
                lost = any(b.month == 11 and rows.get(b.isoformat(), {}).get("falta") for b in before)
                if not lost:
                    out.append((s, "1"))
        for s, c in sorted(out):
            recs.append(["07", str(i + 1), c, s, "", ""])
    recs.append(["08", "ponto", "develop", "1", "11222333000181", "ponto", "nao-informado"])
    counts = [sum(1 for r in recs if r[0] == "%02d" % t) for t in range(1, 9)]
    recs.append(["99"] + [str(n) for n in counts])
    lines = ["|".join(r) for r in recs]
    sig = "ASSINATURA_DIGITAL_EM_ARQUIVO_P7S"
    lines.append(sig + " " * (100 - len(sig)))
    return "".join(l + "\r\n" for l in lines).encode("latin-1")


here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
with open(here + "/escalas-2024-11.json", "w") as f:
    json.dump([{"funcionario": e[0], "dias": timesheet(e)} for e in EMPLOYEES], f, ensure_ascii=False, indent=1)
    f.write("\n")
with open(here + "/escalas-aej-2024-11.txt", "wb") as f:
    f.write(aej())
