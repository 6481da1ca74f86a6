package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/ponto/ponto/pkg/database/dbtest"
)

func TestClockInFourPunchDayAndSplitShift(t *testing.T) {
	t.Parallel()
	e, _, w := newShop(t, map[string]any{"nome": "Ana Souza"})

	times := []time.Time{
		local(2024, 3, 4, 8, 1).Add(1234 * time.Millisecond), local(2024, 3, 4, 12, 0),
		local(2024, 3, 4, 13, 2), local(2024, 3, 4, 17, 5), local(2024, 3, 4, 19, 0),
	}
	wantTipos := []string{"entrada", "almoço", "retorno almoço", "saída", "entrada"}
	var ids []int64
	for i, at := range times {
		e.clock.Set(at.Add(345 * time.Microsecond)) // below a millisecond: dropped
		r := e.pub("POST", "/registropontos", w.token, map[string]any{"endereco": " -23.5505200 ,  -46.633309 ", "funcionarioId": w.id})
		want(t, r, 200)
		rec := r.obj(t)
		ids = append(ids, id(rec))
		if rec["tipo"] != wantTipos[i] {
			t.Fatalf("punch %d: tipo %v, want %s", i, rec["tipo"], wantTipos[i])
		}
		if got, wantAt := rec["horarioRegistro"], at.UTC().Format("2006-01-02T15:04:05.000Z"); got != wantAt {
			t.Errorf("punch %d: horarioRegistro %v, want %s", i, got, wantAt)
		}
		if rec["localizacao"] != "-23.55052, -46.633309" || rec["status"] != "aprovado automaticamente" {
			t.Errorf("punch %d: %s", i, r.body)
		}
		for _, k := range []string{"dataSolicitar", "houveReajuste", "motivoAjuste"} {
			if v, ok := rec[k]; !ok || v != nil {
				t.Errorf("punch %d: %s = %v, want null", i, k, v)
			}
		}
		// NSR 1 is the employee's inclusion in the REP (AFD type 5),
		// recorded just before his first punch.
		if rec["nsr"] != float64(i+2) || len(rec["hash"].(string)) != 64 || rec["data"] != "2024-03-04" {
			t.Errorf("punch %d: nsr/hash/data: %s", i, r.body)
		}
		f := rec["funcionario"].(map[string]any)
		if f["id"] != float64(w.id) || f["nome"] != "Ana Souza" || f["cpfcnpj"] != w.cpf || f["codeVerify"] != nil || f["role"] != "funcionario" {
			t.Errorf("punch %d: funcionario %v", i, f)
		}
		earlier := f["registrosPonto"].([]any)
		if len(earlier) != i {
			t.Fatalf("punch %d: %d earlier records, want %d", i, len(earlier), i)
		}
		for j, x := range earlier {
			er := x.(map[string]any)
			if id(er) != ids[j] || er["tipo"] != wantTipos[j] {
				t.Errorf("punch %d: earlier[%d] = %v", i, j, er)
			}
			if _, has := er["funcionario"]; has {
				t.Errorf("punch %d: earlier record carries funcionario", i)
			}
		}
	}
	if n := e.count("registros_ponto"); n != 5 {
		t.Fatalf("%d punches stored", n)
	}
}

func TestClockInWorkdayFollowsCompanyTimeZone(t *testing.T) {
	t.Parallel()
	e, _, w := newShop(t, nil)

	first := e.punch(w, time.Date(2024, 3, 4, 22, 0, 0, 0, time.UTC)) // 19:00 on the 4th in São Paulo
	// 02:30 UTC on the 5th is 23:30 on the 4th in São Paulo: same workday.
	second := e.punch(w, time.Date(2024, 3, 5, 2, 30, 0, 0, time.UTC))
	// 03:30 UTC is 00:30 on the 5th: a new workday starts with entrada.
	third := e.punch(w, time.Date(2024, 3, 5, 3, 30, 0, 0, time.UTC))

	for _, c := range []struct {
		rec        map[string]any
		tipo, data string
		earlier    int
	}{{first, "entrada", "2024-03-04", 0}, {second, "almoço", "2024-03-04", 1}, {third, "entrada", "2024-03-05", 0}} {
		if c.rec["tipo"] != c.tipo || c.rec["data"] != c.data {
			t.Errorf("got tipo %v data %v, want %s %s", c.rec["tipo"], c.rec["data"], c.tipo, c.data)
		}
		if n := len(c.rec["funcionario"].(map[string]any)["registrosPonto"].([]any)); n != c.earlier {
			t.Errorf("%s %s: %d earlier records, want %d", c.tipo, c.data, n, c.earlier)
		}
	}
}

