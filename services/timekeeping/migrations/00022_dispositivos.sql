-- +goose Up

-- Devices that punch off-line (internal/dispositivo): one ECDSA P-256
-- public key per employee and device, registered while on-line, revocable
-- by the employee or the company (revogado_em). desvio_ms is the device's
-- clock minus the server's at its last on-line contact.
CREATE TABLE dispositivos (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    funcionario_id BIGINT      NOT NULL CHECK (funcionario_id > 0),
    nome           TEXT        NOT NULL,
    chave_publica  BYTEA       NOT NULL,
    desvio_ms      BIGINT,
    criado_em      TIMESTAMPTZ NOT NULL,
    ultimo_contato TIMESTAMPTZ NOT NULL,
    revogado_em    TIMESTAMPTZ
);
CREATE INDEX dispositivos_empresa ON dispositivos (empresa_id, funcionario_id);

-- A company's limit on how old an off-line punch may arrive (no row: 7
-- days).
CREATE TABLE offline_empresas (
    empresa_id    BIGINT PRIMARY KEY CHECK (empresa_id > 0),
    limite_dias   INT         NOT NULL CHECK (limite_dias BETWEEN 1 AND 31),
    atualizado_em TIMESTAMPTZ NOT NULL
);

-- An off-line punch (AFD type 7, field 7 = 1): horario_registro is the
-- device's time, gravado_em the server's at its arrival (NULL for an
-- on-line punch: horario_registro), dispositivo_id the key that signed it,
-- relogio_divergente set when the device's clock moved since its last
-- on-line contact (a punch for treatment).
ALTER TABLE registros_ponto
    ADD COLUMN gravado_em TIMESTAMPTZ,
    ADD COLUMN offline BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN dispositivo_id BIGINT,
    ADD COLUMN relogio_divergente BOOLEAN NOT NULL DEFAULT false,
    ADD CONSTRAINT registros_ponto_offline CHECK (offline = (gravado_em IS NOT NULL));

INSERT INTO table_access (table_name, access) VALUES
    ('dispositivos',     'read_write'),
    ('offline_empresas', 'read_write')
ON CONFLICT (table_name) DO UPDATE SET access = EXCLUDED.access;

-- +goose Down
DELETE FROM table_access WHERE table_name IN ('dispositivos', 'offline_empresas');
ALTER TABLE registros_ponto DROP CONSTRAINT registros_ponto_offline, DROP COLUMN relogio_divergente,
    DROP COLUMN dispositivo_id, DROP COLUMN offline, DROP COLUMN gravado_em;
DROP TABLE offline_empresas;
DROP TABLE dispositivos;
