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
	// FuncionarioTransferido moves an employee to another establishment
	// of his company (Funcionario.EstabelecimentoAnteriorID is the old).
	FuncionarioTransferido = "funcionario.transferido"
	// EstabelecimentoIncluido and EstabelecimentoAlterado are an
	// establishment created or changed (AFD type 2 of its own chain).
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
// event or the company of an empresa.* one (the other is left out). The
// sources' outboxes store it as the event's dados.
type Payload struct {
	Funcionario *Funcionario `json:"funcionario,omitempty"`
	Empresa     *Empresa     `json:"empresa,omitempty"`
	// Estabelecimento is the establishment of an estabelecimento.* event
	// (its Empresa is the type-2 data as it applies to it).
	Estabelecimento *Estabelecimento `json:"estabelecimento,omitempty"`
}

// Estabelecimento is an establishment of the company: each has its own
// NSR sequence (Anexo IX item 6).
type Estabelecimento struct {
	ID        int64 `json:"id"`
	Principal bool  `json:"principal"`
	// Tipo is "cnpj", "caepf" or "cno"; Numero its digits, unmasked.
	Tipo   string `json:"tipo"`
	Numero string `json:"numero"`
	Nome   string `json:"nome"`
	Ativo  bool   `json:"ativo"`
}

// Funcionario is an employee event's employee (AFD type 5).
type Funcionario struct {
	ID   int64  `json:"id"`
	Nome string `json:"nome"`
	CPF  string `json:"cpf"`
	// EstabelecimentoID is his establishment; 0 is the company's
	// principal one.
	EstabelecimentoID int64 `json:"estabelecimentoId"`
	// EstabelecimentoAnteriorID is, in funcionario.transferido only, the
	// establishment he left (0: the principal).
	EstabelecimentoAnteriorID *int64 `json:"estabelecimentoAnteriorId,omitempty"`
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
