// Package local keeps a company's work places, each a point with a radius
// (POST/GET /registropontos/locais-trabalho,
// DELETE /registropontos/locais-trabalho/{id}), and checks each punch's
// position against them: a punch outside every place is accepted and
// flagged, never refused (a REP-P may not block a punch).
package local

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ponto/ponto/pkg/validate"
)

// Limits of a work place.
const (
	nomeMax     = 100
	enderecoMax = 200
	raioMin     = 10
	raioMax     = 100_000
	// maxLocais bounds a company's active places (each punch checks all).
	maxLocais = 500
)

// earthRadius is the mean Earth radius in metres (IUGG).
const earthRadius = 6_371_008.8

// Distancia is the great-circle distance in metres between two points
// (haversine formula).
func Distancia(lat1, lng1, lat2, lng2 float64) float64 {
	rad := math.Pi / 180
	dLat, dLng := (lat2-lat1)*rad, (lng2-lng1)*rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLng/2)*math.Sin(dLng/2)
	return 2 * earthRadius * math.Asin(math.Min(1, math.Sqrt(a)))
}

// Local is a work place.
type Local struct {
	ID         int64   `json:"id"`
	Nome       string  `json:"nome"`
	Endereco   string  `json:"endereco"`
	Latitude   float64 `json:"latitude"`
	Longitude  float64 `json:"longitude"`
	RaioMetros int     `json:"raioMetros"`
}

// Resultado is where a position falls: the place containing it (the
// nearest such when radii overlap), else the nearest place; the distance
// to that place in whole metres; whether it is outside every place.
type Resultado struct {
	LocalID   int64
	Distancia int
	Fora      bool
}

// Check checks position (lat, lng) against places; ok is false when
// there is no place to check against.
func Check(lat, lng float64, places []Local) (r Resultado, ok bool) {
	if len(places) == 0 {
		return Resultado{}, false
	}
	nearest, inside := math.Inf(1), math.Inf(1)
	var nearestID, insideID int64
	for _, l := range places {
		d := Distancia(lat, lng, l.Latitude, l.Longitude)
		if d < nearest {
			nearest, nearestID = d, l.ID
		}
		if d <= float64(l.RaioMetros) && d < inside {
			inside, insideID = d, l.ID
		}
	}
	if insideID != 0 {
		return Resultado{LocalID: insideID, Distancia: int(math.Round(inside))}, true
	}
	return Resultado{LocalID: nearestID, Distancia: int(math.Round(nearest)), Fora: true}, true
}

// ParsePosicao reads a stored "lat, lng" location.
func ParsePosicao(s string) (lat, lng float64, ok bool) {
	a, b, found := strings.Cut(s, ",")
	if !found {
		return 0, 0, false
	}
	lat, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	lng, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	return lat, lng, err1 == nil && err2 == nil
}

type input struct {
	Nome       string   `json:"nome"`
	Endereco   string   `json:"endereco"`
	Latitude   *float64 `json:"latitude"`
	Longitude  *float64 `json:"longitude"`
	RaioMetros int      `json:"raioMetros"`
}

// check validates a new place.
func (in input) check() error {
	v := validate.Errors{}
	text := func(s, field string, lo, hi int) {
		n := utf8.RuneCountInString(s)
		v.Check(n >= lo && n <= hi && strings.TrimSpace(s) == s, field,
			"de "+strconv.Itoa(lo)+" a "+strconv.Itoa(hi)+" caracteres, sem espaços nas pontas")
	}
	text(in.Nome, "nome", 1, nomeMax)
	text(in.Endereco, "endereco", 0, enderecoMax)
	v.Check(in.Latitude != nil && *in.Latitude >= -90 && *in.Latitude <= 90, "latitude", "entre -90 e 90")
	v.Check(in.Longitude != nil && *in.Longitude >= -180 && *in.Longitude <= 180, "longitude", "entre -180 e 180")
	v.Check(in.RaioMetros >= raioMin && in.RaioMetros <= raioMax, "raioMetros", "de 10 a 100000 metros")
	return v.Err()
}
