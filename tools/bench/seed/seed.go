// Package seed fills a fresh stack with the benchmark's data: companies
// of a realistic size, their schedules, departments and employees, and a
// month of punches with valid NSR sequences and hash chains.
//
// What goes through the API and what goes straight to a database:
//
//   - companies: POST /empresas, the real registration (company-billing,
//     stripe-mock), a hundred calls;
//   - schedules, departments, segments and employees: SQL into the employee
//     service's database. Creating 12,000 employees through POST
//     /funcionarios costs a bcrypt hash each (about 10 minutes on two
//     cores); here one hash is shared by all, and no benchmark logs in with
//     a password;
//   - punches, absences and adjustments: SQL (COPY) into the timekeeping
//     database. The API stamps punches with the server's clock, so it can
//     only write today's; history has to be written directly. Each
//     company's punches get NSRs 1..n in time order and hashes chained as
//     the record core chains them (core.Hash), and the chain head is left
//     on the last one, so the service's own clock-ins continue the chains.
//     VerifyChains checks all of it after the benchmark.
package seed

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/sync/errgroup"

	"github.com/ponto/ponto/pkg/brdocs"
	"github.com/ponto/ponto/pkg/password"
	"github.com/ponto/ponto/services/timekeeping/core"
)

// Size is how much a run seeds.
type Size struct {
	// Companies and PerCompany make the population of the spread clock-in.
	Companies  int `json:"empresas"`
	PerCompany int `json:"funcionariosPorEmpresa"`
	// BigCompany is the one large company (single-company clock-in and the
	// report); BigDepartment of its employees are in the report's
	// department.
	BigCompany    int `json:"funcionariosEmpresaGrande"`
	BigDepartment int `json:"funcionariosDepartamento"`
	// HistoryDays of punches end yesterday.
	HistoryDays int `json:"diasDeHistorico"`
	// Background companies of PerCompany employees each have the same
	// history but take no part in the workloads: they make the tables
	// larger (make bench BENCH_SCALE=n) while every workload touches
	// the same employees as at scale 1.
	Background int `json:"empresasDeFundo,omitempty"`
}

// Scaled is s with n times its punches: the background companies hold
// (n − 1) times the employees of the spread and the big company.
func (s Size) Scaled(n int) Size {
	if n > 1 && s.PerCompany > 0 {
		s.Background = (n - 1) * (s.Companies*s.PerCompany + s.BigCompany) / s.PerCompany
	}
	return s
}

// Full is the data: 100 companies × 100 employees, one company of
// 2,000 with a 1,000-employee department, one month of history.
func Full() Size {
	return Size{Companies: 100, PerCompany: 100, BigCompany: 2000, BigDepartment: 1000, HistoryDays: 30}
}

// Short is make bench-short's: enough of everything for every workload
// to run, small enough to seed in seconds.
func Short() Size {
	return Size{Companies: 4, PerCompany: 10, BigCompany: 40, BigDepartment: 20, HistoryDays: 7}
}

// Department is the name of the report's department in the big company.
const Department = "Operações"

// Password is every seeded account's password.
const Password = "Bench2026senha"

// Employee is a seeded employee.
type Employee struct {
	ID        int64  `json:"id"`
	EmpresaID int64  `json:"empresaId"`
	Email     string `json:"email"`
}

// Company is a seeded company with its employees, in id order.
type Company struct {
	ID        int64      `json:"id"`
	Email     string     `json:"email"`
	Employees []Employee `json:"-"`
}

// Dataset is what was seeded.
type Dataset struct {
	Size   Size      `json:"tamanho"`
	Spread []Company `json:"-"`
	Big    Company   `json:"empresaGrande"`
	// Inicio and Fim bound the history (company-local dates).
	Inicio      time.Time `json:"inicio"`
	Fim         time.Time `json:"fim"`
	Punches     int64     `json:"marcacoes"`
	Absences    int64     `json:"faltas"`
	Adjustments int64     `json:"ajustes"`
	// Treatments counts the treatment rows: inclusions, disregards,
	// abonos and undone absences.
	Treatments int64   `json:"tratamentos"`
	Seconds    float64 `json:"segundos"`
}

