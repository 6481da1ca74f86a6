// Package departamento keeps departments and their segments (teams).
//
// A department's segments are numbered 1..n in the order the company
// lists them when it creates the department; in routes, segment 0 stands
// for the whole department. Department names are unique per company,
// regardless of case, because reports name a department by its name.
package departamento

import (
	"fmt"
	"strings"

	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/employee/internalapi"
)

// Limits of a department.
const (
	MaxSegmentos = 50
	nomeMax      = 100
)

// Segmento is one numbered team of a department.
type Segmento = internalapi.Segmento

// Departamento is a stored department as routes answer it (the internal
// API's type).
type Departamento = internalapi.Departamento

// createInput is the body of POST /departamentos, e.g.
// {"nome":"Vendas","segmentos":["Equipe A","Equipe B"]}. empresaId is
// optional; when sent it must be the caller's company.
type createInput struct {
	EmpresaID *int64   `json:"empresaId"`
	Nome      string   `json:"nome"`
	Segmentos []string `json:"segmentos"`
}

// Empresa is the company the body names (request.CompanyBody): 0 when
// absent, -1 for a sent id that is no company's (0 or negative).
func (in *createInput) Empresa() int64 {
	switch {
	case in.EmpresaID == nil:
		return 0
	case *in.EmpresaID <= 0:
		return -1
	}
	return *in.EmpresaID
}

// check validates the body and numbers the segments.
func (in createInput) check(empresaID int64) (Departamento, error) {
	v := validate.Errors{}
	name(v, in.Nome, "nome")
	v.Check(len(in.Segmentos) <= MaxSegmentos, "segmentos", fmt.Sprintf("no máximo %d segmentos", MaxSegmentos))
	d := Departamento{EmpresaID: empresaID, Nome: in.Nome, Segmentos: make([]Segmento, 0, len(in.Segmentos))}
	seen := map[string]bool{}
	for i, s := range in.Segmentos {
		if i >= MaxSegmentos {
			break
		}
		field := fmt.Sprintf("segmentos[%d]", i)
		name(v, s, field)
		key := strings.ToLower(s)
		v.Check(!seen[key], field, "segmento repetido")
		seen[key] = true
		d.Segmentos = append(d.Segmentos, Segmento{Numero: i + 1, Nome: s})
	}
	return d, v.Err()
}

// name checks a department or segment name: required, at most nomeMax
// characters, no surrounding blanks (they would make "Vendas" and
// "Vendas " two departments).
func name(v validate.Errors, s, field string) {
	if !v.Required(s, field) {
		return
	}
	v.Length(s, field, 1, nomeMax)
	v.Check(strings.TrimSpace(s) == s, field, "não pode começar nem terminar com espaços")
}
