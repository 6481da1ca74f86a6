-- +goose Up

-- A kiosk's off-line key (internal/quiosque): the ECDSA P-256 public key
-- (SPKI DER) its browser created while on-line, which signs the punches
-- it queues off-line; desvio_ms is its clock minus the server's at its
-- last on-line contact. Registering again replaces the key.
ALTER TABLE quiosques
    ADD COLUMN chave_publica BYTEA,
    ADD COLUMN desvio_ms     BIGINT;

-- +goose Down
ALTER TABLE quiosques DROP COLUMN desvio_ms, DROP COLUMN chave_publica;
