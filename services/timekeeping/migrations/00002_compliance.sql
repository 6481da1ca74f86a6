-- +goose Up

-- The AFD's type-5 records: an employee included in (I) or changed in (A)
-- the company's REP-P. Timekeeping learns about an employee when he first
-- punches, so the inclusion is recorded in that clock-in's transaction,
-- under the company's chain lock, just before the punch: it takes the next
-- NSR from cadeias like a punch does (one gapless NSR sequence per company
-- over both tables). A later punch with another name or CPF records an
-- alteration first. Append-only, like the punches.
CREATE TABLE empregados_rep (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    nsr            BIGINT      NOT NULL CHECK (nsr > 0),
    funcionario_id BIGINT      NOT NULL CHECK (funcionario_id > 0),
    operacao       CHAR(1)     NOT NULL CHECK (operacao IN ('I', 'A', 'E')),
    cpf            CHAR(12)    NOT NULL CHECK (cpf ~ '^[0-9]{12}$'),
    -- The name as the employee service had it; the AFD writes 52
    -- ISO-8859-1 characters of it.
    nome           TEXT        NOT NULL,
    -- CPF of whoever made the change: zeros, no person does (the company
    -- account has no CPF); see docs/compliance.md.
    responsavel    CHAR(11)    NOT NULL CHECK (responsavel ~ '^[0-9]{11}$'),
    gravado_em     TIMESTAMPTZ NOT NULL,
    fuso_minutos   SMALLINT    NOT NULL CHECK (fuso_minutos BETWEEN -900 AND 900),
    CONSTRAINT empregados_rep_nsr UNIQUE (empresa_id, nsr)
);
CREATE INDEX empregados_rep_funcionario ON empregados_rep (funcionario_id, nsr);

CREATE TRIGGER empregados_rep_somente_inclusao BEFORE UPDATE OR DELETE ON empregados_rep
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER empregados_rep_sem_truncate BEFORE TRUNCATE ON empregados_rep
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();

-- The company's holiday calendar: work on these dates is overtime at 100%
-- and no work is expected.
CREATE TABLE feriados (
    empresa_id BIGINT      NOT NULL CHECK (empresa_id > 0),
    data       DATE        NOT NULL,
    nome       TEXT        NOT NULL,
    criado_em  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (empresa_id, data)
);

-- The company's work places: a point and a radius (geofence). Removing one
-- keeps its row (removido_em), because punches name the place they were
-- checked against.
CREATE TABLE locais_trabalho (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id  BIGINT           NOT NULL CHECK (empresa_id > 0),
    nome        TEXT             NOT NULL,
    endereco    TEXT             NOT NULL,
    latitude    DOUBLE PRECISION NOT NULL CHECK (latitude BETWEEN -90 AND 90),
    longitude   DOUBLE PRECISION NOT NULL CHECK (longitude BETWEEN -180 AND 180),
    raio_metros INTEGER          NOT NULL CHECK (raio_metros BETWEEN 10 AND 100000),
    criado_em   TIMESTAMPTZ      NOT NULL,
    removido_em TIMESTAMPTZ
);
CREATE INDEX locais_trabalho_empresa ON locais_trabalho (empresa_id, id) WHERE removido_em IS NULL;

-- The geofence check made at punch time (never a refusal: a REP may not
-- block a punch): the nearest active work place, the distance to it, and
-- whether the punch fell outside every place. All null when the company
-- had no work place (and for punches made before this migration).
ALTER TABLE registros_ponto
    ADD COLUMN local_trabalho_id BIGINT REFERENCES locais_trabalho (id),
    ADD COLUMN distancia_metros  INTEGER CHECK (distancia_metros >= 0),
    ADD COLUMN fora_do_local     BOOLEAN;

-- The AFD export reads a company's punches of a period in NSR order.
CREATE INDEX registros_ponto_empresa_jornada ON registros_ponto (empresa_id, jornada, nsr);

-- +goose Down
DROP INDEX registros_ponto_empresa_jornada;
ALTER TABLE registros_ponto DROP COLUMN fora_do_local, DROP COLUMN distancia_metros, DROP COLUMN local_trabalho_id;
DROP TABLE locais_trabalho;
DROP TABLE feriados;
DROP TABLE empregados_rep;