// Config says where to seed.
type Config struct {
	GatewayURL    string
	EmployeeDB    *pgxpool.Pool
	TimekeepingDB *pgxpool.Pool
	// Zone is the companies' time zone (COMPANY_TIME_ZONE).
	Zone *time.Location
	Now  time.Time
	Size Size
	// Salt varies documents between runs.
	Salt int
	Log  func(format string, args ...any)
}

// Seed seeds everything and returns what it made.
func Seed(ctx context.Context, cfg Config) (*Dataset, error) {
	start := time.Now()
	y, m, d := cfg.Now.In(cfg.Zone).Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	ds := &Dataset{Size: cfg.Size, Inicio: today.AddDate(0, 0, -cfg.Size.HistoryDays), Fim: today.AddDate(0, 0, -1)}

	cfg.Log("empresas: %d pela API (POST /empresas)", cfg.Size.Companies+1+cfg.Size.Background)
	companies, err := registerCompanies(ctx, cfg, cfg.Size.Companies+1+cfg.Size.Background)
	if err != nil {
		return nil, err
	}
	hash, err := password.Hash(Password)
	if err != nil {
		return nil, err
	}
	cfg.Log("escalas, departamentos e %d funcionários por SQL",
		(cfg.Size.Companies+cfg.Size.Background)*cfg.Size.PerCompany+cfg.Size.BigCompany)
	// The spread's companies first, then the big one, then the
	// background.
	var staff [][]staffMember
	for i, c := range companies {
		n, big := cfg.Size.PerCompany, i == cfg.Size.Companies
		if big {
			n = cfg.Size.BigCompany
		}
		s, err := seedEmployees(ctx, cfg, c, n, big, hash)
		if err != nil {
			return nil, err
		}
		companies[i].Employees = employeesOf(s)
		staff = append(staff, s)
	}
	ds.Spread, ds.Big = companies[:cfg.Size.Companies], companies[cfg.Size.Companies]

	cfg.Log("histórico de %d dias por COPY, com NSR e hash encadeado", cfg.Size.HistoryDays)
	if err := seedHistory(ctx, cfg, ds, companies, staff); err != nil {
		return nil, err
	}
	if ds.Adjustments, err = seedAdjustments(ctx, cfg.TimekeepingDB); err != nil {
		return nil, err
	}
	if ds.Treatments, err = seedTreatments(ctx, cfg.TimekeepingDB); err != nil {
		return nil, err
	}
	if err := settle(ctx, cfg); err != nil {
		return nil, err
	}
	ds.Seconds = time.Since(start).Seconds()
	return ds, nil
}

// registerCompanies registers n companies through the gateway, a few at
// a time (each costs three stripe-mock calls and a bcrypt hash).
func registerCompanies(ctx context.Context, cfg Config, n int) ([]Company, error) {
	out := make([]Company, n)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for i := range n {
		g.Go(func() error {
			c, err := registerCompany(gctx, cfg, i)
			out[i] = c
			return err
		})
	}
	return out, g.Wait()
}

