package apuracao

import (
	"cmp"
	"slices"
	"time"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// fatos are what one read of a report gives (reportsql.Statements, in one
// snapshot) for its employees and dates: every punch of the period, the
// REP's and those the company included, held flat (48 bytes each) and
// grouped by employee, and what the company recorded about the days
// (absences, abonos, holidays), as a Registro receives them. rows turns
// them into each employee's day rows, one employee at a time, so that a department's rows never exist
// at once.
type fatos struct {
	p params
	// base is the Unix day of the day before p.Inicio, the first whose
	// punches are read (index 0 of the per-day tables); n counts the days
	// from it to p.Fim.
	base int32
	n    int
	// datas, textos and feriados are, per day, the civil date, its text
	// (the rows' Data) and its holiday's name (the company's, else the
	// national one), shared by every employee's rows.
	datas    []time.Time
	textos   []string
	feriados []*string
	// inicioUso is the company's first day on ponto (nil: not set): the
	// days before it owe nothing (core.AntesDoUso).
	inicioUso *time.Time
	cal       *core.Calendario

	// marcas are the REP's punches, incluidas the company's, each
	// grouped by employee (agrupar) once read.
	marcas, incluidas grupos
	// dias holds, per employee and day (i*n + day), whether the day has
	// an absence (temFalta) and abonos (temAbono, the ranges in abonos).
	dias   []uint8
	abonos map[int64]*abonosDia
	// afastamentos are each employee's standing leaves (by index in
	// p.Funcionarios), a handful: the days they cover carry temAfastamento.
	afastamentos map[int32][]afastamentoLido

	// indice is each employee's position in p.Funcionarios; status and
	// tipos the texts of marca.status and marca.tipo.
	indice        map[int64]int32
	status, tipos []string
	ignoradas     map[int64]bool // the punches disregarded now

	// buf, run and ar are reused from one employee's rows to the next.
	buf []Dia
	run []marca
	ar  arena
}

// marca is one punch of the period.
type marca struct {
	id  int64
	nsr int64 // 0 for a punch the company included
	// registro is the original time, efetivo the effective one (an
	// approved adjustment's, to the minute): Unix microseconds.
	registro, efetivo int64
	emp               int32 // index in params.Funcionarios
	dia               int32 // the workday, a Unix day
	fuso              int16 // UTC offset in minutes
	tipo, status      uint8 // indices in fatos.tipos and fatos.status
	fora              bool  // outside every work place
	incluida          bool
	desconsiderada    bool
}

// abonosDia are one employee's standing abonos of one day.
type abonosDia struct {
	diaInteiro    bool
	inicios, fins []int
}

// afastamentoLido is a standing leave and its id.
type afastamentoLido struct {
	id int64
	core.Afastamento
}

// Day flags of fatos.dias.
const (
	temFalta uint8 = 1 << iota
	temAbono
	temAfastamento
)

// Statuses of a punch as the report shows them; the first entries of
// fatos.status, in this order.
const (
	statusAutomatico = "aprovado automaticamente"
	statusSolicitado = "ajuste solicitado"
	statusAprovado   = "ajuste aprovado pela empresa"
	statusReprovado  = "ajuste reprovado pela empresa"
	statusIncluida   = "marcação incluída pela empresa"
)

const (
	idxAutomatico = iota
	idxSolicitado
	idxAprovado
	_
	idxIncluida
)

// unixDia2000 is 2000-01-01, PostgreSQL's epoch, as a Unix day.
const unixDia2000 = 10957

const (
	microsPorMinuto = int64(time.Minute / time.Microsecond)
	microsAte2000   = int64(unixDia2000) * 86400 * 1_000_000
)

// unixDia is the Unix day of civil date t (its own year, month and day).
func unixDia(t time.Time) int32 {
	if s := t.Unix(); t.Location() == time.UTC && s >= 0 { // the usual case, cheaper
		return int32(s / 86400)
	}
	y, m, d := t.Date()
	return int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

func newFatos(p params) *fatos {
	f := &fatos{p: p, base: unixDia(p.Inicio) - 1, abonos: map[int64]*abonosDia{}, ignoradas: map[int64]bool{},
		afastamentos: map[int32][]afastamentoLido{},
		indice:       make(map[int64]int32, len(p.Funcionarios)),
		status:       []string{statusAutomatico, statusSolicitado, statusAprovado, statusReprovado, statusIncluida},
		tipos:        []string{"", core.TipoEntrada, core.TipoAlmoco, core.TipoRetorno, core.TipoSaida}}
	f.n = max(int(unixDia(p.Fim)-f.base)+1, 1)
	for i, id := range p.Funcionarios {
		f.indice[id] = int32(i)
	}
	// feriados has one more day, the one after p.Fim: a night shift of
	// p.Fim may run into it (core.Dia.FeriadoSeguinte).
	f.datas, f.textos, f.feriados = make([]time.Time, f.n+1), make([]string, f.n+1), make([]*string, f.n+1)
	for i := range f.datas {
		f.datas[i] = time.Unix(int64(f.base+int32(i))*86400, 0).UTC()
		f.textos[i] = f.datas[i].Format(time.DateOnly)
	}
	f.dias = make([]uint8, len(p.Funcionarios)*f.n)
	// Room for three punches a day each (four on a working day), up to a
	// department's month: growing a slice of a hundred thousand punches
	// shows in the profile.
	f.marcas.ms = make([]marca, 0, min(len(p.Funcionarios)*f.n*3, 1<<17))
	return f
}

// dia is the index of Unix day d among the per-day tables, false outside.
func (f *fatos) dia(d int32) (int, bool) {
	i := int(d - f.base)
	return i, i >= 0 && i < f.n
}

// Calendario is Registro's: the company's first day on ponto and the
// national holidays it keeps (named after its own, which win).
func (f *fatos) Calendario(inicioUso *time.Time, fac core.Facultativos) {
	f.inicioUso, f.cal = inicioUso, core.NewCalendario(fac)
}

// Feriado is Registro's.
func (f *fatos) Feriado(data time.Time, nome string) {
	if i := int(unixDia(data) - f.base); i >= 0 && i <= f.n {
		f.feriados[i] = &nome
	}
}

// nacionais names the national holiday of each day that is one for the
// company (with the pontos facultativos it keeps) and has no holiday of
// its own, whose name wins.
func (f *fatos) nacionais() {
	cal := f.cal
	if cal == nil {
		cal = core.NewCalendario(core.Facultativos{})
	}
	for i, t := range f.textos {
		if f.feriados[i] == nil {
			if nome, ok := cal.FeriadoEm(t); ok {
				f.feriados[i] = &nome
			}
		}
	}
}

// cell is the per-day flags of employee id on date data, false when
// either is not the report's.
func (f *fatos) cell(id int64, data time.Time) (int, bool) {
	e, ok := f.indice[id]
	d, in := f.dia(unixDia(data))
	return int(e)*f.n + d, ok && in
}

// Falta is Registro's.
func (f *fatos) Falta(id int64, data time.Time) {
	if c, ok := f.cell(id, data); ok {
		f.dias[c] |= temFalta
	}
}

// Abono is Registro's.
func (f *fatos) Abono(id int64, data time.Time, inicio, fim *int) {
	c, ok := f.cell(id, data)
	if !ok {
		return
	}
	f.dias[c] |= temAbono
	a := f.abonos[int64(c)]
	if a == nil {
		a = &abonosDia{}
		f.abonos[int64(c)] = a
	}
	if inicio == nil || fim == nil {
		a.diaInteiro = true
	} else {
		a.inicios, a.fins = append(a.inicios, *inicio), append(a.fins, *fim)
	}
}

// Afastamento is Registro's: every day of the period it covers is a
// row (the timesheet shows the whole leave).
func (f *fatos) Afastamento(funcionario, id int64, a core.Afastamento) {
	e, ok := f.indice[funcionario]
	if !ok {
		return
	}
	f.afastamentos[e] = append(f.afastamentos[e], afastamentoLido{id: id, Afastamento: a})
	for d := range f.n {
		if a.Cobre(f.datas[d]) {
			f.dias[int(e)*f.n+d] |= temAfastamento
		}
	}
}

// afastamento is the leave of employee i covering day d (of the
// per-day tables), nil when none.
func (f *fatos) afastamento(i, d int) *Afastamento {
	for _, a := range f.afastamentos[int32(i)] {
		if a.Cobre(f.datas[d]) {
			return &Afastamento{ID: a.id, Tipo: a.Tipo, regra: a.RegraDia(f.datas[d])}
		}
	}
	return nil
}

// Desconsiderada is Registro's.
func (f *fatos) Desconsiderada(id int64) { f.ignoradas[id] = true }

// Marcacao is Registro's.
func (f *fatos) Marcacao(funcionario int64, m MarcacaoLida) {
	x := marca{id: m.ID, nsr: m.NSR, registro: m.Registro.UnixMicro(), efetivo: m.Efetivo.UnixMicro(),
		dia: unixDia(m.Jornada), fuso: m.Fuso, fora: m.Fora}
	if m.NSR == 0 {
		x.status, x.incluida = idxIncluida, true
	} else {
		x.tipo = intern(&f.tipos, m.Tipo)
		if m.Status != nil {
			x.status = intern(&f.status, m.Status)
		}
	}
	f.add(x, funcionario)
}

// add keeps punch m of employee funcionario (unknown ones are left out:
// the SQL reads only the report's).
func (f *fatos) add(m marca, funcionario int64) {
	e, ok := f.indice[funcionario]
	if !ok {
		return
	}
	m.emp = e
	if m.incluida {
		f.incluidas.ms = append(f.incluidas.ms, m)
	} else {
		f.marcas.ms = append(f.marcas.ms, m)
	}
}

// intern is s's index in *texts, added when new (a handful: the columns
// hold what their CHECK constraints allow).
func intern(texts *[]string, s []byte) uint8 {
	for i, t := range *texts {
		if t == string(s) {
			return uint8(i)
		}
	}
	*texts = append(*texts, string(s))
	return uint8(len(*texts) - 1)
}

// ordenar groups the punches by employee (agrupar).
func (f *fatos) ordenar() {
	if len(f.ignoradas) > 0 { // read in any order with the punches
		for _, g := range []*grupos{&f.marcas, &f.incluidas} {
			for i := range g.ms {
				g.ms[i].desconsiderada = f.ignoradas[g.ms[i].id]
			}
		}
	}
	f.nacionais()
	f.marcas.agrupar(len(f.p.Funcionarios))
	f.incluidas.agrupar(len(f.p.Funcionarios))
}

// grupos are punches grouped by employee: employee i's are ms[de[i]:ate[i]].
type grupos struct {
	ms      []marca
	de, ate []int
}

// of is employee i's punches.
func (g *grupos) of(i int) []marca { return g.ms[g.de[i]:g.ate[i]] }

// agrupar groups the punches by the n employees (a counting sort: the
// rows come in the table's order, the punches of a day's employees
// together), each one's in order (ordem), which they usually are already.
func (g *grupos) agrupar(n int) {
	g.de, g.ate = make([]int, n), make([]int, n)
	for _, m := range g.ms {
		g.ate[m.emp]++
	}
	next := 0
	for i, count := range g.ate {
		g.de[i], g.ate[i], next = next, next, next+count
	}
	out := make([]marca, len(g.ms))
	for _, m := range g.ms {
		out[g.ate[m.emp]] = m
		g.ate[m.emp]++
	}
	g.ms = out
	for i := range n {
		if ms := g.of(i); !slices.IsSortedFunc(ms, ordem) {
			slices.SortFunc(ms, ordem)
		}
	}
}

// ordem is the punches' order within an employee: workday, then NSR
// for the REP's, time for the included ones (which have none).
func ordem(a, b marca) int {
	return cmp.Or(cmp.Compare(a.dia, b.dia), cmp.Compare(a.nsr, b.nsr), cmp.Compare(a.efetivo, b.efetivo),
		cmp.Compare(a.id, b.id))
}

// rows builds employee i's day rows: every date of the period that is a
// working day of his schedule, has punches, an absence or abonos.
func (f *fatos) rows(i int, detail bool) []Dia {
	id := f.p.Funcionarios[i]
	escala := f.p.escalas[id]
	ms, inc := f.marcas.of(i), f.incluidas.of(i)
	f.ar.reset(f.n)
	out := f.buf[:0]
	// prev is the latest workday with punches: its date and last counted
	// punch, which starts the rest before the next workday's first.
	var prev struct {
		dia    int32
		ultima int64
		ok     bool
	}
	prev.dia = f.base - 2
	for d := 0; d < f.n; d++ {
		day := f.base + int32(d)
		var run []marca
		run, ms = next(ms, day)
		if len(inc) > 0 && inc[0].dia <= day {
			var added []marca
			if added, inc = next(inc, day); len(added) > 0 {
				// The REP's punches by NSR, then the included ones.
				f.run = append(append(f.run[:0], run...), added...)
				run = f.run
			}
		}
		primeira, ultima, counted := span(run)
		flags := f.dias[i*f.n+d]
		if d == 0 || (len(run) == 0 && flags == 0 && escala.Turno(f.datas[d]) == nil) {
			if len(run) > 0 {
				prev.dia, prev.ultima, prev.ok = day, ultima, counted
			}
			continue
		}
		out = append(out, Dia{FuncionarioID: id, Data: f.textos[d], data: f.datas[d], FaltaMarcada: flags&temFalta != 0,
			Feriado: f.feriados[d], feriadoSeguinte: f.feriados[d+1] != nil, antesDoUso: core.AntesDoUso(f.datas[d], f.inicioUso)})
		dia := &out[len(out)-1]
		if flags&temAbono != 0 {
			a := f.abonos[int64(i*f.n+d)]
			dia.abonoDia, dia.abonoInicios, dia.abonoFins = a.diaInteiro, a.inicios, a.fins
		}
		if flags&temAfastamento != 0 {
			dia.Afastamento = f.afastamento(i, d)
		}
		if len(run) == 0 {
			continue
		}
		f.mark(dia, run, day, detail)
		if prev.dia == day-1 && prev.ok && counted {
			dia.DescansoMinutos = f.ar.descanso(int((primeira - prev.ultima) / microsPorMinuto))
		}
		prev.dia, prev.ultima, prev.ok = day, ultima, counted
	}
	f.buf = out
	return out
}

// next splits off the punches of Unix day day from the head of ms (in
// workday order), and the rest.
func next(ms []marca, day int32) (run, rest []marca) {
	for len(ms) > 0 && ms[0].dia < day { // none: the SQL reads the period's
		ms = ms[1:]
	}
	k := 0
	for k < len(ms) && ms[k].dia == day {
		k++
	}
	return ms[:k], ms[k:]
}

// span is the first and last effective time of the counted (not
// disregarded) punches of a workday, false when none counts.
func span(run []marca) (primeira, ultima int64, ok bool) {
	for _, m := range run {
		if m.desconsiderada {
			continue
		}
		if !ok || m.efetivo < primeira {
			primeira = m.efetivo
		}
		if !ok || m.efetivo > ultima {
			ultima = m.efetivo
		}
		ok = true
	}
	return primeira, ultima, ok
}

// mark fills day d (Unix day) of dia with its punches run: the marks in
// minutes after the workday's local midnight (at each punch's own UTC
// offset, so a zone changed later never moves them), the treatment, the
// pending adjustments and the punches outside the work places; with
// detail, the punches as the answer lists them.
func (f *fatos) mark(dia *Dia, run []marca, day int32, detail bool) {
	n := len(run)
	dia.marcas = take(&f.ar.ints, n)
	var incluidas, desconsideradas bool
	for j, m := range run {
		dia.marcas[j] = int(m.efetivo/microsPorMinuto-int64(day)*24*60) + int(m.fuso)
		incluidas, desconsideradas = incluidas || m.incluida, desconsideradas || m.desconsiderada
		if m.status == idxSolicitado {
			dia.AjustesPendentes++
		}
		if m.fora {
			dia.fora++
		}
	}
	if incluidas {
		dia.incluidas = take(&f.ar.bools, n)
		for j, m := range run {
			dia.incluidas[j] = m.incluida
		}
	}
	if desconsideradas {
		dia.desconsideradas = take(&f.ar.bools, n)
		for j, m := range run {
			dia.desconsideradas[j] = m.desconsiderada
		}
	}
	mc := &dia.Marcacoes
	mc.locais, mc.incluidas, mc.desconsideradas = dia.marcas, dia.incluidas, dia.desconsideradas
	if !detail {
		return
	}
	mc.ids, mc.tipos, mc.status = take(&f.ar.ids, n), take(&f.ar.strs, n), take(&f.ar.strs, n)
	mc.registradas, mc.efetivas = take(&f.ar.times, n), take(&f.ar.times, n)
	for j, m := range run {
		mc.ids[j], mc.tipos[j], mc.status[j] = m.id, f.tipos[m.tipo], f.status[m.status]
		mc.registradas[j], mc.efetivas[j] = time.UnixMicro(m.registro).UTC(), time.UnixMicro(m.efetivo).UTC()
	}
}

// arena backs the slices of one employee's rows.
type arena struct {
	ints, descansos []int
	bools           []bool
	ids             []int64
	strs            []string
	times           []time.Time
}

// reset empties the arena for an employee of days days: descansos never
// grows past them, so the pointers into it stay valid.
func (a *arena) reset(days int) {
	a.ints, a.bools, a.ids, a.strs, a.times = a.ints[:0], a.bools[:0], a.ids[:0], a.strs[:0], a.times[:0]
	if cap(a.descansos) < days {
		a.descansos = make([]int, 0, days)
	}
	a.descansos = a.descansos[:0]
}

// descanso keeps v and points to it.
func (a *arena) descanso(v int) *int {
	a.descansos = append(a.descansos, v)
	return &a.descansos[len(a.descansos)-1]
}

// take appends n elements to *s and returns them, capped so that no
// append through them reaches the next.
func take[T any](s *[]T, n int) []T {
	start := len(*s)
	*s = slices.Grow(*s, n)[:start+n]
	return (*s)[start : start+n : start+n]
}

// cloneDias copies rows from rows, to keep them past the next employee.
func cloneDias(days []Dia) []Dia {
	out := slices.Clone(days)
	for i := range out {
		d := &out[i]
		d.marcas, d.incluidas, d.desconsideradas = slices.Clone(d.marcas), slices.Clone(d.incluidas), slices.Clone(d.desconsideradas)
		m := &d.Marcacoes
		m.ids, m.tipos, m.status = slices.Clone(m.ids), slices.Clone(m.tipos), slices.Clone(m.status)
		m.registradas, m.efetivas = slices.Clone(m.registradas), slices.Clone(m.efetivas)
		m.locais, m.incluidas, m.desconsideradas = d.marcas, d.incluidas, d.desconsideradas
		if d.DescansoMinutos != nil {
			v := *d.DescansoMinutos
			d.DescansoMinutos = &v
		}
	}
	return out
}
