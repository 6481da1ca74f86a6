package folha

import (
	"bytes"
	"encoding/csv"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/validate"
)

// The scenario of testdata/folha_golden.py.
func scenario() ([]TotaisFuncionario, map[string]string) {
	jose := TotaisFuncionario{FuncionarioID: 7, CPF: "123.456.789-09", Nome: "José da Silva", Matricula: "7",
		Extras50: 90, Extras100: 480, Noturnos: 125, NoturnosReduzidos: 143, Atrasos: 17, FaltasDias: 2,
		FaltasMinutos: 960, DSRPerdidos: 1, BancoPago: 60, IntervaloSuprimido: 45, Interjornada: 30,
		Afastamentos: map[string]int{"ferias": 10}}
	maria := TotaisFuncionario{FuncionarioID: 12345, CPF: "987.654.321-00", Matricula: "12345",
		Nome:     "Santos, Maria Łucja Conceição de Albuquerque Pereira Nascimento dos Reis Filha",
		Extras50: 5999, BancoDescontado: 75, Afastamentos: map[string]int{"doenca": 3}}
	mapa := Padrao()
	mapa[Extras100], mapa[Interjornada] = "201", ""
	return []TotaisFuncionario{jose, maria}, mapa
}

func marco(fechado bool) Cabecalho {
	c := Cabecalho{Inicio: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), Fim: time.Date(2024, 3, 31, 0, 0, 0, 0, time.UTC),
		Fechado: fechado}
	if !fechado {
		c.Pendencias = []Pendencia{{Tipo: "ajuste", ID: 55, FuncionarioID: 7, Data: "2024-03-05"}}
	}
	return c
}

func golden(t *testing.T, got []byte, name string) {
	t.Helper()
	want, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		if i >= len(g) || i >= len(w) || g[i] != w[i] {
			t.Fatalf("%s differs at line %d:\n got %q\nwant %q", name, i+1, at(g, i), at(w, i))
		}
	}
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "<none>"
}

// parsed is one line read back: what the payroll would import.
type parsed struct {
	id, cpf, evento, codigo string
	minutos, dias           int
}

// expected are the scenario's lines as the payroll should read them.
func expected() []parsed {
	j, m := "7", "12345"
	return []parsed{{j, "12345678909", Extras50, "150", 90, 0}, {j, "12345678909", Extras100, "201", 480, 0},
		{j, "12345678909", Noturnos, "250", 125, 0}, {j, "12345678909", NoturnosReduzidos, "251", 143, 0},
		{j, "12345678909", Atrasos, "300", 17, 0}, {j, "12345678909", Faltas, "301", 960, 2},
		{j, "12345678909", DSRPerdidos, "302", 0, 1}, {j, "12345678909", BancoPago, "160", 60, 0},
		{j, "12345678909", IntervaloSuprimido, "170", 45, 0}, {j, "12345678909", "afastamento_ferias", "400", 0, 10},
		{m, "98765432100", Extras50, "150", 5999, 0}, {m, "98765432100", BancoDescontado, "303", 75, 0},
		{m, "98765432100", "afastamento_doenca", "401", 0, 3}}
}

func TestCSVGoldenAndParsedBack(t *testing.T) {
	totais, mapa := scenario()
	body, err := CSV(marco(false), totais, mapa)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, body, "folha.csv")
	if !bytes.HasPrefix(body, []byte("# PROVISÓRIO")) {
		t.Fatal("an open period's export must open with the provisional line")
	}
	r := csv.NewReader(bytes.NewReader(body))
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != "cpf,nome,evento,codigo,minutos,horas,dias" {
		t.Fatalf("header %v", recs[0])
	}
	want := expected()
	if len(recs)-1 != len(want) {
		t.Fatalf("%d lines, want %d", len(recs)-1, len(want))
	}
	for i, rec := range recs[1:] {
		w := want[i]
		mins, _ := strconv.Atoi(rec[4])
		h, mm, _ := strings.Cut(rec[5], ":")
		hh, _ := strconv.Atoi(h)
		m2, _ := strconv.Atoi(mm)
		dias := 0
		if rec[6] != "" {
			dias, _ = strconv.Atoi(rec[6])
		}
		if rec[0] != w.cpf || rec[2] != w.evento || rec[3] != w.codigo || mins != w.minutos || hh*60+m2 != mins ||
			len(mm) != 2 || dias != w.dias {
			t.Fatalf("line %d %v, want %+v", i+1, rec, w)
		}
	}
	if recs[11][1] != totais[1].Nome {
		t.Fatalf("name with a comma read back as %q", recs[11][1])
	}
}

func TestCalimaGoldenAndParsedBack(t *testing.T) {
	totais, mapa := scenario()
	body, err := FixedWidth(marco(true), totais, mapa, Presets()["calima"])
	if err != nil {
		t.Fatal(err)
	}
	golden(t, body, "folha-calima.txt")
	// CCCCCRRRRRREEEHHHMM, read by its positions.
	lines := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
	want := expected()
	for i, l := range lines {
		w := want[i]
		if len(l) != 19 {
			t.Fatalf("line %d has %d characters", i+1, len(l))
		}
		id, _ := strconv.Atoi(l[0:5])
		hh, _ := strconv.Atoi(l[14:17])
		mm, _ := strconv.Atoi(l[17:19])
		q := w.minutos
		if w.evento == DSRPerdidos || strings.HasPrefix(w.evento, PrefixoAfastamento) {
			q = w.dias * 60 // the days ride in the hours
		}
		if strconv.Itoa(id) != w.id || l[5:11] != "202403" || l[11:14] != w.codigo || hh*60+mm != q {
			t.Fatalf("line %d %q, want %+v", i+1, l, w)
		}
	}
}

