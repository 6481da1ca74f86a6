package main

import (
	"testing"
	"time"
)

func TestComprovante(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(7)
	escala := e.escala(c, "Comercial", standard())
	jose := e.funcionario(c, escala, map[string]any{"cpf": "123.456.789-09", "nome": "José Antônio da Conceição"})
	colleague := e.funcionario(c, escala, nil)
	p := e.punch(jose, at(2024, 3, 4, 8, 1, 42))
	hash := p["hash"].(string)

	// The employee, at once and days later: no request, no time limit.
	for _, now := range []time.Time{at(2024, 3, 4, 8, 2, 0), at(2024, 3, 9, 8, 2, 0)} {
		e.clock.Set(now)
		r := e.pub("GET", path("/registropontos/%d/comprovante", id(p)), jose.token, nil)
		want(t, r, 200)
		if cd := r.header.Get("Content-Disposition"); cd != `inline; filename="comprovante-000000002.pdf"` {
			t.Errorf("Content-Disposition %q", cd)
		}
		wantText(t, pdfText(t, r),
			"Comprovante de Registro de Ponto do Trabalhador",
			"Panificação São João 7 Ltda", companyCNPJ(7),
			"Local de prestação do serviço: não cadastrado",
			"Número de registro no INPI: 12345678901234567",
			"José Antônio da Conceição", "123.456.789-09",
			"Data: 04/03/2024", "Horário: 08:01 (UTC-03:00)",
			"NSR: 000000002", hash)
	}
	// The company too.
	want(t, e.pub("GET", path("/registropontos/%d/comprovante", id(p)), c.token, nil), 200)

	// Nobody else; an absence has no receipt.
	wantErr(t, e.pub("GET", path("/registropontos/%d/comprovante", id(p)), colleague.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", path("/registropontos/%d/comprovante", id(p)), e.company(8).token, nil), 404, "nao_encontrado")
	falta := e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-05", jose.id), c.token, nil)
	want(t, falta, 200)
	wantErr(t, e.pub("GET", path("/registropontos/%d/comprovante", id(falta.obj(t))), c.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", "/registropontos/999999/comprovante", c.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("GET", "/registropontos/abc/comprovante", c.token, nil), 400, "validacao")
	wantErr(t, e.pub("GET", path("/registropontos/%d/comprovante", id(p)), "", nil), 401, "nao_autenticado")

	// company-billing down: 503.
	e.billing.srv.Close()
	wantErr(t, e.pub("GET", path("/registropontos/%d/comprovante", id(p)), jose.token, nil), 503, "dependencia_indisponivel")
}
