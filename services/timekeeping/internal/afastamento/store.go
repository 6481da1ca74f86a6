// Package afastamento keeps employees' leaves (afastamentos, férias
// included): date ranges with a kind whose rules live in
// core/afastamento.go. A leave may be changed or cancelled while its
// dates are open (internal/fechamento); each change and the cancellation
// copy the row as it was into afastamentos_historico. Its document (a PDF
// or an image) is kept in MinIO by the media service.
package afastamento

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/fechamento"
)

var (
	errSobreposto    = domainerr.Conflict("afastamento_sobreposto", "o funcionário já tem um afastamento nestas datas")
	errDoacao        = domainerr.Conflict("doacao_sangue_no_periodo", "a CLT (art. 473 IV) abona uma doação de sangue a cada 12 meses")
	errJaCancelado   = domainerr.Conflict("afastamento_cancelado", "este afastamento já foi cancelado")
	errNaoEncontrado = domainerr.NotFound("afastamento não encontrado")
)

// Afastamento is a leave as the routes answer it.
type Afastamento struct {
	ID            int64         `json:"id"`
	FuncionarioID int64         `json:"funcionarioId"`
	Tipo          string        `json:"tipo"`
	Inicio        string        `json:"inicio"`
	Fim           string        `json:"fim"`
	Dias          int           `json:"dias"`
	AlemDoLegal   int           `json:"diasAlemDoLegal"`
	Motivo        string        `json:"motivo"`
	Documento     *Documento    `json:"documento"`
	RegistradoEm  string        `json:"registradoEm"`
	AtualizadoEm  string        `json:"atualizadoEm"`
	Cancelamento  *Cancelamento `json:"cancelamento"`
}

// Documento is a leave's document: its type and size (the bytes are
// downloaded from the document route).
type Documento struct {
	ContentType  string `json:"contentType"`
	TamanhoBytes int64  `json:"tamanhoBytes"`
}

// Cancelamento is a leave undone.
type Cancelamento struct {
	Motivo      string `json:"motivo"`
	CanceladoEm string `json:"canceladoEm"`
}

// Store holds the SQL of leaves.
type Store struct{ db *pgxpool.Pool }

// NewStore returns a Store on db.
func NewStore(db *pgxpool.Pool) *Store { return &Store{db: db} }

const selectAfastamento = `SELECT id, funcionario_id, tipo, inicio, fim, motivo, documento_tipo, documento_tamanho,
	registrado_em, atualizado_em, cancelado_em, motivo_cancelamento FROM afastamentos `

func scanAfastamento(row pgx.CollectableRow) (Afastamento, error) {
	var a Afastamento
	var inicio, fim, em, atualizado time.Time
	var docTipo, cm *string
	var docTam *int64
	var ce *time.Time
	if err := row.Scan(&a.ID, &a.FuncionarioID, &a.Tipo, &inicio, &fim, &a.Motivo, &docTipo, &docTam,
		&em, &atualizado, &ce, &cm); err != nil {
		return a, err
	}
	c := core.Afastamento{Tipo: a.Tipo, Inicio: inicio, Fim: fim}
	a.Inicio, a.Fim, a.Dias, a.AlemDoLegal = inicio.Format(time.DateOnly), fim.Format(time.DateOnly), c.Dias(), c.AlemDoLegal()
	a.RegistradoEm, a.AtualizadoEm = clock.FormatISO(em), clock.FormatISO(atualizado)
	if docTipo != nil && docTam != nil {
		a.Documento = &Documento{ContentType: *docTipo, TamanhoBytes: *docTam}
	}
	if cm != nil && ce != nil {
		a.Cancelamento = &Cancelamento{Motivo: *cm, CanceladoEm: clock.FormatISO(*ce)}
	}
	return a, nil
}

// novo is a validated leave to record or to change into.
type novo struct {
	empresaID, funcionarioID, autor int64
	leave                           core.Afastamento
	motivo                          string
}

