package bench

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ponto/ponto/tools/bench/floor"
	"github.com/ponto/ponto/tools/bench/load"
	"github.com/ponto/ponto/tools/bench/seed"
)

// Report is one run: what it ran on, the floors, every measurement, the
// chain check and the targets. It is printed as a table and saved as
// JSON for later comparison.
type Report struct {
	Commit    string        `json:"commit"`
	Dirty     bool          `json:"arvoreComAlteracoes"`
	StartedAt time.Time     `json:"inicio"`
	Short     bool          `json:"curto"`
	Machine   Machine       `json:"maquina"`
	Settings  Settings      `json:"parametros"`
	Seed      *seed.Dataset `json:"dados"`
	Storage   Storage       `json:"disco"`
	Floors    Floors        `json:"pisos"`
	Rows      []Row         `json:"medicoes"`
	Soak      *SoakReport   `json:"soak,omitempty"`
	Chains    ChainCheck    `json:"cadeias"`
	Targets   []Target      `json:"metas"`
	Errors    int64         `json:"erros"`
	Seconds   float64       `json:"segundos"`
}

// Settings are the run's knobs.
type Settings struct {
	WarmupSeconds   float64 `json:"aquecimentoSegundos"`
	DurationSeconds float64 `json:"duracaoSegundos"`
	SoakSeconds     float64 `json:"soakSegundos"`
	LogLevel        string  `json:"logLevel"`
	Pprof           bool    `json:"pprof"`
	// Scale is BENCH_SCALE (0 in runs saved before it existed: 1).
	Scale int `json:"escala,omitempty"`
}

// Floors are the machine's own figures in this run.
type Floors struct {
	PGBench []PGBenchFloor `json:"pgbench,omitempty"`
	Report  []ReportFloor  `json:"relatorioSQL,omitempty"`
}

// PGBenchFloor is pgbench run just before a workload, with the CPU per
// transaction of PostgreSQL and of pgbench itself.
type PGBenchFloor struct {
	Workload string `json:"antesDe"`
	floor.PGBenchResult
	CPU CPUPerOp `json:"cpuMsPorTransacao,omitempty"`
	// AtLoad is pgbench run right after it at the workload's connections,
	// with every transaction's latency: PostgreSQL's own p99 there.
	AtLoad *floor.PGBenchResult `json:"naConcorrenciaDaCarga,omitempty"`
}

// ReportFloor is the report's SQL timed directly.
type ReportFloor struct {
	Name     string `json:"nome"`
	Listed   int    `json:"funcionariosListados"`
	All      int    `json:"funcionariosNosTotais"`
	Rows     int64  `json:"linhas"`
	Settings string `json:"settings"`
	load.Result
	// CPU is PostgreSQL's and the benchmark's CPU per execution.
	CPU CPUPerOp `json:"cpuMsPorExecucao,omitempty"`
	// Raw is the floor under it: the ordered read of the punches the
	// report covers (floor.RawSQL), timed in the same run.
	Raw *RawFloor `json:"leituraOrdenada,omitempty"`
}

// RawFloor is floor.RawSQL timed: the rows are employee-days.
type RawFloor struct {
	Rows int64 `json:"linhas"`
	load.Result
	CPU CPUPerOp `json:"cpuMsPorExecucao,omitempty"`
}

