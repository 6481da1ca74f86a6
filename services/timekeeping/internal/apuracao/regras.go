package apuracao

import (
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// computeDays computes each day row with the record core (core.ComputeApuracao), in one
// pass over the rows the SQL read, using each employee's schedule from p.
func computeDays(days []Dia, p params) {
	for i := range days {
		d := &days[i]
		data := d.date()
		escala := p.escalas[d.FuncionarioID]
		d.ForaDoVinculo = d.antesDoUso || p.foraDoVinculo(d.FuncionarioID, d.Data)
		var regra *core.Regra
		if d.Afastamento != nil && !d.ForaDoVinculo {
			regra = &d.Afastamento.regra
		}
		a := core.ComputeApuracao(core.Dia{Marcas: d.marcas, Turno: escala.Turno(data),
			Descanso: d.DescansoMinutos, Domingo: data.Weekday() == time.Sunday, Feriado: d.Feriado != nil,
			FeriadoSeguinte: d.feriadoSeguinte, Ciclo12x36: escala != nil && escala.Ciclo != nil,
			ForaDoVinculo: d.ForaDoVinculo, ForaDoLocal: d.fora, Tratamento: d.tratamento(), Falta: d.FaltaMarcada,
			Afastamento: regra})
		d.MinutosTrabalhados, d.Incompleto = a.Trabalhados, a.Incompleto
		d.MinutosPrevistos, d.MinutosExtras, d.MinutosAtraso, d.SaldoMinutos = a.Previstos, a.Extras, a.Atraso, a.Saldo
		d.MinutosAbonados = a.Abonados
		d.MinutosExtras50, d.MinutosExtras100 = a.Extras50, a.Extras100
		d.MinutosNoturnos, d.MinutosNoturnosReduzidos = a.Noturnos, a.NoturnosReduzidos
		d.ToleranciaAplicada, d.Alertas = a.Tolerancia, a.Alertas
		d.ausencia, d.Falta = a.Ausencia, a.Ausencia
		d.perdeDSR = !d.ForaDoVinculo && core.CustaDSR(a.Ausencia, regra)
		d.MinutosIntervaloSuprimido, d.MinutosInterjornada = a.IntervaloSuprimido, a.Interjornada
	}
}

// date is the day's civil date.
func (d *Dia) date() time.Time {
	if d.data.IsZero() { // a Dia built by hand
		d.data, _ = time.Parse(time.DateOnly, d.Data)
	}
	return d.data
}

// Ausencia reports whether the computed day is an unexcused absence
// (core.FaltaInjustificada): it costs the DSR and is not banked.
func (d *Dia) Ausencia() bool { return d.ausencia }

// AntesDoUso reports whether the day is before the company's first day on
// ponto (core.AntesDoUso): outside the bond for that reason rather than
// the admission's or the termination's.
func (d *Dia) AntesDoUso() bool { return d.antesDoUso }

// tratamento is the day's treatment as the record core reads it.
func (d *Dia) tratamento() core.Tratamento {
	t := core.Tratamento{Incluidas: d.incluidas, Desconsideradas: d.desconsideradas, AbonoDiaInteiro: d.abonoDia}
	for i := range d.abonoInicios {
		if i < len(d.abonoFins) {
			t.Abonos = append(t.Abonos, core.Abono{Inicio: d.abonoInicios[i], Fim: d.abonoFins[i]})
		}
	}
	return t
}

// add sums day d into t.
func (t *Totais) add(d *Dia) {
	t.MinutosTrabalhados += d.MinutosTrabalhados
	t.MinutosPrevistos += d.MinutosPrevistos
	t.MinutosExtras += d.MinutosExtras
	t.MinutosAtraso += d.MinutosAtraso
	t.SaldoMinutos += d.SaldoMinutos
	t.MinutosAbonados += d.MinutosAbonados
	if d.Falta {
		t.Faltas++
	}
	t.AjustesPendentes += d.AjustesPendentes
	t.MinutosExtras50 += d.MinutosExtras50
	t.MinutosExtras100 += d.MinutosExtras100
	t.MinutosNoturnos += d.MinutosNoturnos
	t.MinutosNoturnosReduzidos += d.MinutosNoturnosReduzidos
	t.Alertas += len(d.Alertas)
	t.MinutosIntervaloSuprimido += d.MinutosIntervaloSuprimido
	t.MinutosInterjornada += d.MinutosInterjornada
	if d.Afastamento != nil && !d.ForaDoVinculo {
		if t.DiasAfastamento == nil {
			t.DiasAfastamento = map[string]int{}
		}
		t.DiasAfastamento[d.Afastamento.Tipo]++
	}
}

// Mais adds totals o to t.
func (t *Totais) Mais(o Totais) {
	t.MinutosTrabalhados += o.MinutosTrabalhados
	t.MinutosPrevistos += o.MinutosPrevistos
	t.MinutosExtras += o.MinutosExtras
	t.MinutosAtraso += o.MinutosAtraso
	t.SaldoMinutos += o.SaldoMinutos
	t.MinutosAbonados += o.MinutosAbonados
	t.Faltas += o.Faltas
	t.AjustesPendentes += o.AjustesPendentes
	t.MinutosExtras50 += o.MinutosExtras50
	t.MinutosExtras100 += o.MinutosExtras100
	t.MinutosNoturnos += o.MinutosNoturnos
	t.MinutosNoturnosReduzidos += o.MinutosNoturnosReduzidos
	t.Alertas += o.Alertas
	t.MinutosIntervaloSuprimido += o.MinutosIntervaloSuprimido
	t.MinutosInterjornada += o.MinutosInterjornada
	t.DSRPerdidos += o.DSRPerdidos
	for k, v := range o.DiasAfastamento {
		if t.DiasAfastamento == nil {
			t.DiasAfastamento = map[string]int{}
		}
		t.DiasAfastamento[k] += v
	}
}

// Sum is the totals of days.
func Sum(days []Dia) Totais {
	var t Totais
	for i := range days {
		t.add(&days[i])
	}
	return t
}