func TestClockInIdempotencyKey(t *testing.T) {
	t.Parallel()
	e, _, w := newShop(t, nil)
	body := map[string]any{"endereco": "-23.5, -46.6", "funcionarioId": w.id}

	e.clock.Set(local(2024, 3, 4, 8, 0))
	first := e.pub("POST", "/registropontos", w.token, body, "Idempotency-Key", "abc-123")
	want(t, first, 200)
	e.clock.Set(local(2024, 3, 4, 8, 1)) // the retry comes a minute later
	retry := e.pub("POST", "/registropontos", w.token, body, "Idempotency-Key", "abc-123")
	want(t, retry, 200)
	a, b := first.obj(t), retry.obj(t)
	if id(a) != id(b) || a["horarioRegistro"] != b["horarioRegistro"] || a["nsr"] != b["nsr"] || a["hash"] != b["hash"] {
		t.Fatalf("retry answered another record:\n%s\n%s", first.body, retry.body)
	}
	if retry.header.Get("Idempotent-Replayed") != "true" || first.header.Get("Idempotent-Replayed") != "" {
		t.Errorf("Idempotent-Replayed: first %q, retry %q", first.header.Get("Idempotent-Replayed"), retry.header.Get("Idempotent-Replayed"))
	}

	// The same key with another position is a client bug, not a retry.
	wantErr(t, e.pub("POST", "/registropontos", w.token, map[string]any{"endereco": "-22, -43", "funcionarioId": w.id},
		"Idempotency-Key", "abc-123"), 409, "idempotencia_divergente")
	wantErr(t, e.pub("POST", "/registropontos", w.token, body, "Idempotency-Key", strings.Repeat("k", 256)), 400, "validacao")

	// Concurrent twins: one punch, one answer.
	var wg sync.WaitGroup
	got := make([]response, 10)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = e.pub("POST", "/registropontos", w.token, body, "Idempotency-Key", "twins")
		}()
	}
	wg.Wait()
	twin := int64(0)
	for _, r := range got {
		want(t, r, 200)
		if twin == 0 {
			twin = id(r.obj(t))
		} else if id(r.obj(t)) != twin {
			t.Fatalf("concurrent twins made two punches: %d and %d", twin, id(r.obj(t)))
		}
	}
	// Without a key, or with a new one, a punch is a punch.
	want(t, e.pub("POST", "/registropontos", w.token, body), 200)
	if n := e.count("registros_ponto"); n != 3 {
		t.Fatalf("%d punches stored, want 3", n)
	}
	var maxNSR int
	// NSR 1 is the employee's inclusion (AFD type 5), then 3 punches.
	if err := e.db.QueryRow(context.Background(), `SELECT max(nsr) FROM registros_ponto`).Scan(&maxNSR); err != nil || maxNSR != 4 {
		t.Fatalf("NSRs used: %d (%v): replays must not consume NSRs", maxNSR, err)
	}
}

// chainHash recomputes a punch's hash as README.md documents it, on its
// own: SHA-256 over the AFD type-7 record's first 73 characters followed
// by the previous hash.
func chainHash(nsr int64, at time.Time, offsetMin int, cpf12, coletor, previous string, versao int) string {
	l := at.In(time.FixedZone("", offsetMin*60))
	dh := l.Format("2006-01-02T15:04") + ":00" + l.Format("-0700")
	recorded := dh // version 2: every DH field ends in :00
	if versao == 1 {
		recorded = l.Format("2006-01-02T15:04:05-0700")
	}
	rec := fmt.Sprintf("%09d", nsr) + "7" + dh + cpf12 + recorded + coletor + "0"
	if len(rec) != 73 {
		panic("type-7 prefix of " + fmt.Sprint(len(rec)) + " characters")
	}
	sum := sha256.Sum256([]byte(rec + previous))
	return hex.EncodeToString(sum[:])
}

