package funcionario

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/outbox"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/services/employee/internal/escala"
	"github.com/ponto/ponto/services/employee/internalapi"
	timekeepingapi "github.com/ponto/ponto/services/timekeeping/internalapi"
)

// ErrNotFound means no such employee (in the caller's company).
var ErrNotFound = domainerr.NotFound("funcionário não encontrado")

// Store holds the SQL of employees.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

// Create inserts n and returns its id, with the REP event
// funcionario.incluido in the same transaction. The unique indexes and
// composite foreign keys decide duplicates and foreign references (see
// constraintError), so no check-then-insert race exists.
func (s *Store) Create(ctx context.Context, n newFuncionario) (int64, error) {
	var id int64
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := insert(ctx, tx, n, &id); err != nil {
			return err
		}
		return enqueueREP(ctx, tx, n.EmpresaID, timekeepingapi.FuncionarioIncluido, repState{ativo: true, nome: n.Nome,
			cpf: n.CPF, estabelecimento: n.EstabelecimentoID}, id, nil)
	})
	return id, err
}

func insert(ctx context.Context, tx pgx.Tx, n newFuncionario, id *int64) error {
	err := tx.QueryRow(ctx, `INSERT INTO funcionarios (
			empresa_id, escala_trabalho_id, departamento_id, segmento, nome, cargo, email, cpf,
			telefone, endereco, data_nascimento, password_hash, clt, pj, sobreaviso,
			cidade, uf, code_matricula, nispis, valor_hora, data_admissao, fuso_horario,
			estabelecimento_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,
			$23)
		RETURNING id`,
		n.EmpresaID, n.EscalaTrabalhoID, n.DepartamentoID, n.Segmento, n.Nome, n.Cargo, n.Email, n.CPF,
		n.Telefone, n.Endereco, n.DataNascimento, n.PasswordHash, n.CLT, n.PJ, n.Sobreaviso,
		n.Cidade, n.UF, n.CodeMatricula, n.Nispis, n.ValorHora, n.DataAdmissao, n.FusoHorario,
		n.EstabelecimentoID,
	).Scan(id)
	if err == nil && n.DataDemissao != nil {
		_, err = tx.Exec(ctx, `UPDATE funcionarios SET data_demissao = $1 WHERE id = $2`, n.DataDemissao, *id)
	}
	if err != nil {
		return constraintError("funcionario: create", err)
	}
	return nil
}

// constraintError turns the violations of the employees table into the
// client's errors. A foreign key failing means the schedule, department or
// segment is unknown in the caller's company: 404 naming the field, the
// same answer whether it does not exist or belongs to another company.
func constraintError(op string, err error) error {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return fmt.Errorf("%s: %w", op, err)
	}
	switch pgErr.ConstraintName {
	case "funcionarios_cpf":
		return domainerr.Conflict("cpf_duplicado", "CPF já cadastrado")
	case "funcionarios_email":
		return domainerr.Conflict("email_duplicado", "e-mail já cadastrado")
	case "funcionarios_matricula":
		return domainerr.Conflict("matricula_duplicada", "matrícula já usada nesta empresa")
	case "funcionarios_escala_fk":
		return notFoundField("escalaTrabalhoId", "escala de trabalho não encontrada")
	case "funcionarios_departamento_fk":
		return notFoundField("departamentoId", "departamento não encontrado")
	case "funcionarios_segmento_fk":
		return notFoundField("segmento", "segmento não encontrado no departamento")
	case "funcionarios_segmento_sem_departamento":
		return domainerr.InvalidField("segmento", "exige departamentoId")
	case "funcionarios_clt_pj":
		return domainerr.InvalidField("pj", "não pode ser CLT e PJ ao mesmo tempo")
	case "funcionarios_demissao_apos_admissao":
		return domainerr.InvalidField("dataDemissao", "a data de demissão não pode ser anterior à admissão")
	}
	return fmt.Errorf("%s: %w", op, err)
}

func notFoundField(field, message string) error {
	e := domainerr.NotFound(message)
	e.Fields = map[string]string{field: message}
	return e
}

