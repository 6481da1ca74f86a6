-- +goose Up

-- Reminders by e-mail (internal/lembrete). lembretes_empresas is each
-- company's switch (no row: on); lembretes_optout the employees who asked
-- for none. lembretes_envios holds one row per message: its key (tipo,
-- destinatario_id, data) is the claim that makes two replicas never send
-- the same message twice; estado goes pendente → enviando → enviado, back
-- to pendente with proxima_tentativa after a failure, falhou after the
-- last attempt. A row left in enviando (the sender died mid-delivery) is
-- never sent again: a reminder lost rather than doubled.
CREATE TABLE lembretes_empresas (
    empresa_id    BIGINT PRIMARY KEY CHECK (empresa_id > 0),
    ativo         BOOLEAN     NOT NULL,
    atualizado_em TIMESTAMPTZ NOT NULL
);

CREATE TABLE lembretes_optout (
    funcionario_id BIGINT PRIMARY KEY CHECK (funcionario_id > 0),
    empresa_id     BIGINT      NOT NULL CHECK (empresa_id > 0),
    registrado_em  TIMESTAMPTZ NOT NULL
);

CREATE TABLE lembretes_envios (
    tipo              TEXT        NOT NULL CHECK (tipo IN ('marcacoes_impares', 'resumo_diario')),
    destinatario_id   BIGINT      NOT NULL CHECK (destinatario_id > 0),
    data              DATE        NOT NULL,
    empresa_id        BIGINT      NOT NULL CHECK (empresa_id > 0),
    para              TEXT        NOT NULL,
    assunto           TEXT        NOT NULL,
    corpo             TEXT        NOT NULL,
    estado            TEXT        NOT NULL DEFAULT 'pendente'
                      CHECK (estado IN ('pendente', 'enviando', 'enviado', 'falhou')),
    tentativas        INT         NOT NULL DEFAULT 0,
    proxima_tentativa TIMESTAMPTZ NOT NULL,
    erro              TEXT,
    criado_em         TIMESTAMPTZ NOT NULL,
    enviado_em        TIMESTAMPTZ,
    PRIMARY KEY (tipo, destinatario_id, data)
);
CREATE INDEX lembretes_envios_pendentes ON lembretes_envios (proxima_tentativa) WHERE estado = 'pendente';

INSERT INTO table_access (table_name, access) VALUES
    ('lembretes_empresas', 'read_write'),
    ('lembretes_optout',   'read_write'),
    ('lembretes_envios',   'read_write')
ON CONFLICT (table_name) DO UPDATE SET access = EXCLUDED.access;

-- +goose Down
DELETE FROM table_access WHERE table_name IN ('lembretes_empresas', 'lembretes_optout', 'lembretes_envios');
DROP TABLE lembretes_envios;
DROP TABLE lembretes_optout;
DROP TABLE lembretes_empresas;
