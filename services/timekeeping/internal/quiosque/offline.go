package quiosque

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
	"github.com/ponto/ponto/services/timekeeping/internal/dispositivo"
	"github.com/ponto/ponto/services/timekeeping/internal/ledger"
	"github.com/ponto/ponto/services/timekeeping/internal/registro"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// maxOffline bounds the punches of one batch, as the employee's.
const maxOffline = 100

var (
	errSemChave = domainerr.Forbidden("quiosque_sem_chave",
		"o quiosque não registrou chave para marcações off-line; conecte-o e abra a página do quiosque")
	errNoBadge = domainerr.InvalidField("cracha",
		"off-line o quiosque aceita só o crachá: CPF e PIN precisam de conexão")
)

// LimiteDias is the company's limit on how old an off-line punch may
// arrive (dispositivo.Verifier).
type LimiteDias interface {
	LimiteDias(ctx context.Context, empresaID int64, padrao int) (int, error)
}

// setChave is PUT /registropontos/quiosque/chave {"chavePublica",
// "enviadoEm"}: the kiosk registers (or replaces) the public half of the
// key that signs its off-line punches. 204.
func (h *Handlers) setChave(c *fiber.Ctx) error {
	q := c.Locals(kioskKey).(Quiosque)
	var in struct {
		ChavePublica string  `json:"chavePublica"`
		EnviadoEm    *string `json:"enviadoEm"`
	}
	if err := request.DecodeJSON(c, &in); err != nil {
		return err
	}
	der, _, err := dispositivo.ParseChave(in.ChavePublica)
	if err != nil {
		return err
	}
	desvio, ok := dispositivo.Desvio(in.EnviadoEm, h.Clock.Now())
	if !ok {
		return domainerr.InvalidField("enviadoEm", "use data e hora ISO 8601 com fuso")
	}
	if err := h.Store.SetChave(c.UserContext(), q.ID, der, millis(desvio)); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

type offlinePunch struct {
	ID         string  `json:"id"`
	Horario    string  `json:"horario"`
	Endereco   *string `json:"endereco"`
	Cracha     string  `json:"cracha"`
	Assinatura string  `json:"assinatura"`
}

// offline is POST /registropontos/quiosque/offline {"enviadoEm",
// "marcacoes": [{"id", "horario", "endereco", "cracha", "assinatura"}]}:
// 200 {"resultados"}, one per punch (registro.OfflineResultado), recorded
// in punch-time order with flag 1 and the kiosk's collector code. Each is
// signed by the kiosk's key over its badge too; only badges are accepted
// off-line (a PIN cannot be checked, nor locked, while off-line). A badge
// of no employee of the kiosk's company is refused 403, nothing stored.
func (h *Handlers) offline(c *fiber.Ctx) error {
	q := c.Locals(kioskKey).(Quiosque)
	var in struct {
		EnviadoEm *string        `json:"enviadoEm"`
		Marcacoes []offlinePunch `json:"marcacoes"`
	}
	if err := request.DecodeJSON(c, &in); err != nil {
		return err
	}
	if len(in.Marcacoes) == 0 || len(in.Marcacoes) > maxOffline {
		return domainerr.InvalidField("marcacoes", "envie de 1 a 100 marcações")
	}
	now := h.Clock.Now()
	desvio, ok := dispositivo.Desvio(in.EnviadoEm, now)
	if !ok {
		return domainerr.InvalidField("enviadoEm", "use data e hora ISO 8601 com fuso")
	}
	ctx := c.UserContext()
	key, err := h.key(ctx, q.ID)
	if err != nil {
		return err
	}
	dias, err := h.Limites.LimiteDias(ctx, q.EmpresaID, dispositivo.LimiteDiasPadrao)
	if err != nil {
		return err
	}
	limites := core.LimitesOfflinePadrao
	limites.Idade = time.Duration(dias) * 24 * time.Hour
	punches := slices.Clone(in.Marcacoes)
	slices.SortStableFunc(punches, func(a, b offlinePunch) int { return parseTime(a.Horario).Compare(parseTime(b.Horario)) })
	out := make([]registro.OfflineResultado, 0, len(punches))
	for _, p := range punches {
		r, err := h.offlineOne(ctx, q, key, p, now, desvio, limites)
		if a, ok := apierr.As(err); ok && a.Status < http.StatusInternalServerError {
			out = append(out, registro.OfflineResultado{ID: p.ID, Status: a.Status, Resultado: "recusada",
				Codigo: a.Code, Mensagem: a.Message})
			continue
		}
		if err != nil {
			return err
		}
		out = append(out, r)
	}
	if err := h.Store.Touch(ctx, q.ID, millis(desvio)); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"resultados": out})
}

