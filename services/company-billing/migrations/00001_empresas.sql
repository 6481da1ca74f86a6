-- +goose Up

-- A company (empresa) and its Stripe subscription. One row per company.
CREATE TABLE empresas (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    nome                text        NOT NULL,
    razao_social        text        NOT NULL,
    -- As sent, in the ##.###.###/####-## mask. The mask is fixed, so equal
    -- CNPJs are equal strings and the unique index below catches them.
    cnpj                text        NOT NULL,
    data_abertura       date        NOT NULL,
    -- As sent; uniqueness is case-insensitive (index on lower(email)).
    email               text        NOT NULL,
    password_hash       text        NOT NULL,
    nome_do_plano       text        NOT NULL,
    role                text        NOT NULL,
    preco_id            text        NOT NULL,
    invoice_id          text        NOT NULL,
    billing_customer_id text        NOT NULL,
    subscription_id     text        NOT NULL,
    -- Kept current by the Stripe webhook; null until its first event.
    assinatura_status   text,
    -- event.created of the event that set assinatura_status: Stripe does
    -- not deliver events in order, so an older event never overwrites a
    -- newer one.
    assinatura_evento_em bigint,
    bloqueada           boolean     NOT NULL DEFAULT false,
    criada_em           timestamptz NOT NULL DEFAULT now(),
    atualizada_em       timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX empresas_cnpj_key ON empresas (cnpj);
CREATE UNIQUE INDEX empresas_email_key ON empresas (lower(email));
CREATE UNIQUE INDEX empresas_billing_customer_id_key ON empresas (billing_customer_id);
CREATE UNIQUE INDEX empresas_subscription_id_key ON empresas (subscription_id);
-- The admin listing filters by these.
CREATE INDEX empresas_assinatura_status_idx ON empresas (assinatura_status, id);
CREATE INDEX empresas_bloqueada_idx ON empresas (bloqueada, id);

-- Registrations whose Stripe objects were compensated (deleted) after the
-- database write failed. Stripe replays an idempotent request's first
-- answer for 24 hours, even when the object was deleted since; a retry of
-- such a registration must therefore use new idempotency keys. geracao is
-- part of the keys and grows with each compensation. impressao is a
-- SHA-256 of the request (never of the password).
CREATE TABLE cadastro_compensacoes (
    impressao     text        PRIMARY KEY,
    geracao       integer     NOT NULL,
    atualizada_em timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE cadastro_compensacoes;
DROP TABLE empresas;
