// Package internalapi is timekeeping's internal API (docs/internal-api.md,
// section "timekeeping"), defined here once for both sides: the wire types
// of POST /internal/eventos, which timekeeping's handler decodes and
// answers with, and the client the REP event relays of employee and
// company-billing send with (an outbox.Sender).
//
// It is a module of its own, depending only on pkg, so that a caller's
// image builds it without the rest of timekeeping.
package internalapi

// Path is the route that receives REP events.
const Path = "/internal/eventos"

// Event types.
const (
	EmpresaIncluida     = "empresa.incluida"
	EmpresaAlterada     = "empresa.alterada"
	FuncionarioIncluido = "funcionario.incluido"
	FuncionarioAlterado = "funcionario.alterado"
	FuncionarioExcluido = "funcionario.excluido"
	// FuncionarioTransferido moves an employee from establishment
	// Funcionario.EstabelecimentoAnteriorID to Funcionario.EstabelecimentoID:
	// type 5 E in the old chain, I in the new one.
	FuncionarioTransferido = "funcionario.transferido"
	// EstabelecimentoIncluido and EstabelecimentoAlterado (company-billing)
	// carry an establishment and the type-2 data as it applies to it.
	EstabelecimentoIncluido = "estabelecimento.incluido"
	EstabelecimentoAlterado = "estabelecimento.alterado"
)

// CodeForaDeOrdem is the code of the 409 that refuses an event out of
// sequence; the answer's esperada (apierr.Error.Esperada) is the sequence
// timekeeping expects.
const CodeForaDeOrdem = "evento_fora_de_ordem"

// Evento is the body of POST /internal/eventos: one REP operation of a
// source service.
type Evento struct {
	// ID is unique per event: "<origem>:<outbox row id>".
	ID string `json:"id"`
	// Origem is "employee" or "company-billing".
	Origem    string `json:"origem"`
	EmpresaID int64  `json:"empresaId"`
	// Sequencia counts the source's events of the company, 1, 2, 3...
	// without gaps, in the order the changes committed.
	Sequencia int64 `json:"sequencia"`
	// OcorridoEm is when the change was made: ISO 8601 UTC with
	// milliseconds.
	OcorridoEm string `json:"ocorridoEm"`
	Tipo       string `json:"tipo"`
	Payload
}

// Payload is what an event is about: the employee of a funcionario.*
// event, the company of an empresa.* one, or the establishment and the
// company's type-2 data for it of an estabelecimento.* one. The sources'
// outboxes store it as the event's dados.
type Payload struct {
	Funcionario     *Funcionario     `json:"funcionario,omitempty"`
	Empresa         *Empresa         `json:"empresa,omitempty"`
	Estabelecimento *Estabelecimento `json:"estabelecimento,omitempty"`
}

// Establishment identifier types (Estabelecimento.Tipo).
const (
	TipoCNPJ  = "cnpj"
	TipoCAEPF = "caepf"
	TipoCNO   = "cno"
)

// Estabelecimento is an establishment of the company: each has its own
// chain of records (Portaria 671, Anexo IX item 6).
type Estabelecimento struct {
	ID        int64  `json:"id"`
	Principal bool   `json:"principal"`
	Tipo      string `json:"tipo"`
	Numero    string `json:"numero"`
	Nome      string `json:"nome"`
	Ativo     bool   `json:"ativo"`
}

// Funcionario is an employee event's employee (AFD type 5).
type Funcionario struct {
	ID   int64  `json:"id"`
	Nome string `json:"nome"`
	CPF  string `json:"cpf"`
	// EstabelecimentoID is the employee's establishment (0: the principal).
	EstabelecimentoID int64 `json:"estabelecimentoId,omitempty"`
	// EstabelecimentoAnteriorID is the one he left (funcionario.transferido).
	EstabelecimentoAnteriorID int64 `json:"estabelecimentoAnteriorId,omitempty"`
}

// Empresa is a company event's employer identification (AFD type 2).
type Empresa struct {
	CNPJ        string `json:"cnpj"`
	RazaoSocial string `json:"razaoSocial"`
	// Local is the place where the services are rendered: the company's
	// address when it has one, else "".
	Local string `json:"local"`
	// CNO is the CEI/CAEPF/CNO, "" when there is none.
	CNO string `json:"cno"`
	// Responsavel is null until the company names one.
	Responsavel *Responsavel `json:"responsavel"`
}

// Responsavel is the person responsible for the company before the REP.
type Responsavel struct {
	Nome string `json:"nome"`
	CPF  string `json:"cpf"`
}

// Resultado is the 200 answer: Aplicado is false for an id applied before
// (a retry).
type Resultado struct {
	Aplicado *bool `json:"aplicado"`
}
