// Package funcionario keeps employees: their creation, reads, updates
// (deactivation revokes their sessions in auth), the employee lists of a
// department, and the internal routes other services use to look them up.
package funcionario

import (
	"encoding/json"
	"time"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/services/employee/internal/escala"
	"github.com/ponto/ponto/services/employee/internalapi"
)

// Values the contract fixes.
const (
	roleFuncionario   = "funcionario"
	sentimentoNeutro  = "Neutro"
	registrosPontoNil = "[]"
)

// Funcionario is an employee as stored, without the password hash, which
// is never read back.
type Funcionario struct {
	ID               int64
	EmpresaID        int64
	EscalaTrabalhoID int64
	DepartamentoID   *int64
	Segmento         *int
	Nome             string
	Cargo            string
	Email            string
	CPF              string
	Telefone         string
	Endereco         string
	DataNascimento   time.Time
	CodeVerify       *string
	Ativo            bool
	CLT              bool
	PJ               bool
	Sobreaviso       bool
	Sentimento       string
	Cidade           *string
	UF               *string
	CodeMatricula    *string
	Nispis           *string
	ValorHora        *float64
	DataAdmissao     *time.Time
	DeviceToken      *string
	FotoProfile      *string
	// FusoHorario is the IANA zone of his place of work; nil: his
	// company's.
	FusoHorario *string
	// EstabelecimentoID is his establishment (company-billing's id); 0
	// is his company's principal one.
	EstabelecimentoID int64
	// Escala is his work schedule, read with him (internal views only).
	Escala *escala.Escala
	// HorarioTrabalho is the schedule's expected minutes per working day
	// (escala.DailyMinutes), read through the employee's schedule.
	HorarioTrabalho int
	// DataDemissao is the termination date, nil while employed.
	DataDemissao *time.Time
}

// Record is the contract's "Employee record" (nested as funcionario in the
// clock-in answer) followed by the employee's company, schedule,
// department and segment: the internal API's employee view. Every answer
// that shows an employee, public or internal, is a Record made by Render,
// so all services see one shape.
type Record = internalapi.Funcionario

// Audience says who reads a Record.
type Audience int

const (
	// Internal is another ponto service: it gets codeVerify.
	Internal Audience = iota
	// Public is a client app. codeVerify is shown as null there: it hashes
	// a six-digit login code, which anyone holding the hash could find by
	// trying all million codes while it is still valid.
	Public
)

// Render is the one place an employee becomes JSON. registrosPonto is
// always empty here: time records belong to the timekeeping service,
// which fills the list in its own answers.
func Render(f Funcionario, a Audience) Record {
	r := Record{
		ID:               f.ID,
		Nome:             f.Nome,
		Cargo:            f.Cargo,
		Email:            f.Email,
		Endereco:         f.Endereco,
		Telefone:         f.Telefone,
		Role:             roleFuncionario,
		CPF:              f.CPF,
		CodeVerify:       f.CodeVerify,
		DataNascimento:   clock.FormatISO(f.DataNascimento),
		HorarioTrabalho:  f.HorarioTrabalho,
		Ativo:            f.Ativo,
		CLT:              f.CLT,
		PJ:               f.PJ,
		Sobreaviso:       f.Sobreaviso,
		Sentimento:       f.Sentimento,
		RegistrosPonto:   json.RawMessage(registrosPontoNil),
		Cidade:           f.Cidade,
		CodeMatricula:    f.CodeMatricula,
		DeviceToken:      f.DeviceToken,
		FotoProfile:      f.FotoProfile,
		Nispis:           f.Nispis,
		UF:               f.UF,
		ValorHora:        f.ValorHora,
		FusoHorario:      f.FusoHorario,
		EmpresaID:        f.EmpresaID,
		EscalaTrabalhoID: f.EscalaTrabalhoID,
		DepartamentoID:   f.DepartamentoID,
		Segmento:         f.Segmento,

		EstabelecimentoID: f.EstabelecimentoID,
	}
	if f.DataAdmissao != nil {
		s := clock.FormatISO(*f.DataAdmissao)
		r.DataAdmissao = &s
	}
	if f.DataDemissao != nil {
		s := clock.FormatISO(*f.DataDemissao)
		r.DataDemissao = &s
	}
	if a == Public {
		r.CodeVerify = nil
	}
	if r.Sentimento == "" {
		r.Sentimento = sentimentoNeutro
	}
	return r
}

// RenderAll renders a list; an empty list is [] rather than null.
func RenderAll(fs []Funcionario, a Audience) []Record {
	return renderAll(fs, func(f Funcionario) Record { return Render(f, a) })
}

// RenderInternal renders the internal employee view: the Record
// (Internal audience) plus his work schedule, which timekeeping needs
// with every punch. Public answers never carry escala.
func RenderInternal(f Funcionario) internalapi.FuncionarioComEscala {
	return internalapi.FuncionarioComEscala{Funcionario: Render(f, Internal), Escala: f.Escala}
}

// RenderAllInternal renders a list of internal views, [] when empty.
func RenderAllInternal(fs []Funcionario) []internalapi.FuncionarioComEscala {
	return renderAll(fs, RenderInternal)
}

func renderAll[T any](fs []Funcionario, render func(Funcionario) T) []T {
	out := make([]T, 0, len(fs))
	for _, f := range fs {
		out = append(out, render(f))
	}
	return out
}

// Created is the answer of POST /funcionarios: the contract's nine
// request fields, password as its bcrypt hash and dataNascimento as sent,
// plus the new id.
type Created struct {
	ID               int64  `json:"id"`
	Cargo            string `json:"cargo"`
	CPF              string `json:"cpf"`
	DataNascimento   string `json:"dataNascimento"`
	Email            string `json:"email"`
	EmpresaID        int64  `json:"empresaId"`
	EscalaTrabalhoID int64  `json:"escalaTrabalhoId"`
	Nome             string `json:"nome"`
	Password         string `json:"password"`
	Telefone         string `json:"telefone"`
	// EstabelecimentoID is his establishment, 0 for the principal.
	EstabelecimentoID int64 `json:"estabelecimentoId"`
}
