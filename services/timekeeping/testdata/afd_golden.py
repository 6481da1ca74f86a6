#!/usr/bin/env python3
"""Writes afd-2024-03.txt, the golden AFD of TestAFDGoldenMonth (afd_test.go).

Written apart from the Go code, from the layout alone (Portaria MTP 671/2021,
Anexo V, layout 003, with the choices of docs/compliance.md), so that the Go
export is checked against an independent reading: every record is built
field by field below, CRC-16/KERMIT and the SHA-256 chain are computed here.

The scenario (São Paulo time, UTC-3): company 7 of the billing stand-in;
José (CPF 123.456.789-09) and Maria (987.654.321-00).
  NSR 1  type 5 I José            2024-02-29 17:00:05 (outside March)
  NSR 2  type 7 José              2024-02-29 17:00:05 (outside March)
  NSR 3  type 7 José              2024-03-01 08:00:12
  NSR 4  type 5 I Maria (long name, cut at 52)   2024-03-01 08:01:30
  NSR 5  type 7 Maria             2024-03-01 08:01:30
  NSR 6  type 5 A Maria (renamed, "Ł" is not ISO-8859-1)  2024-03-01 12:00:59
  NSR 7  type 7 Maria             2024-03-01 12:00:59
  NSR 8  type 7 José              2024-03-31 23:59:59 (still March)
  NSR 9  type 7 José              2024-04-01 00:00:01 (outside March)
File generated 2024-04-02 10:30:45 for 2024-03-01..2024-03-31.

Run: python3 afd_golden.py  (rewrites afd-2024-03.txt)
"""
import hashlib

def kermit(data: bytes) -> int:
    crc = 0
    for c in data:
        crc ^= c
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc

assert kermit(b"123456789") == 0x2189

def cnpj(n):
    d = "%08d0001" % (11222000 + n)
    for w in ([5,4,3,2,9,8,7,6,5,4,3,2], [6,5,4,3,2,9,8,7,6,5,4,3,2]):
        r = sum(int(a) * b for a, b in zip(d, w)) % 11
        d += str(0 if r < 2 else 11 - r)
    return d

def alpha(s, n):
    s = "".join(c if ord(c) <= 0xff else "?" for c in s)[:n]
    return s + " " * (n - len(s))

def with_crc(s):
    return s + "%04X" % kermit(s.encode("latin-1"))

def dh(date, hm):          # every DH field: seconds written as 00 (Anexo V item 6)
    return "%sT%s:00-0300" % (date, hm)

JOSE, MARIA = "012345678909", "098765432100"
INPI, DEV = "12345678901234567", "11222333000181"

header = with_crc("000000000" + "1" + "1" + cnpj(7) + " " * 14 +
                  alpha("Panificação São João 7 Ltda", 150) + INPI +
                  "2024-03-01" + "2024-03-31" + dh("2024-04-02", "10:30") +
                  "003" + "1" + DEV + " " * 30)
assert len(header) == 302

def type5(nsr, date, hm, op, cpf, nome):
    r = with_crc("%09d" % nsr + "5" + dh(date, hm) + op + cpf + alpha(nome, 52) + " " * 4 + "0" * 11)
    assert len(r) == 118
    return r

prev = ""
def type7(nsr, date, hms, cpf):
    global prev
    # The punch and the recording time are the same server stamp; the
    # hash (rule version 2) covers the 73 characters as printed.
    p = "%09d" % nsr + "7" + dh(date, hms[:5]) + cpf + dh(date, hms[:5]) + "01" + "0"
    assert len(p) == 73
    prev = hashlib.sha256((p + prev).encode("latin-1")).hexdigest()
    return p + prev

type7(2, "2024-02-29", "17:00:05", JOSE)       # outside the file, but chained
body = [
    type7(3, "2024-03-01", "08:00:12", JOSE),
    type5(4, "2024-03-01", "08:01", "I", MARIA,
          "Maria Aparecida dos Santos Oliveira Pereira de Albuquerque Cavalcanti"),
    type7(5, "2024-03-01", "08:01:30", MARIA),
    type5(6, "2024-03-01", "12:00", "A", MARIA, "Maria Łucja da Conceição"),
    type7(7, "2024-03-01", "12:00:59", MARIA),
    type7(8, "2024-03-31", "23:59:59", JOSE),
]
trailer = "999999999" + "%09d" % 0 + "%09d" % 0 + "%09d" % 0 + "%09d" % 2 + "%09d" % 0 + "%09d" % 4 + "9"
assert len(trailer) == 64
signature = alpha("ASSINATURA_DIGITAL_EM_ARQUIVO_P7S", 100)

with open("afd-2024-03.txt", "wb") as f:
    for line in [header] + body + [trailer, signature]:
        f.write(line.encode("latin-1") + b"\r\n")
