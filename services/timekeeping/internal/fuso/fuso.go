// Package fuso resolves the time zone a punch, a workday or a document is
// in: the employee's own fusoHorario (his place of work) when he has one,
// else his company's (company-billing's record, default
// America/Sao_Paulo). Company zones are kept for a TTL so that a
// clock-in rarely calls company-billing; a zone change reaches punches at
// most one TTL later, and never rewrites a stored record (each keeps the
// offset it was written with).
package fuso

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/sync/singleflight"

	"github.com/ponto/ponto/pkg/domainerr"
	companybillingapi "github.com/ponto/ponto/services/company-billing/internalapi"
	"github.com/ponto/ponto/services/timekeeping/core"
	"github.com/ponto/ponto/services/timekeeping/internal/clients/employee"
)

// cacheSize bounds the companies whose zone is kept.
const cacheSize = 100_000

// Companies reads a company's record (companybillingapi.Client).
type Companies interface {
	GetEmpresa(ctx context.Context, id int64) (companybillingapi.Empresa, error)
}

// Zones finds zones.
type Zones struct {
	companies Companies
	fallback  *time.Location
	entries   *expirable.LRU[int64, Empresa]
	loads     singleflight.Group
}

// Empresa is a company's record with its zone loaded.
type Empresa struct {
	companybillingapi.Empresa
	Zone *time.Location
}

// New returns Zones reading companies, keeping each company's zone for
// ttl (0: not at all). fallback is the zone of a company whose record
// names none (a company-billing older than the zone field).
func New(companies Companies, ttl time.Duration, fallback *time.Location) *Zones {
	z := &Zones{companies: companies, fallback: fallback}
	if ttl > 0 {
		z.entries = expirable.NewLRU[int64, Empresa](cacheSize, nil, ttl)
	}
	return z
}

// Empresa is company empresaID's zone.
func (z *Zones) Empresa(ctx context.Context, empresaID int64) (*time.Location, error) {
	e, err := z.Record(ctx, empresaID)
	return e.Zone, err
}

// Record is company empresaID's record (as cached: at most one TTL old)
// with its zone.
func (z *Zones) Record(ctx context.Context, empresaID int64) (Empresa, error) {
	if z.entries != nil {
		if e, ok := z.entries.Get(empresaID); ok {
			return e, nil
		}
	}
	return z.Fresh(ctx, empresaID)
}

// Fresh is Record read from company-billing now (and cached), for the
// documents that print the employer: they show its current record.
func (z *Zones) Fresh(ctx context.Context, empresaID int64) (Empresa, error) {
	v, err, _ := z.loads.Do(strconv.FormatInt(empresaID, 10), func() (any, error) {
		rec, err := z.companies.GetEmpresa(ctx, empresaID)
		if err != nil {
			return nil, err
		}
		e := Empresa{Empresa: rec, Zone: z.fallback}
		if rec.FusoHorario != "" {
			if e.Zone, err = Load(rec.FusoHorario); err != nil {
				return nil, domainerr.BadDependency("company-billing", err)
			}
		}
		if z.entries != nil {
			z.entries.Add(empresaID, e)
		}
		return e, nil
	})
	if err != nil {
		return Empresa{}, err
	}
	return v.(Empresa), nil
}

// Funcionario is the zone of an employee whose own zone is own ("" or
// nil: none) in company empresaID.
func (z *Zones) Funcionario(ctx context.Context, empresaID int64, own *string) (*time.Location, error) {
	if own != nil && *own != "" {
		loc, err := Load(*own)
		if err != nil {
			return nil, domainerr.BadDependency("employee", err)
		}
		return loc, nil
	}
	return z.Empresa(ctx, empresaID)
}

// locations caches time.LoadLocation, which reads the zone database each
// time.
var locations sync.Map

// Load is time.LoadLocation for an IANA name, cached.
func Load(name string) (*time.Location, error) {
	if v, ok := locations.Load(name); ok {
		return v.(*time.Location), nil
	}
	if name == "" || name == "Local" {
		return nil, fmt.Errorf("fuso: %q is not an IANA time zone", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("fuso: %w", err)
	}
	locations.Store(name, loc)
	return loc, nil
}

// Employee is the part of an employee record that places his punches in
// time: his own zone and his schedule (employee.Funcionario).
type Employee interface {
	Zone() *string
	Schedule() *core.Escala
}

// Jornada is the workday (core.Jornada) that instant t belongs to for
// employee f of company empresaID.
func (z *Zones) Jornada(ctx context.Context, empresaID int64, f Employee, t time.Time) (time.Time, error) {
	loc, err := z.Funcionario(ctx, empresaID, f.Zone())
	if err != nil {
		return time.Time{}, err
	}
	return core.Jornada(t, loc, f.Schedule()), nil
}

// Workdays place an instant in an employee's workday, reading his record
// (his zone and schedule) from the employee service.
type Workdays struct {
	Employees *employee.Client
	Zones     *Zones
}

// Funcionario returns employee id of company empresaID (an error when he
// is not the company's) with the zone of his workdays.
func (w Workdays) Funcionario(ctx context.Context, empresaID, id int64) (employee.Funcionario, *time.Location, error) {
	f, err := w.Employees.Funcionario(ctx, empresaID, id)
	if err != nil {
		return employee.Funcionario{}, nil, err
	}
	zone, err := w.Zones.Funcionario(ctx, empresaID, f.FusoHorario)
	if err != nil {
		return employee.Funcionario{}, nil, err
	}
	return f, zone, nil
}

// Jornada is the workday of employee funcionarioID of company empresaID
// that t belongs to.
func (w Workdays) Jornada(ctx context.Context, empresaID, funcionarioID int64, t time.Time) (time.Time, error) {
	f, err := w.Employees.Funcionario(ctx, empresaID, funcionarioID)
	if err != nil {
		return time.Time{}, err
	}
	return w.Zones.Jornada(ctx, empresaID, f, t)
}

// Vinculo refuses a treatment of employee f's workday d outside his
// employment bond (before the admission, after the termination): 409
// fora_do_vinculo, as nothing is owed there to treat.
func Vinculo(f employee.Funcionario, d time.Time) error {
	if !f.ForaDoVinculo(d) {
		return nil
	}
	return domainerr.Conflict("fora_do_vinculo", "a data "+d.Format("02/01/2006")+
		" está fora do vínculo do funcionário (antes da admissão ou depois da demissão)")
}
