package contracttest

import (
	"encoding/json"
	"slices"
	"testing"
)

type horario struct {
	Entrada string `json:"entrada"`
	Pre     bool   `json:"pre,omitempty"`
}

type escala struct {
	ID       int64     `json:"id"`
	Horarios []horario `json:"horarios"`
	Dias     []int     `json:"dias,omitempty"`
}

type record struct {
	ID     int64           `json:"id"`
	Nome   *string         `json:"nome"`
	Lista  json.RawMessage `json:"lista"`
	hidden int
	Skip   string `json:"-"`
}

type view struct {
	record
	Escala *escala `json:"escala"`
}

func TestUnfilledNamesEveryFieldNoSampleFills(t *testing.T) {
	nome := "Ana"
	full := view{record: record{ID: 1, Nome: &nome, Lista: json.RawMessage("[]")},
		Escala: &escala{ID: 2, Horarios: []horario{{Entrada: "08:00"}, {Pre: true}}, Dias: []int{6}}}
	for name, c := range map[string]struct {
		samples []view
		except  []string
		empty   []string
	}{
		"all filled":               {[]view{full}, nil, nil},
		"nothing":                  {[]view{{}}, nil, []string{"escala", "escala.dias", "escala.horarios", "escala.horarios.entrada", "escala.horarios.pre", "escala.id", "id", "lista", "nome"}},
		"filled across samples":    {[]view{{record: record{ID: 1, Nome: &nome, Lista: json.RawMessage("[]")}}, {Escala: full.Escala}}, nil, nil},
		"list element never set":   {[]view{{record: full.record, Escala: &escala{ID: 2, Horarios: []horario{{Entrada: "08:00"}}, Dias: []int{6}}}}, nil, []string{"escala.horarios.pre"}},
		"left out by design":       {[]view{{record: full.record}}, []string{"escala", "escala.dias", "escala.horarios", "escala.horarios.entrada", "escala.horarios.pre", "escala.id"}, nil},
		"empty list is not filled": {[]view{{record: record{ID: 1, Nome: &nome}}}, []string{"escala", "escala.dias", "escala.horarios", "escala.horarios.entrada", "escala.horarios.pre", "escala.id"}, []string{"lista"}},
	} {
		empty, unknown := unfilled(c.samples, c.except)
		if !slices.Equal(empty, c.empty) || len(unknown) > 0 {
			t.Errorf("%s: empty %v, unknown %v; want %v, none", name, empty, unknown, c.empty)
		}
	}
	if _, unknown := unfilled([]view{full}, []string{"escala.nome"}); !slices.Equal(unknown, []string{"escala.nome"}) {
		t.Errorf("an exception the type lacks: unknown %v", unknown)
	}
}

func TestStrictRefusesWhatTheTypeLacks(t *testing.T) {
	for body, ok := range map[string]bool{
		`{"id":1,"nome":"Ana","lista":[],"escala":null}`: true,
		`{"id":1,"sobrenome":"Lima"}`:                    false,
		`{"id":"1"}`:                                     false,
		`{"id":1} {"id":2}`:                              false,
		`{"escala":{"id":2,"horarios":[{"saida":1}]}}`:   false,
		`{"ID":1}`: false,
		`{"escala":{"horarios":[{"Entrada":"08:00"}]}}`:    false,
		`{"lista":[{"Qualquer":1}],"escala":{"dias":[1]}}`: true,
	} {
		var v view
		if err := strict([]byte(body), &v); (err == nil) != ok {
			t.Errorf("%s: err %v, want ok=%v", body, err, ok)
		}
	}
}