func TestGenericoGoldenAndParsedBack(t *testing.T) {
	totais, mapa := scenario()
	body, err := FixedWidth(marco(true), totais, mapa, Presets()["generico"])
	if err != nil {
		t.Fatal(err)
	}
	golden(t, body, "folha-generico.txt")
	lines := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
	for i, l := range lines {
		w, r := expected()[i], []rune(l)
		if len(r) != 106 {
			t.Fatalf("line %d has %d characters", i+1, len(r))
		}
		field := func(a, b int) string { return string(r[a-1 : b]) }
		id, _ := strconv.Atoi(field(1, 10))
		hh, _ := strconv.Atoi(field(38, 41))
		mm, _ := strconv.Atoi(field(42, 43))
		dias, _ := strconv.Atoi(field(44, 46))
		q := w.minutos
		if w.evento == DSRPerdidos || strings.HasPrefix(w.evento, PrefixoAfastamento) {
			q = w.dias * 60
		}
		if strconv.Itoa(id) != w.id || field(11, 21) != w.cpf || field(22, 27) != "202403" ||
			strings.TrimRight(field(28, 37), " ") != w.codigo || hh*60+mm != q || dias != w.dias {
			t.Fatalf("line %d %q, want %+v", i+1, l, w)
		}
	}
}

// A code longer than the layout's field, or a quantity past it: 400
// naming the field.
func TestLayoutRefusesWhatDoesNotFit(t *testing.T) {
	totais, mapa := scenario()
	mapa[Atrasos] = "3001"
	_, err := FixedWidth(marco(true), totais, mapa, Presets()["calima"])
	wantField(t, err, "codigo", "atrasos")
	_, mapa = scenario()
	totais[0].Extras50 = 1000 * 60
	_, err = FixedWidth(marco(true), totais, mapa, Presets()["calima"])
	wantField(t, err, "horas", "extras50")
	// The generic layout's 10 places take the code.
	mapa[Atrasos] = "3001"
	totais[0].Extras50 = 90
	if _, err := FixedWidth(marco(true), totais, mapa, Presets()["generico"]); err != nil {
		t.Fatal(err)
	}
}

func wantField(t *testing.T, err error, field, mention string) {
	t.Helper()
	var de *domainerr.Error
	if !errors.As(err, &de) || de.Kind != domainerr.KindInvalid || de.Fields[field] == "" ||
		!strings.Contains(de.Fields[field], mention) {
		t.Fatalf("want 400 naming %s (%s), got %v", field, mention, err)
	}
}

func TestLayoutCheck(t *testing.T) {
	for name, l := range Presets() {
		v := validate.Errors{}
		l.Check(v)
		if len(v) != 0 {
			t.Fatalf("preset %s: %v", name, v)
		}
	}
	c := func(campo string, inicio, tamanho int) Campo {
		return Campo{Campo: campo, Inicio: inicio, Tamanho: tamanho, Alinhamento: "direita", Preenchimento: "0"}
	}
	for field, l := range map[string]Layout{
		"campos":                  {},
		"campos[1].inicio":        {Campos: []Campo{c(CampoCodigo, 1, 3), c(CampoHoras, 3, 3)}},
		"campos[0].campo":         {Campos: []Campo{c("salario", 1, 3), c(CampoCodigo, 4, 3)}},
		"campos[0].tamanho":       {Campos: []Campo{c(CampoCodigo, 1, 0)}},
		"campos[0].alinhamento":   {Campos: []Campo{{Campo: CampoCodigo, Inicio: 1, Tamanho: 3, Alinhamento: "centro", Preenchimento: "0"}}},
		"campos[0].preenchimento": {Campos: []Campo{{Campo: CampoCodigo, Inicio: 1, Tamanho: 3, Alinhamento: "direita", Preenchimento: "00"}}},
		"campos[1].valor":         {Campos: []Campo{c(CampoCodigo, 1, 3), c(CampoFixo, 4, 1)}},
	} {
		v := validate.Errors{}
		l.Check(v)
		if v[field] == "" {
			t.Fatalf("%s: not refused: %v", field, v)
		}
	}
	v := validate.Errors{}
	(&Layout{Campos: []Campo{c(CampoHoras, 1, 3)}}).Check(v)
	if v["campos"] == "" {
		t.Fatal("a layout without codigo passed")
	}
}

func TestHorasAndCentesimos(t *testing.T) {
	for m, want := range map[int]string{0: "0:00", 59: "0:59", 60: "1:00", 6001: "100:01"} {
		if got := Horas(m); got != want {
			t.Fatalf("Horas(%d) = %s, want %s", m, got, want)
		}
	}
	// 1:30 is 1.50 hours, 0:20 is 0.33 (rounded), 3 days 300.
	l := Layout{Nome: "x", Campos: []Campo{{Campo: CampoCentesimos, Inicio: 1, Tamanho: 5, Alinhamento: "direita", Preenchimento: "0"}}}
	f := &TotaisFuncionario{}
	for _, c := range []struct {
		x    Lancamento
		want string
	}{
		{Lancamento{Funcionario: f, Minutos: 90}, "00150"},
		{Lancamento{Funcionario: f, Minutos: 20}, "00033"},
		{Lancamento{Funcionario: f, Dias: ptr(3), EmDias: true}, "00300"},
	} {
		if got, err := l.Linha(c.x, "202403"); err != nil || got != c.want {
			t.Fatalf("%+v: %q %v, want %s", c.x, got, err, c.want)
		}
	}
}
