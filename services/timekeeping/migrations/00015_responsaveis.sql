-- +goose Up
-- The history of each company's responsible person (Portaria 671, Anexo V,
-- type 5 field 8: "CPF do responsável pela alteração"): who came in force
-- when, from the ocorridoEm of the empresa.* and estabelecimento.* events.
-- A type 5 carries the person in force when its own operation happened
-- (core.ResponsavelEmVigor), whatever order the two sources' events
-- arrive in. The type-2 records written before are the history so far,
-- each in force from when it was recorded.
CREATE TABLE responsaveis_empresa (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id    BIGINT      NOT NULL CHECK (empresa_id > 0),
    responsavel   CHAR(11)    NOT NULL CHECK (responsavel ~ '^[0-9]{11}$'),
    vigente_desde TIMESTAMPTZ NOT NULL
);
CREATE INDEX responsaveis_empresa_vigencia ON responsaveis_empresa (empresa_id, vigente_desde, id);

INSERT INTO responsaveis_empresa (empresa_id, responsavel, vigente_desde)
SELECT empresa_id, responsavel, gravado_em FROM empresas_rep ORDER BY empresa_id, gravado_em, id;

CREATE TRIGGER responsaveis_empresa_somente_inclusao BEFORE UPDATE OR DELETE ON responsaveis_empresa
    FOR EACH ROW EXECUTE FUNCTION somente_inclusao();
CREATE TRIGGER responsaveis_empresa_sem_truncate BEFORE TRUNCATE ON responsaveis_empresa
    FOR EACH STATEMENT EXECUTE FUNCTION somente_inclusao();

INSERT INTO table_access (table_name, access) VALUES ('responsaveis_empresa', 'append_only')
ON CONFLICT (table_name) DO UPDATE SET access = EXCLUDED.access;

-- +goose Down
DELETE FROM table_access WHERE table_name = 'responsaveis_empresa';
DROP TABLE responsaveis_empresa;