// Row is one workload in one column.
type Row struct {
	Workload string `json:"carga"`
	Title    string `json:"titulo"`
	Column   string `json:"coluna"`
	Conns    int    `json:"conexoes"`
	load.Result
	// Ratio to the floor: req/s over pgbench's tps ("vazao"), or p50 over
	// the raw SQL's p50 ("tempo"). Nil without a floor.
	Ratio     *float64 `json:"razao,omitempty"`
	RatioKind string   `json:"tipoRazao,omitempty"`
	// RatioRaw is a report's p50 over its raw read's p50 (the floor
	// under its SQL: ReportFloor.Raw).
	RatioRaw *float64 `json:"razaoLeitura,omitempty"`
	// RatioRawCPU is a report's CPU per request (every process) over its
	// raw read's (PostgreSQL and the reading client): the same comparison
	// in the figure the machine's load moves least.
	RatioRawCPU *float64 `json:"razaoLeituraCPU,omitempty"`
	// Alternated is the report timed in turns with its raw read and its
	// SQL, right after its workload; RatioRawAlternated and
	// RatioSQLAlternated its p50 ratios to them, the ones the targets are
	// judged on.
	Alternated         *Alternated `json:"alternado,omitempty"`
	RatioRawAlternated *float64    `json:"razaoLeituraAlternada,omitempty"`
	RatioSQLAlternated *float64    `json:"razaoSQLAlternada,omitempty"`
	LoadAvg            float64     `json:"cargaMedia1min"`
	// CPU is each process's CPU milliseconds per operation over the
	// measured part (the services, "postgres": the backends of the run's
	// databases, "bench": the load generator and the in-process gateway).
	CPU CPUPerOp `json:"cpuMsPorRequisicao,omitempty"`
	// Batching is how a clock-in's punches were batched (service column).
	Batching *Batching `json:"lotes,omitempty"`
	// MeasuredFrom is when the measured part started: the tail's windows
	// (Result.Tail) count from it, so that they can be lined up with the
	// machine's own logs.
	MeasuredFrom time.Time `json:"inicioMedicao"`
	// Bound is how low the closed loop's latency could go on this machine
	// (the p99 targets' workloads).
	Bound *LoopBound `json:"laco,omitempty"`
}

// ChainCheck is seed.VerifyChains' verdict after the run.
type ChainCheck struct {
	seed.ChainReport
	OK    bool   `json:"ok"`
	Error string `json:"erro,omitempty"`
	// Audit is the service's own periodic audit (chainaudit) run once over
	// every chain from its start: its cost per record.
	Audit AuditCost `json:"auditoria"`
}

// AuditCost is what a full chain audit cost.
type AuditCost struct {
	Records int64 `json:"registros"`
	// WallMicrosPerRecord is the audit's duration per record verified.
	WallMicrosPerRecord float64 `json:"microsPorRegistro"`
	Broken              int     `json:"quebradas"`
}

// Target is one of the goals, judged on the services' own ports.
type Target struct {
	Name string `json:"meta"`
	Got  string `json:"medido"`
	Met  bool   `json:"atingida"`
}

func newReport(ctx context.Context, r *runner) (*Report, error) {
	commit, dirty := gitCommit(r.opts.RepoRoot)
	return &Report{
		Commit: commit, Dirty: dirty, StartedAt: r.started, Short: r.opts.Short,
		Machine: machine(ctx, r.pools["timekeeping"]),
		Settings: Settings{WarmupSeconds: r.opts.Warmup.Seconds(), DurationSeconds: r.opts.Duration.Seconds(),
			SoakSeconds: max(0, r.opts.Soak.Seconds()),
			LogLevel:    logLevel, Pprof: r.opts.Pprof, Scale: max(1, r.opts.Scale)},
		Seed: r.data,
	}, nil
}

func (rep *Report) add(w workload, column string, res load.Result, cpu CPUPerOp, loadAvg float64) {
	row := Row{Workload: w.name, Title: w.title, Column: column, Conns: w.conns, Result: res, CPU: cpu, LoadAvg: loadAvg}
	switch {
	case w.floor == "pgbench":
		if f := rep.pgbenchFloor(w.name); f != nil && f.TPS > 0 {
			v := res.RPS / f.TPS
			row.Ratio, row.RatioKind = &v, "vazao"
		}
	case w.floor != "":
		if f := rep.reportFloor(w.floor); f != nil && f.P50Ms > 0 {
			v := res.P50Ms / f.P50Ms
			row.Ratio, row.RatioKind = &v, "tempo"
			if f.Raw != nil && f.Raw.P50Ms > 0 {
				raw := res.P50Ms / f.Raw.P50Ms
				row.RatioRaw = &raw
			}
			if f.Raw != nil && f.Raw.CPU.total() > 0 && cpu.total() > 0 {
				v := cpu.total() / f.Raw.CPU.total()
				row.RatioRawCPU = &v
			}
		}
	}
	rep.Rows = append(rep.Rows, row)
}