func registerCompany(ctx context.Context, cfg Config, i int) (Company, error) {
	doc := cnpj(i, cfg.Salt)
	if !brdocs.ValidCNPJ(doc) {
		return Company{}, fmt.Errorf("seed: CNPJ gerado inválido: %s", doc)
	}
	email := fmt.Sprintf("empresa%03d.%d@bench.ponto.test", i+1, cfg.Salt)
	body, _ := json.Marshal(map[string]string{
		"cnpj": doc, "dataAbertura": "15/03/2012", "email": email, "nome": fmt.Sprintf("Empresa Bench %03d", i+1),
		"nomeDoPlano": "basic", "password": Password, "razaoSocial": fmt.Sprintf("Empresa Bench %03d Ltda", i+1),
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.GatewayURL+"/empresas", bytes.NewReader(body))
	if err != nil {
		return Company{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return Company{}, fmt.Errorf("seed: POST /empresas: %w", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out struct {
		SavedEmpresa struct {
			ID int64 `json:"id"`
		} `json:"savedEmpresa"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(raw, &out) != nil || out.SavedEmpresa.ID == 0 {
		return Company{}, fmt.Errorf("seed: POST /empresas = %d: %.300s", resp.StatusCode, raw)
	}
	return Company{ID: out.SavedEmpresa.ID, Email: email}, nil
}

// schedule is a work schedule as the employee service stores it: entries
// from Monday; the three numbers are minutes after entrada.
type schedule struct {
	nome                              string
	entrada                           int // minutes after local midnight
	saidaAlmoco, retornoAlmoco, saida int
	days                              int
}

var schedules = []schedule{
	{nome: "Comercial", entrada: 8 * 60, saidaAlmoco: 240, retornoAlmoco: 300, saida: 540, days: 5},
	{nome: "Turno da tarde 6x1", entrada: 13 * 60, saidaAlmoco: 180, retornoAlmoco: 240, saida: 500, days: 6},
}

func (s schedule) horarios() string {
	h := map[string]any{"entrada": fmt.Sprintf("%02d:%02d", s.entrada/60, s.entrada%60),
		"saidaAlmoco": s.saidaAlmoco, "retornoAlmoco": s.retornoAlmoco, "saida": s.saida}
	list := make([]any, s.days)
	for i := range list {
		list[i] = h
	}
	b, _ := json.Marshal(list)
	return string(b)
}

// departments of every company; the big company puts BigDepartment of
// its employees in the first one.
var departments = []string{Department, "Administrativo", "Vendas", "Logística"}

// staffMember is an employee with what the history needs.
type staffMember struct {
	Employee
	cpf      string
	nome     string
	schedule schedule
}

func employeesOf(s []staffMember) []Employee {
	out := make([]Employee, len(s))
	for i, m := range s {
		out[i] = m.Employee
	}
	return out
}

// seedEmployees creates c's schedules, departments (two segments each)
// and n employees.
func seedEmployees(ctx context.Context, cfg Config, c Company, n int, big bool, hash string) ([]staffMember, error) {
	db := cfg.EmployeeDB
	escalaIDs := make([]int64, len(schedules))
	for i, s := range schedules {
		minutes := s.saida - (s.retornoAlmoco - s.saidaAlmoco)
		if err := db.QueryRow(ctx, `INSERT INTO escalas_trabalho (empresa_id, nome, horarios, minutos_diarios)
			VALUES ($1, $2, $3, $4) RETURNING id`, c.ID, s.nome, s.horarios(), minutes).Scan(&escalaIDs[i]); err != nil {
			return nil, fmt.Errorf("seed: escala: %w", err)
		}
	}
	depIDs := make([]int64, len(departments))
	for i, nome := range departments {
		if err := db.QueryRow(ctx, `INSERT INTO departamentos (empresa_id, nome) VALUES ($1, $2) RETURNING id`,
			c.ID, nome).Scan(&depIDs[i]); err != nil {
			return nil, fmt.Errorf("seed: departamento: %w", err)
		}
		if _, err := db.Exec(ctx, `INSERT INTO segmentos (departamento_id, numero, nome) VALUES ($1, 1, 'Equipe A'), ($1, 2, 'Equipe B')`,
			depIDs[i]); err != nil {
			return nil, fmt.Errorf("seed: segmentos: %w", err)
		}
	}
	r := rand.New(rand.NewPCG(uint64(c.ID), uint64(cfg.Salt)))
	rows := make([][]any, n)
	schedOf := make(map[string]int, n) // e-mail → schedule index
	for i := range n {
		dep := i % len(departments)
		if big {
			dep = 0
			if i >= cfg.Size.BigDepartment {
				dep = 1 + i%(len(departments)-1)
			}
		}
		sched := 0
		if i%5 == 4 {
			sched = 1
		}
		email := fmt.Sprintf("func%05d.empresa%d.%d@bench.ponto.test", i+1, c.ID, cfg.Salt)
		doc := cpf(int(c.ID)*100_000+i, cfg.Salt)
		if !brdocs.ValidCPF(doc) {
			return nil, fmt.Errorf("seed: CPF gerado inválido: %s", doc)
		}
		schedOf[email] = sched
		birth := time.Date(1970+r.IntN(35), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC)
		admissao := cfg.Now.AddDate(0, -1-r.IntN(60), -r.IntN(28))
		rows[i] = []any{c.ID, escalaIDs[sched], depIDs[dep], int32(1 + i%2), fullName(r), cargos[r.IntN(len(cargos))],
			email, doc, fmt.Sprintf("119%08d", r.IntN(100_000_000)), birth, hash, true, admissao}
	}
	if _, err := db.CopyFrom(ctx, pgx.Identifier{"funcionarios"}, []string{"empresa_id", "escala_trabalho_id",
		"departamento_id", "segmento", "nome", "cargo", "email", "cpf", "telefone", "data_nascimento",
		"password_hash", "clt", "data_admissao"}, pgx.CopyFromRows(rows)); err != nil {
		return nil, fmt.Errorf("seed: funcionários: %w", err)
	}
	q, _ := db.Query(ctx, `SELECT id, email, cpf, nome FROM funcionarios WHERE empresa_id = $1 ORDER BY id`, c.ID)
	staff, err := pgx.CollectRows(q, func(row pgx.CollectableRow) (staffMember, error) {
		m := staffMember{Employee: Employee{EmpresaID: c.ID}}
		err := row.Scan(&m.ID, &m.Email, &m.cpf, &m.nome)
		m.schedule = schedules[schedOf[m.Email]]
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("seed: funcionários: %w", err)
	}
	return staff, nil
}

// event is one seeded REP record before its NSR is known: a punch, or
// (when timekeeping keeps the AFD's type-5 records) the inclusion of an
// employee, which comes right before his first punch.
type event struct {
	funcionarioID int64
	jornada       time.Time
	at            time.Time
	inclusion     bool
	tipo          string
	local         string
	cpf12         string
	nome          string
}

var tipos = [...]string{"entrada", "almoço", "retorno almoço", "saída"}

// schema is what the timekeeping database has beyond the first
// migration; the seed fills what exists.
type schema struct {
	empregadosREP  bool // AFD type-5 records share the NSR sequence
	locaisTrabalho bool // work places (geofence)
}

func readSchema(ctx context.Context, db *pgxpool.Pool) (schema, error) {
	var s schema
	err := db.QueryRow(ctx, `SELECT to_regclass('empregados_rep') IS NOT NULL, to_regclass('locais_trabalho') IS NOT NULL`).
		Scan(&s.empregadosREP, &s.locaisTrabalho)
	return s, err
}

// seedHistory writes every company's history, two companies at a time
// (one COPY each).
func seedHistory(ctx context.Context, cfg Config, ds *Dataset, companies []Company, staff [][]staffMember) error {
	sch, err := readSchema(ctx, cfg.TimekeepingDB)
	if err != nil {
		return err
	}
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(2)
	for i, c := range companies {
		g.Go(func() error {
			punches, absences, err := seedCompanyHistory(gctx, cfg, sch, ds, c, staff[i])
			mu.Lock()
			defer mu.Unlock()
			ds.Punches += punches
			ds.Absences += absences
			return err
		})
	}
	return g.Wait()
}

func seedCompanyHistory(ctx context.Context, cfg Config, sch schema, ds *Dataset, c Company, staff []staffMember) (int64, int64, error) {
	r := rand.New(rand.NewPCG(uint64(c.ID), 7))
	var events []event
	var faltas [][]any
	included := map[int64]bool{}
	for day := ds.Inicio; !day.After(ds.Fim); day = day.AddDate(0, 0, 1) {
		midnight := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, cfg.Zone)
		weekday := (int(day.Weekday()) + 6) % 7 // 0 = Monday, as the schedules count
		for _, m := range staff {
			s := m.schedule
			if weekday >= s.days {
				continue
			}
			if r.IntN(100) < 2 { // an absence the company marked
				faltas = append(faltas, []any{c.ID, m.ID, day, midnight.UTC(), midnight.Add(33 * time.Hour).UTC()})
				continue
			}
			offsets := []int{s.entrada - 5 + r.IntN(20), s.entrada + s.saidaAlmoco - 10 + r.IntN(20),
				s.entrada + s.retornoAlmoco - 10 + r.IntN(20), s.entrada + s.saida - 10 + r.IntN(40)}
			if r.IntN(100) == 0 { // forgot the last punch
				offsets = offsets[:3]
			}
			for k, minute := range offsets {
				at := midnight.Add(time.Duration(minute)*time.Minute + time.Duration(r.IntN(60_000))*time.Millisecond).UTC()
				e := event{funcionarioID: m.ID, jornada: day, at: at, tipo: tipos[k], local: location(r),
					cpf12: cpf12(m.cpf), nome: m.nome}
				if sch.empregadosREP && !included[m.ID] {
					included[m.ID] = true
					inc := e
					inc.inclusion = true
					events = append(events, inc)
				}
				events = append(events, e)
			}
		}
	}
	// NSRs follow time, as the service gives them; an inclusion comes
	// just before the punch it was recorded with.
	slices.SortStableFunc(events, func(a, b event) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		if a.inclusion != b.inclusion {
			if a.inclusion {
				return -1
			}
			return 1
		}
		return 0
	})
	var punches int
	err := pgx.BeginFunc(ctx, cfg.TimekeepingDB, func(tx pgx.Tx) error {
		// The company's chain may already hold records: its registration's
		// type 2 (and any type 5), written by timekeeping from the outboxes
		// while the seed runs. The history continues from the head, under
		// the same row lock the service takes.
		base, anterior, err := lockChainHead(ctx, tx, c.ID)
		if err != nil {
			return err
		}
		rows, inclusions, anterior, err := chainEvents(events, base, anterior, c.ID, cfg.Zone)
		if err != nil {
			return err
		}
		punches = len(rows)
		if err := copyRows(ctx, tx, "registros_ponto", []string{"empresa_id", "funcionario_id", "jornada",
			"horario_registro", "tipo", "localizacao", "nsr", "hash", "cpf", "fuso_minutos", "coletor"}, rows); err != nil {
			return err
		}
		if err := copyRows(ctx, tx, "faltas", []string{"empresa_id", "funcionario_id", "data", "inicio_dia",
			"registrado_em"}, faltas); err != nil {
			return err
		}
		if sch.empregadosREP {
			if err := copyRows(ctx, tx, "empregados_rep", []string{"empresa_id", "nsr", "funcionario_id", "operacao",
				"cpf", "nome", "responsavel", "gravado_em", "fuso_minutos"}, inclusions); err != nil {
				return err
			}
		}
		if sch.locaisTrabalho {
			// One work place whose radius takes in most of the seeded
			// positions: some punches fall outside, as in real life.
			if _, err := tx.Exec(ctx, `INSERT INTO locais_trabalho (empresa_id, nome, endereco, latitude, longitude,
				raio_metros, criado_em) VALUES ($1, 'Sede', 'Av. Paulista, 1000, São Paulo - SP', -23.5614, -46.6559,
				9000, $2)`, c.ID, ds.Inicio.AddDate(0, -1, 0)); err != nil {
				return fmt.Errorf("seed: local de trabalho: %w", err)
			}
		}
		var head *string
		if anterior != "" {
			head = &anterior
		}
		_, err = tx.Exec(ctx, `UPDATE cadeias SET ultimo_nsr = $2, ultimo_hash = $3 WHERE empresa_id = $1 AND estabelecimento_id = 0`,
			c.ID, base+int64(len(events)), head)
		return err
	})
	return int64(punches), int64(len(faltas)), err
}

// lockChainHead locks company empresaID's chain row, creating it when the
// company has no record yet, and answers its last NSR and punch hash.
func lockChainHead(ctx context.Context, tx pgx.Tx, empresaID int64) (int64, string, error) {
	if _, err := tx.Exec(ctx, `INSERT INTO cadeias (empresa_id) VALUES ($1) ON CONFLICT (empresa_id, estabelecimento_id) DO NOTHING`, empresaID); err != nil {
		return 0, "", fmt.Errorf("seed: cadeias: %w", err)
	}
	var nsr int64
	var hash *string
	if err := tx.QueryRow(ctx, `SELECT ultimo_nsr, ultimo_hash FROM cadeias WHERE empresa_id = $1 AND estabelecimento_id = 0 FOR UPDATE`,
		empresaID).Scan(&nsr, &hash); err != nil {
		return 0, "", fmt.Errorf("seed: cadeias: %w", err)
	}
	if hash == nil {
		return nsr, "", nil
	}
	return nsr, *hash, nil
}

// chainEvents numbers the events after NSR base and chains the punches'
// hashes from anterior, the hash of the company's last punch; it answers
// the punch and type-5 rows and the new last hash.
func chainEvents(events []event, base int64, anterior string, empresaID int64, zone *time.Location) (punches, inclusions [][]any, last string, err error) {
	for i, e := range events {
		nsr := base + int64(i+1)
		_, off := e.at.In(zone).Zone()
		if e.inclusion {
			inclusions = append(inclusions, []any{empresaID, nsr, e.funcionarioID, "I", e.cpf12, e.nome, responsavelSistema,
				e.at, int16(off / 60)})
			continue
		}
		h, err := punchHash(nsr, e.at, off/60, e.cpf12, core.ColetorMobile, anterior, core.HashVersion)
		if err != nil {
			return nil, nil, "", err
		}
		punches = append(punches, []any{empresaID, e.funcionarioID, e.jornada, e.at, e.tipo, e.local, nsr, h, e.cpf12,
			int16(off / 60), "01"})
		anterior = h
	}
	return punches, inclusions, anterior, nil
}

// responsavelSistema is the "who changed it" CPF of the type-5 records
// ponto writes itself (afd.ResponsavelSistema).
const responsavelSistema = "00000000000"

func copyRows(ctx context.Context, tx pgx.Tx, table string, cols []string, rows [][]any) error {
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromRows(rows)); err != nil {
		return fmt.Errorf("seed: %s: %w", table, err)
	}
	return nil
}

// location is a position in São Paulo, as the service normalises it.
func location(r *rand.Rand) string {
	lat := math.Round((-23.50-r.Float64()*0.15)*1e5) / 1e5
	lng := math.Round((-46.55-r.Float64()*0.2)*1e5) / 1e5
	return strconv.FormatFloat(lat, 'f', -1, 64) + ", " + strconv.FormatFloat(lng, 'f', -1, 64)
}

// seedAdjustments asks for an adjustment on about 1% of the punches and
// approves two thirds of them, with their history, as employees and
// companies would have.
func seedAdjustments(ctx context.Context, db *pgxpool.Pool) (int64, error) {
	var n int64
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO ajustes (registro_id, empresa_id, funcionario_id, status,
				data_solicitar, motivo, solicitado_em, decidido_em)
			SELECT id, empresa_id, funcionario_id,
				CASE WHEN id % 3 = 0 THEN 'ajuste solicitado' ELSE 'ajuste aprovado pela empresa' END,
				horario_registro - interval '9 minutes', 'Esqueci de registrar no horário',
				horario_registro + interval '2 hours',
				CASE WHEN id % 3 = 0 THEN NULL ELSE horario_registro + interval '1 day' END
			FROM registros_ponto WHERE id % 97 = 0`)
		if err != nil {
			return fmt.Errorf("seed: ajustes: %w", err)
		}
		n = tag.RowsAffected()
		_, err = tx.Exec(ctx, `INSERT INTO ajustes_historico (registro_id, empresa_id, status, data_solicitar,
				motivo, autor_role, autor_id, registrado_em)
			SELECT registro_id, empresa_id, 'ajuste solicitado', data_solicitar, motivo, 'funcionario',
				funcionario_id, solicitado_em FROM ajustes
			UNION ALL
			SELECT registro_id, empresa_id, status, data_solicitar, motivo, 'empresa', empresa_id, decidido_em
			FROM ajustes WHERE decidido_em IS NOT NULL`)
		if err != nil {
			return fmt.Errorf("seed: histórico de ajustes: %w", err)
		}
		return nil
	})
	return n, err
}

// treatments are the treatment program's rows a company's HR would have
// made over the history (docs/compliance.md, "Treatment"), so that the
// department report is measured reading them: an exit included 37
// minutes after the last punch on about 1 in 41 workdays; about 1 in 211
// punches disregarded, a third of those reconsidered; an afternoon abono
// on about 1 in 157 workdays and a whole-day one on half the absences;
// every fifth absence undone.
var treatments = []string{
	`INSERT INTO marcacoes_incluidas (empresa_id, funcionario_id, jornada, horario, fuso_minutos, motivo, autor_id, registrado_em)
	SELECT empresa_id, funcionario_id, jornada, date_trunc('minute', max(horario_registro)) + interval '37 minutes',
		min(fuso_minutos), 'Saída esquecida', empresa_id, max(horario_registro) + interval '1 day'
	FROM registros_ponto
	WHERE (funcionario_id + (jornada - date '2000-01-01')) % 41 = 0
	GROUP BY empresa_id, funcionario_id, jornada`,
	`INSERT INTO desconsideracoes (registro_id, empresa_id, funcionario_id, jornada, desconsiderada, motivo, autor_id, registrado_em)
	SELECT id, empresa_id, funcionario_id, jornada, true, 'Marcação em duplicidade', empresa_id, horario_registro + interval '1 day'
	FROM registros_ponto WHERE id % 211 = 0
	UNION ALL
	SELECT id, empresa_id, funcionario_id, jornada, false, 'Desconsiderada por engano', empresa_id, horario_registro + interval '2 days'
	FROM registros_ponto WHERE id % 633 = 0`,
	`INSERT INTO abonos (empresa_id, funcionario_id, data, inicio, fim, tipo, motivo, autor_id, registrado_em)
	SELECT empresa_id, funcionario_id, jornada, 780, 1020, 'declaracao_comparecimento', 'Consulta médica à tarde',
		empresa_id, max(horario_registro) + interval '1 day'
	FROM registros_ponto
	WHERE (funcionario_id + (jornada - date '2000-01-01')) % 157 = 0
	GROUP BY empresa_id, funcionario_id, jornada
	UNION ALL
	SELECT empresa_id, funcionario_id, data, NULL, NULL, 'atestado_medico', 'Atestado médico', empresa_id, registrado_em
	FROM faltas WHERE id % 2 = 0`,
	`INSERT INTO faltas_desfeitas (falta_id, empresa_id, motivo, autor_id, registrado_em)
	SELECT id, empresa_id, 'Lançada por engano', empresa_id, registrado_em + interval '1 hour'
	FROM faltas WHERE id % 5 = 0`,
}

// seedTreatments writes treatments in one transaction and counts the rows.
func seedTreatments(ctx context.Context, db *pgxpool.Pool) (int64, error) {
	var n int64
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		for _, sql := range treatments {
			tag, err := tx.Exec(ctx, sql)
			if err != nil {
				return fmt.Errorf("seed: tratamentos: %w", err)
			}
			n += tag.RowsAffected()
		}
		return nil
	})
	return n, err
}

