package registro

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ponto/ponto/pkg/apierr"
	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/jwtauth"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/dispositivo"
	"github.com/ponto/ponto/services/timekeeping/internal/ledger"
	"github.com/ponto/ponto/services/timekeeping/internal/request"
)

// Devices check the device keys that sign off-line punches
// (dispositivo.Verifier).
type Devices interface {
	Of(ctx context.Context, empresaID, funcionarioID, id int64) (dispositivo.Chave, error)
	Touch(ctx context.Context, id int64, desvio *time.Duration, now time.Time) error
	LimiteDias(ctx context.Context, empresaID int64, padrao int) (int, error)
}

// WithDevices turns on POST /registropontos/offline.
func (h *Handlers) WithDevices(d Devices) *Handlers {
	h.devices = d
	return h
}

// maxOffline bounds the punches of one batch.
const maxOffline = 100

var (
	errFutura = domainerr.Malformed("marcacao_futura",
		"o horário da marcação está no futuro: o relógio do aparelho está errado; procure o RH")
	errAntiga = domainerr.Malformed("marcacao_antiga",
		"a marcação é mais antiga que o limite da empresa para marcações off-line; procure o RH")
)

type offlineInput struct {
	DispositivoID int64 `json:"dispositivoId"`
	// EnviadoEm is the device's clock as it sent the batch: the skew now.
	EnviadoEm *string        `json:"enviadoEm"`
	Coletor   *string        `json:"coletor"`
	Marcacoes []offlinePunch `json:"marcacoes"`
}

type offlinePunch struct {
	ID         string  `json:"id"`
	Horario    string  `json:"horario"`
	Endereco   *string `json:"endereco"`
	Assinatura string  `json:"assinatura"`
}

// OfflineResultado is one punch's outcome: status 201 registrada, 200
// repetida (its id was recorded before), 4xx recusada with codigo and
// mensagem (nothing stored).
type OfflineResultado struct {
	ID                string  `json:"id"`
	Status            int     `json:"status"`
	Resultado         string  `json:"resultado"`
	Codigo            string  `json:"code,omitempty"`
	Mensagem          string  `json:"message,omitempty"`
	Registro          *Record `json:"registro,omitempty"`
	RelogioDivergente bool    `json:"relogioDivergente,omitempty"`
}

func (in offlineInput) check() (string, error) {
	v := validate.Errors{}
	v.Check(in.DispositivoID > 0, "dispositivoId", "campo obrigatório (inteiro positivo)")
	v.Check(len(in.Marcacoes) > 0 && len(in.Marcacoes) <= maxOffline, "marcacoes", "envie de 1 a 100 marcações")
	coletor := core.ColetorMobile
	if in.Coletor != nil {
		coletor = *in.Coletor
		v.Check(core.ColetorValido(coletor), "coletor", `use "01" a "05"`)
	}
	return coletor, v.Err()
}

