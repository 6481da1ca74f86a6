package empresas

import (
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/apierr"
)

// dataAbertura is checked against the company's own calendar: at 02:00
// UTC on 10 January it is already the 10th in Tokyo but still the 9th in
// São Paulo (the default zone) and in Manaus.
func TestDataAberturaIsReadInTheCompanysZone(t *testing.T) {
	now := time.Date(2026, 1, 10, 2, 0, 0, 0, time.UTC)
	zone := func(z string) *string { return &z }
	for _, tc := range []struct {
		fuso   *string
		future bool
	}{
		{zone("Asia/Tokyo"), false},
		{nil, true}, // the default zone, America/Sao_Paulo
		{zone("America/Manaus"), true},
		{zone("Lua/Base"), true}, // refused zone: the default's calendar
	} {
		_, err := checkCadastro(cadastroRequest{DataAbertura: "10/01/2026", FusoHorario: tc.fuso},
			"", mustCatalog(t), "America/Sao_Paulo", now)
		fields := validationFields(t, err)
		if _, refused := fields["dataAbertura"]; refused != tc.future {
			t.Errorf("fusoHorario %v: dataAbertura refused %v, want %v (%v)", tc.fuso, refused, tc.future, fields)
		}
	}
}

// validationFields are the offending fields of a validation error (none
// for nil).
func validationFields(t *testing.T, err error) map[string]string {
	t.Helper()
	if err == nil {
		return nil
	}
	e, ok := apierr.As(err)
	if !ok {
		t.Fatalf("%v: not an API error", err)
	}
	return e.Fields
}
