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
	"github.com/ponto/ponto/pkg/changefeed"
	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/ledger"
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
		checkEmpresa(v, e)
	case core.EventoEstabelecimentoIncluido, core.EventoEstabelecimentoAlterado:
		checkEstabelecimento(v, e)
	case core.EventoFuncionarioIncluido, core.EventoFuncionarioAlterado, core.EventoFuncionarioExcluido,
		core.EventoFuncionarioTransferido:
		ok := e.Funcionario != nil
		v.Check(ok && e.Origem == "employee", "funcionario", "obrigatório nos eventos de funcionário (de employee)")
		if ok {
			v.Check(e.Funcionario.ID > 0, "funcionario.id", "inteiro positivo")
			v.Check(brdocs.ValidCPF(e.Funcionario.CPF), "funcionario.cpf", "CPF inválido")
			v.Check(texto(e.Funcionario.Nome, true), "funcionario.nome", "de 1 a 300 caracteres")
			v.Check(e.Funcionario.EstabelecimentoID >= 0, "funcionario.estabelecimentoId", "inteiro não negativo")
			anterior := e.Funcionario.EstabelecimentoAnteriorID
			transfer := e.Tipo == core.EventoFuncionarioTransferido
			v.Check(!transfer || (anterior != nil && *anterior >= 0), "funcionario.estabelecimentoAnteriorId",
				"obrigatório na transferência: inteiro não negativo")
		}
	}
	return v.Err()
}

// checkEmpresa validates the type-2 data of an empresa.* or
// estabelecimento.* event.
func checkEmpresa(v validate.Errors, e internalapi.Evento) {
	ok := e.Empresa != nil
	v.Check(ok && e.Origem == "company-billing", "empresa", "obrigatório nos eventos de empresa (de company-billing)")
	if !ok {
		return
	}
	id := core.Plain(e.Empresa.CNPJ)
	v.Check(len(id) == 14 || (len(id) == 11 && brdocs.ValidCPF(id)), "empresa.cnpj", "CNPJ ou CPF do empregador")
	v.Check(texto(e.Empresa.RazaoSocial, true), "empresa.razaoSocial", "de 1 a 300 caracteres")
	v.Check(texto(e.Empresa.Local, false) && texto(e.Empresa.CNO, false), "empresa.local", "até 300 caracteres")
	if r := e.Empresa.Responsavel; r != nil {
		v.Check(brdocs.ValidCPF(r.CPF), "empresa.responsavel.cpf", "CPF inválido")
	}
}

// numeroLen is the digits of each establishment identifier type: CNPJ 14,
// CAEPF 14, CNO 12.
var numeroLen = map[string]int{tipoCNPJ: 14, "caepf": 14, "cno": 12}

// tipoCNPJ is the establishment identifier type whose check digits are verified here.
const tipoCNPJ = "cnpj"

// checkEstabelecimento validates an estabelecimento.* event: the
// establishment and the type-2 data as it applies to it.
func checkEstabelecimento(v validate.Errors, e internalapi.Evento) {
	checkEmpresa(v, e)
	s := e.Estabelecimento
	v.Check(s != nil, "estabelecimento", "obrigatório nos eventos de estabelecimento")
	if s == nil {
		return
	}
	v.Check(s.ID > 0, "estabelecimento.id", "inteiro positivo")
	n, ok := numeroLen[s.Tipo]
	v.Check(ok, "estabelecimento.tipo", "cnpj, caepf ou cno")
	v.Check(len(s.Numero) == n && core.Plain(s.Numero) == s.Numero && (s.Tipo != tipoCNPJ || cnpjValido(s.Numero)),
		"estabelecimento.numero", "dígitos do CNPJ, CAEPF ou CNO")
	v.Check(texto(s.Nome, true), "estabelecimento.nome", "de 1 a 300 caracteres")
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
	// forget drops an employee's record from the clock-in's cache once
	// his event is applied (nil: no cache).
	forget func(...changefeed.Change)
}

// NewHandlers returns the handlers; clk stamps the records.
func NewHandlers(db *pgxpool.Pool, zones Zones, clk *clock.Clock) *Handlers {
	return &Handlers{db: db, zones: zones, clock: clk}
}

