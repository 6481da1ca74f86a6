package banco

import "github.com/ponto/ponto/services/timekeeping/internal/apuracao"

// The bank's answers are the workday engine's (package apuracao computes
// the banks with the workdays they come from).
type (
	// Saldo is an employee's bank up to a date.
	Saldo = apuracao.Saldo
	// Periodo is a compensation period.
	Periodo = apuracao.PeriodoBanco
	// Movimento is a movement of the bank.
	Movimento = apuracao.Movimento
	// Politica is a company's policy as the routes answer it.
	Politica = apuracao.Politica
)
