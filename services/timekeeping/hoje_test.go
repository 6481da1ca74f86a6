package main

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// hojeView is GET /registropontos/hoje as the tests read it.
type hojeView struct {
	Data         string         `json:"data"`
	Departamento *string        `json:"departamento"`
	Contagens    map[string]int `json:"contagens"`
	Funcionarios []struct {
		Nome            string   `json:"nome"`
		Departamento    string   `json:"departamento"`
		Situacao        string   `json:"situacao"`
		EntradaPrevista *string  `json:"entradaPrevista"`
		Marcacoes       []string `json:"marcacoes"`
	} `json:"funcionarios"`
	Pendencias struct {
		Ajustes       int    `json:"ajustes"`
		Solicitacoes  int    `json:"solicitacoes"`
		PeriodoAberto string `json:"periodoAberto"`
		DiasImpares   []struct {
			Nome      string `json:"nome"`
			Data      string `json:"data"`
			Marcacoes int    `json:"marcacoes"`
		} `json:"diasImpares"`
		Alertas []struct {
			Nome    string   `json:"nome"`
			Data    string   `json:"data"`
			Alertas []string `json:"alertas"`
		} `json:"alertas"`
		MesFechado *string `json:"mesFechado"`
		SemCiencia []struct {
			Nome string `json:"nome"`
		} `json:"semCiencia"`
	} `json:"pendencias"`
	Saude struct {
		Cadeia struct {
			Integra bool `json:"integra"`
		} `json:"cadeia"`
		CertificadoDiasRestantes *int `json:"certificadoDiasRestantes"`
		EventosIndisponibilidade int  `json:"eventosIndisponibilidade"`
	} `json:"saude"`
}

// situacoes is "nome:situacao" of every listed employee.
func (h hojeView) situacoes() []string {
	var out []string
	for _, f := range h.Funcionarios {
		out = append(out, f.Nome+":"+f.Situacao+":"+strings.Join(f.Marcacoes, ","))
	}
	return out
}

