-- +goose Up

-- The time-treatment program (Portaria 671 arts. 82-84): it may only add
-- information to the REP's originals, so every table here is append-only
-- (the triggers at the end) and a treatment is undone by a new row, never
-- by an UPDATE or a DELETE. Each row says who made it (the company
-- account's id, or the employee's for his own acknowledgement) and when.

-- Punches the employee forgot, included by the company. They are not REP
-- punches: no NSR, no hash, never in the AFD. Their ids come from the
-- records' sequence so that a registroId names exactly one record of any
-- kind (a disregard may name an inclusion). horario is whole minutes;
-- fuso_minutos is the employee zone's UTC offset at horario, as a punch
-- stores it.
CREATE TABLE marcacoes_incluidas (
    id             BIGINT PRIMARY KEY DEFAULT nextval('registros_id_seq'),
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    funcionario_id BIGINT      NOT NULL CHECK (funcionario_id > 0),
    jornada        DATE        NOT NULL,
    horario        TIMESTAMPTZ NOT NULL CHECK (horario = date_trunc('minute', horario)),
    fuso_minutos   SMALLINT    NOT NULL CHECK (fuso_minutos BETWEEN -900 AND 900),
    motivo         TEXT        NOT NULL,
    autor_id       BIGINT      NOT NULL CHECK (autor_id > 0),
    registrado_em  TIMESTAMPTZ NOT NULL
);
CREATE INDEX marcacoes_incluidas_jornada ON marcacoes_incluidas (funcionario_id, jornada);

-- Disregarding (desconsiderada true) and reconsidering (false) a punch or
-- an inclusion: the latest row of a record is its state.
CREATE TABLE desconsideracoes (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    registro_id    BIGINT      NOT NULL CHECK (registro_id > 0),
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    funcionario_id BIGINT      NOT NULL CHECK (funcionario_id > 0),
    jornada        DATE        NOT NULL,
    desconsiderada BOOLEAN     NOT NULL,
    motivo         TEXT        NOT NULL,
    autor_id       BIGINT      NOT NULL CHECK (autor_id > 0),
    registrado_em  TIMESTAMPTZ NOT NULL
);
CREATE INDEX desconsideracoes_registro ON desconsideracoes (registro_id, id);
CREATE INDEX desconsideracoes_jornada ON desconsideracoes (funcionario_id, jornada);

-- Absences undone by the company. An undone absence stays in faltas; the
-- date may then be marked again (a new row), so the one-per-date rule
-- becomes "one standing absence per date", kept by marcar-falta under the
-- company lock.
CREATE TABLE faltas_desfeitas (
    falta_id      BIGINT PRIMARY KEY REFERENCES faltas (id),
    empresa_id    BIGINT      NOT NULL CHECK (empresa_id > 0),
    motivo        TEXT        NOT NULL,
    autor_id      BIGINT      NOT NULL CHECK (autor_id > 0),
    registrado_em TIMESTAMPTZ NOT NULL
);
ALTER TABLE faltas DROP CONSTRAINT faltas_funcionario_data;
CREATE INDEX faltas_funcionario_data ON faltas (funcionario_id, data);

-- Excused absences (abonos): a whole day (inicio and fim null) or a range
-- of it, in minutes after the local midnight of data.
CREATE TABLE abonos (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    funcionario_id BIGINT      NOT NULL CHECK (funcionario_id > 0),
    data           DATE        NOT NULL,
    inicio         SMALLINT CHECK (inicio BETWEEN 0 AND 1439),
    fim            SMALLINT CHECK (fim BETWEEN 1 AND 1440),
    tipo           TEXT        NOT NULL CHECK (tipo IN
                       ('atestado_medico', 'declaracao_comparecimento', 'licenca', 'folga', 'outro')),
    motivo         TEXT        NOT NULL,
    autor_id       BIGINT      NOT NULL CHECK (autor_id > 0),
    registrado_em  TIMESTAMPTZ NOT NULL,
    CONSTRAINT abonos_intervalo CHECK ((inicio IS NULL) = (fim IS NULL) AND (inicio IS NULL OR inicio < fim))
);
CREATE INDEX abonos_funcionario_data ON abonos (funcionario_id, data);

