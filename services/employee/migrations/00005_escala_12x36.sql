-- +goose Up

-- 12x36 schedules: one 12-hour shift (horarios' only entry) on the anchor
-- date data_inicio and every second day from it. Weekly schedules (every
-- schedule so far) have no anchor.
ALTER TABLE escalas_trabalho
    ADD COLUMN tipo TEXT NOT NULL DEFAULT 'semanal' CHECK (tipo IN ('semanal', '12x36')),
    ADD COLUMN data_inicio DATE,
    ADD CONSTRAINT escalas_trabalho_ancora CHECK ((tipo = '12x36') = (data_inicio IS NOT NULL));

-- +goose Down
ALTER TABLE escalas_trabalho DROP COLUMN data_inicio, DROP COLUMN tipo;