// TestHojeCountsASeededDay seeds Monday 2024-03-11 and reads it at 12:30
// in São Paulo. Each situation, computed by hand from core.SituacaoDe:
//
//   - Ana (08:00-17:00, lunch 12-13) punched 07:58: one punch, odd: working.
//   - Bruno (same) 08:01 and 12:05: two punches, 12:30 (750) < 17:00
//     (1020) and the shift has a break: on the break.
//   - Carla (same), no punch: 750 > 08:00 + 5 (485) and < 1020: late.
//   - Davi (13:00-17:15), no punch: 750 <= 13:00 + 5 (785): waiting.
//   - Elis (06:00-12:00, break 08:00-08:15), no punch: 750 >= 06:00 + 360
//     (720): absent.
//   - Fabio (standard) with a whole-day abono: on leave.
//   - Gil (06:00-12:00) punched 06:00, 08:00, 08:15, 12:00: finished.
//
// Pending: February is closed and only Ana acknowledged it; Friday
// 03-08 Ana punched once (odd) and Bruno took 30 minutes of lunch
// (08:00-12:00, 12:30-17:00: less than the hour of art. 71, an alert);
// Ana asked to adjust one punch.
func TestHojeCountsASeededDay(t *testing.T) {
	e := newEnv(t)
	c := e.company(1)
	ops, fin := e.departamento(c, "Operações"), e.departamento(c, "Financeiro")
	std := e.escala(c, "Comercial", standard())
	tarde := horario("13:00", 120, 135, 255)
	manha := horario("06:00", 120, 135, 360)
	escTarde := e.escala(c, "Tarde", []map[string]any{tarde, tarde, tarde, tarde, tarde})
	escManha := e.escala(c, "Manhã", []map[string]any{manha, manha, manha, manha, manha})
	emp := func(nome string, escala, dep int64) worker {
		return e.funcionario(c, escala, map[string]any{"nome": nome, "departamentoId": dep})
	}
	ana, bruno := emp("Ana Lima", std, ops), emp("Bruno Reis", std, ops)
	emp("Carla Dias", std, ops)
	emp("Davi Souza", escTarde, fin)
	emp("Elis Prado", escManha, fin)
	fabio, gil := emp("Fabio Nunes", std, fin), emp("Gil Costa", escManha, ops)
	_, outsider := e.outsider()

	sexta := e.punch(ana, local(2024, 3, 8, 8, 0))
	for _, at := range []time.Time{local(2024, 3, 8, 8, 0), local(2024, 3, 8, 12, 0), local(2024, 3, 8, 12, 30), local(2024, 3, 8, 17, 0)} {
		e.punch(bruno, at)
	}
	e.punch(ana, local(2024, 3, 11, 7, 58))
	e.punch(bruno, local(2024, 3, 11, 8, 1))
	e.punch(bruno, local(2024, 3, 11, 12, 5))
	for _, at := range []time.Time{local(2024, 3, 11, 6, 0), local(2024, 3, 11, 8, 0), local(2024, 3, 11, 8, 15), local(2024, 3, 11, 12, 0)} {
		e.punch(gil, at)
	}
	e.punch(outsider, local(2024, 3, 11, 8, 0))
	e.clock.Set(local(2024, 3, 11, 12, 30))
	want(t, e.pub("POST", path("/registropontos/funcionario/%d/abonos", fabio.id), c.token,
		map[string]any{"data": "2024-03-11", "motivo": "consulta médica", "tipo": "atestado_medico"}), 201)
	want(t, e.pub("PUT", path("/registropontos/solicitar/%d", id(sexta)), ana.token, map[string]any{
		"dataSolicitar": "2024-03-08T11:05:00Z", "funcionarioId": ana.id, "motivo": "cheguei antes"}), 200)
	want(t, e.pub("POST", "/registropontos/fechamentos", c.token, map[string]any{"inicio": "2024-02-01", "fim": "2024-02-29"}), 201)
	want(t, e.pub("PUT", path("/registropontos/funcionario/%d/espelho/ciencia?mes=2024-02", ana.id), ana.token, nil), 200)
	e.clock.Set(local(2024, 3, 11, 12, 30))

	var h hojeView
	r := e.pub("GET", "/registropontos/hoje", c.token, nil)
	want(t, r, 200)
	r.into(t, &h)
	wantSit := []string{"Ana Lima:trabalhando:07:58", "Bruno Reis:intervalo:08:01,12:05", "Carla Dias:atrasado:",
		"Davi Souza:aguardando:", "Elis Prado:ausente:", "Fabio Nunes:afastado:", "Gil Costa:encerrado:06:00,08:00,08:15,12:00"}
	if d := cmp.Diff(wantSit, h.situacoes()); d != "" {
		t.Errorf("situations (-want +got):\n%s", d)
	}
	wantCount := map[string]int{"trabalhando": 1, "intervalo": 1, "encerrado": 1, "aguardando": 1, "atrasado": 1,
		"ausente": 1, "afastado": 1, "folga": 0}
	if d := cmp.Diff(wantCount, h.Contagens); d != "" {
		t.Errorf("counts (-want +got):\n%s", d)
	}
	p := h.Pendencias
	if h.Data != "2024-03-11" || p.Ajustes != 1 || p.Solicitacoes != 0 || p.PeriodoAberto != "2024-03-01" ||
		p.MesFechado == nil || *p.MesFechado != "2024-02" {
		t.Errorf("data %s, pendências %+v", h.Data, p)
	}
	if len(p.DiasImpares) != 1 || p.DiasImpares[0].Nome != "Ana Lima" || p.DiasImpares[0].Data != "2024-03-08" ||
		p.DiasImpares[0].Marcacoes != 1 {
		t.Errorf("odd days %+v, want Ana's 2024-03-08 with 1 punch", p.DiasImpares)
	}
	if len(p.Alertas) != 1 || p.Alertas[0].Nome != "Bruno Reis" || !cmp.Equal(p.Alertas[0].Alertas, []string{"intervalo_insuficiente"}) {
		t.Errorf("alerts %+v, want Bruno's short break of 2024-03-08", p.Alertas)
	}
	var semCiencia []string
	for _, n := range p.SemCiencia {
		semCiencia = append(semCiencia, n.Nome)
	}
	if d := cmp.Diff([]string{"Bruno Reis", "Carla Dias", "Davi Souza", "Elis Prado", "Fabio Nunes", "Gil Costa"}, semCiencia); d != "" {
		t.Errorf("not acknowledged (-want +got):\n%s", d)
	}
	if !h.Saude.Cadeia.Integra || h.Saude.CertificadoDiasRestantes != nil || h.Saude.EventosIndisponibilidade != 0 {
		t.Errorf("saúde %+v", h.Saude)
	}

	// The department filter, any case.
	var o hojeView
	r = e.pub("GET", "/registropontos/hoje?departamento="+url.QueryEscape("operações"), c.token, nil)
	want(t, r, 200)
	r.into(t, &o)
	wantOps := []string{"Ana Lima:trabalhando:07:58", "Bruno Reis:intervalo:08:01,12:05", "Carla Dias:atrasado:",
		"Gil Costa:encerrado:06:00,08:00,08:15,12:00"}
	if d := cmp.Diff(wantOps, o.situacoes()); d != "" || o.Contagens["afastado"] != 0 {
		t.Errorf("Operações (-want +got):\n%s", d)
	}

	// Another company sees only its own; an employee, nothing; a bad filter, 400.
	var other hojeView
	r = e.pub("GET", "/registropontos/hoje", e.company(2).token, nil)
	want(t, r, 200)
	r.into(t, &other)
	if len(other.Funcionarios) != 1 || other.Contagens["trabalhando"] != 1 || other.Pendencias.Ajustes != 0 {
		t.Errorf("company 2 sees %v, %+v", other.situacoes(), other.Pendencias)
	}
	wantErr(t, e.pub("GET", "/registropontos/hoje", ana.token, nil), 403, "acesso_negado")
	wantErr(t, e.pub("GET", "/registropontos/hoje?departamento="+strings.Repeat("a", 101), c.token, nil), 400, "validacao")
}
