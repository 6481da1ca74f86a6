-- +goose Up
-- How far the chain audit (chainaudit) has verified each company's
-- records: NSR gapless over every record type, each punch's hash
-- recomputed with its own rule version, the chain head on the last record.
-- The audit goes on from ultimo_nsr, so each run reads only what was
-- recorded since. nsr_quebra is where a chain broke (NULL while intact).
CREATE TABLE auditorias_cadeia (
    empresa_id    BIGINT      PRIMARY KEY CHECK (empresa_id > 0),
    ultimo_nsr    BIGINT      NOT NULL DEFAULT 0 CHECK (ultimo_nsr >= 0),
    ultimo_hash   CHAR(64),
    verificado_em TIMESTAMPTZ NOT NULL,
    nsr_quebra    BIGINT,
    erro          TEXT
);

-- +goose Down
DROP TABLE auditorias_cadeia;