func (row *Row) setAlternated(a *Alternated) {
	row.Alternated, row.RatioRawAlternated, row.RatioSQLAlternated = a, a.Ratio(), a.RatioSQL()
}

func (rep *Report) pgbenchFloor(workload string) *PGBenchFloor {
	for i := range rep.Floors.PGBench {
		if rep.Floors.PGBench[i].Workload == workload {
			return &rep.Floors.PGBench[i]
		}
	}
	return nil
}

func pgbenchTitle(pg floor.PGBenchResult) string {
	return fmt.Sprintf("pgbench, INSERT do registro (-M prepared -c %d -j %d -T %.0f)", pg.Clients, pg.Threads, pg.Seconds)
}

// atLoadText puts a p99 next to PostgreSQL's own at the same
// connections: a target under it is out of this machine's reach.
func (f *PGBenchFloor) atLoadText() string {
	if f == nil || f.AtLoad == nil || f.AtLoad.Latencies == nil {
		return ""
	}
	l := f.AtLoad.Latencies
	text := fmt.Sprintf("; o PostgreSQL sozinho, com o INSERT do registro em %d conexões (pgbench), dá p50 %.1f ms e p99 %.1f ms",
		f.AtLoad.Clients, l.P50Ms, l.P99Ms)
	if l.P99Ms > 15 {
		text += ": a meta está abaixo do que o banco sozinho alcança nesta máquina"
	}
	return text
}

func (rep *Report) reportFloor(name string) *ReportFloor {
	for i := range rep.Floors.Report {
		if rep.Floors.Report[i].Name == name {
			return &rep.Floors.Report[i]
		}
	}
	return nil
}

func (rep *Report) row(workload, column string) *Row {
	for i := range rep.Rows {
		if rep.Rows[i].Workload == workload && rep.Rows[i].Column == column {
			return &rep.Rows[i]
		}
	}
	return nil
}

// finish counts the errors and judges the targets.
func (rep *Report) finish(r *runner) {
	rep.Seconds = time.Since(r.started).Seconds()
	for _, row := range rep.Rows {
		rep.Errors += row.TotalErrors()
	}
	if rep.Soak != nil {
		rep.Errors += rep.Soak.Errors
	}
	ratio := func(workload string, want float64, atMost bool, unit string) {
		row := rep.row(workload, ColumnService)
		if row == nil || row.Ratio == nil {
			return
		}
		met := *row.Ratio >= want
		if atMost {
			met = *row.Ratio <= want
		}
		op := "≥"
		if atMost {
			op = "≤"
		}
		rep.Targets = append(rep.Targets, Target{Name: fmt.Sprintf("%s %s %.2f × %s", workload, op, want, unit),
			Got: fmt.Sprintf("%.2f", *row.Ratio), Met: met})
	}
	// The p99's tail says whether it was a few stalls or the usual wait.
	// So does the closed loop's bound: how low the mean could go here.
	p99 := func(workload string) {
		if row := rep.row(workload, ColumnService); row != nil {
			row.Bound = loopBound(row, rep.Machine.CPUs)
			rep.Targets = append(rep.Targets, Target{Name: workload + " p99 ≤ 15 ms",
				Got: fmt.Sprintf("%.1f ms%s%s%s", row.P99Ms, tailText(row.Tail), row.Bound.text(),
					rep.pgbenchFloor(workload).atLoadText()),
				Met: row.P99Ms <= 15})
		}
	}
	ratio("clockin-spread", 0.45, false, "piso pgbench (req/s)")
	p99("clockin-spread")
	ratio("clockin-single", 0.25, false, "piso pgbench (req/s)")
	ratio("clockin-cold", 0.6, false, "piso pgbench (req/s)")
	p99("clockin-cold")
	// A report is judged against each of its floors on the ratio timed
	// in turns when the run has it.
	report := func(w, against string, inTurns, sequential *float64) {
		v, how := inTurns, ", em turnos"
		if v == nil {
			v, how = sequential, ""
		}
		if v != nil {
			rep.Targets = append(rep.Targets, Target{Name: w + " ≤ 1.50 × " + against + " (p50" + how + ")",
				Got: fmt.Sprintf("%.2f", *v), Met: *v <= 1.5})
		}
	}
	for _, w := range []string{"report-json", "report-csv", "export-csv"} {
		if row := rep.row(w, ColumnService); row != nil {
			report(w, "leitura ordenada das marcações", row.RatioRawAlternated, row.RatioRaw)
			report(w, "SQL do relatório", row.RatioSQLAlternated, row.Ratio)
		}
	}
	rep.Targets = append(rep.Targets, Target{Name: "zero erros (todas as cargas, as duas colunas)",
		Got: fmt.Sprintf("%d", rep.Errors), Met: rep.Errors == 0})
	rep.Targets = append(rep.Targets, Target{Name: "cadeias NSR/hash íntegras",
		Got: fmt.Sprintf("%d empresas, %d marcações", rep.Chains.Companies, rep.Chains.Punches), Met: rep.Chains.OK})
}

