package main

import (
	"net/http"
	"sync"
	"testing"
)

func TestMarcarFalta(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.company(1)
	w := e.funcionario(c, e.escala(c, "Comercial", standard()), nil)
	other := e.company(2)
	stranger := e.funcionario(other, e.escala(other, "Outra", standard()), nil)
	e.punch(w, local(2024, 3, 4, 8, 0))
	e.clock.Set(local(2024, 3, 8, 10, 0))

	r := e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-05", w.id), c.token, nil)
	want(t, r, 200)
	rec := r.obj(t)
	if rec["tipo"] != "falta" || rec["status"] != "falta registrada pela empresa" || rec["data"] != "2024-03-05" ||
		rec["horarioRegistro"] != "2024-03-05T03:00:00.000Z" || rec["funcionarioId"] != float64(w.id) ||
		rec["localizacao"] != nil || rec["nsr"] != nil || rec["hash"] != nil ||
		rec["dataSolicitar"] != nil || rec["houveReajuste"] != nil || rec["motivoAjuste"] != nil {
		t.Fatalf("absence: %s", r.body)
	}
	// Idempotent: the same record, again and concurrently.
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			again := e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-05", w.id), c.token, nil)
			if again.status != 200 || id(again.obj(t)) != id(rec) {
				t.Errorf("repeat: %d %s", again.status, again.body)
			}
		}()
	}
	wg.Wait()
	if n := e.count("faltas"); n != 1 {
		t.Fatalf("%d absences stored, want 1", n)
	}

	wantErr(t, e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-04", w.id), c.token, nil), 409, "dia_com_marcacoes")
	wantErr(t, e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-09", w.id), c.token, nil), 400, "validacao") // tomorrow
	for _, bad := range []string{"2024-02-30", "05-03-2024", "2024-3-5", "1999-12-31", "hoje"} {
		wantErr(t, e.pub("POST", path("/registropontos/%d/marcar-falta/%s", w.id, bad), c.token, nil), 400, "validacao")
	}
	wantErr(t, e.pub("POST", "/registropontos/0/marcar-falta/2024-03-05", c.token, nil), 400, "validacao")
	// Another company's employee, or an unknown one: 404.
	wantErr(t, e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-05", stranger.id), c.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("POST", "/registropontos/999999/marcar-falta/2024-03-05", c.token, nil), 404, "nao_encontrado")
	wantErr(t, e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-05", w.id), w.token, nil), 403, "acesso_negado")
	if n := e.count("faltas"); n != 1 {
		t.Fatalf("%d absences stored after refusals, want 1", n)
	}

	// Absences take no NSR: the next punch continues the chain (NSR 1 is
	// the employee's inclusion in the REP, 2 his first punch).
	if p := e.punch(w, local(2024, 3, 8, 10, 0)); p["nsr"] != float64(3) {
		t.Fatalf("punch after an absence: nsr %v, want 3", p["nsr"])
	}

	// The employee service down: 503, nothing written.
	e.emp.stop()
	wantErr(t, e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-07", w.id), c.token, nil),
		http.StatusServiceUnavailable, "dependencia_indisponivel")
	if n := e.count("faltas"); n != 1 {
		t.Fatalf("%d absences stored with the employee service down, want 1", n)
	}
}
