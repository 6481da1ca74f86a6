-- +goose Up

-- The company's first day on ponto (internal/iniciouso): the days before
-- it owe nothing (core.AntesDoUso). No row: not set, every day counts.
CREATE TABLE inicio_uso_empresas (
    empresa_id    BIGINT PRIMARY KEY CHECK (empresa_id > 0),
    data          DATE        NOT NULL CHECK (data >= DATE '2000-01-01'),
    atualizado_em TIMESTAMPTZ NOT NULL
);

INSERT INTO table_access (table_name, access) VALUES ('inicio_uso_empresas', 'read_write')
ON CONFLICT (table_name) DO UPDATE SET access = EXCLUDED.access;

-- +goose Down
DELETE FROM table_access WHERE table_name = 'inicio_uso_empresas';
DROP TABLE inicio_uso_empresas;