// Failed tells whether anything failed (requests or chains): the only
// thing make bench-short judges.
func (rep *Report) Failed() bool { return rep.Errors > 0 || !rep.Chains.OK }

// save writes the JSON as <dir>/<timestamp>.json (short runs: short-...).
func (rep *Report) save(dir string, short bool) (string, error) {
	name := rep.StartedAt.Format("20060102-150405") + ".json"
	if short {
		name = "short-" + name
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, name)
	return path, os.WriteFile(path, append(b, '\n'), 0o640)
}

func (r *runner) print(rep *Report) { rep.Print(r.opts.Out) }

// Print writes the table, the floors and the targets.
func (rep *Report) Print(w io.Writer) {
	dirty := ""
	if rep.Dirty {
		dirty = " (+ alterações não commitadas)"
	}
	fmt.Fprintf(w, "\nponto bench — %s%s — %s\n", short(rep.Commit), dirty, rep.StartedAt.Format(time.DateTime))
	fmt.Fprintf(w, "máquina: %d CPUs (%s), %d MiB, %s, %s; carga média no início %.2f\n",
		rep.Machine.CPUs, rep.Machine.CPUModel, rep.Machine.MemoryMiB, rep.Machine.Go,
		pgShort(rep.Machine.PostgreSQL), rep.Machine.LoadAvg)
	if rep.Seed != nil {
		fmt.Fprintf(w, "dados: %s\n", rep.Seed)
	}
	if s := rep.Storage.String(); s != "" {
		fmt.Fprintf(w, "disco: %s\n", s)
	}
	if rep.Short {
		fmt.Fprintf(w, "VARIANTE CURTA: só prova que cada carga roda sem erros; os números não valem nada.\n")
	}
	fmt.Fprintf(w, "\npisos (medidos nesta execução):\n")
	for _, pg := range rep.Floors.PGBench {
		fmt.Fprintf(w, "  %-58s %9.0f tps   latência média %.2f ms   (antes de %s)\n",
			pgbenchTitle(pg.PGBenchResult), pg.TPS, pg.LatencyAvgMs, pg.Workload)
		if at := pg.AtLoad; at != nil && at.Latencies != nil {
			fmt.Fprintf(w, "  %-58s %9.0f tps   p50 %.2f ms   p99 %.2f ms\n",
				pgbenchTitle(*at), at.TPS, at.Latencies.P50Ms, at.Latencies.P99Ms)
		}
	}
	for _, f := range rep.Floors.Report {
		fmt.Fprintf(w, "  %-58s %9s       p50 %.2f ms   p99 %.2f ms\n",
			fmt.Sprintf("SQL do %s (%d listados, totais de %d)", f.Name, f.Listed, f.All), "", f.P50Ms, f.P99Ms)
		if f.Raw != nil {
			fmt.Fprintf(w, "  %-58s %9s       p50 %.2f ms   p99 %.2f ms\n",
				fmt.Sprintf("  leitura ordenada das marcações (%d func., %d func.×dia)", f.All, f.Raw.Rows), "",
				f.Raw.P50Ms, f.Raw.P99Ms)
		}
	}
	fmt.Fprintf(w, "\n%-44s %5s │ %-44s │ %s\n", "carga", "conex", "porta do próprio serviço", "pelo gateway")
	fmt.Fprintf(w, "%-44s %5s │ %9s %8s %8s %5s %9s │ %9s %8s %8s %5s %9s\n", "", "",
		"req/s", "p50 ms", "p99 ms", "erros", "razão", "req/s", "p50 ms", "p99 ms", "erros", "razão")
	for _, title := range rep.titles() {
		svc, gw := rep.byTitle(title, ColumnService), rep.byTitle(title, ColumnGateway)
		conns := 0
		if svc != nil {
			conns = svc.Conns
		}
		fmt.Fprintf(w, "%-44s %5d │ %s │ %s\n", title, conns, cells(svc), cells(gw))
	}
	fmt.Fprintf(w, "razão: req/s ÷ tps do pgbench medido logo antes (registro de ponto) ou p50 ÷ p50 do SQL (relatório)\n")
	rep.printReportRatios(w)
	rep.printCPU(w)
	fmt.Fprintf(w, "\nmetas (na porta do próprio serviço):\n")
	for _, t := range rep.Targets {
		mark := "OK "
		if !t.Met {
			mark = "NÃO"
		}
		fmt.Fprintf(w, "  [%s] %-58s medido: %s\n", mark, t.Name, t.Got)
	}
	if !rep.Chains.OK {
		fmt.Fprintf(w, "  cadeias: %s\n", rep.Chains.Error)
	}
	if a := rep.Chains.Audit; a.Records > 0 {
		fmt.Fprintf(w, "  auditoria das cadeias (chainaudit, do início): %d registros, %.1f µs por registro\n",
			a.Records, a.WallMicrosPerRecord)
	}
	for _, t := range rep.Targets {
		if !t.Met {
			fmt.Fprintf(w, "\nMetas não atingidas: o porquê, com os perfis, está em docs/performance.md.\n")
			break
		}
	}
	rep.Soak.print(w)
}

