package ledger

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ponto/ponto/services/timekeeping/core"
)

// The batch's second round trip writes the type-5 records, the punches and
// the moved chain heads, and commits. A type 5 written before a punch
// carries the company's responsible person in force at the punch
// (core.ResponsavelEmVigor, in SQL: the latest in force at or before it,
// of two at one instant the later named).
const (
	insertREPsSQL = `INSERT INTO empregados_rep (empresa_id, estabelecimento_id, nsr, funcionario_id, operacao, cpf, nome,
			responsavel, gravado_em, fuso_minutos)
		SELECT u.empresa_id, u.estabelecimento_id, u.nsr, u.funcionario_id, u.operacao, u.cpf, u.nome,
			coalesce((SELECT r.responsavel FROM responsaveis_empresa r
				WHERE r.empresa_id = u.empresa_id AND r.vigente_desde <= u.gravado_em
				ORDER BY r.vigente_desde DESC, r.id DESC LIMIT 1), $1), u.gravado_em, u.fuso
		FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::text[],
			$9::timestamptz[], $10::smallint[])
			AS u(empresa_id, estabelecimento_id, nsr, funcionario_id, operacao, cpf, nome, gravado_em, fuso)`
	insertPunchesSQL = `INSERT INTO registros_ponto (empresa_id, estabelecimento_id, funcionario_id, jornada,
			horario_registro, tipo, localizacao, nsr, hash, hash_versao, cpf, fuso_minutos, coletor, idempotency_key,
			local_trabalho_id, distancia_metros, fora_do_local, gravado_em, offline, dispositivo_id, relogio_divergente)
		SELECT u.empresa_id, u.estabelecimento_id, u.funcionario_id, u.jornada, u.horario, u.tipo, u.localizacao, u.nsr,
			u.hash, $1, u.cpf, u.fuso, u.coletor, u.chave, u.local_id, u.distancia, u.fora, u.gravado,
			u.gravado IS NOT NULL, u.dispositivo, coalesce(u.divergente, false)
		FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::date[], $6::timestamptz[], $7::text[], $8::text[],
			$9::bigint[], $10::text[], $11::text[], $12::smallint[], $13::text[], $14::text[], $15::bigint[], $16::int[],
			$17::boolean[], $18::timestamptz[], $19::bigint[], $20::boolean[])
			AS u(empresa_id, estabelecimento_id, funcionario_id, jornada, horario, tipo, localizacao, nsr, hash, cpf, fuso,
				coletor, chave, local_id, distancia, fora, gravado, dispositivo, divergente)
		RETURNING id, empresa_id, estabelecimento_id, nsr`
	moveChainsSQL = `UPDATE cadeias c SET ultimo_nsr = u.nsr, ultimo_hash = u.hash
		FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[]) AS u(empresa_id, estabelecimento_id, nsr, hash)
		WHERE c.empresa_id = u.empresa_id AND c.estabelecimento_id = u.estabelecimento_id`
)

// punchKey is a punch by its place in its chain.
type punchKey struct {
	chain Chain
	nsr   int64
}

func (pl *plan) write(ctx context.Context, conn *pgx.Conn) error {
	b := &pgx.Batch{}
	if len(pl.reps) > 0 {
		b.Queue(insertREPsSQL, append([]any{core.ResponsavelSistema}, pl.repColumns()...)...)
	}
	if len(pl.punches) > 0 {
		byNSR := make(map[punchKey]*Row, len(pl.punches))
		for _, p := range pl.punches {
			byNSR[punchKey{Chain{p.EmpresaID, p.estabelecimentoID}, *p.NSR}] = p.Row
		}
		b.Queue(insertPunchesSQL, append([]any{core.HashVersion}, pl.punchColumns()...)...).Query(
			func(rows pgx.Rows) error {
				var id int64
				var k punchKey
				_, err := pgx.ForEachRow(rows, []any{&id, &k.chain.EmpresaID, &k.chain.EstabelecimentoID, &k.nsr},
					func() error {
						byNSR[k].ID = id
						return nil
					})
				return err
			})
		b.Queue(moveChainsSQL, pl.chainColumns()...)
	}
	b.Queue("COMMIT")
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("ledger: insert: %w", err)
	}
	return nil
}

