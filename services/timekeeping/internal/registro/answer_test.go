package registro

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	employeeapi "github.com/ponto/ponto/services/employee/internalapi"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// answerFixture is a punch of a night workday with three earlier punches,
// one of them adjusted, and its employee as the cache holds him.
func answerFixture() (Row, employee.Funcionario, []*Row) {
	loc, hash, status, motivo := "-23.55,-46.63", "ab12", "aprovado", "esqueci <o> crachá"
	at := time.Date(2026, 11, 25, 5, 58, 0, 0, time.UTC)
	row := func(id int64, minutes int) Row {
		nsr := id
		return Row{ID: id, EmpresaID: 7, FuncionarioID: 42, Jornada: time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC),
			HorarioRegistro: at.Add(time.Duration(minutes) * time.Minute), Tipo: "entrada", Localizacao: &loc,
			NSR: &nsr, Hash: &hash}
	}
	earlier := []*Row{new(row(1, -480)), new(row(2, -240)), new(row(3, -180))}
	earlier[1].AjusteStatus, earlier[1].Motivo, earlier[1].DataSolicitar = &status, &motivo, &at
	fuso := "America/Manaus"
	f := employee.Funcionario{Funcionario: employeeapi.Funcionario{ID: 42, Nome: "Ana & Bia", CPF: "12345678909",
		Email: "ana@empresa.com.br", EmpresaID: 7, EscalaTrabalhoID: 3, FusoHorario: &fuso, Ativo: true, CLT: true}}
	return row(4, 0), f, earlier
}

// TestClockInAnswer: the answer is the punch's record with the employee's
// public record nested as funcionario, whose registrosPonto holds the
// earlier punches, each as encoding/json renders it alone.
func TestClockInAnswer(t *testing.T) {
	r, f, earlier := answerFixture()
	got := answerOf(t, r, f, earlier)
	if !json.Valid(got) {
		t.Fatalf("invalid JSON: %s", got)
	}

	var want map[string]any
	decode(t, marshal(t, Render(r)), &want)
	var public map[string]any
	f.RegistrosPonto, f.CodeVerify = nil, nil
	decode(t, marshal(t, f.Funcionario), &public)
	var regs []any
	rows := make([]Row, len(earlier))
	for i, e := range earlier {
		rows[i] = *e
	}
	decode(t, marshal(t, RenderAll(rows)), &regs)
	public["registrosPonto"] = regs
	want["funcionario"] = public

	var answer map[string]any
	decode(t, got, &answer)
	if !reflect.DeepEqual(answer, want) {
		t.Fatalf("answer\n%s\nwant\n%s", got, marshal(t, want))
	}
	if none := answerOf(t, r, f, nil); !bytes.HasSuffix(none, []byte(`,"registrosPonto":[]}}`)) || !json.Valid(none) {
		t.Fatalf("without earlier punches: %s", none)
	}
}

// answerOf is the clock-in's answer as the handler sends it.
func answerOf(t testing.TB, r Row, f employee.Funcionario, earlier []*Row) []byte {
	t.Helper()
	var out []byte
	if err := sendAnswer(r, f, earlier, func(b []byte) { out = bytes.Clone(b) }); err != nil {
		t.Fatal(err)
	}
	return out
}

func marshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decode(t testing.TB, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
}

// BenchmarkClockInAnswer is the answer of a punch with three earlier ones
// of its workday, copied out as the response does (allocations per
// answer: -benchmem). The employee's PublicJSON is rendered each time,
// as for a record that did not come from the cache.
func BenchmarkClockInAnswer(b *testing.B) {
	r, f, earlier := answerFixture()
	var body []byte
	send := func(answer []byte) { body = append(body[:0], answer...) }
	b.ReportAllocs()
	for b.Loop() {
		if err := sendAnswer(r, f, earlier, send); err != nil {
			b.Fatal(err)
		}
	}
}