// printReportRatios shows each report against its two floors, on the
// service's own port.
func (rep *Report) printReportRatios(w io.Writer) {
	header := false
	for _, row := range rep.Rows {
		if row.Column != ColumnService || row.RatioKind != "tempo" {
			continue
		}
		if !header {
			fmt.Fprintf(w, "\nrelatórios contra os dois pisos (p50, porta do próprio serviço; CPU: todos os processos):\n")
			fmt.Fprintf(w, "%-44s %18s %14s %16s %14s %16s\n", "", "÷ leitura (turnos)", "÷ leitura", "÷ SQL (turnos)", "÷ SQL", "CPU ÷ leitura")
			header = true
		}
		fmt.Fprintf(w, "%-44s %18s %14s %16s %14s %16s\n", row.Title, times(row.RatioRawAlternated), times(row.RatioRaw),
			times(row.RatioSQLAlternated), times(row.Ratio), times(row.RatioRawCPU))
		if a := row.Alternated; a != nil {
			fmt.Fprintf(w, "  em turnos: %s, %d de cada\n", a.text(), a.Report.Ops)
		}
	}
}

// times is a ratio as the tables print it, "—" without one.
func times(v *float64) string {
	if v == nil {
		return "—"
	}
	return fmt.Sprintf("%.2f×", *v)
}