// funcionarioColumns are an employee's own columns (f aliases
// funcionarios), as (*Funcionario).columns scans them.
const funcionarioColumns = `f.id, f.empresa_id, f.escala_trabalho_id, f.departamento_id, f.segmento,
	f.nome, f.cargo, f.email, f.cpf, f.telefone, f.endereco, f.data_nascimento, f.code_verify,
	f.ativo, f.clt, f.pj, f.sobreaviso, f.sentimento, f.cidade, f.uf, f.code_matricula, f.nispis,
	f.valor_hora::float8, f.data_admissao, f.device_token, f.foto_profile, f.fuso_horario,
	f.estabelecimento_id, f.data_demissao`

// selectFuncionario reads an employee with his schedule, through the
// one join every read makes anyway: the internal views carry the
// schedule, so a batch of employees costs one query, not one per
// employee.
const selectFuncionario = `SELECT ` + funcionarioColumns + `,
	e.minutos_diarios, e.nome, e.horarios, ` + escala.Columns12x36 + `
	FROM funcionarios f JOIN escalas_trabalho e ON e.id = f.escala_trabalho_id AND e.empresa_id = f.empresa_id `

// columns are the scan targets of funcionarioColumns.
func (f *Funcionario) columns() []any {
	return []any{&f.ID, &f.EmpresaID, &f.EscalaTrabalhoID, &f.DepartamentoID, &f.Segmento,
		&f.Nome, &f.Cargo, &f.Email, &f.CPF, &f.Telefone, &f.Endereco, &f.DataNascimento, &f.CodeVerify,
		&f.Ativo, &f.CLT, &f.PJ, &f.Sobreaviso, &f.Sentimento, &f.Cidade, &f.UF, &f.CodeMatricula, &f.Nispis,
		&f.ValorHora, &f.DataAdmissao, &f.DeviceToken, &f.FotoProfile, &f.FusoHorario,
		&f.EstabelecimentoID, &f.DataDemissao}
}

func scanFuncionario(row pgx.CollectableRow) (Funcionario, error) {
	var f Funcionario
	var e escala.Escala
	err := row.Scan(append(f.columns(), &f.HorarioTrabalho, &e.Nome, &e.Horarios, &e.Tipo, &e.DataInicio,
		&e.DescansoSemanal)...)
	e.ID, e.EmpresaID = f.EscalaTrabalhoID, f.EmpresaID
	f.Escala = &e
	return f, err
}

// Get returns employee id of company empresaID, or ErrNotFound.
func (s *Store) Get(ctx context.Context, empresaID, id int64) (Funcionario, error) {
	return s.one(ctx, selectFuncionario+`WHERE f.id = $1 AND f.empresa_id = $2`, id, empresaID)
}

// ByID returns employee id of any company (internal API).
func (s *Store) ByID(ctx context.Context, id int64) (Funcionario, error) {
	return s.one(ctx, selectFuncionario+`WHERE f.id = $1`, id)
}

// ByIDs returns those of employees ids that exist, in no particular
// order (internal API).
func (s *Store) ByIDs(ctx context.Context, ids []int64) ([]Funcionario, error) {
	rows, _ := s.db.Query(ctx, selectFuncionario+`WHERE f.id = ANY($1)`, ids)
	fs, err := pgx.CollectRows(rows, scanFuncionario)
	if err != nil {
		return nil, fmt.Errorf("funcionario: by ids: %w", err)
	}
	return fs, nil
}

// The clock-in's batched lookup with the schedules apart reads the
// employees without their schedules' text (the daily minutes are one
// index probe each), then the schedules once each, but for those the
// caller holds already: a shift change's punches mostly share a few
// schedules per company, and the schedules' JSON was most of what this
// service spent per employee.
const (
	byIDsApartSQL = `SELECT ` + funcionarioColumns + `,
	(SELECT e.minutos_diarios FROM escalas_trabalho e WHERE e.id = f.escala_trabalho_id AND e.empresa_id = f.empresa_id)
	FROM funcionarios f WHERE f.id = ANY($1)`
	escalasSQL = escala.Select + `WHERE e.id = ANY($1)`
)

