package quiosque

import (
	"encoding/json"
	"testing"
	"time"
)

// A time whose milliseconds end in zero keeps its three digits.
func TestAnswersWriteMilliseconds(t *testing.T) {
	at := time.Date(2026, 12, 7, 20, 53, 50, 170_000_000, time.UTC)
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"quiosque", Quiosque{ID: 2, Nome: "Portaria", Dispositivo: "navegador", Coletor: "02", CriadoEm: at},
			`{"id":2,"nome":"Portaria","dispositivo":"navegador","coletor":"02","criadoEm":"2026-12-07T20:53:50.170Z","ultimoUso":null}`},
		{"criado", Criado{Quiosque: Quiosque{ID: 2, CriadoEm: at, UltimoUso: &at}, Credencial: "C", Codigo: "C", QRCode: "Q"},
			`{"id":2,"nome":"","dispositivo":"","coletor":"","criadoEm":"2026-12-07T20:53:50.170Z","ultimoUso":"2026-12-07T20:53:50.170Z","credencial":"C","codigo":"C","qrCode":"Q"}`},
		{"cracha", Cracha{FuncionarioID: 7, Nome: "Maria", Cracha: "T", QRCode: "Q", EmitidoEm: at},
			`{"funcionarioId":7,"nome":"Maria","cracha":"T","qrCode":"Q","emitidoEm":"2026-12-07T20:53:50.170Z"}`},
	}
	for _, c := range cases {
		got, err := json.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
