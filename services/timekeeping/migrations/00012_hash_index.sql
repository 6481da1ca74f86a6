-- The receipt check (GET /verificacao/{hash}) only ever asks for one hash
-- by equality, which a hash index serves with a 4-byte code per punch
-- instead of the B-tree's copy of the 64-character hex text: the B-tree
-- was 44% of the punch table's index space, about 119 MiB per million
-- punches (docs/performance.md, "Disk").

-- +goose Up
CREATE INDEX registros_ponto_hash_eq ON registros_ponto USING hash (hash);
DROP INDEX registros_ponto_hash;
ALTER INDEX registros_ponto_hash_eq RENAME TO registros_ponto_hash;

-- +goose Down
CREATE INDEX registros_ponto_hash_btree ON registros_ponto (hash);
DROP INDEX registros_ponto_hash;
ALTER INDEX registros_ponto_hash_btree RENAME TO registros_ponto_hash;
