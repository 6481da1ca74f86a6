-- Anyone holding a receipt may check its punch by hash, without logging in
-- (GET /verificacao/{hash}, the receipt's QR code): the lookup needs an
-- index. The company's chain is then walked in NSR order, which the
-- existing unique (empresa_id, nsr) index serves.

-- +goose Up
CREATE INDEX registros_ponto_hash ON registros_ponto (hash);

-- +goose Down
DROP INDEX registros_ponto_hash;
