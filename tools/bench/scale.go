package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Storage is the disk the punch table takes after the seed, with its
// indexes, per million punches (the size PostgreSQL reports: heap with
// its TOAST, free-space and visibility maps; every index).
type Storage struct {
	Punches    int64   `json:"marcacoes"`
	TableBytes int64   `json:"tabelaBytes"`
	IndexBytes int64   `json:"indicesBytes"`
	TableMiBPM float64 `json:"tabelaMiBPorMilhao"`
	IndexMiBPM float64 `json:"indicesMiBPorMilhao"`
}

// measureStorage reads registros_ponto's size, after a VACUUM ANALYZE
// so that the maps exist and the figures are those of a settled table.
func measureStorage(ctx context.Context, db *pgxpool.Pool) (Storage, error) {
	var st Storage
	if _, err := db.Exec(ctx, `VACUUM (ANALYZE) registros_ponto`); err != nil {
		return st, err
	}
	err := db.QueryRow(ctx, `SELECT (SELECT count(*) FROM registros_ponto),
		pg_table_size('registros_ponto'), pg_indexes_size('registros_ponto')`).Scan(&st.Punches, &st.TableBytes, &st.IndexBytes)
	if err != nil || st.Punches == 0 {
		return st, err
	}
	perMillion := func(b int64) float64 { return float64(b) / (1 << 20) / (float64(st.Punches) / 1e6) }
	st.TableMiBPM, st.IndexMiBPM = perMillion(st.TableBytes), perMillion(st.IndexBytes)
	return st, nil
}

// scaleTolerance is how much a scaled run's figures may exceed the
// scale-1 run's: the clock-in's CPU per punch and each report's ratio to
// its raw read.
const scaleTolerance = 1.15

// loadBaseline reads the scale-1 run a scaled one is compared with: the
// file given, or the newest full (not short) scale-1 run in dir.
func loadBaseline(path, dir string) (*Report, string, error) {
	if path == "" {
		names, _ := filepath.Glob(filepath.Join(dir, "2*.json"))
		slices.Sort(names) // timestamped: the newest last
		for _, name := range slices.Backward(names) {
			if rep, err := readReport(name); err == nil && !rep.Short && rep.Settings.Scale <= 1 &&
				rep.row("clockin-spread", ColumnService) != nil {
				return rep, name, nil
			}
		}
		return nil, "", fmt.Errorf("nenhuma execução 1× completa em %s: rode make bench antes, ou -baseline", dir)
	}
	rep, err := readReport(path)
	return rep, path, err
}

func readReport(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rep Report
	return &rep, json.Unmarshal(b, &rep)
}

// compareScale adds the scale targets: the clock-in's CPU per punch
// (over the processes both runs measured) and each report's ratio to its
// raw read, within scaleTolerance of the baseline's.
func (rep *Report) compareScale(base *Report, name string) {
	label := fmt.Sprintf("escala %d× ≤ %.2f × a execução 1× (%s)", rep.Settings.Scale, scaleTolerance, filepath.Base(name))
	if now, then := rep.row("clockin-spread", ColumnService), base.row("clockin-spread", ColumnService); now != nil && then != nil {
		a, b := commonCPU(now.CPU, then.CPU)
		if b > 0 {
			rep.Targets = append(rep.Targets, Target{Name: "clockin-spread CPU por registro, " + label,
				Got: fmt.Sprintf("%.3f ms contra %.3f (%.2f×)", a, b, a/b), Met: a/b <= scaleTolerance})
		}
	}
	for _, w := range []string{"report-json", "report-csv"} {
		now, then := rep.row(w, ColumnService), base.row(w, ColumnService)
		if now == nil || then == nil {
			continue
		}
		// Both runs' ratios of the same kind: in turns when both have it.
		a, b := now.RatioRawAlternated, then.RatioRawAlternated
		if a == nil || b == nil {
			a, b = now.RatioRaw, then.RatioRaw
		}
		if a == nil || b == nil || *b == 0 {
			continue
		}
		x := *a / *b
		rep.Targets = append(rep.Targets, Target{Name: w + " razão à leitura ordenada, " + label,
			Got: fmt.Sprintf("%.2f contra %.2f (%.2f×)", *a, *b, x), Met: x <= scaleTolerance})
	}
}

// commonCPU sums the CPU per operation of the processes both maps hold.
func commonCPU(a, b CPUPerOp) (float64, float64) {
	var sa, sb float64
	for k, v := range a {
		if w, ok := b[k]; ok {
			sa, sb = sa+v, sb+w
		}
	}
	return sa, sb
}

func (st Storage) String() string {
	if st.Punches == 0 {
		return ""
	}
	return fmt.Sprintf("registros_ponto: %d marcações, tabela %.0f MiB + índices %.0f MiB = %.1f + %.1f MiB por milhão",
		st.Punches, float64(st.TableBytes)/(1<<20), float64(st.IndexBytes)/(1<<20), st.TableMiBPM, st.IndexMiBPM)
}