CREATE TABLE abonos_cancelados (
    abono_id      BIGINT PRIMARY KEY REFERENCES abonos (id),
    empresa_id    BIGINT      NOT NULL CHECK (empresa_id > 0),
    motivo        TEXT        NOT NULL,
    autor_id      BIGINT      NOT NULL CHECK (autor_id > 0),
    registrado_em TIMESTAMPTZ NOT NULL
);

-- Closed periods: no treatment may touch a date inside one until it is
-- reopened (a reabertura row, with its reason).
CREATE TABLE fechamentos (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id    BIGINT      NOT NULL CHECK (empresa_id > 0),
    inicio        DATE        NOT NULL,
    fim           DATE        NOT NULL CHECK (fim >= inicio),
    autor_id      BIGINT      NOT NULL CHECK (autor_id > 0),
    registrado_em TIMESTAMPTZ NOT NULL
);
CREATE INDEX fechamentos_empresa ON fechamentos (empresa_id, inicio);

CREATE TABLE reaberturas (
    fechamento_id BIGINT PRIMARY KEY REFERENCES fechamentos (id),
    empresa_id    BIGINT      NOT NULL CHECK (empresa_id > 0),
    motivo        TEXT        NOT NULL,
    autor_id      BIGINT      NOT NULL CHECK (autor_id > 0),
    registrado_em TIMESTAMPTZ NOT NULL
);

-- The employee's acknowledgement of a closed month's timesheet (art. 84
-- sole paragraph): once per employee and month.
CREATE TABLE ciencias_espelho (
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    funcionario_id BIGINT      NOT NULL CHECK (funcionario_id > 0),
    mes            DATE        NOT NULL CHECK (extract(day FROM mes) = 1),
    registrado_em  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (funcionario_id, mes)
);
CREATE INDEX ciencias_espelho_empresa ON ciencias_espelho (empresa_id, mes);

CREATE TRIGGER marcacoes_incluidas_somente_inclusao BEFORE UPDATE OR DELETE ON marcacoes_incluidas
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER marcacoes_incluidas_sem_truncate BEFORE TRUNCATE ON marcacoes_incluidas
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER desconsideracoes_somente_inclusao BEFORE UPDATE OR DELETE ON desconsideracoes
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER desconsideracoes_sem_truncate BEFORE TRUNCATE ON desconsideracoes
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER faltas_desfeitas_somente_inclusao BEFORE UPDATE OR DELETE ON faltas_desfeitas
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER faltas_desfeitas_sem_truncate BEFORE TRUNCATE ON faltas_desfeitas
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER abonos_somente_inclusao BEFORE UPDATE OR DELETE ON abonos
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER abonos_sem_truncate BEFORE TRUNCATE ON abonos
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER abonos_cancelados_somente_inclusao BEFORE UPDATE OR DELETE ON abonos_cancelados
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER abonos_cancelados_sem_truncate BEFORE TRUNCATE ON abonos_cancelados
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER fechamentos_somente_inclusao BEFORE UPDATE OR DELETE ON fechamentos
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER fechamentos_sem_truncate BEFORE TRUNCATE ON fechamentos
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER reaberturas_somente_inclusao BEFORE UPDATE OR DELETE ON reaberturas
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER reaberturas_sem_truncate BEFORE TRUNCATE ON reaberturas
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER ciencias_espelho_somente_inclusao BEFORE UPDATE OR DELETE ON ciencias_espelho
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER ciencias_espelho_sem_truncate BEFORE TRUNCATE ON ciencias_espelho
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();

-- +goose Down
DROP TABLE ciencias_espelho;
DROP TABLE reaberturas;
DROP TABLE fechamentos;
DROP TABLE abonos_cancelados;
DROP TABLE abonos;
DROP INDEX faltas_funcionario_data;
ALTER TABLE faltas ADD CONSTRAINT faltas_funcionario_data UNIQUE (funcionario_id, data);
DROP TABLE faltas_desfeitas;
DROP TABLE desconsideracoes;
DROP TABLE marcacoes_incluidas;
