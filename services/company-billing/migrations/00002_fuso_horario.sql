-- +goose Up

-- The company's time zone (IANA name): it decides its employees' workdays
-- and the local times of its records (timekeeping reads it through the
-- internal API). Existing companies keep São Paulo, the zone every
-- company had before.
ALTER TABLE empresas ADD COLUMN fuso_horario text NOT NULL DEFAULT 'America/Sao_Paulo';

-- +goose Down
ALTER TABLE empresas DROP COLUMN fuso_horario;
