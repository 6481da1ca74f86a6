-- +goose Up
-- The REP operations Anexo IX item 6 asks the record store to keep besides
-- punches, each with the next NSR of the company's one sequence:
--   empresas_rep: the employer's identification, included or changed
--                 (AFD type 2), written when company-billing tells of it;
--   eventos_rep:  sensitive events of the REP-P (AFD type 6): 08 the
--                 service became unavailable, 07 available again.
-- Employees included, changed or excluded (type 5) stay in empregados_rep,
-- now written when the employee service tells of the change.
CREATE TABLE empresas_rep (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id    BIGINT      NOT NULL CHECK (empresa_id > 0),
    nsr           BIGINT      NOT NULL CHECK (nsr > 0),
    -- CPF of the company's responsible person (zeros before it names one).
    responsavel   CHAR(11)    NOT NULL CHECK (responsavel ~ '^[0-9]{11}$'),
    -- The employer's CNPJ (14) or CPF (11), letters allowed (alphanumeric CNPJ).
    empregador    TEXT        NOT NULL CHECK (empregador ~ '^[0-9A-Z]{11}([0-9A-Z]{3})?$'),
    cno_caepf     TEXT        NOT NULL DEFAULT '',
    razao_social  TEXT        NOT NULL,
    local         TEXT        NOT NULL,
    gravado_em    TIMESTAMPTZ NOT NULL,
    fuso_minutos  SMALLINT    NOT NULL CHECK (fuso_minutos BETWEEN -900 AND 900),
    CONSTRAINT empresas_rep_nsr UNIQUE (empresa_id, nsr)
);
CREATE INDEX empresas_rep_empresa ON empresas_rep (empresa_id, nsr);

CREATE TABLE eventos_rep (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id    BIGINT      NOT NULL CHECK (empresa_id > 0),
    nsr           BIGINT      NOT NULL CHECK (nsr > 0),
    codigo        CHAR(2)     NOT NULL CHECK (codigo IN ('07', '08')),
    gravado_em    TIMESTAMPTZ NOT NULL,
    fuso_minutos  SMALLINT    NOT NULL CHECK (fuso_minutos BETWEEN -900 AND 900),
    CONSTRAINT eventos_rep_nsr UNIQUE (empresa_id, nsr)
);

CREATE TRIGGER empresas_rep_somente_inclusao BEFORE UPDATE OR DELETE ON empresas_rep
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER empresas_rep_sem_truncate BEFORE TRUNCATE ON empresas_rep
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER eventos_rep_somente_inclusao BEFORE UPDATE OR DELETE ON eventos_rep
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER eventos_rep_sem_truncate BEFORE TRUNCATE ON eventos_rep
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();

-- The events received from company-billing and employee: applied once
-- (by id), in order (per source and company, by sequencia).
CREATE TABLE eventos_recebidos (
    id          TEXT        PRIMARY KEY,
    origem      TEXT        NOT NULL,
    empresa_id  BIGINT      NOT NULL CHECK (empresa_id > 0),
    sequencia   BIGINT      NOT NULL CHECK (sequencia > 0),
    aplicado_em TIMESTAMPTZ NOT NULL,
    CONSTRAINT eventos_recebidos_ordem UNIQUE (origem, empresa_id, sequencia)
);

-- +goose Down
DROP TABLE eventos_recebidos;
DROP TABLE eventos_rep;
DROP TABLE empresas_rep;
