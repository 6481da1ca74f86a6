package core

import (
	"errors"
	"time"
)

// Off-line punches. Portaria MTP 671/2021, Anexo IX item 5: a REP-P's
// collector may record punches off-line and must send them "no primeiro
// momento em que o coletor entrar em modo on-line"; the AFD's type 7
// marks them with field 7 = "1" (Anexo V). The punch keeps the device's
// time (field 3); the server records it when it arrives (field 5).

// LimitesOffline bound what an off-line punch may claim.
type LimitesOffline struct {
	// Futuro is the clock skew tolerated for a punch time ahead of the
	// server's: beyond it the punch cannot have happened yet.
	Futuro time.Duration
	// Idade is how old a punch may arrive (the company's limit).
	Idade time.Duration
	// Desvio is how far the device's clock may have moved, against the
	// server's, since its last on-line contact before the punch is
	// flagged for treatment.
	Desvio time.Duration
}

// LimitesOfflinePadrao: five minutes of skew, seven days of age.
var LimitesOfflinePadrao = LimitesOffline{Futuro: 5 * time.Minute, Idade: 7 * 24 * time.Hour, Desvio: 5 * time.Minute}

// Refusals of an off-line punch: what cannot be a punch.
var (
	ErrOfflineFutura = errors.New("core: off-line punch in the future")
	ErrOfflineAntiga = errors.New("core: off-line punch older than the company's limit")
)

// AvaliarOffline decides an off-line punch made at horario (the device's
// clock) arriving at agora (the server's). desvioAntes is the device's
// clock minus the server's at its last on-line contact, desvioAgora the
// same measured as the batch arrived (nil when unknown). It refuses a
// punch ahead of agora by more than Futuro, or older than Idade; it flags
// (divergente) one whose device clock moved by more than Desvio between
// the two measures: stored, never refused.
func AvaliarOffline(horario, agora time.Time, desvioAntes, desvioAgora *time.Duration, l LimitesOffline) (bool, error) {
	switch {
	case horario.After(agora.Add(l.Futuro)):
		return false, ErrOfflineFutura
	case horario.Before(agora.Add(-l.Idade)):
		return false, ErrOfflineAntiga
	}
	if desvioAntes == nil || desvioAgora == nil {
		return false, nil
	}
	moved := *desvioAgora - *desvioAntes
	return moved > l.Desvio || moved < -l.Desvio, nil
}

// TipoNaOrdem is the tipo of a punch made at horario on a workday whose
// punches already recorded were made at feitas: its place in punch-time
// order (a punch at the same instant as a recorded one comes after it).
// A late punch that falls before recorded ones takes the tipo of its
// place; the recorded ones keep theirs, as no stored record changes.
func TipoNaOrdem(feitas []time.Time, horario time.Time) string {
	antes := 0
	for _, t := range feitas {
		if !t.After(horario) {
			antes++
		}
	}
	return NextTipo(antes)
}
