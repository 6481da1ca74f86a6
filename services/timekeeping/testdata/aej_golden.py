#!/usr/bin/env python3
"""Writes aej-2024-03.txt, the golden AEJ of TestAEJGoldenMonth (aej_test.go).

Written apart from the Go code, from the layout alone (Portaria MTP 671/2021,
Anexo VI, layout 001, with the choices of docs/compliance.md): every record
is built field by field below and joined with "|", lines end with CR LF, the
file is ISO-8859-1.

The scenario (São Paulo time, UTC-3): company 7 of the billing stand-in,
schedule "Comercial" Monday to Friday 08:00-12:00 13:00-17:00; José (CPF
123.456.789-09, created first: bond 1) and Maria (987.654.321-00, bond 2).
  José   2024-03-04 08:00:12, 12:00:05, 12:00:40 (disregarded: "marcação em
         duplicidade"), 13:00:30; 17:00 included ("esqueceu de registrar a saída")
  José   2024-03-05 absence marked by the company (falta não justificada)
  Every other weekday of March without punches is an unexcused absence too
  (the one rule of docs/compliance.md), but Good Friday (29th), a national
  holiday; each Sunday is lost to the absences of the six days before (the
  last days of February included), so no DSR (code 1) is written; the
  hour bank is off, so no movement (code 3).
  Maria  2024-03-04 08:01:30, 12:00:59, 13:02:00, 17:03:00
  Maria  2024-03-09 (Saturday, no shift) 09:00:00, 11:00:00
  José   2024-04-01 08:00 (outside March)
File generated 2024-04-02 10:30:45 for 2024-03-01..2024-03-31.

Run: python3 aej_golden.py  (rewrites aej-2024-03.txt)
"""

def cnpj(n):
    d = "%08d0001" % (11222000 + n)
    for w in ([5,4,3,2,9,8,7,6,5,4,3,2], [6,5,4,3,2,9,8,7,6,5,4,3,2]):
        r = sum(int(a) * b for a, b in zip(d, w)) % 11
        d += str(0 if r < 2 else 11 - r)
    return d

def dh(date, hm):          # DH: seconds written as 00, the zone as -0300
    return "%sT%s:00-0300" % (date, hm)

INPI, DEV = "12345678901234567", "11222333000181"
COMERCIAL = "0800-1200-1300-1700"   # the schedule's code: its hours

def marc(bond, date, hm, rep, tp, seq, fonte, cod="", motivo=""):
    return ["05", str(bond), dh(date, hm), rep, tp, "%03d" % seq, fonte, cod, motivo]

def absences():
    """Type 07, code 2, for each bond's unpunched weekdays of March but the
    holiday, in date order (bond 1's, then bond 2's)."""
    import datetime
    worked = {1: {"2024-03-04"}, 2: {"2024-03-04", "2024-03-09"}}
    out = []
    for bond in (1, 2):
        for day in range(1, 32):
            d = datetime.date(2024, 3, day)
            s = d.isoformat()
            if d.weekday() < 5 and s not in worked[bond] and s != "2024-03-29":
                out.append(["07", str(bond), "2", s, "", ""])
    return out

records = [
    ["01", "1", cnpj(7), "", "", "Panificação São João 7 Ltda", "2024-03-01", "2024-03-31",
     dh("2024-04-02", "10:30"), "001"],
    ["02", "1", "3", INPI],
    ["03", "1", "12345678909", "José Antônio"],
    ["03", "2", "98765432100", "Maria Aparecida"],
    # 08:00-12:00 and 13:00-17:00: 480 minutes, none at night
    ["04", COMERCIAL, "480", "0800", "1200", "1300", "1700"],
    marc(1, "2024-03-04", "08:00", "1", "E", 1, "O", COMERCIAL),
    marc(1, "2024-03-04", "12:00", "1", "S", 1, "O"),
    # third punch of the day: pair 2 by its place; disregarded
    marc(1, "2024-03-04", "12:00", "1", "D", 2, "O", "", "marcação em duplicidade"),
    marc(1, "2024-03-04", "13:00", "1", "E", 2, "O"),
    marc(1, "2024-03-04", "17:00", "", "S", 2, "I", "", "esqueceu de registrar a saída"),
    marc(2, "2024-03-04", "08:01", "1", "E", 1, "O", COMERCIAL),
    marc(2, "2024-03-04", "12:00", "1", "S", 1, "O"),
    marc(2, "2024-03-04", "13:02", "1", "E", 2, "O"),
    marc(2, "2024-03-04", "17:03", "1", "S", 2, "O"),
    # a worked rest day names the contractual schedule (no invented one)
    marc(2, "2024-03-09", "09:00", "1", "E", 1, "O", COMERCIAL),
    marc(2, "2024-03-09", "11:00", "1", "S", 1, "O"),
] + absences() + [
    ["08", "ponto", "develop", "1", DEV, "ponto", "nao-informado"],
]
counts = [sum(1 for r in records if r[0] == "%02d" % t) for t in range(1, 9)]
records.append(["99"] + [str(n) for n in counts])

lines = ["|".join(r) for r in records]
sig = "ASSINATURA_DIGITAL_EM_ARQUIVO_P7S"
lines.append(sig + " " * (100 - len(sig)))
with open(__file__.replace("aej_golden.py", "aej-2024-03.txt"), "wb") as f:
    f.write("".join(l + "\r\n" for l in lines).encode("latin-1"))
