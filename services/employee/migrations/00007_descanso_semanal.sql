-- +goose Up

-- The weekly rest days (DSR, Lei 605/49) a weekly schedule names, as
-- horarios' indices (0 Monday ... 6 Sunday); NULL means Sunday, the
-- law's preference, so every schedule so far keeps its Sunday.
ALTER TABLE escalas_trabalho ADD COLUMN descanso_semanal SMALLINT[]
    CHECK (descanso_semanal IS NULL OR (cardinality(descanso_semanal) BETWEEN 1 AND 7
        AND descanso_semanal <@ ARRAY[0, 1, 2, 3, 4, 5, 6]::smallint[]));

-- +goose Down
ALTER TABLE escalas_trabalho DROP COLUMN descanso_semanal;
