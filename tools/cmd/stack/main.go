// Command stack runs ponto's local development stack (make run) until
// Ctrl-C, or, as "stack deps -- cmd...", only MinIO and stripe-mock around
// one command (make test).
//
//	go run ./tools/cmd/stack [-gateway 127.0.0.1:8080] [-log-level info] [-openapi file]
//	go run ./tools/cmd/stack deps -- go test ./...
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync/atomic"
	"syscall"

	"github.com/ponto/ponto/tools/stack"
)

const usage = `uso:
  stack [opções]                 sobe a stack local (make run) até Ctrl-C
  stack deps -- comando [args]   garante MinIO e stripe-mock, roda o comando
                                 com TEST_MINIO_* e TEST_STRIPE_URL e sai com
                                 o código dele (make test)

opções:
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "deps" {
		return runDeps(args[1:], stderr)
	}
	opts, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	opts.Output = stdout
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// After the first signal the default action comes back, so a
		// second Ctrl-C ends a slow shutdown at once (Pdeathsig still
		// sends the children SIGTERM).
		<-ctx.Done()
		stop()
	}()
	if err := stack.Run(ctx, opts); err != nil {
		fmt.Fprintf(stderr, "stack: %v\n", err)
		return 1
	}
	return 0
}

func parseFlags(args []string, stderr io.Writer) (stack.Options, error) {
	opts := stack.Defaults()
	// make run keeps going when a service crashes: it is started again.
	opts.RestartCrashed = true
	fs := flag.NewFlagSet("stack", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	fs.StringVar(&opts.GatewayAddr, "gateway", opts.GatewayAddr, "endereço do gateway (host:porta)")
	fs.StringVar(&opts.LogLevel, "log-level", "info", "LOG_LEVEL dos serviços: debug, info, warn ou error")
	fs.StringVar(&opts.OpenAPIFile, "openapi", "", "arquivo servido pelo gateway em /openapi.yaml (padrão: "+stack.DefaultOpenAPIFile+" do repositório)")
	fs.BoolVar(&opts.SkipBuild, "no-build", false, "usar os binários já em bin/ sem compilar")
	fs.StringVar(&opts.PostgresURL, "postgres-url", os.Getenv("PONTO_POSTGRES_URL"),
		"URL de administração do PostgreSQL (padrão: $PONTO_POSTGRES_URL, senão postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable)")
	fs.StringVar(&opts.RedisAddr, "redis-addr", os.Getenv("PONTO_REDIS_ADDR"),
		"endereço do Redis, host:porta (padrão: $PONTO_REDIS_ADDR, senão 127.0.0.1:6379)")
	if err := fs.Parse(args); err != nil {
		return opts, err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "stack: argumento inesperado %q\n", fs.Arg(0))
		fs.Usage()
		return opts, errors.New("argumentos")
	}
	return opts, nil
}

// runDeps is "stack deps -- cmd args": dependencies up, the command run
// with their addresses, what was started stopped, the command's code out.
func runDeps(args []string, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(stderr, "uso: stack deps -- comando [args]")
		return 2
	}
	opts := stack.Defaults()
	logFile, err := openDepsLog(&opts)
	if err != nil {
		fmt.Fprintf(stderr, "stack: %v\n", err)
		return 1
	}
	defer logFile.Close()
	// MinIO and stripe-mock (which logs every request) go to a file, so
	// the command's own output stays readable.
	opts.Output = logFile
	code := withDeps(opts, args, os.Stdin, os.Stdout, stderr)
	if code != 0 {
		fmt.Fprintf(stderr, "stack deps: saída de MinIO e stripe-mock em %s\n", logFile.Name())
	}
	return code
}

func openDepsLog(opts *stack.Options) (*os.File, error) {
	root, err := stack.FindRepoRoot()
	if err != nil {
		return nil, err
	}
	opts.RepoRoot = root
	dir := filepath.Join(root, ".data")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	return os.OpenFile(filepath.Join(dir, "deps.log"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o640)
}

// withDeps runs args under the dependencies opts describe.
func withDeps(opts stack.Options, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Signals are caught from here on so that a Ctrl-C still stops what
	// was started: before the command runs they cancel the start, after
	// they are passed on to the command.
	var target atomic.Pointer[os.Process]
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		for sig := range sigs {
			if p := target.Load(); p != nil {
				_ = p.Signal(sig)
			} else {
				cancel()
			}
		}
	}()

	deps, err := stack.StartDeps(ctx, opts)
	if err != nil {
		fmt.Fprintf(stderr, "stack deps: %v\n", err)
		return 1
	}
	defer deps.Stop()
	return runCommand(ctx, args, deps.Env(), stdin, stdout, stderr, &target)
}

// runCommand runs the command in the stack's own process group, so a
// terminal's Ctrl-C reaches it directly.
func runCommand(ctx context.Context, args, env []string, stdin io.Reader, stdout, stderr io.Writer, target *atomic.Pointer[os.Process]) int {
	if ctx.Err() != nil {
		return 130 // interrupted while the dependencies started
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "stack deps: %v\n", err)
		return 127
	}
	target.Store(cmd.Process)
	err := cmd.Wait()
	return exitCode(cmd, err, stderr)
}

func exitCode(cmd *exec.Cmd, err error, stderr io.Writer) int {
	if cmd.ProcessState == nil {
		fmt.Fprintf(stderr, "stack deps: %v\n", err)
		return 1
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return cmd.ProcessState.ExitCode()
}
