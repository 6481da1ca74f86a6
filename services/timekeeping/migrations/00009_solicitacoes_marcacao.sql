-- +goose Up

-- An employee's request to include a punch he forgot (the treatment
-- program's inclusion, asked for instead of made): the company approves
-- it (the inclusion is then made, marcacoes_incluidas) or rejects it.
-- Append-only like every treatment table: the decision is a row of its
-- own, at most one per request.
CREATE TABLE solicitacoes_marcacao (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    funcionario_id BIGINT      NOT NULL CHECK (funcionario_id > 0),
    jornada        DATE        NOT NULL,
    horario        TIMESTAMPTZ NOT NULL CHECK (horario = date_trunc('minute', horario)),
    fuso_minutos   SMALLINT    NOT NULL CHECK (fuso_minutos BETWEEN -900 AND 900),
    motivo         TEXT        NOT NULL,
    solicitado_em  TIMESTAMPTZ NOT NULL
);
CREATE INDEX solicitacoes_marcacao_empresa ON solicitacoes_marcacao (empresa_id, solicitado_em, id);

CREATE TABLE solicitacoes_decisoes (
    solicitacao_id BIGINT PRIMARY KEY REFERENCES solicitacoes_marcacao (id),
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    aprovada       BOOLEAN     NOT NULL,
    -- The inclusion an approval made.
    marcacao_id    BIGINT REFERENCES marcacoes_incluidas (id),
    autor_id       BIGINT      NOT NULL CHECK (autor_id > 0),
    registrado_em  TIMESTAMPTZ NOT NULL,
    CONSTRAINT solicitacoes_decisoes_marcacao CHECK (aprovada = (marcacao_id IS NOT NULL))
);

CREATE TRIGGER solicitacoes_marcacao_somente_inclusao BEFORE UPDATE OR DELETE ON solicitacoes_marcacao
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER solicitacoes_marcacao_sem_truncate BEFORE TRUNCATE ON solicitacoes_marcacao
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER solicitacoes_decisoes_somente_inclusao BEFORE UPDATE OR DELETE ON solicitacoes_decisoes
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER solicitacoes_decisoes_sem_truncate BEFORE TRUNCATE ON solicitacoes_decisoes
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();

-- +goose Down
DROP TABLE solicitacoes_decisoes;
DROP TABLE solicitacoes_marcacao;
