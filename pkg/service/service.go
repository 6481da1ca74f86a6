// Package service holds the start-up and shutdown steps that every ponto
// service's main shares, so each main reads as its own sections:
// configuration, telemetry, dependencies, servers, run.
package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/ponto/ponto/pkg/config"
	"github.com/ponto/ponto/pkg/logging"
)

// Main builds the service's JSON logger, calls run with a context that is
// cancelled on SIGTERM or SIGINT, and exits with status 1 when run fails.
// The level starts at info and run sets it from its configuration.
func Main(name string, run func(ctx context.Context, log *slog.Logger, level *slog.LevelVar) error) {
	level := new(slog.LevelVar)
	log := logging.New(name, os.Stdout, level)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	err := run(ctx, log, level)
	stop()
	if err != nil && !errors.Is(err, ErrHelpShown) && !errors.Is(err, ErrCommandDone) {
		log.Error("service stopped with an error", "err", err)
		os.Exit(1)
	}
}

// ErrHelpShown tells run to return at once: --help or --version was asked
// for and the usage has been printed. Main exits 0 on it.
var ErrHelpShown = errors.New("help shown")

// Configure parses cfg (see package config), sets the log level from logCfg
// and logs the effective configuration with secrets masked.
func Configure(cfg any, logCfg *logging.Config, log *slog.Logger, level *slog.LevelVar) error {
	help, err := config.Parse(cfg)
	if errors.Is(err, config.ErrHelpWanted) {
		fmt.Println(help)
		return ErrHelpShown
	}
	if err != nil {
		return err
	}
	l, err := logging.ParseLevel(logCfg.Level)
	if err != nil {
		return err
	}
	level.Set(l)
	log.Info("startup", "config", config.String(cfg))
	return nil
}
