-- +goose Up

-- The pontos facultativos (Carnaval, Corpus Christi) a company keeps as
-- holidays. National holidays themselves are not stored: the record core
-- knows them (core/feriados.go). A company without a row keeps none.
CREATE TABLE feriados_facultativos (
    empresa_id     BIGINT      PRIMARY KEY CHECK (empresa_id > 0),
    carnaval       BOOLEAN     NOT NULL,
    corpus_christi BOOLEAN     NOT NULL,
    alterado_em    TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE feriados_facultativos;
