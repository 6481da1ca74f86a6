-- +goose Up

-- The employee changes timekeeping's clock-in cache must forget
-- (pkg/changefeed; changefeed_test.go checks the triggers): the
-- triggers record, in the changing transaction, an employee updated or
-- deleted (his row; not a new login code, password or update time) and
-- a work schedule updated or deleted (the whole company, funcionario_id
-- NULL). The relay publishes the rows to Redis and deletes them.
CREATE TABLE funcionarios_alterados (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id     bigint NOT NULL,
    funcionario_id bigint
);

-- +goose StatementBegin
CREATE FUNCTION funcionarios_alterados_registrar() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'funcionarios' THEN
        IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) - 'code_verify' - 'password_hash' - 'atualizado_em')
                = (to_jsonb(OLD) - 'code_verify' - 'password_hash' - 'atualizado_em') THEN
            RETURN NULL;
        END IF;
        INSERT INTO funcionarios_alterados (empresa_id, funcionario_id) VALUES (OLD.empresa_id, OLD.id);
    ELSE
        IF TG_OP = 'UPDATE' AND to_jsonb(NEW) = to_jsonb(OLD) THEN
            RETURN NULL;
        END IF;
        INSERT INTO funcionarios_alterados (empresa_id, funcionario_id) VALUES (OLD.empresa_id, NULL);
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER funcionarios_alterados AFTER UPDATE OR DELETE ON funcionarios
    FOR EACH ROW EXECUTE FUNCTION funcionarios_alterados_registrar();
CREATE TRIGGER escalas_alteradas AFTER UPDATE OR DELETE ON escalas_trabalho
    FOR EACH ROW EXECUTE FUNCTION funcionarios_alterados_registrar();

INSERT INTO table_access (table_name, access) VALUES ('funcionarios_alterados', 'read_write');

-- +goose Down
DELETE FROM table_access WHERE table_name = 'funcionarios_alterados';
DROP TRIGGER escalas_alteradas ON escalas_trabalho;
DROP TRIGGER funcionarios_alterados ON funcionarios;
DROP FUNCTION funcionarios_alterados_registrar();
DROP TABLE funcionarios_alterados;
