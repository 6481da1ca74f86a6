-- +goose Up

-- A company's hour-bank policy (CLT art. 59 §§2, 5 and 6): on or off, the
-- compensation period in months from its first day, and the caps of the
-- balance in minutes (0: none). Working state: the bank itself is
-- computed from the workdays (core.CalcularBanco).
CREATE TABLE banco_horas_politicas (
    empresa_id      BIGINT      PRIMARY KEY CHECK (empresa_id > 0),
    ativo           BOOLEAN     NOT NULL,
    periodo_meses   SMALLINT    NOT NULL CHECK (periodo_meses BETWEEN 1 AND 12),
    inicio          DATE        NOT NULL CHECK (extract(day FROM inicio) = 1),
    limite_credito  INT         NOT NULL CHECK (limite_credito >= 0),
    limite_debito   INT         NOT NULL CHECK (limite_debito >= 0),
    autor_id        BIGINT      NOT NULL CHECK (autor_id > 0),
    atualizado_em   TIMESTAMPTZ NOT NULL
);

-- The company's manual movements of an employee's bank (paid out,
-- discounted, compensated, corrected), with their reason. Append-only: a
-- correction is a new movement (an ajuste).
CREATE TABLE banco_horas_movimentos (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    funcionario_id BIGINT      NOT NULL CHECK (funcionario_id > 0),
    data           DATE        NOT NULL,
    tipo           TEXT        NOT NULL CHECK (tipo IN ('pagamento', 'desconto', 'compensacao', 'ajuste')),
    minutos        INT         NOT NULL CHECK (minutos <> 0),
    motivo         TEXT        NOT NULL,
    autor_id       BIGINT      NOT NULL CHECK (autor_id > 0),
    registrado_em  TIMESTAMPTZ NOT NULL
);
CREATE INDEX banco_horas_movimentos_funcionario ON banco_horas_movimentos (empresa_id, funcionario_id, data, id);

CREATE TRIGGER banco_horas_movimentos_somente_inclusao BEFORE UPDATE OR DELETE ON banco_horas_movimentos
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER banco_horas_movimentos_sem_truncate BEFORE TRUNCATE ON banco_horas_movimentos
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();

INSERT INTO table_access (table_name, access) VALUES
    ('banco_horas_movimentos', 'append_only'),
    ('banco_horas_politicas',  'read_write')
ON CONFLICT (table_name) DO UPDATE SET access = EXCLUDED.access;

-- +goose Down
DELETE FROM table_access WHERE table_name IN ('banco_horas_movimentos', 'banco_horas_politicas');
DROP TABLE banco_horas_movimentos;
DROP TABLE banco_horas_politicas;
