-- +goose Up

-- Leaves (internal/afastamento, rules in core/afastamento.go): a date range
-- of an employee, both ends included, with its kind. A leave may be
-- changed or cancelled while its dates are open (fechamentos); each change
-- and the cancellation copy the row as it was into afastamentos_historico,
-- which is append-only. Overlapping standing leaves are refused under the
-- company's chain lock (fechamento.Lock), so no exclusion constraint (and
-- no btree_gist) is needed. documento_chave is the object key media keeps
-- the leave's document under.
CREATE TABLE afastamentos (
    id                  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id          BIGINT      NOT NULL CHECK (empresa_id > 0),
    funcionario_id      BIGINT      NOT NULL CHECK (funcionario_id > 0),
    tipo                TEXT        NOT NULL CHECK (tipo IN ('ferias', 'doenca', 'acidente_trabalho',
                            'maternidade', 'paternidade', 'casamento', 'falecimento', 'doacao_sangue',
                            'servico_militar', 'suspensao', 'nao_remunerada', 'outro')),
    inicio              DATE        NOT NULL,
    fim                 DATE        NOT NULL,
    motivo              TEXT        NOT NULL,
    documento_chave     TEXT,
    documento_tipo      TEXT CHECK (documento_tipo IN ('application/pdf', 'image/jpeg', 'image/png')),
    documento_tamanho   BIGINT CHECK (documento_tamanho > 0),
    autor_id            BIGINT      NOT NULL CHECK (autor_id > 0),
    registrado_em       TIMESTAMPTZ NOT NULL,
    atualizado_em       TIMESTAMPTZ NOT NULL,
    cancelado_em        TIMESTAMPTZ,
    motivo_cancelamento TEXT,
    CONSTRAINT afastamentos_periodo CHECK (fim >= inicio AND fim - inicio < 731),
    CONSTRAINT afastamentos_cancelamento CHECK ((cancelado_em IS NULL) = (motivo_cancelamento IS NULL)),
    CONSTRAINT afastamentos_documento CHECK ((documento_chave IS NULL) = (documento_tipo IS NULL)
        AND (documento_chave IS NULL) = (documento_tamanho IS NULL))
);
CREATE INDEX afastamentos_funcionario ON afastamentos (empresa_id, funcionario_id, inicio);
-- The engine's read: a company's standing leaves touching a period.
CREATE INDEX afastamentos_empresa_periodo ON afastamentos (empresa_id, inicio, fim) WHERE cancelado_em IS NULL;

CREATE TABLE afastamentos_historico (
    afastamento_id BIGINT      NOT NULL REFERENCES afastamentos (id),
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    tipo           TEXT        NOT NULL,
    inicio         DATE        NOT NULL,
    fim            DATE        NOT NULL,
    motivo         TEXT        NOT NULL,
    acao           TEXT        NOT NULL CHECK (acao IN ('alteracao', 'cancelamento')),
    autor_id       BIGINT      NOT NULL CHECK (autor_id > 0),
    registrado_em  TIMESTAMPTZ NOT NULL
);
CREATE INDEX afastamentos_historico_afastamento ON afastamentos_historico (afastamento_id);

CREATE TRIGGER afastamentos_historico_somente_inclusao BEFORE UPDATE OR DELETE ON afastamentos_historico
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER afastamentos_historico_sem_truncate BEFORE TRUNCATE ON afastamentos_historico
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();

INSERT INTO table_access (table_name, access) VALUES
    ('afastamentos',           'read_write'),
    ('afastamentos_historico', 'append_only')
ON CONFLICT (table_name) DO UPDATE SET access = EXCLUDED.access;

-- +goose Down
DELETE FROM table_access WHERE table_name IN ('afastamentos', 'afastamentos_historico');
DROP TABLE afastamentos_historico;
DROP TABLE afastamentos;
