// Package ledger is the one writer of the REP's chains of records: every
// record that takes an NSR (types 2, 5, 6 and 7 of the AFD) is appended
// here, under its chain head's row lock, numbered from the head, and the
// head moved past it in the same transaction. No SQL outside this package
// names the chain head table (cadeias; tools/layout checks it).
//
// A chain is an establishment's (Portaria 671, Anexo IX item 6: "Cada
// estabelecimento terá sua própria sequência de NSR"): Chain{empresa, 0}
// is the company's principal establishment, which every chain written
// before establishments existed became (migration 00014), and
// Chain{empresa, id} a branch.
//
// Two entry points, in the shape of a repository with an update function:
// AppendTx (and Append, in a transaction of its own) runs an entry's
// function with the locked head and writes the records it returns; the
// clock-in (ClockIn) batches many punches of a chain into one transaction
// behind the same lock.
package ledger

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/services/timekeeping/core"
)

// Chain identifies a chain of records: a company's establishment, 0 for
// its principal one.
type Chain struct {
	EmpresaID         int64
	EstabelecimentoID int64
}

// Principal is company empresaID's principal establishment's chain.
func Principal(empresaID int64) Chain { return Chain{EmpresaID: empresaID} }

// compare orders chains as they are locked: company, then establishment.
// Every writer locks in this order, so no two transactions deadlock.
func compare(a, b Chain) int {
	return cmp.Or(cmp.Compare(a.EmpresaID, b.EmpresaID), cmp.Compare(a.EstabelecimentoID, b.EstabelecimentoID))
}

// Ledger writes the chains of one database.
type Ledger struct {
	db    *pgxpool.Pool
	clock *clock.Clock
	// lanes write the punches in batches: see ClockIn.
	lanes [lanes]lane
	// availability, when set, hears how each batch went.
	availability Availability
	// batches is told of each committed batch (ObserveBatches).
	batches func(Batch)
	// chains caches the chain of each establishment known (Chain).
	chains chainCache
}

// New returns a Ledger on db; clk stamps punches and decides workdays.
func New(db *pgxpool.Pool, clk *clock.Clock) *Ledger { return &Ledger{db: db, clock: clk} }

// lockSQL creates (with NSR 0) or locks the chains ($1 companies, $2
// establishments, in compare order) and returns their heads.
const lockSQL = `INSERT INTO cadeias (empresa_id, estabelecimento_id) SELECT * FROM unnest($1::bigint[], $2::bigint[])
	ON CONFLICT (empresa_id, estabelecimento_id) DO UPDATE SET ultimo_nsr = cadeias.ultimo_nsr
	RETURNING empresa_id, estabelecimento_id, ultimo_nsr, ultimo_hash::text`

// lockArgs are lockSQL's arguments for chains, sorted and without repeats.
func lockArgs(chains []Chain) (empresas, estabelecimentos []int64) {
	chains = slices.Clone(chains)
	slices.SortFunc(chains, compare)
	chains = slices.Compact(chains)
	for _, c := range chains {
		empresas, estabelecimentos = append(empresas, c.EmpresaID), append(estabelecimentos, c.EstabelecimentoID)
	}
	return empresas, estabelecimentos
}

// Lock locks chains' heads until tx ends (in compare order, creating a
// chain at its first record) and returns them.
func Lock(ctx context.Context, tx pgx.Tx, chains ...Chain) (map[Chain]core.Head, error) {
	empresas, estabelecimentos := lockArgs(chains)
	rows, _ := tx.Query(ctx, lockSQL, empresas, estabelecimentos)
	return collectHeads(rows, len(empresas), "lock chains")
}

// Execer runs statements: a transaction.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// HeadsSQL selects every chain's head (empresa_id, estabelecimento_id,
// ultimo_nsr, ultimo_hash): readers that join it (the chain audit) use it
// as a subquery, so that the table stays the ledger's.
const HeadsSQL = `SELECT empresa_id, estabelecimento_id, ultimo_nsr, ultimo_hash FROM cadeias`

// Heads reads chains' heads without locking them (the chain audit, in
// its read-only snapshot); a chain without records has the zero Head.
func Heads(ctx context.Context, q database.Querier, chains ...Chain) (map[Chain]core.Head, error) {
	empresas, estabelecimentos := lockArgs(chains)
	rows, _ := q.Query(ctx, `SELECT c.empresa_id, c.estabelecimento_id, c.ultimo_nsr, c.ultimo_hash::text
		FROM cadeias c JOIN unnest($1::bigint[], $2::bigint[]) AS k(empresa_id, estabelecimento_id)
			USING (empresa_id, estabelecimento_id)`, empresas, estabelecimentos)
	return collectHeads(rows, len(empresas), "heads")
}