func (pl *plan) repColumns() []any {
	n := len(pl.reps)
	empresas, estabs, nsrs, funcionarios := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	operacoes, cpfs, nomes := make([]string, n), make([]string, n), make([]string, n)
	gravados, fusos := make([]time.Time, n), make([]int16, n)
	for i, r := range pl.reps {
		empresas[i], estabs[i], nsrs[i], funcionarios[i] = r.chain.EmpresaID, r.chain.EstabelecimentoID, r.nsr, r.funcionarioID
		operacoes[i], cpfs[i], nomes[i], gravados[i], fusos[i] = r.operacao, r.cpf, r.nome, r.gravadoEm, r.fuso
	}
	return []any{empresas, estabs, nsrs, funcionarios, operacoes, cpfs, nomes, gravados, fusos}
}

func (pl *plan) punchColumns() []any {
	n := len(pl.punches)
	empresas, estabs, funcionarios, nsrs := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	jornadas, horarios := make([]time.Time, n), make([]time.Time, n)
	tipos, localizacoes, hashes, cpfs := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	fusos, coletores, keys := make([]int16, n), make([]string, n), make([]*string, n)
	locals, distancias, foras := make([]*int64, n), make([]*int32, n), make([]*bool, n)
	gravados, dispositivos, divergentes := make([]*time.Time, n), make([]*int64, n), make([]*bool, n)
	for i, p := range pl.punches {
		empresas[i], estabs[i], funcionarios[i], nsrs[i] = p.EmpresaID, p.estabelecimentoID, p.FuncionarioID, *p.NSR
		jornadas[i], horarios[i], tipos[i], localizacoes[i], hashes[i] = p.Jornada, p.HorarioRegistro, p.Tipo, *p.Localizacao, *p.Hash
		cpfs[i], fusos[i], coletores[i], keys[i] = p.cpf, p.fuso, p.coletor, p.key
		if g := p.local; g != nil {
			d := int32(g.DistanciaMetros)
			locals[i], distancias[i], foras[i] = &g.LocalTrabalhoID, &d, &g.Fora
		}
		if o := p.offline; o != nil {
			gravados[i], divergentes[i] = p.Gravacao, &o.Divergente
			if o.DispositivoID != 0 { // a kiosk's punch names no employee's device
				dispositivos[i] = &o.DispositivoID
			}
		}
	}
	return []any{empresas, estabs, funcionarios, jornadas, horarios, tipos, localizacoes, nsrs, hashes, cpfs, fusos,
		coletores, keys, locals, distancias, foras, gravados, dispositivos, divergentes}
}

func (pl *plan) chainColumns() []any {
	var empresas, estabs, nsrs []int64
	var hashes []string
	for c, h := range pl.heads {
		if h.moved {
			empresas, estabs = append(empresas, c.EmpresaID), append(estabs, c.EstabelecimentoID)
			nsrs, hashes = append(nsrs, h.NSR), append(hashes, h.Hash)
		}
	}
	return []any{empresas, estabs, nsrs, hashes}
}

// outcomes answers each call once the batch is committed (and the punches
// have their ids).
func (pl *plan) outcomes() []outcome {
	outs := make([]outcome, len(pl.calls))
	for i := range pl.calls {
		if err, ok := pl.gone[i]; ok {
			outs[i] = outcome{err: err}
			continue
		}
		if twin, ok := pl.twins[i]; ok {
			outs[i] = outcome{r: twin, replayed: true, twin: true}
			continue
		}
		outs[i] = outcome{r: *pl.punches[pl.of[i]].Row, earlier: pl.earlier[i], replayed: pl.replay[i]}
	}
	return outs
}

// rollback ends conn's transaction, if one is open, so that the
// connection goes back to the pool; if it cannot, Release closes it.
func rollback(ctx context.Context, conn *pgx.Conn) {
	if conn.IsClosed() || conn.PgConn().TxStatus() == 'I' {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	_, _ = conn.Exec(ctx, "ROLLBACK")
}
