package local

import (
	"math"
	"testing"
)

func TestDistancia(t *testing.T) {
	// One degree of latitude is about 111.2 km on the mean sphere.
	if d := Distancia(0, 0, 1, 0); math.Abs(d-111_195) > 1 {
		t.Fatalf("one degree: %.1f m", d)
	}
	// Praça da Sé (São Paulo) to Cristo Redentor (Rio): about 357 km.
	if d := Distancia(-23.5505, -46.6333, -22.9519, -43.2105); math.Abs(d-357_000) > 3_000 {
		t.Fatalf("São Paulo to Rio: %.0f m", d)
	}
}

func TestVerificar(t *testing.T) {
	places := []Local{{ID: 1, Latitude: -23.5505, Longitude: -46.6333, RaioMetros: 100},
		{ID: 2, Latitude: -23.5600, Longitude: -46.6333, RaioMetros: 2000}}
	for _, c := range []struct {
		lat  float64
		want Resultado
	}{
		{-23.5505, Resultado{LocalID: 1, Distancia: 0}},
		{-23.5513, Resultado{LocalID: 1, Distancia: 89}},                 // inside both: the nearer one
		{-23.5515, Resultado{LocalID: 2, Distancia: 945}},                // 111 m from 1 (outside it), inside 2
		{-23.4000, Resultado{LocalID: 1, Distancia: 16_735, Fora: true}}, // 0.1505° × 111,195 m: outside both
	} {
		got, ok := Check(c.lat, -46.6333, places)
		if !ok || got != c.want {
			t.Errorf("Verificar(%v) = %+v, want %+v", c.lat, got, c.want)
		}
	}
	if _, ok := Check(0, 0, nil); ok {
		t.Fatal("no places, yet a result")
	}
	if lat, lng, ok := ParsePosicao("-23.55052, -46.633309"); !ok || lat != -23.55052 || lng != -46.633309 {
		t.Fatalf("ParsePosicao = %v %v %v", lat, lng, ok)
	}
}
