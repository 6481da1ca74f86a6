package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ponto/ponto/tools/bench/load"
	"github.com/ponto/ponto/tools/bench/seed"
)

func TestScaledSeedHasTenTimesTheEmployees(t *testing.T) {
	full := seed.Full()
	ten := full.Scaled(10)
	employees := func(s seed.Size) int { return (s.Companies+s.Background)*s.PerCompany + s.BigCompany }
	if got, want := employees(ten), 10*employees(full); got != want {
		t.Fatalf("scale 10: %d employees; want %d", got, want)
	}
	if ten.Companies != full.Companies || ten.BigCompany != full.BigCompany || ten.BigDepartment != full.BigDepartment {
		t.Fatalf("the workloads' population changed: %+v", ten)
	}
	if full.Scaled(1) != full || full.Scaled(0) != full {
		t.Fatal("scale 1 or 0 changed the seed")
	}
}

// A scaled run is judged against the newest full scale-1 run in the
// directory: short runs and other scaled runs are passed over.
func TestCompareScale(t *testing.T) {
	dir := t.TempDir()
	ratio := func(v float64) *float64 { return &v }
	write := func(name string, rep Report) {
		b, _ := json.Marshal(rep)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	row := func(w string, cpu CPUPerOp, raw *float64) Row {
		return Row{Workload: w, Column: ColumnService, CPU: cpu, RatioRaw: raw, Result: load.Result{}}
	}
	base := Report{Settings: Settings{Scale: 1}, Rows: []Row{
		row("clockin-spread", CPUPerOp{"timekeeping": 0.1, "postgres": 0.1}, nil),
		row("report-json", nil, ratio(1.2)),
	}}
	write("20261124-100000.json", base)
	write("20261124-110000.json", Report{Short: true, Settings: Settings{Scale: 1}, Rows: base.Rows})
	write("20261124-120000.json", Report{Settings: Settings{Scale: 10}, Rows: base.Rows})

	got, name, err := loadBaseline("", dir)
	if err != nil || filepath.Base(name) != "20261124-100000.json" || got.Short {
		t.Fatalf("baseline %s %v", name, err)
	}
	scaled := &Report{Settings: Settings{Scale: 10}, Rows: []Row{
		// redis was not measured in the baseline: it is left out.
		row("clockin-spread", CPUPerOp{"timekeeping": 0.11, "postgres": 0.11, "redis": 0.05}, nil),
		row("report-json", nil, ratio(1.5)),
	}}
	scaled.compareScale(got, name)
	if len(scaled.Targets) != 2 {
		t.Fatalf("targets %+v", scaled.Targets)
	}
	if cpu := scaled.Targets[0]; !cpu.Met || !strings.Contains(cpu.Got, "1.10×") {
		t.Errorf("clock-in target %+v", cpu)
	}
	if rep := scaled.Targets[1]; rep.Met || !strings.Contains(rep.Got, "1.25×") {
		t.Errorf("report target %+v", rep)
	}

	// When both runs timed the report in turns with its read, those
	// ratios are compared, not the sequential ones.
	alternated := func(rep *Report, v float64) {
		rep.row("report-json", ColumnService).RatioRawAlternated = ratio(v)
	}
	alternated(got, 1.2)
	alternated(scaled, 1.32)
	scaled.Targets = nil
	scaled.compareScale(got, name)
	if rep := scaled.Targets[1]; !rep.Met || !strings.Contains(rep.Got, "1.32 contra 1.20 (1.10×)") {
		t.Errorf("report target in turns %+v", rep)
	}
	if _, _, err := loadBaseline("", t.TempDir()); err == nil {
		t.Error("an empty directory gave a baseline")
	}
}
