package estabelecimentos

import (
	"github.com/ponto/ponto/pkg/brdocs"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/validate"
	timekeepingapi "github.com/ponto/ponto/services/timekeeping/internalapi"
)

// Identifier types of an establishment (Portaria 671, Anexo V: the AFD
// header's employer identifier is a CNPJ, a CAEPF or a CNO).
const (
	TipoCNPJ  = "cnpj"
	TipoCAEPF = "caepf"
	TipoCNO   = "cno"
)

// Bounds of the fields. endereco is the AFD type 2 "local de prestação
// de serviços", 100 characters (Anexo V).
const (
	nomeMin, nomeMax = 1, 120
	enderecoMax      = 100
	numeroMax        = 20
)

// Estabelecimento is an establishment as stored. Numero is unmasked.
type Estabelecimento struct {
	ID          int64
	EmpresaID   int64
	Principal   bool
	Tipo        string
	Numero      string
	Nome        string
	Endereco    string
	FusoHorario string
	Ativo       bool
}

// criacaoRequest is the body of POST /empresas/me/estabelecimentos.
type criacaoRequest struct {
	Tipo        string  `json:"tipo"`
	Numero      string  `json:"numero"`
	Nome        string  `json:"nome"`
	Endereco    string  `json:"endereco"`
	FusoHorario *string `json:"fusoHorario"`
}

// checkCriacao validates a creation for the company whose CNPJ is
// empresaCNPJ and whose zone is the default one, naming every bad field.
// A CNPJ must have the company's root (its first eight characters).
func checkCriacao(r criacaoRequest, empresaCNPJ, zonaPadrao string) (Estabelecimento, error) {
	errs := validate.Errors{}
	numero := checkNumero(errs, r.Tipo, r.Numero, empresaCNPJ)
	if errs.Required(r.Nome, "nome") && errs.CheckText(r.Nome, "nome", false) {
		errs.Length(r.Nome, "nome", nomeMin, nomeMax)
	}
	if errs.Required(r.Endereco, "endereco") && errs.CheckText(r.Endereco, "endereco", false) {
		errs.Length(r.Endereco, "endereco", 1, enderecoMax)
	}
	zona := zonaPadrao
	if r.FusoHorario != nil {
		zona = *r.FusoHorario
		errs.Check(validate.TimeZone(zona), "fusoHorario", validate.TimeZoneMessage)
	}
	if err := errs.Err(); err != nil {
		return Estabelecimento{}, err
	}
	return Estabelecimento{Tipo: r.Tipo, Numero: numero, Nome: r.Nome, Endereco: r.Endereco,
		FusoHorario: zona, Ativo: true}, nil
}

// checkNumero validates the identifier of its type and answers it
// unmasked. A CNPJ may be sent in its mask; CAEPF and CNO as digits.
func checkNumero(errs validate.Errors, tipo, numero, empresaCNPJ string) string {
	switch tipo {
	case TipoCNPJ, TipoCAEPF, TipoCNO:
	case "":
		errs.Required(tipo, "tipo")
	default:
		errs.Check(false, "tipo", "use cnpj, caepf ou cno")
	}
	if !errs.Required(numero, "numero") {
		return ""
	}
	if len(numero) > numeroMax {
		errs.Check(false, "numero", "deve ter no máximo 20 caracteres")
		return ""
	}
	switch tipo {
	case TipoCNPJ:
		if brdocs.ValidCNPJ(numero) {
			numero = brdocs.Plain(numero)
		}
		ok := brdocs.ValidPlainCNPJ(numero)
		errs.Check(ok, "numero", "CNPJ inválido: use 14 caracteres (ou ##.###.###/####-##) com dígitos verificadores corretos")
		if ok {
			errs.Check(brdocs.CNPJRoot(numero) == brdocs.CNPJRoot(empresaCNPJ), "numero",
				"o CNPJ do estabelecimento deve ter a mesma raiz (8 primeiros caracteres) do CNPJ da empresa")
		}
	case TipoCAEPF:
		errs.Check(brdocs.ValidCAEPF(numero), "numero", "CAEPF inválido: use os 14 dígitos, sem máscara, com dígitos verificadores corretos")
	case TipoCNO:
		errs.Check(brdocs.ValidCNO(numero), "numero", "CNO inválido: use os 12 dígitos, sem máscara, com dígito verificador correto")
	}
	return numero
}

// alteracaoRequest is the body of PATCH
// /empresas/me/estabelecimentos/{id}: every field optional, at least one.
// tipo and numero identify the establishment and do not change.
type alteracaoRequest struct {
	Nome        *string `json:"nome"`
	Endereco    *string `json:"endereco"`
	FusoHorario *string `json:"fusoHorario"`
	Ativo       *bool   `json:"ativo"`
}

// apply validates r and returns e changed by it.
func (r alteracaoRequest) apply(e Estabelecimento) (Estabelecimento, error) {
	errs := validate.Errors{}
	if r.Nome != nil {
		if errs.Required(*r.Nome, "nome") && errs.CheckText(*r.Nome, "nome", false) {
			errs.Length(*r.Nome, "nome", nomeMin, nomeMax)
		}
		e.Nome = *r.Nome
	}
	if r.Endereco != nil {
		if errs.Required(*r.Endereco, "endereco") && errs.CheckText(*r.Endereco, "endereco", false) {
			errs.Length(*r.Endereco, "endereco", 1, enderecoMax)
		}
		e.Endereco = *r.Endereco
	}
	if r.FusoHorario != nil {
		errs.Check(validate.TimeZone(*r.FusoHorario), "fusoHorario", validate.TimeZoneMessage)
		e.FusoHorario = *r.FusoHorario
	}
	if r.Ativo != nil {
		e.Ativo = *r.Ativo
	}
	if err := errs.Err(); err != nil {
		return Estabelecimento{}, err
	}
	if r == (alteracaoRequest{}) {
		return Estabelecimento{}, domainerr.InvalidField("corpo", "informe ao menos um campo para alterar (nome, endereco, fusoHorario, ativo)")
	}
	return e, nil
}

// REPPayload is the REP event's payload about e, an establishment of the
// company identified to the REP as empresa (AFD type 2, Anexo V): the
// employer's CNPJ is the establishment's when it has one, else the
// company's with the CAEPF or CNO beside it; the place of work is the
// establishment's address.
func REPPayload(e Estabelecimento, empresa timekeepingapi.Empresa) timekeepingapi.Payload {
	empresa.Local = e.Endereco
	empresa.CNO = ""
	if e.Tipo == TipoCNPJ {
		empresa.CNPJ = brdocs.FormatCNPJ(e.Numero)
	} else {
		empresa.CNO = e.Numero
	}
	return timekeepingapi.Payload{
		Empresa: &empresa,
		Estabelecimento: &timekeepingapi.Estabelecimento{ID: e.ID, Principal: e.Principal, Tipo: e.Tipo,
			Numero: e.Numero, Nome: e.Nome, Ativo: e.Ativo},
	}
}

// repChanged reports whether the REP's view of the establishment differs
// between a and b (the zone is not in it).
func repChanged(a, b Estabelecimento) bool {
	a.FusoHorario, b.FusoHorario = "", ""
	return a != b
}
