-- +goose Up

-- The termination date: after it, as before the admission, timekeeping
-- owes nothing and accepts no treatment. Never before the admission.
ALTER TABLE funcionarios ADD COLUMN data_demissao DATE,
    ADD CONSTRAINT funcionarios_demissao_apos_admissao
        CHECK (data_demissao IS NULL OR data_admissao IS NULL OR data_demissao >= data_admissao);

-- +goose Down
ALTER TABLE funcionarios DROP COLUMN data_demissao;