// settle gives the planner statistics and flushes the seed's WAL, so that
// neither autovacuum nor a checkpoint lands in the middle of a
// measurement.
func settle(ctx context.Context, cfg Config) error {
	for _, db := range []*pgxpool.Pool{cfg.EmployeeDB, cfg.TimekeepingDB} {
		if _, err := db.Exec(ctx, `VACUUM (ANALYZE)`); err != nil {
			return fmt.Errorf("seed: vacuum: %w", err)
		}
	}
	if _, err := cfg.TimekeepingDB.Exec(ctx, `CHECKPOINT`); err != nil {
		return fmt.Errorf("seed: checkpoint: %w", err)
	}
	return nil
}

// String describes the dataset in one line.
func (d *Dataset) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d empresas × %d funcionários + 1 empresa de %d (departamento %q com %d); ",
		d.Size.Companies, d.Size.PerCompany, d.Size.BigCompany, Department, d.Size.BigDepartment)
	fmt.Fprintf(&b, "%d marcações, %d faltas, %d ajustes e %d tratamentos de %s a %s (%.0f s)", d.Punches, d.Absences, d.Adjustments, d.Treatments,
		d.Inicio.Format(time.DateOnly), d.Fim.Format(time.DateOnly), d.Seconds)
	return b.String()
}
