package registro

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/ponto/ponto/pkg/domainerr"
	"github.com/ponto/ponto/pkg/validate"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/ledger"
)

// Limits of the clock-in input.
const (
	enderecoMax = 64
	// maxEarlier bounds funcionario.registrosPonto in the clock-in answer.
	maxEarlier = ledger.MaxEarlier
)

// clockInInput is the body of POST /registropontos.
type clockInInput struct {
	Endereco      *string `json:"endereco"`
	FuncionarioID int64   `json:"funcionarioId"`
	// Coletor is the AFD's collector code (Anexo V, type 7 field 6): 01
	// mobile app (the default), 02 browser, 03 desktop app, 04 device, 05
	// another device.
	Coletor *string `json:"coletor"`
}

// coordinate is a plain decimal number: no exponent, sign only in front,
// at most three integer and ten fractional digits.
const coordinate = `(-?\d{1,3}(?:\.\d{1,10})?)`

var latLng = regexp.MustCompile(`^` + coordinate + `\s*,\s*` + coordinate + `$`)

// Localizacao validates a device position "lat, lng" (two decimal numbers
// joined by a comma, latitude in [-90, 90], longitude in [-180, 180]) and
// returns it normalised as the contract writes it: "lat, lng" with one
// space, no superfluous zeros and no negative zero.
func Localizacao(endereco string) (string, bool) {
	m := latLng.FindStringSubmatch(strings.TrimSpace(endereco))
	if m == nil {
		return "", false
	}
	lat, err1 := strconv.ParseFloat(m[1], 64)
	lng, err2 := strconv.ParseFloat(m[2], 64)
	if err1 != nil || err2 != nil || lat < -90 || lat > 90 || lng < -180 || lng > 180 {
		return "", false
	}
	return number(lat) + ", " + number(lng), true
}

func number(f float64) string {
	if f == 0 {
		f = 0 // turns -0 into 0
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// check validates the body and returns the normalised location and the
// collector code.
func (in clockInInput) check() (string, string, error) {
	v := validate.Errors{}
	coletor := core.ColetorMobile
	if in.Coletor != nil {
		coletor = *in.Coletor
		v.Check(core.ColetorValido(coletor), "coletor",
			`use "01" (aplicativo móvel), "02" (navegador), "03" (aplicativo desktop), "04" (dispositivo eletrônico) ou "05" (outro)`)
	}
	v.Check(in.FuncionarioID > 0, "funcionarioId", "campo obrigatório (inteiro positivo)")
	var loc string
	if in.Endereco == nil || strings.TrimSpace(*in.Endereco) == "" {
		v.Check(false, "endereco", "campo obrigatório")
	} else {
		var ok bool
		loc, ok = Localizacao(*in.Endereco)
		v.Check(len(*in.Endereco) <= enderecoMax && ok, "endereco",
			`use "latitude, longitude" em graus decimais, ex.: "-23.55052, -46.633309"`)
	}
	return loc, coletor, v.Err()
}

// IdempotencyKey reads the optional Idempotency-Key header: 1 to 255
// visible ASCII characters.
func IdempotencyKey(h string) (*string, error) {
	if h == "" {
		return nil, nil
	}
	if !validate.IdempotencyKey(h) {
		return nil, domainerr.InvalidField(validate.IdempotencyKeyHeader, validate.IdempotencyKeyMessage)
	}
	return &h, nil
}