// ByIDsApart returns those of employees ids that exist, in no particular
// order and without their schedules (Escala nil), and their schedules
// once each but for those whose id is in known: a second query, made only
// when some schedule is not known.
func (s *Store) ByIDsApart(ctx context.Context, ids, known []int64) ([]Funcionario, []escala.Escala, error) {
	rows, _ := s.db.Query(ctx, byIDsApartSQL, ids)
	fs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Funcionario, error) {
		var f Funcionario
		err := row.Scan(append(f.columns(), &f.HorarioTrabalho)...)
		return f, err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("funcionario: by ids, schedules apart: %w", err)
	}
	var needed []int64
	for _, f := range fs {
		if !slices.Contains(known, f.EscalaTrabalhoID) && !slices.Contains(needed, f.EscalaTrabalhoID) {
			needed = append(needed, f.EscalaTrabalhoID)
		}
	}
	if len(needed) == 0 {
		return fs, nil, nil
	}
	rows, _ = s.db.Query(ctx, escalasSQL, needed)
	es, err := pgx.CollectRows(rows, escala.Scan)
	if err != nil {
		return nil, nil, fmt.Errorf("funcionario: schedules by ids: %w", err)
	}
	return fs, es, nil
}

// ByEmail returns the employments whose e-mail is email, ignoring case as
// the unique index does, in company order (internal API, for login): one
// person may work for several companies under one e-mail.
func (s *Store) ByEmail(ctx context.Context, email string) ([]Funcionario, error) {
	rows, _ := s.db.Query(ctx, selectFuncionario+`WHERE lower(f.email) = lower($1) ORDER BY f.empresa_id`, email)
	fs, err := pgx.CollectRows(rows, scanFuncionario)
	if err != nil {
		return nil, fmt.Errorf("funcionario: by e-mail: %w", err)
	}
	return fs, nil
}

func (s *Store) one(ctx context.Context, sql string, args ...any) (Funcionario, error) {
	return database.One(ctx, s.db, scanFuncionario, ErrNotFound, "funcionario: get", sql, args...)
}

// Filtro narrows a company's employee list; nil fields do not filter.
type Filtro struct {
	DepartamentoID *int64
	Segmento       *int // needs DepartamentoID; nil is the whole department
	Ativo          *bool
}

const filtroWhere = `WHERE f.empresa_id = $1
	AND ($2::bigint IS NULL OR f.departamento_id = $2)
	AND ($3::int IS NULL OR f.segmento = $3)
	AND ($4::bool IS NULL OR f.ativo = $4) `

// List returns one page of the company's employees matching fl, oldest
// first, and how many match in all.
func (s *Store) List(ctx context.Context, empresaID int64, fl Filtro, p page.Page) ([]Funcionario, int, error) {
	return database.Page(ctx, s.db, scanFuncionario, "funcionario", `SELECT count(*) FROM funcionarios f `+filtroWhere,
		selectFuncionario+filtroWhere+`ORDER BY f.id LIMIT $5 OFFSET $6`, p.Limit(), p.Offset(),
		empresaID, fl.DepartamentoID, fl.Segmento, fl.Ativo)
}

// Quadro reads a department's employees as its reports read them, by
// name, and their schedules, in one snapshot (the schedules are those the
// employees are on) and one round trip. Departamento is left for the
// caller.
func (s *Store) Quadro(ctx context.Context, empresaID, departamentoID int64) (internalapi.Quadro, error) {
	var q internalapi.Quadro
	err := pgx.BeginTxFunc(ctx, s.db, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly},
		func(tx pgx.Tx) error {
			b := &pgx.Batch{}
			b.Queue(`SELECT id, nome, cargo, cpf, ativo, segmento, escala_trabalho_id,
				to_char(data_admissao, 'YYYY-MM-DD'), fuso_horario, to_char(data_demissao, 'YYYY-MM-DD')
				FROM funcionarios WHERE empresa_id = $1 AND departamento_id = $2 ORDER BY nome, id`,
				empresaID, departamentoID).Query(func(rows pgx.Rows) (err error) {
				q.Funcionarios, err = pgx.CollectRows(rows, scanMembro)
				return err
			})
			b.Queue(escala.Select+`WHERE e.empresa_id = $1 AND e.id IN
				(SELECT escala_trabalho_id FROM funcionarios WHERE empresa_id = $1 AND departamento_id = $2)
				ORDER BY e.id`, empresaID, departamentoID).Query(func(rows pgx.Rows) (err error) {
				q.Escalas, err = pgx.CollectRows(rows, escala.Scan)
				return err
			})
			return tx.SendBatch(ctx, b).Close()
		})
	if err != nil {
		return internalapi.Quadro{}, fmt.Errorf("funcionario: quadro: %w", err)
	}
	return q, nil
}

