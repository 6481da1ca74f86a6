package core

import (
	"strings"
	"testing"
	"time"
)

// TestAFDRoundTripEveryRecordType formats one record of each type, reads
// the file back, and checks every field, the DH format of Anexo V item 6
// (seconds "00" and the record's own offset), the CRCs and the chain.
func TestAFDRoundTripEveryRecordType(t *testing.T) {
	at := time.Date(2026, 3, 10, 14, 7, 42, 0, time.UTC)
	rep := REP{INPI: "12345678901234567", Desenvolvedor: "11.222.333/0001-81"}
	w, err := NewWriter(Cabecalho{Empregador: "12.ABC.345/01DE-35", RazaoSocial: "Padaria São João Ltda", REP: rep,
		Inicio: date(2026, 3, 1), Fim: date(2026, 3, 31), Geracao: at, OffsetMinutes: -240})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.Empresa(Empresa{NSR: 1, Gravacao: at, OffsetMinutes: -240, Responsavel: "529.982.247-25",
		Empregador: "12.ABC.345/01DE-35", RazaoSocial: "Padaria São João Ltda", Local: "Rua das Flores, 10 — Manaus/AM"}))
	must(w.AjusteRelogio(AjusteRelogio{NSR: 2, Antes: at, Depois: at.Add(90 * time.Second), OffsetMinutes: -240,
		Responsavel: "52998224725"}))
	must(w.Empregado(Empregado{NSR: 3, Gravacao: at, OffsetMinutes: -240, Operacao: "I", CPF: "123.456.789-09",
		Nome: "José da Silva", Responsavel: "52998224725"}))
	must(w.Evento(Evento{NSR: 4, Gravacao: at, OffsetMinutes: -240, Codigo: EventoIndisponibilidade}))
	m := Marcacao{NSR: 5, Horario: at, OffsetMinutes: -240, CPF: "12345678909", Coletor: ColetorBrowser}
	h, err := Hash(m, "")
	must(err)
	must(w.Marcacao(m, h))
	must(w.Evento(Evento{NSR: 6, Gravacao: at, OffsetMinutes: -240, Codigo: EventoDisponibilidade}))
	file, err := w.Close()
	must(err)

	a, err := ParseAFD(file)
	if err != nil {
		t.Fatalf("Ler: %v\n%s", err, file)
	}
	const dh = "2026-03-10T10:07:00-0400"
	if a.Cabecalho.Geracao != dh || a.Cabecalho.Empregador != "12ABC34501DE35" || a.Cabecalho.INPI != rep.INPI {
		t.Errorf("header %+v", a.Cabecalho)
	}
	if e := a.Empresas[0]; e.Gravacao != dh || e.Responsavel != "00052998224725" || e.TipoEmpregador != "1" ||
		e.RazaoSocial != "Padaria São João Ltda" || e.Local != "Rua das Flores, 10 ? Manaus/AM" {
		t.Errorf("type 2 %+v", e)
	}
	if r := a.AjustesRelogio[0]; r.Antes != dh || r.Depois != "2026-03-10T10:09:00-0400" || r.Responsavel != "52998224725" {
		t.Errorf("type 4 %+v", r)
	}
	if e := a.Empregados[0]; e.Gravacao != dh || e.Operacao != "I" || e.CPF != "012345678909" || e.Nome != "José da Silva" {
		t.Errorf("type 5 %+v", e)
	}
	if len(a.Eventos) != 2 || a.Eventos[0].Codigo != "08" || a.Eventos[1].Codigo != "07" || a.Eventos[0].Gravacao != dh {
		t.Errorf("type 6 %+v", a.Eventos)
	}
	if p := a.Marcacoes[0]; p.Horario != dh || p.Gravacao != dh || p.Coletor != "02" || p.OnLine != "0" || p.Hash != h {
		t.Errorf("type 7 %+v", p)
	}
	if a.Trailer != (Trailer{2: 1, 4: 1, 5: 1, 6: 2, 7: 1}) {
		t.Errorf("trailer %v", a.Trailer)
	}
	if err := a.VerifyCadeia(""); err != nil {
		t.Fatal(err)
	}

	// Type 3 (REP-C) is never written by ponto but reads back too.
	l3, err := Linha3(MarcacaoREPC{NSR: 7, Horario: at, OffsetMinutes: -180, CPF: "12345678909"})
	must(err)
	if len(l3) != Len3 || l3[:34] != "0000000073"+"2026-03-10T11:07:00-0300" {
		t.Fatalf("type 3 %q", l3)
	}
	lines := strings.Split(strings.TrimSuffix(string(file), "\r\n"), "\r\n")
	trailer := "999999999000000001000000001000000001000000001000000002000000001" + "9"
	withREPC := strings.Join(append(append(lines[:len(lines)-2:len(lines)-2], l3, trailer), lines[len(lines)-1]), "\r\n") + "\r\n"
	b, err := ParseAFD([]byte(withREPC))
	if err != nil {
		t.Fatal(err)
	}
	if r := b.MarcacoesREPC[0]; r.Horario != "2026-03-10T11:07:00-0300" || r.CPF != "012345678909" {
		t.Errorf("type 3 read %+v", r)
	}
}

