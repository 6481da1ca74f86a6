-- +goose Up

-- Work schedules. horarios is kept as the client sent it (the answer echoes
-- it); minutos_diarios is derived from it at creation and feeds the
-- employee record's horarioTrabalho.
CREATE TABLE escalas_trabalho (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id      BIGINT      NOT NULL CHECK (empresa_id > 0),
    nome            TEXT        NOT NULL,
    horarios        JSONB       NOT NULL,
    minutos_diarios INTEGER     NOT NULL CHECK (minutos_diarios BETWEEN 0 AND 1440),
    criado_em       TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Target of the employees' composite foreign key, which makes the
    -- database itself refuse an employee on another company's schedule.
    UNIQUE (id, empresa_id)
);
CREATE INDEX escalas_trabalho_empresa ON escalas_trabalho (empresa_id, id);

CREATE TABLE departamentos (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id BIGINT      NOT NULL CHECK (empresa_id > 0),
    nome       TEXT        NOT NULL,
    criado_em  TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (id, empresa_id)
);
-- Names are unique per company regardless of case: reports look a
-- department up by name.
CREATE UNIQUE INDEX departamentos_empresa_nome ON departamentos (empresa_id, lower(nome));

-- Segments (teams) of a department, numbered 1..n in the order given at
-- creation; 0 is never stored, it means "the whole department" in routes.
CREATE TABLE segmentos (
    departamento_id BIGINT  NOT NULL REFERENCES departamentos (id) ON DELETE CASCADE,
    numero          INTEGER NOT NULL CHECK (numero >= 1),
    nome            TEXT    NOT NULL,
    PRIMARY KEY (departamento_id, numero)
);
CREATE UNIQUE INDEX segmentos_departamento_nome ON segmentos (departamento_id, lower(nome));

CREATE TABLE funcionarios (
    id                 BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    empresa_id         BIGINT        NOT NULL CHECK (empresa_id > 0),
    escala_trabalho_id BIGINT        NOT NULL,
    departamento_id    BIGINT,
    segmento           INTEGER,
    nome               TEXT          NOT NULL,
    cargo              TEXT          NOT NULL,
    email              TEXT          NOT NULL,
    cpf                TEXT          NOT NULL,
    telefone           TEXT          NOT NULL,
    endereco           TEXT          NOT NULL DEFAULT '',
    data_nascimento    DATE          NOT NULL,
    password_hash      TEXT          NOT NULL,
    code_verify        TEXT,
    ativo              BOOLEAN       NOT NULL DEFAULT true,
    clt                BOOLEAN       NOT NULL DEFAULT false,
    pj                 BOOLEAN       NOT NULL DEFAULT false,
    sobreaviso         BOOLEAN       NOT NULL DEFAULT false,
    sentimento         TEXT          NOT NULL DEFAULT 'Neutro',
    cidade             TEXT,
    uf                 TEXT,
    code_matricula     TEXT,
    nispis             TEXT,
    valor_hora         NUMERIC(10, 2),
    data_admissao      DATE,
    device_token       TEXT,
    foto_profile       TEXT,
    criado_em          TIMESTAMPTZ   NOT NULL DEFAULT now(),
    atualizado_em      TIMESTAMPTZ   NOT NULL DEFAULT now(),

    -- Composite keys: a schedule, department or segment of another company
    -- can never be attached, whatever the application code does.
    CONSTRAINT funcionarios_escala_fk FOREIGN KEY (escala_trabalho_id, empresa_id)
        REFERENCES escalas_trabalho (id, empresa_id),
    CONSTRAINT funcionarios_departamento_fk FOREIGN KEY (departamento_id, empresa_id)
        REFERENCES departamentos (id, empresa_id),
    CONSTRAINT funcionarios_segmento_fk FOREIGN KEY (departamento_id, segmento)
        REFERENCES segmentos (departamento_id, numero),
    CONSTRAINT funcionarios_segmento_sem_departamento CHECK (segmento IS NULL OR departamento_id IS NOT NULL),
    CONSTRAINT funcionarios_clt_pj CHECK (NOT (clt AND pj))
);
-- Employees log in by e-mail alone, so the e-mail is unique across every
-- company; a CPF identifies one person, so it is global too.
CREATE UNIQUE INDEX funcionarios_email ON funcionarios (lower(email));
CREATE UNIQUE INDEX funcionarios_cpf ON funcionarios (cpf);
CREATE UNIQUE INDEX funcionarios_matricula ON funcionarios (empresa_id, code_matricula);
CREATE INDEX funcionarios_empresa ON funcionarios (empresa_id, id);
CREATE INDEX funcionarios_departamento ON funcionarios (departamento_id, segmento, id);

-- +goose Down
DROP TABLE funcionarios;
DROP TABLE segmentos;
DROP TABLE departamentos;
DROP TABLE escalas_trabalho;