// QuadroEmpresa reads the company's active employees, by name, with
// their departments' names, and their schedules, in one snapshot and one
// round trip.
func (s *Store) QuadroEmpresa(ctx context.Context, empresaID int64) (internalapi.QuadroEmpresa, error) {
	var q internalapi.QuadroEmpresa
	err := pgx.BeginTxFunc(ctx, s.db, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly},
		func(tx pgx.Tx) error {
			b := &pgx.Batch{}
			b.Queue(`SELECT f.id, f.nome, f.cargo, f.cpf, f.ativo, f.segmento, f.escala_trabalho_id,
				to_char(f.data_admissao, 'YYYY-MM-DD'), f.fuso_horario, coalesce(d.nome, ''), f.email,
				f.estabelecimento_id, to_char(f.data_demissao, 'YYYY-MM-DD') FROM funcionarios f LEFT JOIN departamentos d ON d.id = f.departamento_id
				WHERE f.empresa_id = $1 AND f.ativo ORDER BY f.nome, f.id`,
				empresaID).Query(func(rows pgx.Rows) (err error) {
				q.Funcionarios, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (internalapi.MembroEmpresa, error) {
					var m internalapi.MembroEmpresa
					err := row.Scan(&m.ID, &m.Nome, &m.Cargo, &m.CPF, &m.Ativo, &m.Segmento, &m.EscalaTrabalhoID,
						&m.DataAdmissao, &m.FusoHorario, &m.Departamento, &m.Email, &m.EstabelecimentoID, &m.DataDemissao)
					return m, err
				})
				return err
			})
			b.Queue(escala.Select+`WHERE e.empresa_id = $1 AND e.id IN
				(SELECT escala_trabalho_id FROM funcionarios WHERE empresa_id = $1 AND ativo)
				ORDER BY e.id`, empresaID).Query(func(rows pgx.Rows) (err error) {
				q.Escalas, err = pgx.CollectRows(rows, escala.Scan)
				return err
			})
			return tx.SendBatch(ctx, b).Close()
		})
	if err != nil {
		return internalapi.QuadroEmpresa{}, fmt.Errorf("funcionario: quadro da empresa: %w", err)
	}
	return q, nil
}

func scanMembro(row pgx.CollectableRow) (internalapi.Membro, error) {
	var m internalapi.Membro
	err := row.Scan(&m.ID, &m.Nome, &m.Cargo, &m.CPF, &m.Ativo, &m.Segmento, &m.EscalaTrabalhoID,
		&m.DataAdmissao, &m.FusoHorario, &m.DataDemissao)
	return m, err
}

// Update applies u to employee id of company empresaID in one
// transaction. When it turns an active employee inactive, revoke runs
// before the commit with the row locked: if revoke fails, the
// deactivation is rolled back, so an employee is never inactive while his
// sessions live on. (If the commit itself fails after revoke succeeded,
// the employee stays active and merely logs in again: harmless.) The REP
// event the change makes, if any (see repEvent), is written in the same
// transaction.
func (s *Store) Update(ctx context.Context, empresaID, id int64, u update, revoke func(context.Context) error) error {
	return pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		var before, after repState
		err := tx.QueryRow(ctx, `SELECT ativo, nome, cpf, estabelecimento_id FROM funcionarios
			WHERE id = $1 AND empresa_id = $2 FOR UPDATE`,
			id, empresaID).Scan(&before.ativo, &before.nome, &before.cpf, &before.estabelecimento)
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("funcionario: lock: %w", err)
		}
		sets := make([]string, 0, len(u.changes)+1)
		args := []any{id, empresaID}
		for _, c := range u.changes {
			args = append(args, c.value)
			sets = append(sets, c.column+" = $"+strconv.Itoa(len(args)))
		}
		sets = append(sets, "atualizado_em = now()")
		if err := tx.QueryRow(ctx, `UPDATE funcionarios SET `+strings.Join(sets, ", ")+
			` WHERE id = $1 AND empresa_id = $2 RETURNING ativo, nome, cpf, estabelecimento_id`, args...,
		).Scan(&after.ativo, &after.nome, &after.cpf, &after.estabelecimento); err != nil {
			return constraintError("funcionario: update", err)
		}
		if tipo := repEvent(before, after); tipo != "" {
			if err := enqueueREP(ctx, tx, empresaID, tipo, after, id, &before); err != nil {
				return err
			}
		}
		if before.ativo && u.deactivate {
			return revoke(ctx)
		}
		return nil
	})
}