// Forgetting has an applied employee event drop his record from the
// clock-in's cache at once: a punch after his move to another
// establishment must not reach the old one's chain while the change feed
// is on its way.
func (h *Handlers) Forgetting(forget func(...changefeed.Change)) *Handlers {
	h.forget = forget
	return h
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
	now := h.clock.Now()
	aplicado, err := Apply(ctx, h.db, e, now, zone)
	if err == nil && h.forget != nil && e.Funcionario != nil {
		h.forget(changefeed.Change{EmpresaID: e.EmpresaID, FuncionarioID: e.Funcionario.ID, At: now})
	}
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

// Apply records event e at instant now (in zone's offset) through the
// ledger, under its chains' locks, and reports whether it was applied now
// (false: a duplicate).
func Apply(ctx context.Context, db *pgxpool.Pool, e internalapi.Evento, now time.Time, zone *time.Location) (bool, error) {
	aplicado := false
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		chains, err := chainsOf(ctx, tx, e)
		if err != nil {
			return err
		}
		// Locked before the ledger appends: the order every writer keeps.
		if _, err := ledger.Lock(ctx, tx, chains...); err != nil {
			return err
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
		// Only an event applied now changes the establishment.
		if isEstabelecimento(e) {
			if err := keep(ctx, tx, e.EmpresaID, e.Estabelecimento, now); err != nil {
				return err
			}
		}
		// The responsible person comes in force when the company named him.
		if e.Empresa != nil {
			if err := ledger.NomearResponsavel(ctx, tx, e.EmpresaID, responsavelDe(e.Empresa), ocorrido(e)); err != nil {
				return err
			}
		}
		if err := write(ctx, tx, e, chains, now, core.Offset(now, zone)); err != nil {
			return err
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

// write appends e's REP records to chains (chainsOf), each if it says
// anything new.
func write(ctx context.Context, tx pgx.Tx, e internalapi.Evento, chains []ledger.Chain, now time.Time, offset int) error {
	if e.Empresa != nil {
		_, err := ledger.AppendTx(ctx, tx, chains[0], func(core.Head) ([]ledger.Record, error) {
			r := empresaRecord(e.Empresa, now, offset)
			if isEstabelecimento(e) {
				// An establishment's event says something only when its
				// chain's identification changes: the principal's inclusion
				// repeats the company's own type 2.
				last, ok, err := ledger.UltimaEmpresa(ctx, tx, chains[0])
				if err != nil || (ok && sameEmpregador(last, r)) {
					return nil, err
				}
			}
			return []ledger.Record{r}, nil
		})
		return err
	}
	if e.Tipo == core.EventoFuncionarioTransferido {
		// Out of the old chain, then into the new one.
		if err := employee(ctx, tx, chains[1], e.Funcionario, core.EventoFuncionarioExcluido, ocorrido(e), now, offset); err != nil {
			return err
		}
		return employee(ctx, tx, chains[0], e.Funcionario, core.EventoFuncionarioIncluido, ocorrido(e), now, offset)
	}
	return employee(ctx, tx, chains[0], e.Funcionario, e.Tipo, ocorrido(e), now, offset)
}

// empresaRecord is the type-2 record of an empresa.* or estabelecimento.*
// event.
func empresaRecord(emp *internalapi.Empresa, now time.Time, offset int) ledger.Empresa {
	return ledger.Empresa{Responsavel: responsavelDe(emp), Empregador: core.Plain(emp.CNPJ), CNOCAEPF: core.Plain(emp.CNO),
		RazaoSocial: emp.RazaoSocial, Local: emp.Local, GravadoEm: now, Fuso: offset}
}

// responsavelDe is the CPF of emp's responsible person, zeros before it
// names one.
func responsavelDe(emp *internalapi.Empresa) string {
	if r := emp.Responsavel; r != nil {
		return core.Plain(r.CPF)
	}
	return core.ResponsavelNaoIdentificado
}

// ocorrido is when e's operation happened at its source (check parsed it).
func ocorrido(e internalapi.Evento) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, e.OcorridoEm)
	return t
}

// sameEmpregador reports whether two type-2 records identify the
// employer alike.
func sameEmpregador(a, b ledger.Empresa) bool {
	return a.Responsavel == b.Responsavel && a.Empregador == b.Empregador && a.CNOCAEPF == b.CNOCAEPF &&
		a.RazaoSocial == b.RazaoSocial && a.Local == b.Local
}

// employee appends to chain the type-5 record an employee event of type
// tipo needs there, if any: recorded now (Anexo V, field 3, "data e hora
// da gravação do registro"), with the responsible person in force at em,
// when the operation happened at its source (core.ResponsavelEmVigor).
func employee(ctx context.Context, tx pgx.Tx, chain ledger.Chain, f *internalapi.Funcionario, tipo string,
	em, now time.Time, offset int) error {
	_, err := ledger.AppendTx(ctx, tx, chain, func(core.Head) ([]ledger.Record, error) {
		u, err := ledger.UltimoEmpregado(ctx, tx, chain, f.ID)
		if err != nil {
			return nil, err
		}
		cpf := core.CPF12(f.CPF)
		op := core.OperacaoDeEvento(tipo, u, cpf, f.Nome)
		if op == "" {
			return nil, nil
		}
		responsavel, err := ledger.ResponsavelEm(ctx, tx, chain.EmpresaID, em)
		if err != nil {
			return nil, err
		}
		return []ledger.Record{ledger.Empregado{FuncionarioID: f.ID, Operacao: op, CPF: cpf, Nome: f.Nome,
			Responsavel: responsavel, GravadoEm: now, Fuso: offset}}, nil
	})
	return err
}

// cnpjValido checks a CNPJ's 14 digits (their check digits) as brdocs
// checks the printed form.
func cnpjValido(d string) bool {
	return len(d) == 14 && brdocs.ValidCNPJ(d[0:2]+"."+d[2:5]+"."+d[5:8]+"/"+d[8:12]+"-"+d[12:14])
}
