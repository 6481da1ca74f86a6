-- +goose Up

-- The payroll export (internal/folha). folha_eventos maps, per company,
-- ponto's events (extras50, faltas, afastamento_ferias, ...) to the
-- company's payroll codes (rubricas); an event without a row keeps its
-- default, an empty code leaves it out of the export. folha_layouts are
-- the company's fixed-width layouts (a preset edited, or its own), each a
-- JSON list of fields (campo, inicio, tamanho, alinhamento,
-- preenchimento, valor) checked by the application.
CREATE TABLE folha_eventos (
    empresa_id    BIGINT      NOT NULL CHECK (empresa_id > 0),
    evento        TEXT        NOT NULL CHECK (evento ~ '^[a-z][a-zA-Z0-9_]{1,39}$'),
    codigo        TEXT        NOT NULL CHECK (char_length(codigo) <= 20),
    atualizado_em TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (empresa_id, evento)
);

CREATE TABLE folha_layouts (
    empresa_id    BIGINT      NOT NULL CHECK (empresa_id > 0),
    nome          TEXT        NOT NULL CHECK (nome ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
    descricao     TEXT        NOT NULL CHECK (char_length(descricao) <= 200),
    campos        JSONB       NOT NULL CHECK (jsonb_typeof(campos) = 'array'),
    atualizado_em TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (empresa_id, nome)
);

INSERT INTO table_access (table_name, access) VALUES
    ('folha_eventos', 'read_write'),
    ('folha_layouts', 'read_write')
ON CONFLICT (table_name) DO UPDATE SET access = EXCLUDED.access;

-- +goose Down
DELETE FROM table_access WHERE table_name IN ('folha_eventos', 'folha_layouts');
DROP TABLE folha_layouts;
DROP TABLE folha_eventos;
