-- +goose Up

-- One chain of records per establishment (Portaria 671, Anexo IX item 6:
-- "Cada estabelecimento terá sua própria sequência de NSR"). A chain is
-- keyed by (empresa_id, estabelecimento_id), where estabelecimento_id 0 is
-- the company's principal establishment and any other value a branch's id
-- (company-billing's). Every chain written before this migration was the
-- company's only one, which company-billing makes its principal
-- establishment: the column's default 0 makes each of them the principal
-- chain with nothing stored rewritten (ADD COLUMN with a constant default
-- touches no row, so no append-only trigger fires).
ALTER TABLE cadeias ADD COLUMN estabelecimento_id BIGINT NOT NULL DEFAULT 0 CHECK (estabelecimento_id >= 0);
ALTER TABLE cadeias DROP CONSTRAINT cadeias_pkey;
ALTER TABLE cadeias ADD PRIMARY KEY (empresa_id, estabelecimento_id);

ALTER TABLE registros_ponto ADD COLUMN estabelecimento_id BIGINT NOT NULL DEFAULT 0 CHECK (estabelecimento_id >= 0);
ALTER TABLE registros_ponto DROP CONSTRAINT registros_ponto_nsr;
ALTER TABLE registros_ponto ADD CONSTRAINT registros_ponto_nsr UNIQUE (empresa_id, estabelecimento_id, nsr);

ALTER TABLE empregados_rep ADD COLUMN estabelecimento_id BIGINT NOT NULL DEFAULT 0 CHECK (estabelecimento_id >= 0);
ALTER TABLE empregados_rep DROP CONSTRAINT empregados_rep_nsr;
ALTER TABLE empregados_rep ADD CONSTRAINT empregados_rep_nsr UNIQUE (empresa_id, estabelecimento_id, nsr);

ALTER TABLE empresas_rep ADD COLUMN estabelecimento_id BIGINT NOT NULL DEFAULT 0 CHECK (estabelecimento_id >= 0);
ALTER TABLE empresas_rep DROP CONSTRAINT empresas_rep_nsr;
ALTER TABLE empresas_rep ADD CONSTRAINT empresas_rep_nsr UNIQUE (empresa_id, estabelecimento_id, nsr);

ALTER TABLE eventos_rep ADD COLUMN estabelecimento_id BIGINT NOT NULL DEFAULT 0 CHECK (estabelecimento_id >= 0);
ALTER TABLE eventos_rep DROP CONSTRAINT eventos_rep_nsr;
ALTER TABLE eventos_rep ADD CONSTRAINT eventos_rep_nsr UNIQUE (empresa_id, estabelecimento_id, nsr);

-- The chain audit's checkpoint is per chain too.
ALTER TABLE auditorias_cadeia ADD COLUMN estabelecimento_id BIGINT NOT NULL DEFAULT 0 CHECK (estabelecimento_id >= 0);
ALTER TABLE auditorias_cadeia DROP CONSTRAINT auditorias_cadeia_pkey;
ALTER TABLE auditorias_cadeia ADD PRIMARY KEY (empresa_id, estabelecimento_id);

-- The establishments as company-billing tells them (estabelecimento.*
-- events, docs/internal-api.md): which one is the principal (its chain is
-- estabelecimento_id 0) and the identifier the AFD's header carries.
CREATE TABLE estabelecimentos (
    empresa_id    BIGINT      NOT NULL CHECK (empresa_id > 0),
    id            BIGINT      NOT NULL CHECK (id > 0),
    principal     BOOLEAN     NOT NULL,
    tipo          TEXT        NOT NULL CHECK (tipo IN ('cnpj', 'caepf', 'cno')),
    -- CNPJ (14, letters allowed: the alphanumeric CNPJ), CAEPF (14), CNO (12).
    numero        TEXT        NOT NULL CHECK (numero ~ '^[0-9A-Z]{12,14}$'),
    nome          TEXT        NOT NULL,
    ativo         BOOLEAN     NOT NULL,
    atualizado_em TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (empresa_id, id)
);
CREATE UNIQUE INDEX estabelecimentos_principal ON estabelecimentos (empresa_id) WHERE principal;

INSERT INTO table_access (table_name, access) VALUES ('estabelecimentos', 'read_write')
ON CONFLICT (table_name) DO UPDATE SET access = EXCLUDED.access;

-- +goose Down
DELETE FROM table_access WHERE table_name = 'estabelecimentos';
DROP TABLE estabelecimentos;
ALTER TABLE auditorias_cadeia DROP CONSTRAINT auditorias_cadeia_pkey;
ALTER TABLE auditorias_cadeia ADD PRIMARY KEY (empresa_id);
ALTER TABLE auditorias_cadeia DROP COLUMN estabelecimento_id;
ALTER TABLE eventos_rep DROP CONSTRAINT eventos_rep_nsr;
ALTER TABLE eventos_rep ADD CONSTRAINT eventos_rep_nsr UNIQUE (empresa_id, nsr);
ALTER TABLE eventos_rep DROP COLUMN estabelecimento_id;
ALTER TABLE empresas_rep DROP CONSTRAINT empresas_rep_nsr;
ALTER TABLE empresas_rep ADD CONSTRAINT empresas_rep_nsr UNIQUE (empresa_id, nsr);
ALTER TABLE empresas_rep DROP COLUMN estabelecimento_id;
ALTER TABLE empregados_rep DROP CONSTRAINT empregados_rep_nsr;
ALTER TABLE empregados_rep ADD CONSTRAINT empregados_rep_nsr UNIQUE (empresa_id, nsr);
ALTER TABLE empregados_rep DROP COLUMN estabelecimento_id;
ALTER TABLE registros_ponto DROP CONSTRAINT registros_ponto_nsr;
ALTER TABLE registros_ponto ADD CONSTRAINT registros_ponto_nsr UNIQUE (empresa_id, nsr);
ALTER TABLE registros_ponto DROP COLUMN estabelecimento_id;
ALTER TABLE cadeias DROP CONSTRAINT cadeias_pkey;
ALTER TABLE cadeias ADD PRIMARY KEY (empresa_id);
ALTER TABLE cadeias DROP COLUMN estabelecimento_id;
