-- +goose Up

-- The transactional outbox of REP events (pkg/outbox): an employee
-- created, renamed or deactivated is written here in the same
-- transaction, numbered per company, and a relay delivers it to
-- timekeeping, which records AFD type 5. outbox_sequencias holds each
-- company's last number; its row lock serialises one company's changes.
CREATE TABLE outbox_sequencias (
    empresa_id bigint PRIMARY KEY,
    ultima     bigint NOT NULL CHECK (ultima > 0)
);
CREATE TABLE outbox_eventos (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id  bigint      NOT NULL,
    sequencia   bigint      NOT NULL CHECK (sequencia > 0),
    tipo        text        NOT NULL,
    dados       jsonb       NOT NULL,
    ocorrido_em timestamptz NOT NULL,
    -- Set when timekeeping answered 200; rows are kept as the history of
    -- what was sent.
    enviado_em  timestamptz,
    tentativas  integer     NOT NULL DEFAULT 0,
    UNIQUE (empresa_id, sequencia)
);
CREATE INDEX outbox_eventos_pendentes ON outbox_eventos (empresa_id, sequencia) WHERE enviado_em IS NULL;

-- +goose Down
DROP TABLE outbox_eventos;
DROP TABLE outbox_sequencias;
