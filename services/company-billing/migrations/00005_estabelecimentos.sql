-- +goose Up

-- A company's establishments (Portaria 671, Anexo IX item 6: each has
-- its own NSR sequence in the REP): identified by a CNPJ (with the
-- company's root), a CAEPF or a CNO, unmasked. The principal one is made
-- from the company's own CNPJ at registration and cannot be deactivated.
CREATE TABLE estabelecimentos (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id    bigint      NOT NULL REFERENCES empresas (id),
    principal     boolean     NOT NULL DEFAULT false,
    tipo          text        NOT NULL CHECK (tipo IN ('cnpj', 'caepf', 'cno')),
    numero        text        NOT NULL,
    nome          text        NOT NULL,
    -- The AFD type 2 place of work (100 characters); '' for a principal
    -- made from a company that has no address on record.
    endereco      text        NOT NULL DEFAULT '',
    fuso_horario  text        NOT NULL,
    ativo         boolean     NOT NULL DEFAULT true,
    criado_em     timestamptz NOT NULL DEFAULT now(),
    atualizado_em timestamptz NOT NULL DEFAULT now(),
    CHECK (ativo OR NOT principal)
);
CREATE UNIQUE INDEX estabelecimentos_numero_key ON estabelecimentos (empresa_id, tipo, numero);
CREATE UNIQUE INDEX estabelecimentos_principal_key ON estabelecimentos (empresa_id) WHERE principal;

INSERT INTO table_access (table_name, access) VALUES ('estabelecimentos', 'read_write')
ON CONFLICT (table_name) DO UPDATE SET access = EXCLUDED.access;

-- Every existing company gets its principal establishment, and the REP
-- its event estabelecimento.incluido, numbered after the company's last
-- event (the payload is the service's estabelecimentos.REPPayload).
INSERT INTO estabelecimentos (empresa_id, principal, tipo, numero, nome, fuso_horario)
SELECT id, true, 'cnpj', replace(replace(replace(cnpj, '.', ''), '/', ''), '-', ''), nome, fuso_horario
FROM empresas ORDER BY id;

WITH seq AS (
    INSERT INTO outbox_sequencias (empresa_id, ultima)
    SELECT empresa_id, 1 FROM estabelecimentos WHERE principal
    ON CONFLICT (empresa_id) DO UPDATE SET ultima = outbox_sequencias.ultima + 1
    RETURNING empresa_id, ultima)
INSERT INTO outbox_eventos (empresa_id, sequencia, tipo, dados, ocorrido_em)
SELECT s.empresa_id, s.ultima, 'estabelecimento.incluido', jsonb_build_object(
    'empresa', jsonb_build_object(
        'cnpj', e.cnpj, 'razaoSocial', e.razao_social, 'local', est.endereco, 'cno', '',
        'responsavel', CASE WHEN e.responsavel_nome IS NULL THEN 'null'::jsonb
            ELSE jsonb_build_object('nome', e.responsavel_nome, 'cpf', e.responsavel_cpf) END),
    'estabelecimento', jsonb_build_object(
        'id', est.id, 'principal', true, 'tipo', 'cnpj', 'numero', est.numero, 'nome', est.nome, 'ativo', true)),
    clock_timestamp()
FROM seq s
JOIN empresas e ON e.id = s.empresa_id
JOIN estabelecimentos est ON est.empresa_id = s.empresa_id AND est.principal;

-- +goose Down
-- The events stay: removing them would leave a gap in the sequences.
DELETE FROM table_access WHERE table_name = 'estabelecimentos';
DROP TABLE estabelecimentos;
