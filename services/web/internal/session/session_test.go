package session

import (
	"bytes"
	"testing"
	"time"

	"github.com/ponto/ponto/pkg/clock"
	"github.com/ponto/ponto/pkg/clock/clocktest"
)

// src is the codecs' time source: the real time unless a test sets it.
var src clocktest.Source

func codec(t *testing.T, key byte, name string) *Codec {
	t.Helper()
	c, err := NewCodec(bytes.Repeat([]byte{key}, 32), name, time.Hour, clock.New(src.Now))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSealOpenRoundTrip(t *testing.T) {
	c := codec(t, 1, "ponto")
	s := c.New()
	s.Role, s.Token, s.Refresh, s.FuncionarioID, s.TZ = RoleFuncionario, "tok", "ref", 7, "America/Manaus"
	v, err := c.Seal(s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Open(v)
	if err != nil {
		t.Fatal(err)
	}
	if *got != *s {
		t.Fatalf("got %+v, want %+v", got, s)
	}
	if !got.CheckCSRF(s.CSRF) || got.CheckCSRF(s.CSRF+"x") || got.CheckCSRF("") {
		t.Fatal("CSRF check wrong")
	}
}

func TestOpenRefusesForeignTamperedAndExpired(t *testing.T) {
	c := codec(t, 1, "ponto")
	v, _ := c.Seal(c.New())
	if _, err := codec(t, 2, "ponto").Open(v); err == nil {
		t.Error("another key opened the cookie")
	}
	if _, err := codec(t, 1, "__Host-ponto").Open(v); err == nil {
		t.Error("a value sealed for another cookie name opened")
	}
	raw := []byte(v)
	raw[len(raw)/2] ^= 1
	if _, err := c.Open(string(raw)); err == nil {
		t.Error("a tampered cookie opened")
	}
	if _, err := c.Open("!!"); err == nil {
		t.Error("garbage opened")
	}
	src.Set(time.Now().Add(2 * time.Hour))
	defer src.Set()
	if _, err := c.Open(v); err == nil {
		t.Error("an expired session opened")
	}
}

func TestNewCodecNeeds32Bytes(t *testing.T) {
	if _, err := NewCodec(make([]byte, 16), "x", time.Hour, clock.New(time.Now)); err == nil {
		t.Fatal("a 16-byte key was accepted")
	}
}
