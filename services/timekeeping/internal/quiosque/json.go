package quiosque

import (
	"encoding/json"

	"github.com/ponto/ponto/pkg/clock"
)

// The answers write their times as the contract's timestamps, always to
// the millisecond (encoding/json would drop a trailing zero: ".17Z").

type quiosqueJSON struct {
	ID          int64   `json:"id"`
	Nome        string  `json:"nome"`
	Dispositivo string  `json:"dispositivo"`
	Coletor     string  `json:"coletor"`
	CriadoEm    string  `json:"criadoEm"`
	UltimoUso   *string `json:"ultimoUso"`
}

func (q Quiosque) view() quiosqueJSON {
	out := quiosqueJSON{ID: q.ID, Nome: q.Nome, Dispositivo: q.Dispositivo, Coletor: q.Coletor,
		CriadoEm: clock.FormatISO(q.CriadoEm)}
	if q.UltimoUso != nil {
		s := clock.FormatISO(*q.UltimoUso)
		out.UltimoUso = &s
	}
	return out
}

// MarshalJSON writes q as GET /registropontos/quiosques lists it.
func (q Quiosque) MarshalJSON() ([]byte, error) { return json.Marshal(q.view()) }

// MarshalJSON writes c flat: the kiosk's fields, then its credential.
func (c Criado) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		quiosqueJSON
		Credencial string `json:"credencial"`
		Codigo     string `json:"codigo"`
		QRCode     string `json:"qrCode"`
	}{c.Quiosque.view(), c.Credencial, c.Codigo, c.QRCode})
}

// MarshalJSON writes b with its issue time to the millisecond.
func (b Cracha) MarshalJSON() ([]byte, error) {
	type cracha Cracha // without this method
	return json.Marshal(struct {
		cracha
		EmitidoEm string `json:"emitidoEm"`
	}{cracha(b), clock.FormatISO(b.EmitidoEm)})
}
