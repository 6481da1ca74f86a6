-- +goose Up
-- The hash rule each punch was chained with (services/timekeeping/core,
-- chain.go): 1 for the punches recorded before the AFD's recording
-- date-time lost its seconds (Anexo V item 6), 2 since. Stored punches are
-- never rewritten: they keep version 1, and the verifiers use each
-- punch's own version. The clock-in names the version it hashed with; the
-- default is the current one.
ALTER TABLE registros_ponto ADD COLUMN hash_versao SMALLINT NOT NULL DEFAULT 1 CHECK (hash_versao IN (1, 2));
ALTER TABLE registros_ponto ALTER COLUMN hash_versao SET DEFAULT 2;

-- +goose Down
ALTER TABLE registros_ponto DROP COLUMN hash_versao;