func TestConcurrentPunchesGetGaplessNSRsAndAVerifiableChain(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	replicas := []string{e.public, e.replica(), e.replica()}
	c := e.company(1)
	escala := e.escala(c, "Comercial", standard())
	workers := make([]worker, 10)
	for i := range workers {
		workers[i] = e.funcionario(c, escala, nil)
	}
	_, outsider := e.outsider()

	var wg sync.WaitGroup
	errs := make(chan string, 60)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := workers[i%len(workers)]
			r := call(t, replicas[i%len(replicas)], "POST", "/registropontos", w.token,
				map[string]any{"endereco": "-23.5, -46.6", "funcionarioId": w.id})
			if r.status != 200 {
				errs <- fmt.Sprintf("punch %d: %d %s", i, r.status, r.body)
			}
		}()
	}
	for range 3 { // another company's punches meanwhile: a chain of their own
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := e.pub("POST", "/registropontos", outsider.token, map[string]any{"endereco": "1, 1", "funcionarioId": outsider.id}); r.status != 200 {
				errs <- fmt.Sprintf("outsider: %d %s", r.status, r.body)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
	cpfs := map[int64]string{outsider.id: outsider.cpf}
	for _, w := range workers {
		cpfs[w.id] = w.cpf
	}
	for empresa, n := range map[int64]int{1: 50, 2: 3} {
		verifyChain(t, e, empresa, n, cpfs)
	}
}

// verifyChain checks that company empresa's n punches and the type-5
// records of its employees (one inclusion before each employee's first
// punch) share the NSRs 1..N without gaps, and that each punch's hash
// chains to the previous punch's.
func verifyChain(t *testing.T, e *env, empresa int64, n int, cpfs map[int64]string) {
	t.Helper()
	rows, err := e.db.Query(context.Background(), `SELECT nsr, funcionario_id, horario_registro, fuso_minutos, cpf, coletor, hash,
			hash_versao
		FROM registros_ponto WHERE empresa_id = $1
		UNION ALL SELECT nsr, funcionario_id, gravado_em, fuso_minutos, cpf, operacao, NULL, NULL
		FROM empregados_rep WHERE empresa_id = $1 ORDER BY nsr`, empresa)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	previous, count, punches := "", 0, 0
	included := map[int64]bool{}
	var last time.Time
	for rows.Next() {
		var nsr, funcionario int64
		var at time.Time
		var offset int
		var cpf12, coletor string
		var hash *string
		var versao *int
		if err := rows.Scan(&nsr, &funcionario, &at, &offset, &cpf12, &coletor, &hash, &versao); err != nil {
			t.Fatal(err)
		}
		count++
		if nsr != int64(count) {
			t.Fatalf("company %d: NSR %d where %d was due", empresa, nsr, count)
		}
		digits := strings.NewReplacer(".", "", "-", "").Replace(cpfs[funcionario])
		if cpf12 != "0"+digits || offset != -180 {
			t.Fatalf("NSR %d: cpf %q offset %d", nsr, cpf12, offset)
		}
		if at.Before(last) {
			t.Errorf("NSR %d stamped %v, before the previous record's %v", nsr, at, last)
		}
		last = at
		if hash == nil { // a type-5 record
			if coletor != "I" || included[funcionario] {
				t.Fatalf("NSR %d: operation %q for employee %d (included before: %v)", nsr, coletor, funcionario, included[funcionario])
			}
			included[funcionario] = true
			continue
		}
		punches++
		if !included[funcionario] || coletor != "01" {
			t.Fatalf("NSR %d: punch of employee %d not included before, or collector %q", nsr, funcionario, coletor)
		}
		if want := chainHash(nsr, at, offset, cpf12, coletor, previous, *versao); *hash != want {
			t.Fatalf("company %d NSR %d: hash %s, recomputed %s", empresa, nsr, *hash, want)
		}
		previous = *hash
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if punches != n {
		t.Fatalf("company %d: %d punches, want %d", empresa, punches, n)
	}
	var head int
	var headHash string
	if err := e.db.QueryRow(context.Background(), `SELECT ultimo_nsr, ultimo_hash FROM cadeias WHERE empresa_id = $1`, empresa).
		Scan(&head, &headHash); err != nil || head != count || headHash != previous {
		t.Fatalf("company %d chain head: %d %s (%v), want %d %s", empresa, head, headHash, err, count, previous)
	}
}

func TestPunchesAreAppendOnlyInTheDatabase(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	p := e.punch(w, local(2024, 3, 4, 8, 0))
	e.clock.Set(local(2024, 3, 6, 12, 0))
	want(t, e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-05", w.id), c.token, nil), 200)
	want(t, e.pub("PUT", path("/registropontos/solicitar/%d", id(p)), w.token,
		map[string]any{"dataSolicitar": "2024-03-04T11:05:00.000Z", "funcionarioId": w.id, "motivo": "esqueci"}), 200)

	ctx := context.Background()
	// The service's own role holds SELECT and INSERT only, and owns
	// nothing: PostgreSQL refuses before any trigger runs.
	records := map[string]string{"registros_ponto": "tipo", "empregados_rep": "nome", "faltas": "data",
		"ajustes_historico": "motivo"}
	var asService []string
	for table, column := range records {
		asService = append(asService, `UPDATE `+table+` SET `+column+` = `+column, `DELETE FROM `+table,
			`TRUNCATE `+table+` CASCADE`, `ALTER TABLE `+table+` DISABLE TRIGGER ALL`,
			`ALTER TABLE `+table+` DISABLE TRIGGER USER`, `DROP TABLE `+table+` CASCADE`)
	}
	for _, sql := range asService {
		_, err := e.db.Exec(ctx, sql)
		if pgErr := (*pgconn.PgError)(nil); !errors.As(err, &pgErr) || pgErr.Code != "42501" {
			t.Errorf("%s as the service role: err = %v, want permission denied", sql, err)
		}
	}
	// The owner, who migrates, still meets the append-only triggers.
	owner := dbtest.AsOwner(t, e.dbURL)
	for _, sql := range []string{
		`UPDATE registros_ponto SET horario_registro = horario_registro - interval '1 hour'`,
		`UPDATE registros_ponto SET tipo = 'saída'`,
		`DELETE FROM registros_ponto`,
		`TRUNCATE registros_ponto CASCADE`,
		`UPDATE faltas SET data = data + 1`,
		`DELETE FROM faltas`,
		`UPDATE ajustes_historico SET motivo = 'outro'`,
		`DELETE FROM ajustes_historico`,
		`UPDATE empregados_rep SET nome = 'outro'`,
		`TRUNCATE empregados_rep`,
	} {
		_, err := owner.Exec(ctx, sql)
		if err == nil || !strings.Contains(err.Error(), "aceita apenas inclusões") {
			t.Errorf("%s as the owner: err = %v, want the triggers to refuse", sql, err)
		}
	}
	var at time.Time
	var tipo string
	if err := e.db.QueryRow(ctx, `SELECT horario_registro, tipo FROM registros_ponto WHERE id = $1`, id(p)).Scan(&at, &tipo); err != nil ||
		!at.Equal(local(2024, 3, 4, 8, 0)) || tipo != "entrada" || e.count("faltas") != 1 || e.count("ajustes_historico") != 1 {
		t.Fatalf("records changed: %v %s %v", at, tipo, err)
	}
}

func TestClockInRefusals(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	colleague := e.funcionario(c, w.escalaID, nil)
	ok := map[string]any{"endereco": "-23.5, -46.6", "funcionarioId": w.id}

	for _, bad := range []string{"", "abc", "-23.5,-46.6,1", "91, 0", "-90.0001, 0", "0, 180.5", "1e1, 2",
		"NaN, 1", "-23.5 -46.6", "+23.5, 46.6", "23.5., 46.6", strings.Repeat("1", 70)} {
		r := e.pub("POST", "/registropontos", w.token, map[string]any{"endereco": bad, "funcionarioId": w.id})
		wantErr(t, r, 400, "validacao")
		if _, named := r.fields(t)["endereco"]; !named {
			t.Errorf("%q: fields %v", bad, r.fields(t))
		}
	}
	for _, good := range []string{"90, 180", "-90,-180", "0, 0", "-0.0, 12"} {
		r := e.pub("POST", "/registropontos", w.token, map[string]any{"endereco": good, "funcionarioId": w.id})
		want(t, r, 200)
	}
	r := e.pub("POST", "/registropontos", w.token, map[string]any{"endereco": "-0.0, 12", "funcionarioId": w.id})
	if got := r.obj(t)["localizacao"]; got != "0, 12" {
		t.Errorf("localizacao %v, want \"0, 12\"", got)
	}
	punches := e.count("registros_ponto")

	wantErr(t, e.pub("POST", "/registropontos", w.token, map[string]any{"endereco": "1, 1"}), 400, "validacao")
	wantErr(t, e.pub("POST", "/registropontos", w.token, map[string]any{"endereco": "1, 1", "funcionarioId": w.id, "horario": "x"}), 400, "validacao")
	wantErr(t, e.pub("POST", "/registropontos", w.token, `{"endereco": "1, 1", "funcionarioId": `), 400, "json_invalido")
	wantErr(t, e.pub("POST", "/registropontos", w.token, map[string]any{"endereco": "1, 1", "funcionarioId": colleague.id}), 403, "funcionario_divergente")
	wantErr(t, e.pub("POST", "/registropontos", c.token, ok), 403, "acesso_negado")
	wantErr(t, e.pub("POST", "/registropontos", "", ok), 401, "nao_autenticado")
	// A token naming another company than the employee's: 404, as for any
	// other tenant's resource.
	wantErr(t, e.pub("POST", "/registropontos", e.iss.Funcionario(t, 2, w.id), ok), 404, "nao_encontrado")
	// An employee the employee service does not know.
	wantErr(t, e.pub("POST", "/registropontos", e.iss.Funcionario(t, 1, 999999), map[string]any{"endereco": "1, 1", "funcionarioId": 999999}), 404, "nao_encontrado")

	// Deactivated by the company: refused.
	r = call(t, e.emp.public, "PATCH", path("/funcionarios/%d", colleague.id), c.token, map[string]any{"ativo": false})
	want(t, r, 200)
	if len(e.emp.revocations.Calls()) != 1 {
		t.Fatalf("employee service revoked %v", e.emp.revocations.Calls())
	}
	wantErr(t, e.pub("POST", "/registropontos", colleague.token, map[string]any{"endereco": "1, 1", "funcionarioId": colleague.id}), 403, "funcionario_inativo")

	if n := e.count("registros_ponto"); n != punches {
		t.Fatalf("refused clock-ins stored punches: %d, want %d", n, punches)
	}

	// The employee service down: 503 and no punch.
	e.emp.stop()
	wantErr(t, e.pub("POST", "/registropontos", w.token, ok), http.StatusServiceUnavailable, "dependencia_indisponivel")
	var nsr int
	if err := e.db.QueryRow(context.Background(), `SELECT ultimo_nsr FROM cadeias WHERE empresa_id = 1`).Scan(&nsr); err != nil ||
		nsr != punches+e.count("empregados_rep") || e.count("registros_ponto") != punches {
		t.Fatalf("a punch was stored while the employee service was down (head %d, %v)", nsr, err)
	}
}

func TestOwnRecords(t *testing.T) {
	t.Parallel()
	e, c, w := newShop(t, nil)
	colleague := e.funcionario(c, w.escalaID, nil)
	e.punch(w, local(2024, 3, 4, 8, 0))
	e.punch(w, local(2024, 3, 4, 12, 0))
	e.punch(colleague, local(2024, 3, 4, 8, 0))
	e.punch(w, local(2024, 4, 1, 8, 0)) // next month
	e.clock.Set(local(2024, 3, 20, 12, 0))
	want(t, e.pub("POST", path("/registropontos/%d/marcar-falta/2024-03-05", w.id), c.token, nil), 200)

	var page struct {
		Itens []map[string]any `json:"itens"`
		Total int              `json:"total"`
	}
	// Default period: the current month (March, by the clock).
	r := e.pub("GET", "/registropontos/me", w.token, nil)
	want(t, r, 200)
	r.into(t, &page)
	if page.Total != 3 || len(page.Itens) != 3 || page.Itens[2]["tipo"] != "falta" || page.Itens[2]["status"] != "falta registrada pela empresa" {
		t.Fatalf("own records: %s", r.body)
	}
	for _, it := range page.Itens {
		if it["funcionarioId"] != float64(w.id) {
			t.Fatalf("a colleague's record: %v", it)
		}
	}
	r = e.pub("GET", "/registropontos/me?inicio=2024-03-01&fim=2024-04-30&tamanho=2&pagina=2", w.token, nil)
	want(t, r, 200)
	r.into(t, &page)
	if page.Total != 4 || len(page.Itens) != 2 || page.Itens[1]["data"] != "2024-04-01" {
		t.Fatalf("page 2: %s", r.body)
	}
	wantErr(t, e.pub("GET", "/registropontos/me?inicio=2024-03-10&fim=2024-03-01", w.token, nil), 400, "validacao")
	wantErr(t, e.pub("GET", "/registropontos/me?inicio=2023-01-01&fim=2024-03-01", w.token, nil), 400, "validacao")
	wantErr(t, e.pub("GET", "/registropontos/me?inicio=2024-02-30", w.token, nil), 400, "validacao")
	wantErr(t, e.pub("GET", "/registropontos/me", c.token, nil), 403, "acesso_negado")
}