func TestAFDRefusesSecondsAndBrokenChain(t *testing.T) {
	at := time.Date(2026, 3, 10, 14, 7, 42, 0, time.UTC)
	w, _ := NewWriter(Cabecalho{Empregador: "11222333000181", RazaoSocial: "X", Inicio: date(2026, 3, 1),
		Fim: date(2026, 3, 31), Geracao: at, OffsetMinutes: -180})
	m := Marcacao{NSR: 1, Horario: at, OffsetMinutes: -180, CPF: "12345678909", Coletor: ColetorMobile}
	h, _ := Hash(m, "")
	if err := w.Marcacao(m, h); err != nil {
		t.Fatal(err)
	}
	file, _ := w.Close()
	if _, err := ParseAFD(file); err != nil {
		t.Fatal(err)
	}
	// Seconds in a DH field are refused (a type-7 record has no CRC).
	bad := strings.Replace(string(file), "2026-03-10T11:07:00-0300012345678909", "2026-03-10T11:07:42-0300012345678909", 1)
	if _, err := ParseAFD([]byte(bad)); err == nil {
		t.Fatal("a DH field with seconds was accepted")
	}
	// A changed punch no longer chains.
	a, _ := ParseAFD([]byte(strings.Replace(string(file), "012345678909", "012345678910", 1)))
	if a == nil || a.VerifyCadeia("") == nil {
		t.Fatal("a changed CPF still verified")
	}
}

// TestChainAcrossTheHashRuleChange: punches hashed with version 1 (the
// recording seconds kept) followed by version 2 verify from the AFD file,
// where every DH field shows ":00".
func TestChainAcrossTheHashRuleChange(t *testing.T) {
	at := time.Date(2026, 3, 10, 14, 7, 42, 0, time.UTC)
	w, _ := NewWriter(Cabecalho{Empregador: "11222333000181", RazaoSocial: "X", Inicio: date(2026, 3, 1),
		Fim: date(2026, 3, 31), Geracao: at, OffsetMinutes: -180})
	prev := ""
	for i, v := range []int{HashV1, HashV1, HashV2, HashV2} {
		m := Marcacao{NSR: int64(i + 1), Horario: at.Add(time.Duration(i) * 61 * time.Second), OffsetMinutes: -180,
			CPF: "12345678909", Coletor: ColetorMobile, Versao: v}
		h, err := Hash(m, prev)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyMarcacao(m, prev, h); err != nil {
			t.Fatal(err)
		}
		if err := w.Marcacao(m, h); err != nil {
			t.Fatal(err)
		}
		prev = h
	}
	file, _ := w.Close()
	a, err := ParseAFD(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.VerifyCadeia(""); err != nil {
		t.Fatalf("chain across versions: %v", err)
	}
	// A version-1 record whose hash was tampered with is still caught.
	a.Marcacoes[1].Hash = strings.Repeat("0", 64)
	if a.VerifyCadeia("") == nil {
		t.Fatal("a tampered version-1 hash verified")
	}
}

// Anexo V's own example of a DH field: 2021-04-27T16:44:00-0300.
func TestDHFieldAsTheAnexoExample(t *testing.T) {
	sp := zone(t, "America/Sao_Paulo")
	at := time.Date(2021, 4, 27, 16, 44, 37, 500e6, sp)
	l, err := Linha6(Evento{NSR: 1, Gravacao: at, OffsetMinutes: Offset(at, sp), Codigo: EventoDisponibilidade})
	if err != nil {
		t.Fatal(err)
	}
	if want := "000000001" + "6" + "2021-04-27T16:44:00-0300" + "07"; l != want {
		t.Fatalf("type 6 %q, want %q", l, want)
	}
	if !dhValido("2021-04-27T16:44:00-0300") || dhValido("2021-04-27T16:44:37-0300") || dhValido("2021-04-27T16:44:00Z") {
		t.Fatal("dhValido")
	}
}
