-- +goose Up

-- The time zone (IANA name) of the place where the employee works; null
-- means his company's (company-billing's fusoHorario). Timekeeping reads it
-- through the internal API.
ALTER TABLE funcionarios ADD COLUMN fuso_horario TEXT;

-- +goose Down
ALTER TABLE funcionarios DROP COLUMN fuso_horario;
