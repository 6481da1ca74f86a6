// Package internalapi is the employee service's internal API
// (docs/internal-api.md, section "employee"), defined here once for both
// sides: the wire types its handlers answer with and decode, and the
// client other services call it with.
//
// It is a module of its own, depending only on pkg, so that a caller's
// image builds it without the rest of the employee service.
package internalapi

import "encoding/json"

// MaxIDs bounds the ids of one ListFuncionarios call.
const MaxIDs = 100

// Funcionario is the employee view: the contract's "Employee record"
// followed by the employee's company, schedule, department and segment.
// The employee service's answers that show an employee, public or
// internal, are all this type; public ones show codeVerify as null.
type Funcionario struct {
	ID       int64  `json:"id"`
	Nome     string `json:"nome"`
	Cargo    string `json:"cargo"`
	Email    string `json:"email"`
	Endereco string `json:"endereco"`
	Telefone string `json:"telefone"`
	Role     string `json:"role"`
	CPF      string `json:"cpfcnpj"`
	// CodeVerify is the hash of the latest login code (internal answers
	// only).
	CodeVerify *string `json:"codeVerify"`
	// DataNascimento and DataAdmissao are ISO 8601 UTC timestamps with
	// milliseconds.
	DataNascimento string `json:"dataNascimento"`
	// HorarioTrabalho is the schedule's expected minutes per working day.
	HorarioTrabalho int    `json:"horarioTrabalho"`
	Ativo           bool   `json:"ativo"`
	CLT             bool   `json:"clt"`
	PJ              bool   `json:"pj"`
	Sobreaviso      bool   `json:"sobreaviso"`
	Sentimento      string `json:"sentimento"`
	// RegistrosPonto is always [] here: timekeeping fills the list in its
	// own answers, and leaves it out (nil) to write its own.
	RegistrosPonto json.RawMessage `json:"registrosPonto,omitempty"`
	Cidade         *string         `json:"cidade"`
	CodeMatricula  *string         `json:"codeMatricula"`
	DataAdmissao   *string         `json:"dataAdmissao"`
	DeviceToken    *string         `json:"deviceToken"`
	FotoProfile    *string         `json:"fotoProfile"`
	Nispis         *string         `json:"nispis"`
	UF             *string         `json:"uf"`
	ValorHora      *float64        `json:"valorHora"`
	// FusoHorario is the IANA zone of his place of work, null for his
	// company's.
	FusoHorario *string `json:"fusoHorario"`

	EmpresaID        int64  `json:"empresaId"`
	EscalaTrabalhoID int64  `json:"escalaTrabalhoId"`
	DepartamentoID   *int64 `json:"departamentoId"`
	Segmento         *int   `json:"segmento"`
	// EstabelecimentoID is his establishment (company-billing's); 0 is
	// his company's principal one.
	EstabelecimentoID int64 `json:"estabelecimentoId"`

	// DataDemissao is the termination date (ISO 8601 UTC, as
	// DataAdmissao), null while employed.
	DataDemissao *string `json:"dataDemissao"`
}

// FuncionarioComEscala is the employee view with his work schedule, as
// the routes answer it that timekeeping reads on every punch.
type FuncionarioComEscala struct {
	Funcionario
	// Escala is what GetEscala answers; null when he has none.
	Escala *Escala `json:"escala"`
}

// Horario is one working day of a schedule.
type Horario struct {
	// Entrada is HH:MM, local time in the employee's zone.
	Entrada string `json:"entrada"`
	// SaidaAlmoco, RetornoAlmoco and Saida are minutes after Entrada,
	// strictly increasing, Saida at most 1440.
	SaidaAlmoco   int `json:"saidaAlmoco"`
	RetornoAlmoco int `json:"retornoAlmoco"`
	Saida         int `json:"saida"`
	// IntervaloPreAssinalado marks the break as pre-assigned (Portaria 671
	// art. 83): the employee punches only in and out, and timekeeping
	// counts the scheduled break without punches. Absent when false.
	IntervaloPreAssinalado bool `json:"intervaloPreAssinalado,omitempty"`
}