// create records n: 409 when a day of it is closed, it overlaps a standing
// leave of the employee, or it is a second blood donation in 12 months.
func (s *Store) create(ctx context.Context, n novo, now time.Time) (Afastamento, error) {
	var id int64
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := fechamento.Lock(ctx, tx, n.empresaID); err != nil {
			return err
		}
		if err := checkWritable(ctx, tx, n, 0); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO afastamentos (empresa_id, funcionario_id, tipo, inicio, fim, motivo,
			autor_id, registrado_em, atualizado_em) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id`,
			n.empresaID, n.funcionarioID, n.leave.Tipo, n.leave.Inicio, n.leave.Fim, n.motivo, n.autor, now).Scan(&id)
	})
	if err != nil {
		return Afastamento{}, err
	}
	return s.Get(ctx, n.empresaID, id)
}

// checkWritable refuses n when one of its days is closed or it conflicts
// with one of the employee's standing leaves other than except
// (core.Afastamento.Conflito). Call it under fechamento.Lock.
func checkWritable(ctx context.Context, tx pgx.Tx, n novo, except int64) error {
	if err := checkOpen(ctx, tx, n.empresaID, n.leave); err != nil {
		return err
	}
	// A blood donation looks 12 months either way; anything else only at
	// its own days.
	de, ate := n.leave.Inicio.AddDate(-1, 0, 0), n.leave.Fim.AddDate(1, 0, 0)
	rows, _ := tx.Query(ctx, `SELECT tipo, inicio, fim FROM afastamentos
		WHERE funcionario_id = $1 AND empresa_id = $2 AND cancelado_em IS NULL AND id <> $3
		AND inicio <= $5 AND fim >= $4`, n.funcionarioID, n.empresaID, except, de, ate)
	existentes, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (core.Afastamento, error) {
		var a core.Afastamento
		err := r.Scan(&a.Tipo, &a.Inicio, &a.Fim)
		return a, err
	})
	if err != nil {
		return fmt.Errorf("afastamento: overlap: %w", err)
	}
	if e, ok := n.leave.Conflito(existentes); ok {
		if n.leave.Sobrepoe(e) {
			return errSobreposto
		}
		return errDoacao
	}
	return nil
}

// checkOpen refuses a leave with a day in one of the company's standing
// closings. Call it under fechamento.Lock.
func checkOpen(ctx context.Context, tx pgx.Tx, empresaID int64, a core.Afastamento) error {
	return fechamento.CheckOpenRange(ctx, tx, empresaID, &a.Inicio, a.Fim.AddDate(0, 0, 1))
}

// Get returns leave id of company empresaID (404 another company's).
func (s *Store) Get(ctx context.Context, empresaID, id int64) (Afastamento, error) {
	return get(ctx, s.db, empresaID, id, "")
}

func get(ctx context.Context, q database.Querier, empresaID, id int64, lock string) (Afastamento, error) {
	return database.One(ctx, q, scanAfastamento, errNaoEncontrado, "afastamento: get",
		selectAfastamento+`WHERE id = $1 AND empresa_id = $2`+lock, id, empresaID)
}

// change replaces leave id's kind, dates and reason with n's, keeping the
// old ones in the history: 404 another company's; 409 cancelled, closed
// (old or new days) or conflicting.
func (s *Store) change(ctx context.Context, id int64, n novo, now time.Time) (Afastamento, error) {
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := fechamento.Lock(ctx, tx, n.empresaID); err != nil {
			return err
		}
		old, err := standingForUpdate(ctx, tx, n.empresaID, id)
		if err != nil {
			return err
		}
		n.funcionarioID = old.FuncionarioID
		if err := checkWritable(ctx, tx, n, id); err != nil {
			return err
		}
		if err := checkOpen(ctx, tx, n.empresaID, leaveOf(old)); err != nil {
			return err
		}
		if err := history(ctx, tx, old, n.empresaID, "alteracao", n.autor, now); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE afastamentos SET tipo = $2, inicio = $3, fim = $4, motivo = $5, atualizado_em = $6
			WHERE id = $1`, id, n.leave.Tipo, n.leave.Inicio, n.leave.Fim, n.motivo, now)
		return err
	})
	if err != nil {
		return Afastamento{}, err
	}
	return s.Get(ctx, n.empresaID, id)
}

// cancel undoes leave id of company empresaID: 404 another company's,
// 409 when already cancelled or a day of it is closed.
func (s *Store) cancel(ctx context.Context, empresaID, id, autor int64, motivo string, now time.Time) (Afastamento, error) {
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := fechamento.Lock(ctx, tx, empresaID); err != nil {
			return err
		}
		old, err := standingForUpdate(ctx, tx, empresaID, id)
		if err != nil {
			return err
		}
		if err := checkOpen(ctx, tx, empresaID, leaveOf(old)); err != nil {
			return err
		}
		if err := history(ctx, tx, old, empresaID, "cancelamento", autor, now); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE afastamentos SET cancelado_em = $2, motivo_cancelamento = $3, atualizado_em = $2
			WHERE id = $1`, id, now, motivo)
		return err
	})
	if err != nil {
		return Afastamento{}, err
	}
	return s.Get(ctx, empresaID, id)
}

// standingForUpdate reads leave id locked for the transaction: 404
// another company's, 409 a cancelled one.
func standingForUpdate(ctx context.Context, tx pgx.Tx, empresaID, id int64) (Afastamento, error) {
	a, err := get(ctx, tx, empresaID, id, " FOR UPDATE")
	if err != nil {
		return a, err
	}
	if a.Cancelamento != nil {
		return a, errJaCancelado
	}
	return a, nil
}

func history(ctx context.Context, tx pgx.Tx, old Afastamento, empresaID int64, acao string, autor int64, now time.Time) error {
	_, err := tx.Exec(ctx, `INSERT INTO afastamentos_historico (afastamento_id, empresa_id, tipo, inicio, fim, motivo,
		acao, autor_id, registrado_em) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		old.ID, empresaID, old.Tipo, old.Inicio, old.Fim, old.Motivo, acao, autor, now)
	if err != nil {
		return fmt.Errorf("afastamento: history: %w", err)
	}
	return nil
}

