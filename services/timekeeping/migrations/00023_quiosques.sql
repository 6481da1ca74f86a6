-- +goose Up

-- Shared collectors (internal/quiosque). A kiosk is known by the SHA-256
-- of its credential, never the credential itself; revoking it keeps the
-- row (its punches name its collector code). An employee's PIN is a
-- bcrypt hash, locked after a few wrong tries until the company resets
-- it; his badge is the SHA-256 of its token, replaced when reissued.
CREATE TABLE quiosques (
    id              BIGSERIAL   PRIMARY KEY,
    empresa_id      BIGINT      NOT NULL CHECK (empresa_id > 0),
    nome            TEXT        NOT NULL,
    dispositivo     TEXT        NOT NULL,
    coletor         CHAR(2)     NOT NULL CHECK (coletor IN ('01', '02', '03', '04', '05')),
    credencial_hash BYTEA       NOT NULL UNIQUE,
    criado_em       TIMESTAMPTZ NOT NULL,
    ultimo_uso      TIMESTAMPTZ,
    revogado_em     TIMESTAMPTZ
);
CREATE INDEX quiosques_empresa ON quiosques (empresa_id) WHERE revogado_em IS NULL;

CREATE TABLE quiosque_pins (
    funcionario_id BIGINT      PRIMARY KEY CHECK (funcionario_id > 0),
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    cpf            CHAR(11)    NOT NULL,
    pin_hash       TEXT        NOT NULL,
    tentativas     INT         NOT NULL DEFAULT 0,
    bloqueado_em   TIMESTAMPTZ,
    atualizado_em  TIMESTAMPTZ NOT NULL,
    UNIQUE (empresa_id, cpf)
);

CREATE TABLE quiosque_crachas (
    funcionario_id BIGINT      PRIMARY KEY CHECK (funcionario_id > 0),
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    token_hash     BYTEA       NOT NULL UNIQUE,
    emitido_em     TIMESTAMPTZ NOT NULL
);

INSERT INTO table_access (table_name, access) VALUES
    ('quiosques',        'read_write'),
    ('quiosque_pins',    'read_write'),
    ('quiosque_crachas', 'read_write');

-- +goose Down
DELETE FROM table_access WHERE table_name IN ('quiosques', 'quiosque_pins', 'quiosque_crachas');
DROP TABLE quiosque_crachas;
DROP TABLE quiosque_pins;
DROP TABLE quiosques;
