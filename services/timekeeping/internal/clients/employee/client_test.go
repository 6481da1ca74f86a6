package employee

import (
	"encoding/json"
	"reflect"
	"testing"
)

// record is an employee as the employee service's internal view renders
// it (abridged).
const record = `{"id":123456,"nome":"Maria Aparecida","cargo":"Analista","email":"maria@empresa.com.br",` +
	`"role":"funcionario","cpfcnpj":"123.456.789-09","codeVerify":"hash","ativo":true,"registrosPonto":null,` +
	`"cidade":"São Paulo","valorHora":35.5,"empresaId":42,"escalaTrabalhoId":7,"departamentoId":3,"segmento":1}`

// UnmarshalJSON reads the typed fields from Raw as decoding the record into
// the struct would, on the usual shapes, on those it leaves to
// json.Unmarshal (escapes, nulls, large numbers) and on wrong types, which
// both refuse.
func TestUnmarshalReadsTheTypedFieldsAsTheStructWould(t *testing.T) {
	type plain Funcionario
	for _, in := range []string{
		record,
		`{"id":1,"empresaId":2,"escalaTrabalhoId":3,"nome":"Jo\u00e3o \"Zé\" da Silva","cargo":"A\\B","cpfcnpj":"1","ativo":false,"segmento":null}`,
		`{"id":1,"nome":"Zoë Ørsted 日本","ativo":true,"segmento":0}`,
		`{"id":9223372036854775807,"empresaId":0,"nome":null,"cargo":"","ativo":null}`,
		`{"id":-5,"segmento":-1}`,
		`{}`,
		`{"id":10000000000000000000}`, `{"id":1.5}`, `{"id":"1"}`, `{"ativo":"sim"}`, `{"nome":1}`,
		`{"segmento":"x"}`, `[]`,
		"{\"nome\":\"a\xffb\"}", // invalid UTF-8: replaced
	} {
		var got Funcionario
		errGot := json.Unmarshal([]byte(in), &got)
		var want plain
		errWant := json.Unmarshal([]byte(in), &want)
		if (errGot == nil) != (errWant == nil) {
			t.Errorf("%s: error %v, the struct's %v", in, errGot, errWant)
			continue
		}
		if errWant != nil {
			continue
		}
		if err := json.Unmarshal([]byte(in), &want.Raw); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(plain(got), want) {
			t.Errorf("%s:\n got  %+v\n want %+v", in, got, want)
		}
	}
}
