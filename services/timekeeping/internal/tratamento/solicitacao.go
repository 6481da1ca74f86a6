package tratamento

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/database"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/page"
	"github.com/ponto/ponto/services/timekeeping/internal/fechamento"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Statuses of an employee's inclusion request.
const (
	SolicitacaoPendente  = "pendente"
	SolicitacaoAprovada  = "aprovada"
	SolicitacaoReprovada = "reprovada"
)

var (
	errSolicitacaoNaoEncontrada = domainerr.NotFound("solicitação não encontrada")
	errSolicitacaoNaoPendente   = domainerr.Conflict("solicitacao_nao_pendente", "a solicitação já foi decidida")
)

// Solicitacao is an employee's request to include a punch he forgot.
type Solicitacao struct {
	ID            int64   `json:"id"`
	FuncionarioID int64   `json:"funcionarioId"`
	Data          string  `json:"data"`
	Horario       string  `json:"horario"`
	Motivo        string  `json:"motivo"`
	Status        string  `json:"status"`
	SolicitadoEm  string  `json:"solicitadoEm"`
	DecididoEm    *string `json:"decididoEm"`
	// MarcacaoID is the inclusion an approval made.
	MarcacaoID *int64 `json:"marcacaoId"`
}

const selectSolicitacao = `SELECT s.id, s.funcionario_id, s.jornada, s.horario, s.motivo, s.solicitado_em,
	d.aprovada, d.registrado_em, d.marcacao_id
	FROM solicitacoes_marcacao s LEFT JOIN solicitacoes_decisoes d ON d.solicitacao_id = s.id `

// statusWhere filters selectSolicitacao by status ($2).
const statusWhere = `(CASE WHEN d.aprovada IS NULL THEN 'pendente' WHEN d.aprovada THEN 'aprovada' ELSE 'reprovada' END) = $2`

func scanSolicitacao(row pgx.CollectableRow) (Solicitacao, error) {
	var s Solicitacao
	var jornada, horario, em time.Time
	var aprovada *bool
	var decidido *time.Time
	if err := row.Scan(&s.ID, &s.FuncionarioID, &jornada, &horario, &s.Motivo, &em, &aprovada, &decidido, &s.MarcacaoID); err != nil {
		return s, err
	}
	s.Data, s.Horario, s.SolicitadoEm = jornada.Format(time.DateOnly), clock.FormatISO(horario), clock.FormatISO(em)
	switch {
	case aprovada == nil:
		s.Status = SolicitacaoPendente
	case *aprovada:
		s.Status = SolicitacaoAprovada
	default:
		s.Status = SolicitacaoReprovada
	}
	if decidido != nil {
		d := clock.FormatISO(*decidido)
		s.DecididoEm = &d
	}
	return s, nil
}

func getSolicitacao(ctx context.Context, q database.Querier, empresaID, id int64) (Solicitacao, error) {
	return database.One(ctx, q, scanSolicitacao, errSolicitacaoNaoEncontrada, "tratamento: solicitação",
		selectSolicitacao+`WHERE s.id = $1 AND s.empresa_id = $2`, id, empresaID)
}

// Request records an employee's request to include in: refused like the
// inclusion itself would be (closed period, a punch at that minute).
func (s *Store) Request(ctx context.Context, in Inclusao, now time.Time) (Solicitacao, error) {
	var id int64
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := fechamento.Lock(ctx, tx, in.EmpresaID); err != nil {
			return err
		}
		if err := checkInclusao(ctx, tx, in); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO solicitacoes_marcacao
			(empresa_id, funcionario_id, jornada, horario, fuso_minutos, motivo, solicitado_em)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
			in.EmpresaID, in.FuncionarioID, in.Jornada, in.Horario, in.FusoMinutos, in.Motivo, now).Scan(&id)
	})
	if err != nil {
		return Solicitacao{}, err
	}
	return getSolicitacao(ctx, s.db, in.EmpresaID, id)
}

