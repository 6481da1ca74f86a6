// Command bench is make bench (and make bench-short): it starts the local
// stack on free ports with its own databases, seeds it, measures the
// machine's floors and every workload, prints the table and saves it as
// JSON under .data/bench. See docs/performance.md.
//
//	go run ./tools/cmd/bench              # make bench
//	go run ./tools/cmd/bench -short       # make bench-short (part of make test)
//	go run ./tools/cmd/bench -pprof -only clockin
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/ponto/ponto/tools/bench"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opts bench.Options
	var only string
	fs.BoolVar(&opts.Short, "short", false, "variante curta: dados pequenos, ~2 s por carga; só verifica que nada falha")
	fs.DurationVar(&opts.Duration, "duration", 0, "duração medida de cada carga (padrão 15s; curta 1.5s)")
	fs.DurationVar(&opts.Soak, "soak", 0, "duração do soak, tráfego misto ao fim com RSS e goroutines de cada serviço (padrão 10m; curta 3s; 0 não roda)")
	fs.StringVar(&only, "only", "", "só as cargas cujo nome contém um destes (separados por vírgula): clockin, login, refresh, report, export, today, photo, receipt, soak")
	fs.BoolVar(&opts.Pprof, "pprof", false, "liga HTTP_PPROF nos serviços e salva um perfil de CPU de cada carga")
	fs.BoolVar(&opts.Keep, "keep", false, "não apagar os bancos ao terminar")
	fs.IntVar(&opts.Scale, "scale", 1, "multiplica as marcações semeadas com empresas de fundo (BENCH_SCALE); acima de 1, compara com uma execução 1×")
	fs.StringVar(&opts.Baseline, "baseline", "", "JSON da execução 1× a comparar (padrão: a mais recente em .data/bench)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if only != "" {
		opts.Only = strings.Split(only, ",")
	}
	soakSet := false
	fs.Visit(func(f *flag.Flag) { soakSet = soakSet || f.Name == "soak" })
	if soakSet && opts.Soak == 0 {
		opts.Soak = -1 // -soak 0: none
	}
	opts.Out = stdout
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := bench.Run(ctx, opts)
	if err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 1
	}
	if rep.Failed() {
		fmt.Fprintf(stderr, "bench: %d requisições falharam ou uma cadeia está quebrada (ver acima)\n", rep.Errors)
		return 1
	}
	return 0
}