// key is kiosk id's off-line key: errSemChave when it registered none.
func (h *Handlers) key(ctx context.Context, id int64) (dispositivo.Chave, error) {
	der, ms, err := h.Store.Chave(ctx, id)
	if err != nil {
		return dispositivo.Chave{}, err
	}
	if der == nil {
		return dispositivo.Chave{}, errSemChave
	}
	var desvio *time.Duration
	if ms != nil {
		d := time.Duration(*ms) * time.Millisecond
		desvio = &d
	}
	return dispositivo.NovaChave(id, der, desvio)
}

// offlineOne checks and records one off-line punch of the kiosk.
func (h *Handlers) offlineOne(ctx context.Context, q Quiosque, key dispositivo.Chave, p offlinePunch, now time.Time,
	desvio *time.Duration, limites core.LimitesOffline) (registro.OfflineResultado, error) {
	id, err := registro.IdempotencyKey(p.ID)
	if err != nil || id == nil {
		return registro.OfflineResultado{}, domainerr.InvalidField("id", validate.IdempotencyKeyMessage)
	}
	horario, err := time.Parse(time.RFC3339Nano, p.Horario)
	if err != nil {
		return registro.OfflineResultado{}, domainerr.InvalidField("horario", "use data e hora ISO 8601 com fuso")
	}
	cracha := strings.TrimSpace(p.Cracha)
	if !strings.HasPrefix(cracha, crachaPrefix) || len(cracha) >= 100 {
		return registro.OfflineResultado{}, errNoBadge
	}
	loc, endereco := "", ""
	if p.Endereco != nil {
		endereco = *p.Endereco
	}
	if strings.TrimSpace(endereco) != "" {
		var ok bool
		if loc, ok = registro.Localizacao(endereco); !ok || len(endereco) > 64 {
			return registro.OfflineResultado{}, domainerr.InvalidField("endereco", `use "latitude, longitude" em graus decimais`)
		}
	}
	signed := dispositivo.Assinada{DispositivoID: q.ID, ID: p.ID, Horario: p.Horario, Endereco: endereco, Cracha: p.Cracha}
	if err := key.Check(signed, p.Assinatura); err != nil {
		return registro.OfflineResultado{}, err
	}
	divergente, err := registro.AvaliarOffline(horario, now, key.Desvio, desvio, limites)
	if err != nil {
		return registro.OfflineResultado{}, err
	}
	f, err := h.badgeHolder(ctx, q, cracha)
	if err != nil {
		return registro.OfflineResultado{}, err
	}
	off := &ledger.Offline{Horario: horario.UTC().Truncate(time.Millisecond), Divergente: divergente}
	r, replayed, err := h.record(ctx, q, f, loc, id, off)
	if err != nil {
		return registro.OfflineResultado{}, err
	}
	rec := registro.Render(r)
	out := registro.OfflineResultado{ID: p.ID, Status: http.StatusCreated, Resultado: "registrada", Registro: &rec,
		RelogioDivergente: divergente}
	if replayed {
		out.Status, out.Resultado = http.StatusOK, "repetida"
	}
	return out, nil
}

// badgeHolder is the active employee of the kiosk's company whose badge
// is cracha: errIdentificacao (403) otherwise. Unlike whom it spends no
// rate budget: the punch was made earlier, the batch's request paid.
func (h *Handlers) badgeHolder(ctx context.Context, q Quiosque, cracha string) (employee.Funcionario, error) {
	id, ok, err := h.Store.BadgeOwner(ctx, q.EmpresaID, hash(cracha))
	if err != nil || !ok {
		return employee.Funcionario{}, orIdent(err)
	}
	f, err := h.Employees.Funcionario(ctx, q.EmpresaID, id)
	switch {
	case isNotFound(err):
		return f, errIdentificacao
	case err != nil:
		return f, err
	case !f.Ativo:
		return f, errInativo
	}
	return f, nil
}

// parseTime reads an ISO 8601 time; a malformed one sorts first and is
// refused by offlineOne.
func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

func millis(d *time.Duration) *int64 {
	if d == nil {
		return nil
	}
	ms := d.Milliseconds()
	return &ms
}
