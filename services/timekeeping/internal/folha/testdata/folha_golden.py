#!/usr/bin/env python3
"""Writes the golden exports of exportacao_test.go (package folha).

Written apart from the Go writer, from docs/folha.md alone: every line is
built field by field below. The scenario, March 2024:
  José da Silva (id 7, CPF 123.456.789-09): extras50 90, extras100 480,
    noturnos 125, noturnosReduzidos 143, atrasos 17, faltas 2 days / 960,
    dsrPerdidos 1, bancoPago 60, intervaloSuprimido 45, interjornada 30,
    10 days of férias.
  "Santos, Maria Łucja ..." (id 12345, CPF 987.654.321-00, a name of 79
    characters with a comma): extras50 5999, bancoDescontado 75, 3 days of
    doença.
The mapping is the default with extras100 -> 201 and interjornada -> ""
(left out). folha.csv is provisional with one pending adjustment (punch
55 of José on 2024-03-05); the layouts' files are of a closed period.

Run: python3 folha_golden.py  (rewrites folha.csv, folha-calima.txt,
folha-generico.txt)
"""

JOSE = dict(id=7, cpf="12345678909", nome="José da Silva")
MARIA = dict(id=12345, cpf="98765432100",
             nome="Santos, Maria Łucja Conceição de Albuquerque Pereira Nascimento dos Reis Filha")

# (employee, evento, codigo, minutos, dias or None, counted in days only)
LINES = [
    (JOSE, "extras50", "150", 90, None, False),
    (JOSE, "extras100", "201", 480, None, False),
    (JOSE, "noturnos", "250", 125, None, False),
    (JOSE, "noturnosReduzidos", "251", 143, None, False),
    (JOSE, "atrasos", "300", 17, None, False),
    (JOSE, "faltas", "301", 960, 2, False),
    (JOSE, "dsrPerdidos", "302", 0, 1, True),
    (JOSE, "bancoPago", "160", 60, None, False),
    (JOSE, "intervaloSuprimido", "170", 45, None, False),
    (JOSE, "afastamento_ferias", "400", 0, 10, True),
    (MARIA, "extras50", "150", 5999, None, False),
    (MARIA, "bancoDescontado", "303", 75, None, False),
    (MARIA, "afastamento_doenca", "401", 0, 3, True),
]

def cell(s):
    if any(c in s for c in ',"\r\n') or s[:1] == " ":
        return '"' + s.replace('"', '""') + '"'
    return s

def csv():
    out = ["# PROVISÓRIO: o período de 2024-03-01 a 2024-03-31 não está fechado; os números ainda podem mudar",
           "# PENDENTE: solicitação de ajuste 55 do funcionário 7 em 2024-03-05",
           "cpf,nome,evento,codigo,minutos,horas,dias"]
    for f, ev, cod, mins, dias, _ in LINES:
        horas = "%d:%02d" % (mins // 60, mins % 60)
        out.append(",".join(cell(x) for x in
                            [f["cpf"], f["nome"], ev, cod, str(mins), horas, "" if dias is None else str(dias)]))
    return "\n".join(out) + "\n"

def num(v, n):
    s = str(v)
    assert len(s) <= n
    return "0" * (n - len(s)) + s

def txt(v, n):
    s = v[:n]
    return s + " " * (n - len(s))

def quantity(mins, dias, em_dias):
    q = dias if em_dias else mins
    return (q, 0) if em_dias else (mins // 60, mins % 60)

def calima():
    # CCCCC matrícula, RRRRRR AAAAMM, EEE event, HHH hours, MM minutes.
    out = []
    for f, ev, cod, mins, dias, em_dias in LINES:
        h, m = quantity(mins, dias, em_dias)
        out.append(num(f["id"], 5) + "202403" + num(cod, 3) + num(h, 3) + num(m, 2))
    return "\n".join(out) + "\n"

def generico():
    # 1-10 matrícula, 11-21 CPF, 22-27 AAAAMM, 28-37 code (left, blanks),
    # 38-41 hours, 42-43 minutes, 44-46 days, 47-106 name (left, cut).
    out = []
    for f, ev, cod, mins, dias, em_dias in LINES:
        h, m = quantity(mins, dias, em_dias)
        out.append(num(f["id"], 10) + num(f["cpf"], 11) + "202403" + txt(cod, 10) + num(h, 4) + num(m, 2)
                   + num(dias or 0, 3) + txt(f["nome"], 60))
    return "\n".join(out) + "\n"

if __name__ == "__main__":
    for name, body in [("folha.csv", csv()), ("folha-calima.txt", calima()), ("folha-generico.txt", generico())]:
        with open(name, "w", encoding="utf-8", newline="") as fh:
            fh.write(body)
