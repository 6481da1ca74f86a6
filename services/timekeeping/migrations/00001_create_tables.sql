-- +goose Up

-- The head of each company's chain of punches: the last NSR given and the
-- hash of that punch. A clock-in increments ultimo_nsr with
-- INSERT ... ON CONFLICT DO UPDATE, which locks this row until its
-- transaction ends: punches of one company are numbered one at a time
-- across every replica, and a punch that rolls back gives its NSR back, so
-- the sequence has no gaps. marcar-falta takes the same lock so that an
-- absence and a punch of the same day cannot slip past each other.
CREATE TABLE cadeias (
    empresa_id  BIGINT PRIMARY KEY CHECK (empresa_id > 0),
    ultimo_nsr  BIGINT NOT NULL DEFAULT 0 CHECK (ultimo_nsr >= 0),
    ultimo_hash CHAR(64)
);

-- Punches and absences are both "time records" addressed by registroId in
-- the routes, so their ids come from one sequence and never collide.
CREATE SEQUENCE registros_id_seq;

-- Original punches (REP-P, Portaria MTP 671/2021): append-only, see the
-- triggers below. Adjustments live in ajustes; horario_registro is never
-- changed.
CREATE TABLE registros_ponto (
    id               BIGINT PRIMARY KEY DEFAULT nextval('registros_id_seq'),
    empresa_id       BIGINT      NOT NULL CHECK (empresa_id > 0),
    funcionario_id   BIGINT      NOT NULL CHECK (funcionario_id > 0),
    -- The company-local date the punch belongs to, fixed at punch time.
    jornada          DATE        NOT NULL,
    horario_registro TIMESTAMPTZ NOT NULL,
    tipo             TEXT        NOT NULL CHECK (tipo IN ('entrada', 'almoço', 'retorno almoço', 'saída')),
    localizacao      TEXT        NOT NULL,
    nsr              BIGINT      NOT NULL CHECK (nsr > 0),
    -- SHA-256 (lowercase hex) of the AFD type-7 record's first 73
    -- characters followed by the previous punch's hash: internal/afd.
    hash             CHAR(64)    NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
    -- What the hash covers besides nsr and horario_registro, kept so that
    -- anyone can recompute it: the CPF (12 digits), the company's UTC
    -- offset in minutes at the punch, and the collector code.
    cpf              CHAR(12)    NOT NULL CHECK (cpf ~ '^[0-9]{12}$'),
    fuso_minutos     SMALLINT    NOT NULL CHECK (fuso_minutos BETWEEN -900 AND 900),
    coletor          CHAR(2)     NOT NULL CHECK (coletor IN ('01', '02', '03', '04', '05')),
    idempotency_key  TEXT,
    CONSTRAINT registros_ponto_nsr UNIQUE (empresa_id, nsr),
    CONSTRAINT registros_ponto_idempotencia UNIQUE (funcionario_id, idempotency_key)
);
-- The workday of one employee (tipo sequence, marcar-falta) and the
-- department report (employees x date range).
CREATE INDEX registros_ponto_jornada ON registros_ponto (funcionario_id, jornada, nsr);

-- Absences marked by the company: one per employee and date. They are not
-- REP punches, so they have no NSR and no place in the hash chain.
CREATE TABLE faltas (
    id             BIGINT PRIMARY KEY DEFAULT nextval('registros_id_seq'),
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    funcionario_id BIGINT      NOT NULL CHECK (funcionario_id > 0),
    data           DATE        NOT NULL,
    -- The company-local midnight that starts data, shown as horarioRegistro.
    inicio_dia     TIMESTAMPTZ NOT NULL,
    registrado_em  TIMESTAMPTZ NOT NULL,
    CONSTRAINT faltas_funcionario_data UNIQUE (funcionario_id, data)
);

-- The current adjustment of a punch (at most one per punch). This table
-- changes with each transition; ajustes_historico keeps every step.
CREATE TABLE ajustes (
    registro_id    BIGINT      PRIMARY KEY REFERENCES registros_ponto (id),
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    funcionario_id BIGINT      NOT NULL CHECK (funcionario_id > 0),
    status         TEXT        NOT NULL CHECK (status IN
                       ('ajuste solicitado', 'ajuste aprovado pela empresa', 'ajuste reprovado pela empresa')),
    data_solicitar TIMESTAMPTZ NOT NULL,
    motivo         TEXT        NOT NULL,
    solicitado_em  TIMESTAMPTZ NOT NULL,
    decidido_em    TIMESTAMPTZ,
    CONSTRAINT ajustes_decisao CHECK ((status = 'ajuste solicitado') = (decidido_em IS NULL))
);
CREATE INDEX ajustes_empresa_status ON ajustes (empresa_id, status, solicitado_em, registro_id);

-- Every change of an adjustment, who made it and when. Append-only.
CREATE TABLE ajustes_historico (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    registro_id    BIGINT      NOT NULL REFERENCES registros_ponto (id),
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    status         TEXT        NOT NULL,
    data_solicitar TIMESTAMPTZ NOT NULL,
    motivo         TEXT        NOT NULL,
    autor_role     TEXT        NOT NULL CHECK (autor_role IN ('funcionario', 'empresa')),
    autor_id       BIGINT      NOT NULL CHECK (autor_id > 0),
    registrado_em  TIMESTAMPTZ NOT NULL
);
CREATE INDEX ajustes_historico_registro ON ajustes_historico (registro_id, id);

-- The database itself refuses to change or remove punches, absences and
-- history, whatever the application does: these triggers fire for every
-- role, including the tables' owner.
-- +goose StatementBegin
CREATE FUNCTION somente_inclusao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'a tabela % aceita apenas inclusões (% recusado)', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'restrict_violation';
END
$$;
-- +goose StatementEnd

CREATE TRIGGER registros_ponto_somente_inclusao BEFORE UPDATE OR DELETE ON registros_ponto
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER registros_ponto_sem_truncate BEFORE TRUNCATE ON registros_ponto
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER faltas_somente_inclusao BEFORE UPDATE OR DELETE ON faltas
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER faltas_sem_truncate BEFORE TRUNCATE ON faltas
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER ajustes_historico_somente_inclusao BEFORE UPDATE OR DELETE ON ajustes_historico
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER ajustes_historico_sem_truncate BEFORE TRUNCATE ON ajustes_historico
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();

-- +goose Down
DROP TABLE ajustes_historico;
DROP TABLE ajustes;
DROP TABLE faltas;
DROP TABLE registros_ponto;
DROP SEQUENCE registros_id_seq;
DROP TABLE cadeias;
DROP FUNCTION somente_inclusao();
