package bench

import "fmt"

// LoopBound is how low a closed loop's latency can go on the machine that
// ran it, which says whether a p99 target was in reach at all.
//
// The load generator keeps every connection busy, so by Little's law the
// mean latency is the connections over the throughput, and no p99 is
// below the mean. The throughput itself is bounded by the cores: every
// process of the run (the services, PostgreSQL, Redis and the load
// generator) shares them, so at the run's CPU per operation they cannot
// do more than cores ÷ CPU a second, and the mean cannot fall below
// connections × CPU ÷ cores even with every core busy all the time.
type LoopBound struct {
	// Conns, Cores and CPUMs are what it is computed from: the run's
	// connections, the machine's cores and the CPU of every process per
	// operation.
	Conns int     `json:"conexoes"`
	Cores int     `json:"nucleos"`
	CPUMs float64 `json:"cpuMsPorOperacao"`
	// MeanMs is connections ÷ req/s: the run's mean latency.
	MeanMs float64 `json:"mediaMs"`
	// MaxRPS is cores ÷ CPU per operation.
	MaxRPS float64 `json:"maxReqPorSegundo"`
	// MinMeanMs is connections ÷ MaxRPS: the lowest mean these cores allow
	// at this CPU per operation.
	MinMeanMs float64 `json:"mediaMinimaMs"`
	// Busy is the share of the cores the run's processes used.
	Busy float64 `json:"usoDosNucleos"`
}

// loopBound is row's bound on cores, nil without a throughput, CPU
// figures or a core count.
func loopBound(row *Row, cores int) *LoopBound {
	cpu := row.CPU.total() // ms per operation
	if row.RPS <= 0 || cpu <= 0 || cores <= 0 || row.Conns <= 0 {
		return nil
	}
	maxRPS := float64(cores) * 1000 / cpu
	return &LoopBound{
		Conns:     row.Conns,
		Cores:     cores,
		CPUMs:     cpu,
		MeanMs:    float64(row.Conns) * 1000 / row.RPS,
		MaxRPS:    maxRPS,
		MinMeanMs: float64(row.Conns) * 1000 / maxRPS,
		Busy:      row.RPS / maxRPS,
	}
}

// text is the bound as the p99 target prints it.
func (b *LoopBound) text() string {
	if b == nil {
		return ""
	}
	return fmt.Sprintf("; laço fechado: média %.1f ms = %d conexões ÷ req/s; a %.3f ms de CPU por op. (todos os processos), "+
		"%d núcleos dão no máximo %.0f req/s (%.0f%% em uso): média ≥ %.1f ms",
		b.MeanMs, b.Conns, b.CPUMs, b.Cores, b.MaxRPS, 100*b.Busy, b.MinMeanMs)
}
