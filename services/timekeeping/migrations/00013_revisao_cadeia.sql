-- +goose Up

-- The chain audit's review (chainaudit, Limits.Review): every so often it
-- verifies a company's records again from NSR 1 up to its checkpoint, in
-- slices. revisao_nsr and revisao_hash are how far a review under way got
-- (NULL: none under way); revisada_em is when the last one ended (a
-- company's first audit counts as one). Rows from before have none, so
-- their first review is due at once.
ALTER TABLE auditorias_cadeia
    ADD COLUMN revisao_nsr  BIGINT CHECK (revisao_nsr >= 0),
    ADD COLUMN revisao_hash CHAR(64),
    ADD COLUMN revisada_em  TIMESTAMPTZ;

-- +goose Down
ALTER TABLE auditorias_cadeia DROP COLUMN revisada_em, DROP COLUMN revisao_hash, DROP COLUMN revisao_nsr;
