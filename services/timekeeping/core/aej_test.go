package core

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"
)

func aejSample() AEJ {
	brt := time.FixedZone("", -3*3600)
	d := func(s string) time.Time { t, _ := time.Parse(time.DateOnly, s); return t }
	at := func(s string) time.Time { t, _ := time.ParseInLocation("2006-01-02 15:04", s, brt); return t }
	sessenta := 60
	turno := &Turno{Entrada: 480, SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540}
	h := HorarioAEJ(turno)
	return AEJ{
		Cabecalho: AEJCabecalho{Empregador: "12.345.678/0001-95", RazaoSocial: "Padaria São João | Ltda",
			Inicio: d("2024-03-01"), Fim: d("2024-03-31"), Geracao: at("2024-04-02 10:15").Add(37 * time.Second),
			OffsetMinutes: -180},
		REPs:     []AEJREP{{ID: 1, Tipo: REPTipoP, Numero: "12345"}},
		Vinculos: []AEJVinculo{{ID: 1, CPF: "123.456.789-09", Nome: "José Ação"}},
		Horarios: []AEJHorario{h, HorarioAEJ(nil)},
		Marcacoes: MarcacoesDoDia(1, 1, d("2024-03-04"), []MarcacaoTratada{
			{Horario: at("2024-03-04 08:02"), OffsetMinutes: -180, Original: true},
			{Horario: at("2024-03-04 12:00"), OffsetMinutes: -180, Original: true, Desconsiderada: true, MotivoDesc: "duplicada"},
			{Horario: at("2024-03-04 12:01"), OffsetMinutes: -180, Original: true},
			{Horario: at("2024-03-04 17:00"), OffsetMinutes: -180, Motivo: "esqueceu"},
			{Horario: at("2024-03-04 13:05"), OffsetMinutes: -180, Original: true},
		}, turno, h.Codigo),
		Ausencias: []AEJAusencia{{Vinculo: 1, Tipo: AusenciaFalta, Data: d("2024-03-05")},
			{Vinculo: 1, Tipo: AusenciaBancoHoras, Data: d("2024-03-06"), Minutos: &sessenta, Movimento: "1"}},
		PTRP: AEJPTRP{Nome: "ponto", Versao: "1.2.3", Desenvolvedor: "11.222.333/0001-81", RazaoNome: "Dev", Email: "a@b.c"},
	}
}