// Decide approves (making the inclusion, with the request's reason) or
// rejects company empresaID's pending request id: 404 another company's,
// 409 when decided already, or on approval when the inclusion is refused.
func (s *Store) Decide(ctx context.Context, empresaID, id, autor int64, aprovar bool, now time.Time) (Solicitacao, error) {
	err := pgx.BeginFunc(ctx, s.db, func(tx pgx.Tx) error {
		if err := fechamento.Lock(ctx, tx, empresaID); err != nil {
			return err
		}
		var in Inclusao
		var decided bool
		err := tx.QueryRow(ctx, `SELECT s.funcionario_id, s.jornada, s.horario, s.fuso_minutos, s.motivo,
				EXISTS (SELECT 1 FROM solicitacoes_decisoes d WHERE d.solicitacao_id = s.id)
			FROM solicitacoes_marcacao s WHERE s.id = $1 AND s.empresa_id = $2`, id, empresaID).
			Scan(&in.FuncionarioID, &in.Jornada, &in.Horario, &in.FusoMinutos, &in.Motivo, &decided)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return errSolicitacaoNaoEncontrada
		case err != nil:
			return fmt.Errorf("tratamento: solicitação: %w", err)
		case decided:
			return errSolicitacaoNaoPendente
		}
		var marcacao *int64
		if aprovar {
			in.EmpresaID, in.Autor = empresaID, autor
			m, err := insertInclusao(ctx, tx, in, now)
			if err != nil {
				return err
			}
			marcacao = &m
		}
		_, err = tx.Exec(ctx, `INSERT INTO solicitacoes_decisoes (solicitacao_id, empresa_id, aprovada, marcacao_id, autor_id, registrado_em)
			VALUES ($1, $2, $3, $4, $5, $6)`, id, empresaID, aprovar, marcacao, autor, now)
		return err
	})
	if err != nil {
		return Solicitacao{}, err
	}
	return getSolicitacao(ctx, s.db, empresaID, id)
}

// Solicitacoes is a page of company empresaID's requests in status,
// oldest first, and how many there are.
func (s *Store) Solicitacoes(ctx context.Context, empresaID int64, status string, p page.Page) ([]Solicitacao, int, error) {
	return database.Page(ctx, s.db, scanSolicitacao, "tratamento: solicitações", `SELECT count(*) FROM solicitacoes_marcacao s
		LEFT JOIN solicitacoes_decisoes d ON d.solicitacao_id = s.id WHERE s.empresa_id = $1 AND `+statusWhere,
		selectSolicitacao+`WHERE s.empresa_id = $1 AND `+statusWhere+`
		ORDER BY s.solicitado_em, s.id LIMIT $3 OFFSET $4`, p.Limit(), p.Offset(), empresaID, status)
}

// request is POST /registropontos/solicitacoes {"horario","motivo"}, by
// an employee for himself: 201 the pending request. The same checks as an
// inclusion: 400 (body, future, older than the keeping period), 409
// (closed period, a punch at that minute).
func (h *Handlers) request(c *fiber.Ctx, caller *jwtauth.Claims) (Solicitacao, error) {
	in, err := h.inclusao(c, caller.EmpresaID, caller.FuncionarioID)
	if err != nil {
		return Solicitacao{}, err
	}
	return h.Store.Request(c.UserContext(), in, h.Clock.Now())
}

// listSolicitacoes is GET /registropontos/solicitacoes?status=pendente|
// aprovada|reprovada (default pendente): a page of the company's requests.
func (h *Handlers) listSolicitacoes(c *fiber.Ctx, caller *jwtauth.Claims) (page.Result[Solicitacao], error) {
	status := c.Query("status", SolicitacaoPendente)
	if status != SolicitacaoPendente && status != SolicitacaoAprovada && status != SolicitacaoReprovada {
		return page.Result[Solicitacao]{}, domainerr.InvalidField("status", "use pendente, aprovada ou reprovada")
	}
	return request.Paged(c, func(p page.Page) ([]Solicitacao, int, error) {
		return h.Store.Solicitacoes(c.UserContext(), caller.EmpresaID, status, p)
	})
}

// decide is PUT /registropontos/solicitacoes/{solicitacaoId}/aprovar and
// /reprovar: 200 the request as decided.
func (h *Handlers) decide(aprovar bool) func(*fiber.Ctx, *jwtauth.Claims, int64) (Solicitacao, error) {
	return func(c *fiber.Ctx, caller *jwtauth.Claims, id int64) (Solicitacao, error) {
		return h.Store.Decide(c.UserContext(), caller.EmpresaID, id, caller.EmpresaID, aprovar, h.Clock.Now())
	}
}
