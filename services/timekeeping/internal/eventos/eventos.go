// Package eventos applies, as REP records, the operations the other
// services tell timekeeping of (POST /internal/eventos,
// docs/internal-api.md): the employer's identification included or
// changed (AFD type 2) from company-billing, employees included, changed
// or excluded (type 5) from employee. Each takes the company's next NSR
// under the same chain lock as punches, at the moment timekeeping records
// it. Events come from each source's transactional outbox: they are
// applied once (by id) and in order (per source and company, by
// sequencia); a duplicate is acknowledged without writing, an event out
// of order is refused with the sequence expected.
package eventos

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/brdocs"
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
	"github.com/ponto/ponto/services/timekeeping/internalapi"
)

// Sources of events.
var origens = map[string]bool{"employee": true, "company-billing": true}

// Limits of an event.
const (
	idMax    = 200
	textoMax = 300
)

// check validates an event's shape.
func check(e internalapi.Evento) error {
	v := validate.Errors{}
	v.Check(e.ID != "" && len(e.ID) <= idMax, "id", "de 1 a 200 caracteres")
	v.Check(origens[e.Origem], "origem", "employee ou company-billing")
	v.Check(e.EmpresaID > 0, "empresaId", "inteiro positivo")
	v.Check(e.Sequencia > 0, "sequencia", "inteiro positivo")
	_, err := time.Parse(time.RFC3339Nano, e.OcorridoEm)
	v.Check(err == nil, "ocorridoEm", "data e hora ISO 8601")
	v.Check(core.EventoConhecido(e.Tipo), "tipo", "tipo de evento desconhecido")
	switch e.Tipo {
	case core.EventoEmpresaIncluida, core.EventoEmpresaAlterada:
		ok := e.Empresa != nil
		v.Check(ok && e.Origem == "company-billing", "empresa", "obrigatório nos eventos de empresa (de company-billing)")
		if ok {
			id := core.Plain(e.Empresa.CNPJ)
			v.Check(len(id) == 14 || (len(id) == 11 && brdocs.ValidCPF(id)), "empresa.cnpj", "CNPJ ou CPF do empregador")
			v.Check(texto(e.Empresa.RazaoSocial, true), "empresa.razaoSocial", "de 1 a 300 caracteres")
			v.Check(texto(e.Empresa.Local, false) && texto(e.Empresa.CNO, false), "empresa.local", "até 300 caracteres")
			if r := e.Empresa.Responsavel; r != nil {
				v.Check(brdocs.ValidCPF(r.CPF), "empresa.responsavel.cpf", "CPF inválido")
			}
		}
	case core.EventoFuncionarioIncluido, core.EventoFuncionarioAlterado, core.EventoFuncionarioExcluido:
		ok := e.Funcionario != nil
		v.Check(ok && e.Origem == "employee", "funcionario", "obrigatório nos eventos de funcionário (de employee)")
		if ok {
			v.Check(e.Funcionario.ID > 0, "funcionario.id", "inteiro positivo")
			v.Check(brdocs.ValidCPF(e.Funcionario.CPF), "funcionario.cpf", "CPF inválido")
			v.Check(texto(e.Funcionario.Nome, true), "funcionario.nome", "de 1 a 300 caracteres")
		}
	}
	return v.Err()
}

func texto(s string, required bool) bool {
	n := utf8.RuneCountInString(s)
	return utf8.ValidString(s) && n <= textoMax && (!required || n > 0)
}

// Zones give a company's time zone (fuso.Zones): the records keep its
// offset.
type Zones interface {
	Empresa(ctx context.Context, empresaID int64) (*time.Location, error)
}

// Handlers serve the internal route.
type Handlers struct {
	db    *pgxpool.Pool
	zones Zones
	clock *clock.Clock
}

// NewHandlers returns the handlers; clk stamps the records.
func NewHandlers(db *pgxpool.Pool, zones Zones, clk *clock.Clock) *Handlers {
	return &Handlers{db: db, zones: zones, clock: clk}
}

// Internal mounts POST /internal/eventos on r (the internal listener).
// Internal registers the route behind the service tokens of the sources.
func (h *Handlers) Internal(r fiber.Router, v *jwtauth.Verifier) {
	r.Post(internalapi.Path, v.Services("employee", "company-billing"), h.receive)
}

// errOrigemAlheia refuses an event whose origem is not its caller: a
// service may only write its own events into the REP's records.
var errOrigemAlheia = apierr.Forbidden("o evento deve ter como origem o próprio serviço que o envia")

// errForaDeOrdem carries the sequence expected.
type errForaDeOrdem struct{ esperada int64 }

func (e errForaDeOrdem) Error() string {
	return fmt.Sprintf("evento fora de ordem: esperada %d", e.esperada)
}