// printCPU shows where each operation's CPU went, on the services' own
// ports, next to pgbench's transaction.
func (rep *Report) printCPU(w io.Writer) {
	procs := []string{"timekeeping", "employee", "auth", "company-billing", "media", "postgres", "redis", "bench"}
	short := map[string]string{"company-billing": "billing"}
	fmt.Fprintf(w, "\nCPU por operação, ms (porta do próprio serviço; postgres = backends dos bancos da execução):\n")
	fmt.Fprintf(w, "%-44s", "")
	for _, p := range procs {
		fmt.Fprintf(w, " %11s", cmp.Or(short[p], p))
	}
	fmt.Fprintf(w, " %8s\n", "total")
	line := func(title string, cpu CPUPerOp) {
		fmt.Fprintf(w, "%-44s", title)
		total := 0.0
		for _, p := range procs {
			if v, ok := cpu[p]; ok {
				fmt.Fprintf(w, " %11.3f", v)
				total += v
			} else {
				fmt.Fprintf(w, " %11s", "")
			}
		}
		fmt.Fprintf(w, " %8.3f\n", total)
	}
	for _, pg := range rep.Floors.PGBench {
		cpu := CPUPerOp{"postgres": pg.CPU["postgres"], "bench": pg.CPU["pgbench"]}
		line("pgbench, antes de "+pg.Workload+" (bench = pgbench)", cpu)
	}
	for _, f := range rep.Floors.Report {
		if f.CPU != nil {
			line("piso: SQL do "+f.Name, f.CPU)
		}
		if f.Raw != nil && f.Raw.CPU != nil {
			line("piso: leitura ordenada ("+f.Name+")", f.Raw.CPU)
		}
	}
	for _, row := range rep.Rows {
		if row.Column == ColumnService && row.CPU != nil {
			line(row.Title, row.CPU)
		}
	}
}

func (rep *Report) titles() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rep.Rows {
		if !seen[r.Title] {
			seen[r.Title] = true
			out = append(out, r.Title)
		}
	}
	return out
}

func (rep *Report) byTitle(title, column string) *Row {
	for i := range rep.Rows {
		if rep.Rows[i].Title == title && rep.Rows[i].Column == column {
			return &rep.Rows[i]
		}
	}
	return nil
}

func cells(r *Row) string {
	if r == nil {
		return fmt.Sprintf("%9s %8s %8s %5s %9s", "—", "—", "—", "—", "—")
	}
	ratio := "—"
	if r.Ratio != nil {
		ratio = fmt.Sprintf("%.2f×", *r.Ratio)
		if r.RatioKind == "vazao" {
			ratio = fmt.Sprintf("%.3f", *r.Ratio)
		}
	}
	return fmt.Sprintf("%9.1f %8.2f %8.2f %5d %9s", r.RPS, r.P50Ms, r.P99Ms, r.TotalErrors(), ratio)
}

// pgShort is "PostgreSQL 15.20" out of version()'s long text.
func pgShort(v string) string {
	f := strings.Fields(v)
	if len(f) < 2 {
		return v
	}
	return f[0] + " " + f[1]
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// tailText is where a run's slowest 1% started, for the p99's reading.
func tailText(t *load.Tail) string {
	if t == nil {
		return ""
	}
	text := fmt.Sprintf(" (1%% mais lentas, %d op.: em %d de %d janelas de %d ms", t.Slow, t.WithSlow, t.Windows,
		load.TailWindow.Milliseconds())
	if t.WithSlow > 3 {
		text += fmt.Sprintf(", %.0f%% em 3 delas", 100*t.Top3Share)
		if len(t.Top3) > 0 {
			at := make([]string, len(t.Top3))
			for i, w := range t.Top3 {
				at[i] = fmt.Sprintf("%d a %d ms", w.Slow, w.AtMs)
			}
			text += ": " + strings.Join(at, ", ") + " do início"
		}
	}
	return text + ")"
}