func leaveOf(a Afastamento) core.Afastamento {
	inicio, _ := time.Parse(time.DateOnly, a.Inicio)
	fim, _ := time.Parse(time.DateOnly, a.Fim)
	return core.Afastamento{Tipo: a.Tipo, Inicio: inicio, Fim: fim}
}

// List returns employee funcionarioID's leaves touching [inicio, fim],
// cancelled ones included (with their cancellation), latest first.
func (s *Store) List(ctx context.Context, empresaID, funcionarioID int64, inicio, fim time.Time) ([]Afastamento, error) {
	rows, _ := s.db.Query(ctx, selectAfastamento+`WHERE empresa_id = $1 AND funcionario_id = $2
		AND inicio <= $4 AND fim >= $3 ORDER BY inicio DESC, id DESC`, empresaID, funcionarioID, inicio, fim)
	out, err := pgx.CollectRows(rows, scanAfastamento)
	if err != nil {
		return nil, fmt.Errorf("afastamento: list: %w", err)
	}
	return out, nil
}

// Company returns the standing leaves of company empresaID's employees
// touching [inicio, fim], by start (the department's calendar).
func (s *Store) Company(ctx context.Context, empresaID int64, inicio, fim time.Time) ([]Afastamento, error) {
	rows, _ := s.db.Query(ctx, selectAfastamento+`WHERE empresa_id = $1 AND cancelado_em IS NULL
		AND inicio <= $3 AND fim >= $2 ORDER BY inicio, funcionario_id, id`, empresaID, inicio, fim)
	out, err := pgx.CollectRows(rows, scanAfastamento)
	if err != nil {
		return nil, fmt.Errorf("afastamento: company: %w", err)
	}
	return out, nil
}

// Vigente is a standing leave as the workday engine reads it: its id, for
// the timesheet's "afastamento": {"id", "tipo"}, and its rule's input.
type Vigente struct {
	ID int64
	core.Afastamento
}

// Periodo returns the standing (not cancelled) leaves of company
// empresaID's employees funcionarioIDs touching civil dates [inicio, fim],
// by employee, each employee's by start. An employee without a leave has
// no entry. Another company's leaves are never read.
func (s *Store) Periodo(ctx context.Context, empresaID int64, funcionarioIDs []int64, inicio, fim time.Time) (map[int64][]Vigente, error) {
	rows, _ := s.db.Query(ctx, `SELECT funcionario_id, id, tipo, inicio, fim FROM afastamentos
		WHERE empresa_id = $1 AND funcionario_id = ANY($2) AND cancelado_em IS NULL AND inicio <= $4 AND fim >= $3
		ORDER BY funcionario_id, inicio`, empresaID, funcionarioIDs, inicio, fim)
	out := map[int64][]Vigente{}
	var f int64
	var v Vigente
	_, err := pgx.ForEachRow(rows, []any{&f, &v.ID, &v.Tipo, &v.Inicio, &v.Fim}, func() error {
		out[f] = append(out[f], v)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("afastamento: periodo: %w", err)
	}
	return out, nil
}

// documento is where a leave's document is kept.
type documento struct {
	chave, tipo string
	tamanho     int64
}

// setDocument records that leave id's document is doc (replacing any
// earlier one, whose key it returns): 404 another company's, 409 a
// cancelled one.
func (s *Store) setDocument(ctx context.Context, empresaID, id int64, doc documento, now time.Time) (Afastamento, error) {
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := standingForUpdate(ctx, tx, empresaID, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE afastamentos SET documento_chave = $2, documento_tipo = $3, documento_tamanho = $4,
			atualizado_em = $5 WHERE id = $1`, id, doc.chave, doc.tipo, doc.tamanho, now)
		return err
	})
	if err != nil {
		return Afastamento{}, err
	}
	return s.Get(ctx, empresaID, id)
}

// document returns leave id's document key and the leave's employee: 404
// another company's leave, or one without a document.
func (s *Store) document(ctx context.Context, empresaID, id int64) (documento, int64, error) {
	var d documento
	var funcionarioID int64
	var chave, tipo *string
	err := s.db.QueryRow(ctx, `SELECT funcionario_id, documento_chave, documento_tipo FROM afastamentos
		WHERE id = $1 AND empresa_id = $2`, id, empresaID).Scan(&funcionarioID, &chave, &tipo)
	if errors.Is(err, pgx.ErrNoRows) {
		return d, 0, errNaoEncontrado
	}
	if err != nil {
		return d, 0, fmt.Errorf("afastamento: document: %w", err)
	}
	if chave == nil || tipo == nil {
		return d, funcionarioID, errSemDocumento
	}
	return documento{chave: *chave, tipo: *tipo}, funcionarioID, nil
}

var errSemDocumento = domainerr.NotFound("este afastamento não tem documento")
