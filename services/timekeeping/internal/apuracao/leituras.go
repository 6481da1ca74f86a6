package apuracao

import (
	"context"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// Leituras are the engine's reads (its read model): everything a workday
// needs, for a company, its employees and a period, read once. Store is
// PostgreSQL's; Memoria holds them in memory for the engine's unit tests.
//
// A new per-day fact (a leave, say) is one more method on Registro, one
// more query in Store.Fatos (reportsql.Statements) and one rule applied
// in computeDays.
type Leituras interface {
	// Fatos hands every fact of p to r, read in one snapshot.
	Fatos(ctx context.Context, p Periodo, r Registro) error
	// Politica is the company's hour-bank policy (the default, off,
	// when it never set one).
	Politica(ctx context.Context, empresaID int64) (Politica, error)
	// Movimentos are the manual hour-bank movements of employees ids
	// dated in [inicio, fim], by employee, in date and id order.
	Movimentos(ctx context.Context, empresaID int64, ids []int64, inicio, fim time.Time) (map[int64][]core.MovimentoBanco, error)
}

// Periodo selects the facts to read: the company's, of employees
// Funcionarios, of the days from Inicio to Fim (the punches from the day
// before Inicio, the holidays up to the day after Fim).
type Periodo struct {
	EmpresaID    int64
	Inicio, Fim  time.Time
	Funcionarios []int64
}

// Registro receives the facts a Leituras reads, one method per kind, in
// any order; facts of other employees or dates are left out.
type Registro interface {
	// Calendario names the company's first day on ponto (nil: not set)
	// and the pontos facultativos it keeps as holidays.
	Calendario(inicioUso *time.Time, facultativos core.Facultativos)
	// Feriado is a holiday of the company's own.
	Feriado(data time.Time, nome string)
	// Falta is the company's mark of an absence.
	Falta(funcionario int64, data time.Time)
	// Abono excuses a whole day (inicio or fim nil) or a range, in
	// minutes after the workday's local midnight.
	Abono(funcionario int64, data time.Time, inicio, fim *int)
	// Desconsiderada is a punch the company disregards.
	Desconsiderada(marcacao int64)
	// Marcacao is a REP punch (NSR set) or one the company included.
	Marcacao(funcionario int64, m MarcacaoLida)
	// Afastamento is a standing (not cancelled) leave, id, touching the
	// period.
	Afastamento(funcionario, id int64, a core.Afastamento)
}

// MarcacaoLida is a punch as read. Tipo and Status are bytes, so that the
// store's binary decoding makes no string per punch.
type MarcacaoLida struct {
	ID int64
	// NSR is 0 for a punch the company included.
	NSR int64
	// Jornada is the workday (civil date), Registro the original time,
	// Efetivo the effective one (the approved adjustment's, to the minute).
	Jornada           time.Time
	Registro, Efetivo time.Time
	// Fuso is the punch's UTC offset in minutes.
	Fuso int16
	// Tipo is the REP's (empty for an inclusion); Status the adjustment's
	// (empty: none).
	Tipo, Status []byte
	// Fora: outside every work place.
	Fora bool
}