// offline is POST /registropontos/offline {"dispositivoId", "enviadoEm",
// "coletor", "marcacoes": [{"id", "horario", "endereco", "assinatura"}]}:
// 200 {"resultados"}, one per punch, recorded in punch-time order (Anexo
// IX item 5). The device must be the caller's and not revoked (403,
// nothing stored). A punch refused is left out; a failure of the database
// ends the batch with its error, the punches recorded so far answered
// again as repetida when the device sends the batch again.
func (h *Handlers) offline(c *fiber.Ctx, caller *jwtauth.Claims) (fiber.Map, error) {
	var in offlineInput
	if err := request.DecodeJSON(c, &in); err != nil {
		return nil, err
	}
	coletor, err := in.check()
	if err != nil {
		return nil, err
	}
	now := h.clock.Now()
	desvio, ok := dispositivo.Desvio(in.EnviadoEm, now)
	if !ok {
		return nil, domainerr.InvalidField("enviadoEm", "use data e hora ISO 8601 com fuso")
	}
	ctx := c.UserContext()
	key, err := h.devices.Of(ctx, caller.EmpresaID, caller.FuncionarioID, in.DispositivoID)
	if err != nil {
		return nil, err
	}
	_, m, err := h.puncher(ctx, caller)
	if err != nil {
		return nil, err
	}
	dias, err := h.devices.LimiteDias(ctx, caller.EmpresaID, dispositivo.LimiteDiasPadrao)
	if err != nil {
		return nil, err
	}
	limites := core.LimitesOfflinePadrao
	limites.Idade = time.Duration(dias) * 24 * time.Hour
	m.Coletor = coletor
	punches := slices.Clone(in.Marcacoes)
	horarios := make(map[string]time.Time, len(punches))
	for _, p := range punches {
		horarios[p.ID], _ = time.Parse(time.RFC3339Nano, p.Horario) // malformed: zero, refused below
	}
	slices.SortStableFunc(punches, func(a, b offlinePunch) int { return horarios[a.ID].Compare(horarios[b.ID]) })
	out := make([]OfflineResultado, 0, len(punches))
	for _, p := range punches {
		r, err := h.offlineOne(ctx, m, key, p, now, desvio, limites)
		if a, ok := apierr.As(err); ok && a.Status < http.StatusInternalServerError {
			out = append(out, OfflineResultado{ID: p.ID, Status: a.Status, Resultado: "recusada", Codigo: a.Code,
				Mensagem: a.Message})
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	if err := h.devices.Touch(ctx, key.ID, desvio, now); err != nil {
		return nil, err
	}
	return fiber.Map{"resultados": out}, nil
}

// offlineOne checks and records one off-line punch.
func (h *Handlers) offlineOne(ctx context.Context, m Marcacao, key dispositivo.Chave, p offlinePunch, now time.Time,
	desvio *time.Duration, limites core.LimitesOffline) (OfflineResultado, error) {
	id, err := IdempotencyKey(p.ID)
	if err != nil || id == nil {
		return OfflineResultado{}, domainerr.InvalidField("id", validate.IdempotencyKeyMessage)
	}
	horario, err := time.Parse(time.RFC3339Nano, p.Horario)
	if err != nil {
		return OfflineResultado{}, domainerr.InvalidField("horario", "use data e hora ISO 8601 com fuso")
	}
	endereco := ""
	if p.Endereco != nil && strings.TrimSpace(*p.Endereco) != "" {
		loc, ok := Localizacao(*p.Endereco)
		if !ok || len(*p.Endereco) > enderecoMax {
			return OfflineResultado{}, domainerr.InvalidField("endereco", `use "latitude, longitude" em graus decimais`)
		}
		endereco = loc
	}
	signed := dispositivo.Assinada{DispositivoID: key.ID, ID: p.ID, Horario: p.Horario}
	if p.Endereco != nil {
		signed.Endereco = *p.Endereco
	}
	if err := key.Check(signed, p.Assinatura); err != nil {
		return OfflineResultado{}, err
	}
	divergente, err := AvaliarOffline(horario, now, key.Desvio, desvio, limites)
	if err != nil {
		return OfflineResultado{}, err
	}
	if endereco != "" {
		if m.Local, err = h.places.Geofence(ctx, m.EmpresaID, endereco); err != nil {
			return OfflineResultado{}, err
		}
	}
	m.Localizacao, m.IdempotencyKey = endereco, id
	m.Offline = &ledger.Offline{Horario: horario.UTC().Truncate(time.Millisecond), DispositivoID: key.ID,
		Divergente: divergente}
	r, _, replayed, err := h.store.ClockIn(ctx, m)
	if err != nil {
		return OfflineResultado{}, err
	}
	rec := Render(r)
	out := OfflineResultado{ID: p.ID, Status: http.StatusCreated, Resultado: "registrada", Registro: &rec,
		RelogioDivergente: divergente}
	if replayed {
		out.Status, out.Resultado = http.StatusOK, "repetida"
	}
	return out, nil
}

// AvaliarOffline is core.AvaliarOffline with its refusals as 400s
// (marcacao_futura, marcacao_antiga): the kiosk's off-line punches share it.
func AvaliarOffline(horario, now time.Time, antes, agora *time.Duration, limites core.LimitesOffline) (bool, error) {
	divergente, err := core.AvaliarOffline(horario, now, antes, agora, limites)
	switch {
	case errors.Is(err, core.ErrOfflineFutura):
		return false, errFutura
	case errors.Is(err, core.ErrOfflineAntiga):
		return false, errAntiga
	}
	return divergente, nil
}