// Escala is a work schedule: Horarios[0] is Monday ... Horarios[6]
// Sunday; days past the last entry are rest days.
type Escala struct {
	ID        int64     `json:"id"`
	EmpresaID int64     `json:"empresaId"`
	Nome      string    `json:"nome"`
	Horarios  []Horario `json:"horarios"`
	// Tipo is "12x36" for a 12x36 schedule, whose one shift is worked on
	// DataInicio (YYYY-MM-DD) and every second day from it; both absent
	// for a weekly one.
	Tipo       string  `json:"tipo,omitempty"`
	DataInicio *string `json:"dataInicio,omitempty"`
	// DescansoSemanal are a weekly schedule's rest days (DSR, Lei 605/49)
	// as Horarios' indices (0 Monday ... 6 Sunday), ascending; absent
	// means Sunday.
	DescansoSemanal []int `json:"descansoSemanal,omitempty"`
}

// Segmento is one numbered team of a department.
type Segmento struct {
	Numero int    `json:"numero"`
	Nome   string `json:"nome"`
}

// Departamento is a department.
type Departamento struct {
	ID        int64      `json:"id"`
	EmpresaID int64      `json:"empresaId"`
	Nome      string     `json:"nome"`
	Segmentos []Segmento `json:"segmentos"`
}

// Funcionarios is the answer of GET /internal/funcionarios?ids=. With
// escalas=separadas (the clock-in's form), each schedule comes once, in
// Escalas, and every employee's Escala and CodeVerify are null: a shift
// change's batch of one company's employees carries its two or three
// schedules once instead of in every record, and no login code's hash.
type Funcionarios struct {
	Funcionarios []FuncionarioComEscala `json:"funcionarios"`
	Escalas      []Escala               `json:"escalas,omitempty"`
}

// Vinculos is the answer of GET /internal/funcionarios/vinculos: every
// employment of an e-mail, without schedules.
type Vinculos struct {
	Funcionarios []Funcionario `json:"funcionarios"`
}

// Quadro is the answer of the department route of timekeeping's reports
// and month-close acknowledgements: the department, its employees ordered
// by name (active or not) with only what those read, and each of their
// schedules once.
type Quadro struct {
	Departamento Departamento `json:"departamento"`
	Funcionarios []Membro     `json:"funcionarios"`
	// Escalas holds every schedule a member works on, once, by id order.
	Escalas []Escala `json:"escalas"`
}

// Membro is an employee as a department's reports name him and compute
// his workdays: a slice of the employee view, spelled the same.
type Membro struct {
	ID       int64  `json:"id"`
	Nome     string `json:"nome"`
	Cargo    string `json:"cargo"`
	CPF      string `json:"cpfcnpj"`
	Ativo    bool   `json:"ativo"`
	Segmento *int   `json:"segmento"`
	// EscalaTrabalhoID names his schedule among the answer's Escalas.
	EscalaTrabalhoID int64 `json:"escalaTrabalhoId"`
	// DataAdmissao is YYYY-MM-DD, null without one.
	DataAdmissao *string `json:"dataAdmissao"`
	// DataDemissao is YYYY-MM-DD, null while employed.
	DataDemissao *string `json:"dataDemissao"`
	// FusoHorario is the IANA zone of his place of work, null for his
	// company's.
	FusoHorario *string `json:"fusoHorario"`
}

// QuadroEmpresa is the answer of the company roster route of
// timekeeping's day at a glance: every active employee of the company as
// Membro plus his department's name, and each of their schedules once.
type QuadroEmpresa struct {
	Funcionarios []MembroEmpresa `json:"funcionarios"`
	// Escalas holds every schedule a member works on, once, by id order.
	Escalas []Escala `json:"escalas"`
}

// MembroEmpresa is a Membro with his department's name ("" without one),
// his e-mail (timekeeping's reminders) and his establishment (0: the
// principal; the day at a glance's filter).
type MembroEmpresa struct {
	Membro
	Departamento      string `json:"departamento"`
	Email             string `json:"email"`
	EstabelecimentoID int64  `json:"estabelecimentoId"`
}

// Foto is the body of PUT /internal/funcionarios/{id}/foto. The key is
// required; null clears the photo.
type Foto struct {
	FotoProfile *string `json:"fotoProfile"`
}

// CodeVerify is the body of PUT /internal/funcionarios/{id}/code-verify.
// The key is required; null clears the hash.
type CodeVerify struct {
	CodeVerify *string `json:"codeVerify"`
}

// Ativos is the answer of
// GET /internal/empresas/{empresaId}/estabelecimentos/{estabelecimentoId}/ativos:
// how many active employees the establishment has.
type Ativos struct {
	Ativos int `json:"ativos"`
}