func TestFormatarAEJ(t *testing.T) {
	b, err := FormatAEJ(aejSample())
	if err != nil {
		t.Fatal(err)
	}
	s, _ := charmap.ISO8859_1.NewDecoder().String(string(b))
	want := strings.Join([]string{
		"01|1|12345678000195|||Padaria São João   Ltda|2024-03-01|2024-03-31|2024-04-02T10:15:00-0300|001",
		"02|1|3|00000000000012345",
		"03|1|12345678909|José Ação",
		"04|0800-1200-1300-1700|480|0800|1200|1300|1700",
		"04|SEM_JORNADA|0|0000|0000||",
		"05|1|2024-03-04T08:02:00-0300|1|E|001|O|0800-1200-1300-1700|",
		"05|1|2024-03-04T12:00:00-0300|1|D|001|O||duplicada",
		"05|1|2024-03-04T12:01:00-0300|1|S|001|O||",
		"05|1|2024-03-04T13:05:00-0300|1|E|002|O||",
		"05|1|2024-03-04T17:00:00-0300||S|002|I||esqueceu",
		"07|1|2|2024-03-05||",
		"07|1|3|2024-03-06|60|1",
		"08|ponto|1.2.3|1|11222333000181|Dev|a@b.c",
		"99|1|1|1|2|5|0|2|1",
		AssinaturaP7S + strings.Repeat(" ", 100-len(AssinaturaP7S)),
		""}, "\r\n")
	if s != want {
		t.Fatalf("got\n%s\nwant\n%s", s, want)
	}
	lido, err := ParseAEJ(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(lido.Registros["05"]) != 5 || lido.Registros["03"][0][3] != "José Ação" {
		t.Fatalf("read back %v", lido.Registros)
	}
}

func TestMarcacoesDoDiaPreAssinaladoEAjuste(t *testing.T) {
	brt := time.FixedZone("", -3*3600)
	at := func(h, m int) time.Time { return time.Date(2024, 3, 4, h, m, 0, 0, brt) }
	ajustado := at(8, 0)
	turno := &Turno{Entrada: 480, SaidaAlmoco: 240, RetornoAlmoco: 300, Saida: 540, PreAssinalado: true}
	got := MarcacoesDoDia(7, 1, time.Date(2024, 3, 4, 0, 0, 0, 0, time.UTC), []MarcacaoTratada{
		{Horario: at(8, 40), OffsetMinutes: -180, Original: true, Ajustado: &ajustado, Motivo: "trânsito"},
		{Horario: at(17, 0), OffsetMinutes: -180, Original: true},
	}, turno, "X")
	var b strings.Builder
	for _, m := range got {
		b.WriteString(m.Horario.Format("15:04") + m.Tipo + m.Fonte + m.CodHorario + " " + m.Motivo + ";")
	}
	want := "08:00EIX trânsito;08:40DO ajuste aprovado: trânsito;12:00SP ;13:00EP ;17:00SO ;"
	if b.String() != want {
		t.Fatalf("got %s want %s", b.String(), want)
	}
}

func TestHorarioAEJNoturno(t *testing.T) {
	h := HorarioAEJ(&Turno{Entrada: 22 * 60, SaidaAlmoco: 180, RetornoAlmoco: 240, Saida: 420})
	// 22:00-01:00 and 02:00-05:00: 360 night minutes, 411 night-hour minutes.
	if h.Codigo != "2200-0100-0200-0500" || h.Duracao != 411 {
		t.Fatalf("got %v", h)
	}
}

func TestLerAEJRecusa(t *testing.T) {
	good, err := FormatAEJ(aejSample())
	if err != nil {
		t.Fatal(err)
	}
	s, _ := charmap.ISO8859_1.NewDecoder().String(string(good))
	for _, c := range []struct{ name, from, to string }{
		{"LF only", "\r\n02|", "\n02|"},
		{"blank line", "\r\n02|", "\r\n\r\n02|"},
		{"field count", "02|1|3|00000000000012345", "02|1|3|00000000000012345|9"},
		{"N with a letter", "03|1|12345678909", "03|1|1234567890X"},
		{"nrRep size", "|00000000000012345", "|0000000000012345"},
		{"bad H", "|0800|1200|1300|1700", "|0800|1260|1300|1700"},
		{"bad D", "|2024-03-31|", "|2024-02-31|"},
		{"DH seconds", "T10:15:00-0300", "T10:15:07-0300"},
		{"tpMarc", "|E|002|", "|X|002|"},
		{"motivo of D", "|D|001|O||duplicada", "|D|001|O||"},
		{"codHor of first E", "|E|001|O|0800-1200-1300-1700|", "|E|001|O||"},
		{"REP of original", "08:02:00-0300|1|E", "08:02:00-0300||E"},
		{"undeclared bond", "07|1|2|", "07|2|2|"},
		{"hour bank without minutes", "07|1|3|2024-03-06|60|1", "07|1|3|2024-03-06||"},
		{"trailer count", "99|1|1|1|2|5|0|2|1", "99|1|1|1|2|4|0|2|1"},
		{"out of order", "03|1|12345678909|José Ação\r\n", ""},
		{"tpIdt", "01|1|12345678000195", "01|2|12345678000195"},
	} {
		bad := strings.Replace(s, c.from, c.to, 1)
		if bad == s {
			t.Fatalf("%s: replacement did not apply", c.name)
		}
		if c.name == "out of order" {
			bad = strings.Replace(bad, "05|1|2024-03-04T08:02", "03|1|12345678909|José Ação\r\n05|1|2024-03-04T08:02", 1)
		}
		enc, _ := charmap.ISO8859_1.NewEncoder().String(bad)
		if _, err := ParseAEJ([]byte(enc)); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
}
