package core

import (
	"cmp"
	"slices"
	"time"
)

// Movements of the hour bank (tipoMovBH of a type-07 record).
const (
	MovBHInclusao    = "1"
	MovBHCompensacao = "2"
)

// AusenciasAEJ are the type-07 records of one bond over a period, from
// the workday rules the timesheet and the report apply (Anexo VI, art. 82
// sole paragraph):
//
//   - code 2 (falta não justificada) on each of faltas, the days
//     FaltaInjustificada finds;
//   - code 1 (DSR) on each weekly rest day of dsrs that is paid (not lost:
//     a lost rest day is no "descanso semanal remunerado");
//   - code 3 (hour-bank movement) for each movement of movs with minutes:
//     a credit as "1" (inclusão), a debit as "2" (compensação), the
//     minutes without sign.
//
// In date order, then by code.
func AusenciasAEJ(vinculo int, faltas []time.Time, dsrs []DSR, movs []MovimentoBanco) []AEJAusencia {
	out := []AEJAusencia{}
	for _, d := range faltas {
		out = append(out, AEJAusencia{Vinculo: vinculo, Tipo: AusenciaFalta, Data: d})
	}
	for _, r := range dsrs {
		if !r.Perdido {
			out = append(out, AEJAusencia{Vinculo: vinculo, Tipo: AusenciaDSR, Data: r.Data})
		}
	}
	for _, m := range movs {
		if m.Minutos == 0 {
			continue
		}
		minutos, mov := m.Minutos, MovBHInclusao
		if minutos < 0 {
			minutos, mov = -minutos, MovBHCompensacao
		}
		out = append(out, AEJAusencia{Vinculo: vinculo, Tipo: AusenciaBancoHoras, Data: m.Data, Minutos: &minutos,
			Movimento: mov})
	}
	slices.SortStableFunc(out, func(a, b AEJAusencia) int {
		return cmp.Or(a.Data.Compare(b.Data), cmp.Compare(a.Tipo, b.Tipo))
	})
	return out
}