// collectHeads reads rows of (empresa_id, estabelecimento_id, ultimo_nsr,
// ultimo_hash) into heads by chain.
func collectHeads(rows pgx.Rows, n int, what string) (map[Chain]core.Head, error) {
	heads := make(map[Chain]core.Head, n)
	var c Chain
	var h core.Head
	var hash *string
	if _, err := pgx.ForEachRow(rows, []any{&c.EmpresaID, &c.EstabelecimentoID, &h.NSR, &hash}, func() error {
		h.Hash = deref(hash)
		heads[c] = h
		return nil
	}); err != nil {
		return nil, fmt.Errorf("ledger: %s: %w", what, err)
	}
	return heads, nil
}

// LockCompany locks every chain of company empresaID (its principal one
// at least) until tx ends: what changes a company's workdays (an absence,
// a closing, a treatment) cannot slip past a punch of any of them.
func LockCompany(ctx context.Context, tx Execer, empresaID int64) error {
	if _, err := tx.Exec(ctx, `INSERT INTO cadeias (empresa_id) VALUES ($1) ON CONFLICT DO NOTHING`, empresaID); err != nil {
		return fmt.Errorf("ledger: lock company: %w", err)
	}
	if _, err := tx.Exec(ctx, `SELECT 1 FROM cadeias WHERE empresa_id = $1 ORDER BY estabelecimento_id FOR UPDATE`,
		empresaID); err != nil {
		return fmt.Errorf("ledger: lock company: %w", err)
	}
	return nil
}

// Chains lists company empresaID's chains that hold records, principal
// first.
func Chains(ctx context.Context, q database.Querier, empresaID int64) ([]Chain, error) {
	rows, _ := q.Query(ctx, `SELECT empresa_id, estabelecimento_id FROM cadeias WHERE empresa_id = $1 AND ultimo_nsr > 0
		ORDER BY estabelecimento_id`, empresaID)
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Chain])
	if err != nil {
		return nil, fmt.Errorf("ledger: chains: %w", err)
	}
	return out, nil
}

// Companies lists the companies with at least one chain, by id.
func Companies(ctx context.Context, q database.Querier) ([]int64, error) {
	rows, _ := q.Query(ctx, `SELECT DISTINCT empresa_id FROM cadeias ORDER BY empresa_id`)
	out, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("ledger: companies: %w", err)
	}
	return out, nil
}

// Entry decides, under the chain's lock, the records to append after its
// head (none: nothing is written). It may read through the transaction it
// runs in; it writes nothing that takes an NSR itself.
type Entry func(head core.Head) ([]Record, error)

// AppendTx locks chain in tx, runs entry and writes the records it returns
// with the NSRs after the head, then moves the head past them. It returns
// how many were written. The caller commits tx.
func AppendTx(ctx context.Context, tx pgx.Tx, chain Chain, entry Entry) (int, error) {
	heads, err := Lock(ctx, tx, chain)
	if err != nil {
		return 0, err
	}
	head := heads[chain]
	records, err := entry(head)
	if err != nil || len(records) == 0 {
		return 0, err
	}
	b := &pgx.Batch{}
	nsr := head.NSR
	for _, r := range records {
		nsr = core.NextNSR(nsr)
		r.queue(b, chain, nsr)
	}
	b.Queue(`UPDATE cadeias SET ultimo_nsr = $3 WHERE empresa_id = $1 AND estabelecimento_id = $2`,
		chain.EmpresaID, chain.EstabelecimentoID, nsr)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return 0, fmt.Errorf("ledger: append to %v: %w", chain, err)
	}
	return len(records), nil
}

// Append is AppendTx in a transaction of its own.
func (l *Ledger) Append(ctx context.Context, chain Chain, entry Entry) (n int, err error) {
	err = pgx.BeginFunc(ctx, l.db, func(tx pgx.Tx) error {
		n, err = AppendTx(ctx, tx, chain, entry)
		return err
	})
	return n, err
}

