-- +goose Up

-- One person may work for several companies, which is common in Brazil:
-- a CPF and an e-mail are unique within a company, not across companies
-- (a global index would also tell any company that a CPF belongs to
-- another tenant's employee). The indexes keep their names, which the
-- service maps to cpf_duplicado and email_duplicado. Login looks employees
-- up by e-mail alone, hence the plain index.
DROP INDEX funcionarios_email;
DROP INDEX funcionarios_cpf;
CREATE UNIQUE INDEX funcionarios_email ON funcionarios (empresa_id, lower(email));
CREATE UNIQUE INDEX funcionarios_cpf ON funcionarios (empresa_id, cpf);
CREATE INDEX funcionarios_email_login ON funcionarios (lower(email));

-- +goose Down
DROP INDEX funcionarios_email_login;
DROP INDEX funcionarios_email;
DROP INDEX funcionarios_cpf;
CREATE UNIQUE INDEX funcionarios_email ON funcionarios (lower(email));
CREATE UNIQUE INDEX funcionarios_cpf ON funcionarios (cpf);