// receive is POST /internal/eventos: 200 {"aplicado": true} when applied
// now, {"aplicado": false} for an id applied before; 409
// evento_fora_de_ordem with "esperada" when it is not the source's next
// event for the company; 400 for a malformed event.
func (h *Handlers) receive(c *fiber.Ctx) error {
	var e internalapi.Evento
	if err := request.DecodeJSON(c, &e); err != nil {
		return err
	}
	if err := check(e); err != nil {
		return err
	}
	if e.Origem != jwtauth.ServiceName(c) {
		return errOrigemAlheia
	}
	ctx := c.UserContext()
	zone, err := h.zones.Empresa(ctx, e.EmpresaID)
	if err != nil {
		return err
	}
	aplicado, err := Apply(ctx, h.db, e, h.clock.Now(), zone)
	var fora errForaDeOrdem
	if errors.As(err, &fora) {
		// The API error answer, with the one member only this route has.
		return c.Status(http.StatusConflict).JSON(&apierr.Error{Code: internalapi.CodeForaDeOrdem,
			Message: "evento fora de ordem: reenvie a partir da sequência esperada", Esperada: fora.esperada})
	}
	if err != nil {
		return err
	}
	return c.JSON(internalapi.Resultado{Aplicado: &aplicado})
}

// Apply records event e at instant now (in zone's offset) under the
// company's chain lock, and reports whether it was applied now (false: a
// duplicate).
func Apply(ctx context.Context, db *pgxpool.Pool, e internalapi.Evento, now time.Time, zone *time.Location) (bool, error) {
	aplicado := false
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		var head int64
		if err := tx.QueryRow(ctx, `INSERT INTO cadeias (empresa_id) VALUES ($1)
			ON CONFLICT (empresa_id) DO UPDATE SET ultimo_nsr = cadeias.ultimo_nsr RETURNING ultimo_nsr`,
			e.EmpresaID).Scan(&head); err != nil {
			return fmt.Errorf("eventos: chain head: %w", err)
		}
		var dup bool
		var ultima int64
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM eventos_recebidos WHERE id = $1),
			coalesce((SELECT max(sequencia) FROM eventos_recebidos WHERE origem = $2 AND empresa_id = $3), 0)`,
			e.ID, e.Origem, e.EmpresaID).Scan(&dup, &ultima); err != nil {
			return fmt.Errorf("eventos: received: %w", err)
		}
		if dup {
			return nil
		}
		if e.Sequencia != ultima+1 {
			return errForaDeOrdem{esperada: ultima + 1}
		}
		offset := core.Offset(now, zone)
		nsr := core.NextNSR(head)
		written, err := write(ctx, tx, e, nsr, now, offset)
		if err != nil {
			return err
		}
		if written {
			if _, err := tx.Exec(ctx, `UPDATE cadeias SET ultimo_nsr = $2 WHERE empresa_id = $1`, e.EmpresaID, nsr); err != nil {
				return fmt.Errorf("eventos: move head: %w", err)
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO eventos_recebidos (id, origem, empresa_id, sequencia, aplicado_em)
			VALUES ($1, $2, $3, $4, $5)`, e.ID, e.Origem, e.EmpresaID, e.Sequencia, now); err != nil {
			return fmt.Errorf("eventos: received: %w", err)
		}
		aplicado = true
		return nil
	})
	return aplicado, err
}

// write records e's REP record with NSR nsr, if it says anything new.
func write(ctx context.Context, tx pgx.Tx, e internalapi.Evento, nsr int64, now time.Time, offset int) (bool, error) {
	if e.Empresa != nil {
		responsavel := core.ResponsavelNaoIdentificado
		if r := e.Empresa.Responsavel; r != nil {
			responsavel = core.Plain(r.CPF)
		}
		_, err := tx.Exec(ctx, `INSERT INTO empresas_rep (empresa_id, nsr, responsavel, empregador, cno_caepf,
			razao_social, local, gravado_em, fuso_minutos) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			e.EmpresaID, nsr, responsavel, core.Plain(e.Empresa.CNPJ), core.Plain(e.Empresa.CNO), e.Empresa.RazaoSocial,
			e.Empresa.Local, now, offset)
		if err != nil {
			return false, fmt.Errorf("eventos: type 2: %w", err)
		}
		return true, nil
	}
	f := e.Funcionario
	var u core.UltimoREP
	err := tx.QueryRow(ctx, `SELECT operacao, cpf, nome FROM empregados_rep
		WHERE funcionario_id = $1 AND empresa_id = $2 ORDER BY nsr DESC LIMIT 1`, f.ID, e.EmpresaID).
		Scan(&u.Operacao, &u.CPF, &u.Nome)
	switch {
	case err == nil:
		u.Conhecido = true
	case !errors.Is(err, pgx.ErrNoRows):
		return false, fmt.Errorf("eventos: last type 5: %w", err)
	}
	cpf := core.CPF12(f.CPF)
	op := core.OperacaoDeEvento(e.Tipo, u, cpf, f.Nome)
	if op == "" {
		return false, nil
	}
	if _, err := tx.Exec(ctx, `INSERT INTO empregados_rep (empresa_id, nsr, funcionario_id, operacao, cpf, nome,
			responsavel, gravado_em, fuso_minutos)
		VALUES ($1, $2, $3, $4, $5, $6, coalesce((SELECT responsavel FROM empresas_rep WHERE empresa_id = $1
			ORDER BY nsr DESC LIMIT 1), $7), $8, $9)`,
		e.EmpresaID, nsr, f.ID, op, cpf, f.Nome, core.ResponsavelNaoIdentificado, now, offset); err != nil {
		return false, fmt.Errorf("eventos: type 5: %w", err)
	}
	return true, nil
}
