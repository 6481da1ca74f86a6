package core

import (
	"fmt"
	"time"
)

// Head is a chain's head: the last NSR given and the last punch's hash
// ("" before the first). Each establishment has its own chain (Portaria
// 671, Anexo IX item 6: "Cada estabelecimento terá sua própria sequência
// de NSR").
type Head struct {
	NSR  int64
	Hash string
}

// EmpregadoREP is the REP's last type-5 record of an employee in a chain:
// Conhecido is false when the chain has none, Excluido true when it is an
// exclusion (E: he left the establishment, or the company).
type EmpregadoREP struct {
	Conhecido bool
	Excluido  bool
	CPF, Nome string // CPF as CPF12
}

// Batida is a punch to plan: who, when, and what its type-7 record says.
type Batida struct {
	FuncionarioID int64
	CPF           string // any form: CPF12 is taken
	Nome          string
	Horario       time.Time
	OffsetMinutes int
	Coletor       string
	// Gravacao and OffLine: an off-line punch's recording time and flag
	// (Marcacao).
	Gravacao time.Time
	OffLine  bool
}

// BatidaPlanejada is a planned punch: the type-5 record that must precede
// it (Operacao "" when none, at NSR-1), its tipo, NSR and hash.
type BatidaPlanejada struct {
	Operacao string
	Tipo     string
	NSR      int64
	Hash     string
}

// PlanBatida plans punch b after the chain head h, the employee's last
// type-5 record e and the tipo of his workday's last punch (last, "" for
// none), and moves h and e past it.
//
// The AFD's type-5 record precedes the employee's first punch in the chain
// (inclusion, I) and any punch after his CPF or name changed (alteration,
// A): Anexo V items 5 and 7 (types 5 and 7 share the NSR sequence, Anexo
// IX item 6), so it takes the next NSR and the punch the one after.
func PlanBatida(h *Head, e *EmpregadoREP, last string, b Batida) (BatidaPlanejada, error) {
	cpf := CPF12(b.CPF)
	var p BatidaPlanejada
	// After an exclusion the chain no longer has him: a punch there (one
	// that reached the old establishment as he moved) includes him again.
	if p.Operacao = OperacaoREP(e.Conhecido && !e.Excluido, e.CPF, e.Nome, cpf, b.Nome); p.Operacao != "" {
		h.NSR = NextNSR(h.NSR)
		*e = EmpregadoREP{Conhecido: true, CPF: cpf, Nome: b.Nome}
	}
	nsr := NextNSR(h.NSR)
	hash, err := Hash(Marcacao{NSR: nsr, Horario: b.Horario, OffsetMinutes: b.OffsetMinutes, CPF: b.CPF,
		Coletor: b.Coletor, Gravacao: b.Gravacao, OffLine: b.OffLine}, h.Hash)
	if err != nil {
		return BatidaPlanejada{}, fmt.Errorf("core: plan NSR %d: %w", nsr, err)
	}
	h.NSR, h.Hash = nsr, hash
	p.Tipo, p.NSR, p.Hash = TipoAfter(last), nsr, hash
	return p, nil
}

// PlanBatch plans a batch of punches of one chain, in order, from its head
// h, each employee's last type-5 record (empregados) and the tipo of his
// workday's last punch (ultimos): the head after them and each punch's
// plan. Nothing is changed in the maps given.
func PlanBatch(h Head, empregados map[int64]EmpregadoREP, ultimos map[int64]string, batidas []Batida) (Head, []BatidaPlanejada, error) {
	e := make(map[int64]EmpregadoREP, len(empregados))
	last := make(map[int64]string, len(ultimos))
	out := make([]BatidaPlanejada, 0, len(batidas))
	for _, b := range batidas {
		emp, ok := e[b.FuncionarioID]
		if !ok {
			emp = empregados[b.FuncionarioID]
		}
		t, ok := last[b.FuncionarioID]
		if !ok {
			t = ultimos[b.FuncionarioID]
		}
		p, err := PlanBatida(&h, &emp, t, b)
		if err != nil {
			return h, nil, err
		}
		e[b.FuncionarioID], last[b.FuncionarioID] = emp, p.Tipo
		out = append(out, p)
	}
	return h, out, nil
}
