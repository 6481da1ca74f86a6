package main

import (
	"testing"

	"github.com/ponto/ponto/services/timekeeping/internal/atestado"
)

func TestAtestadoTecnicoIsFilledFromConfiguration(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.tune = func(d *dependencies) {
		d.atestado = atestado.Config{Desenvolvedor: "Ponto Software Ltda", Programa: "ponto", Versao: "1.4.2",
			TecnicoNome: "Carla Técnica", TecnicoCPF: "123.456.789-09", TecnicoCargo: "Engenheira de software",
			LegalNome: "Rui Legal", LegalCPF: "98765432100", LegalCargo: "Diretor", Local: "São Paulo"}
	}
	base := e.startTimekeeping(e.db)
	c := e.company(7)
	e.clock.Set(at(2024, 3, 4, 10, 0, 0))
	r := call(t, base, "GET", "/registropontos/atestado-tecnico", c.token, nil)
	want(t, r, 200)
	if cd := r.header.Get("Content-Disposition"); cd != `attachment; filename="atestado-tecnico-rep-p.pdf"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	wantText(t, pdfText(t, r), "Atestado Técnico e Termo de Responsabilidade",
		"empresa Ponto Software Ltda (CNPJ/CPF nº 11.222.333/0001-81)", "art. 89 da Portaria MTP nº 671/2021",
		"Tipo do REP/PTRP: REP-P e PTRP", "de tratamento de registro de ponto (PTRP)", "Nome do programa: ponto", "Versão: 1.4.2",
		"Número de registro no INPI: 12345678901234567", "Local e data: São Paulo, 04/03/2024",
		"Nome: Carla Técnica", "CPF: 123.456.789-09", "Cargo: Engenheira de software",
		"Nome: Rui Legal", "CPF: 987.654.321-00", "Cargo: Diretor")
	// Left for the natural persons to sign: ponto does not.
	if report := pdfsig(t, r.body); containsSignature(report) {
		t.Fatalf("the certificate came signed:\n%s", report)
	}

	// Unset settings show as such.
	wantText(t, pdfText(t, e.pub("GET", "/registropontos/atestado-tecnico", c.token, nil)), "Nome: não informado")
	_, w := e.outsider()
	wantErr(t, e.pub("GET", "/registropontos/atestado-tecnico", w.token, nil), 403, "acesso_negado")
	wantErr(t, e.pub("GET", "/registropontos/atestado-tecnico", "", nil), 401, "nao_autenticado")
}
