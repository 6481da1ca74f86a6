-- +goose Up

-- The establishment of company-billing (its estabelecimentos.id) the
-- employee works for: each has its own NSR sequence in the REP. 0 is the
-- company's principal establishment, which every existing employee
-- belongs to; the service stores 0, never the principal's own id, so a
-- move is always a change of this column.
ALTER TABLE funcionarios ADD COLUMN estabelecimento_id bigint NOT NULL DEFAULT 0
    CONSTRAINT funcionarios_estabelecimento_id_check CHECK (estabelecimento_id >= 0);

-- company-billing asks how many active employees an establishment has
-- before it deactivates it.
CREATE INDEX funcionarios_estabelecimento_ativos ON funcionarios (empresa_id, estabelecimento_id) WHERE ativo;

-- +goose Down
DROP INDEX funcionarios_estabelecimento_ativos;
ALTER TABLE funcionarios DROP COLUMN estabelecimento_id;
