package apuracao

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/feriado"
	"github.com/ponto/ponto/services/timekeeping/internal/iniciouso"
	"github.com/ponto/ponto/services/timekeeping/reportsql"
)

// Store is the engine's reads in PostgreSQL (Leituras): the facts in one
// read-only repeatable-read transaction, its queries (reportsql) in one
// batch.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

var _ Leituras = (*Store)(nil)

// Fatos reads p's facts: the company's calendar, then
// reportsql.Statements in one batch.
func (s *Store) Fatos(ctx context.Context, p Periodo, r Registro) error {
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	return pgx.BeginTxFunc(ctx, s.db, opts, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, reportsql.Settings); err != nil {
			return fmt.Errorf("apuracao: settings: %w", err)
		}
		fac, err := feriado.Facultativos(ctx, tx, p.EmpresaID)
		if err != nil {
			return err
		}
		inicioUso, err := iniciouso.Read(ctx, tx, p.EmpresaID)
		if err != nil {
			return err
		}
		r.Calendario(inicioUso, fac)
		return readBatch(ctx, tx, p, r)
	})
}

// readers read each statement's rows (reportsql.Statement.Name) into a
// Registro.
var readers = map[string]func(pgx.Rows, Registro) error{
	"feriados": readFeriados, "faltas": readFaltas, "abonos": readAbonos,
	"desconsideracoes": readDesconsideracoes, "incluidas": readIncluidas, "marcacoes": readMarcacoes,
	"afastamentos": readAfastamentos,
}

// readBatch sends the statements and reads their answers in order.
func readBatch(ctx context.Context, tx pgx.Tx, p Periodo, r Registro) error {
	params := reportsql.Params{EmpresaID: p.EmpresaID, Inicio: p.Inicio, Fim: p.Fim, Funcionarios: p.Funcionarios}
	b := &pgx.Batch{}
	for _, st := range reportsql.Statements {
		b.Queue(st.SQL, st.Args(params)...)
	}
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	for _, st := range reportsql.Statements {
		rows, err := br.Query()
		if err == nil {
			err = readAll(rows, r, readers[st.Name])
		}
		if err != nil {
			return fmt.Errorf("apuracao: %s: %w", st.Name, err)
		}
	}
	return br.Close()
}

// readAll passes rows to read, closed and with their error checked.
func readAll(rows pgx.Rows, r Registro, read func(pgx.Rows, Registro) error) error {
	defer rows.Close()
	if read == nil {
		return fmt.Errorf("no reader")
	}
	if err := read(rows, r); err != nil {
		return err
	}
	rows.Close()
	return rows.Err()
}

func readFeriados(rows pgx.Rows, r Registro) error {
	for rows.Next() {
		var data time.Time
		var nome string
		if err := rows.Scan(&data, &nome); err != nil {
			return err
		}
		r.Feriado(data, nome)
	}
	return nil
}

func readFaltas(rows pgx.Rows, r Registro) error {
	for rows.Next() {
		var id int64
		var data time.Time
		if err := rows.Scan(&id, &data); err != nil {
			return err
		}
		r.Falta(id, data)
	}
	return nil
}

func readAbonos(rows pgx.Rows, r Registro) error {
	for rows.Next() {
		var id int64
		var data time.Time
		var inicio, fim *int
		if err := rows.Scan(&id, &data, &inicio, &fim); err != nil {
			return err
		}
		r.Abono(id, data, inicio, fim)
	}
	return nil
}

func readDesconsideracoes(rows pgx.Rows, r Registro) error {
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		r.Desconsiderada(id)
	}
	return nil
}

func readAfastamentos(rows pgx.Rows, r Registro) error {
	for rows.Next() {
		var funcionario, id int64
		var a core.Afastamento
		if err := rows.Scan(&funcionario, &id, &a.Tipo, &a.Inicio, &a.Fim); err != nil {
			return err
		}
		r.Afastamento(funcionario, id, a)
	}
	return nil
}

func readIncluidas(rows pgx.Rows, r Registro) error {
	for rows.Next() {
		var funcionario int64
		var m MarcacaoLida
		if err := rows.Scan(&funcionario, &m.Jornada, &m.ID, &m.Registro, &m.Fuso); err != nil {
			return err
		}
		m.Efetivo = m.Registro
		r.Marcacao(funcionario, m)
	}
	return nil
}

// Politica reads company empresaID's hour-bank policy (the default when
// none).
func (s *Store) Politica(ctx context.Context, empresaID int64) (Politica, error) {
	p := Politica{PeriodoMeses: core.BancoPeriodoPadrao}
	var inicio, em time.Time
	err := s.db.QueryRow(ctx, `SELECT ativo, periodo_meses, inicio, limite_credito, limite_debito, atualizado_em
		FROM banco_horas_politicas WHERE empresa_id = $1`, empresaID).
		Scan(&p.Ativo, &p.PeriodoMeses, &inicio, &p.LimiteCreditoMinutos, &p.LimiteDebitoMinutos, &em)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, nil
	}
	if err != nil {
		return p, fmt.Errorf("banco: politica: %w", err)
	}
	i, a := inicio.Format(time.DateOnly), clock.FormatISO(em)
	p.Inicio, p.AtualizadoEm = &i, &a
	return p, nil
}

// Movimentos reads the manual movements of employees ids of company
// empresaID dated in [inicio, fim], by employee, in date and id order.
func (s *Store) Movimentos(ctx context.Context, empresaID int64, ids []int64, inicio, fim time.Time) (map[int64][]core.MovimentoBanco, error) {
	rows, err := s.db.Query(ctx, `SELECT funcionario_id, id, data, tipo, minutos, motivo FROM banco_horas_movimentos
		WHERE empresa_id = $1 AND funcionario_id = ANY($2::bigint[]) AND data BETWEEN $3 AND $4
		ORDER BY funcionario_id, data, id`, empresaID, ids, inicio, fim)
	if err != nil {
		return nil, fmt.Errorf("banco: movimentos: %w", err)
	}
	defer rows.Close()
	out := map[int64][]core.MovimentoBanco{}
	for rows.Next() {
		var f int64
		var m core.MovimentoBanco
		if err := rows.Scan(&f, &m.ID, &m.Data, &m.Tipo, &m.Minutos, &m.Motivo); err != nil {
			return nil, fmt.Errorf("banco: movimentos: %w", err)
		}
		out[f] = append(out[f], m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("banco: movimentos: %w", err)
	}
	return out, nil
}