// Record is a record an entry appends: Empresa (type 2), Empregado (type
// 5) or Evento (type 6). Punches (type 7) are ClockIn's.
type Record interface {
	queue(b *pgx.Batch, c Chain, nsr int64)
}

// Empresa is an AFD type-2 record: the employer's identification as it
// applies to the chain's establishment.
type Empresa struct {
	Responsavel string // CPF, 11 digits
	Empregador  string // CNPJ or CPF, digits
	CNOCAEPF    string // digits, "" when none
	RazaoSocial string
	Local       string
	GravadoEm   time.Time
	Fuso        int // UTC offset in minutes at GravadoEm
}

func (r Empresa) queue(b *pgx.Batch, c Chain, nsr int64) {
	b.Queue(`INSERT INTO empresas_rep (empresa_id, estabelecimento_id, nsr, responsavel, empregador, cno_caepf,
			razao_social, local, gravado_em, fuso_minutos) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		c.EmpresaID, c.EstabelecimentoID, nsr, r.Responsavel, r.Empregador, r.CNOCAEPF, r.RazaoSocial, r.Local,
		r.GravadoEm, r.Fuso)
}

// Empregado is an AFD type-5 record: an employee included (I), changed
// (A) or excluded (E) in the chain, with the company's responsible person
// in force when the operation happened (ResponsavelEm).
type Empregado struct {
	FuncionarioID int64
	Operacao      string
	CPF           string // CPF12
	Nome          string
	Responsavel   string
	GravadoEm     time.Time
	Fuso          int
}

func (r Empregado) queue(b *pgx.Batch, c Chain, nsr int64) {
	b.Queue(`INSERT INTO empregados_rep (empresa_id, estabelecimento_id, nsr, funcionario_id, operacao, cpf, nome,
			responsavel, gravado_em, fuso_minutos)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		c.EmpresaID, c.EstabelecimentoID, nsr, r.FuncionarioID, r.Operacao, r.CPF, r.Nome, r.Responsavel,
		r.GravadoEm, r.Fuso)
}

// Evento is an AFD type-6 record: the REP unavailable (08) or available
// again (07).
type Evento struct {
	Codigo    string
	GravadoEm time.Time
	Fuso      int
}

func (r Evento) queue(b *pgx.Batch, c Chain, nsr int64) {
	b.Queue(`INSERT INTO eventos_rep (empresa_id, estabelecimento_id, nsr, codigo, gravado_em, fuso_minutos)
		VALUES ($1, $2, $3, $4, $5, $6)`, c.EmpresaID, c.EstabelecimentoID, nsr, r.Codigo, r.GravadoEm, r.Fuso)
}

// UltimaEmpresa is the chain's last type-2 record (false when none), its
// NSR, instant and offset left out. Call it in an entry.
func UltimaEmpresa(ctx context.Context, tx pgx.Tx, chain Chain) (Empresa, bool, error) {
	var r Empresa
	err := tx.QueryRow(ctx, `SELECT responsavel, empregador, cno_caepf, razao_social, local FROM empresas_rep
		WHERE empresa_id = $1 AND estabelecimento_id = $2 ORDER BY nsr DESC LIMIT 1`,
		chain.EmpresaID, chain.EstabelecimentoID).Scan(&r.Responsavel, &r.Empregador, &r.CNOCAEPF, &r.RazaoSocial, &r.Local)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return r, false, nil
	case err != nil:
		return r, false, fmt.Errorf("ledger: last type 2: %w", err)
	}
	return r, true, nil
}

// UltimoEmpregado is the chain's last type-5 record of employee
// funcionarioID (Conhecido false when none). Call it in an entry.
func UltimoEmpregado(ctx context.Context, tx pgx.Tx, chain Chain, funcionarioID int64) (core.UltimoREP, error) {
	var u core.UltimoREP
	err := tx.QueryRow(ctx, `SELECT operacao, cpf, nome FROM empregados_rep
		WHERE funcionario_id = $1 AND empresa_id = $2 AND estabelecimento_id = $3 ORDER BY nsr DESC LIMIT 1`,
		funcionarioID, chain.EmpresaID, chain.EstabelecimentoID).Scan(&u.Operacao, &u.CPF, &u.Nome)
	switch {
	case err == nil:
		u.Conhecido = true
	case !errors.Is(err, pgx.ErrNoRows):
		return u, fmt.Errorf("ledger: last type 5: %w", err)
	}
	return u, nil
}