// repState is what of an employee the REP keeps (AFD type 5), and the
// establishment whose chain keeps it.
type repState struct {
	ativo           bool
	nome, cpf       string
	estabelecimento int64
}

// repEvent names the REP event of a change from before to after, or "":
// an active employee leaving is an exclusion and one coming back an
// inclusion; a name or CPF change of an active employee is an alteration;
// anything else is not the REP's business (an inactive employee is not
// in the REP, so renaming him records nothing until he comes back). An
// active employee moved to another establishment is a transfer (an
// exclusion from the old chain, an inclusion in the new one, with his
// new name and CPF), which needs no alteration beside it.
func repEvent(before, after repState) string {
	switch {
	case before.ativo && !after.ativo:
		return timekeepingapi.FuncionarioExcluido
	case !before.ativo && after.ativo:
		return timekeepingapi.FuncionarioIncluido
	case after.ativo && before.estabelecimento != after.estabelecimento:
		return timekeepingapi.FuncionarioTransferido
	case after.ativo && (before.nome != after.nome || before.cpf != after.cpf):
		return timekeepingapi.FuncionarioAlterado
	}
	return ""
}

// enqueueREP writes the REP event tipo about employee id, now s, into
// tx. before (nil on creation) is what he was: an exclusion is recorded
// in the establishment he leaves, a transfer names it as the former one.
func enqueueREP(ctx context.Context, tx pgx.Tx, empresaID int64, tipo string, s repState, id int64, before *repState) error {
	f := timekeepingapi.Funcionario{ID: id, Nome: s.nome, CPF: s.cpf, EstabelecimentoID: s.estabelecimento}
	switch {
	case before != nil && tipo == timekeepingapi.FuncionarioExcluido:
		f.EstabelecimentoID = before.estabelecimento
	case before != nil && tipo == timekeepingapi.FuncionarioTransferido:
		f.EstabelecimentoAnteriorID = &before.estabelecimento
	}
	return outbox.Enqueue(ctx, tx, empresaID, tipo, timekeepingapi.Payload{Funcionario: &f})
}

// AtivosNoEstabelecimento counts company empresaID's active employees in
// establishment estabelecimentoID (0: the principal).
func (s *Store) AtivosNoEstabelecimento(ctx context.Context, empresaID, estabelecimentoID int64) (int, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT count(*) FROM funcionarios WHERE empresa_id = $1 AND estabelecimento_id = $2 AND ativo`,
		empresaID, estabelecimentoID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("funcionario: count in establishment: %w", err)
	}
	return n, nil
}

// SetFotoProfile sets (or clears, with nil) the photo URL of employee id.
func (s *Store) SetFotoProfile(ctx context.Context, id int64, url *string) error {
	return s.setColumn(ctx, "foto_profile", id, url)
}

// SetCodeVerify keeps the hash of the employee's latest login code.
func (s *Store) SetCodeVerify(ctx context.Context, id int64, hash *string) error {
	return s.setColumn(ctx, "code_verify", id, hash)
}

// setColumn updates one column; column is always a constant of this file.
func (s *Store) setColumn(ctx context.Context, column string, id int64, value *string) error {
	tag, err := s.db.Exec(ctx, `UPDATE funcionarios SET `+column+` = $2, atualizado_em = now() WHERE id = $1`, id, value)
	if err != nil {
		return fmt.Errorf("funcionario: set %s: %w", column, err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}
