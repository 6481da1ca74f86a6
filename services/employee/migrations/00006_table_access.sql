-- +goose Up
-- The rights of employee's service role (pkg/database.Grant, applied
-- after every migration): every table here is working state the service
-- updates. A migration that creates a table adds its row to table_access
-- ('append_only' for a record the service must never change); migrate
-- refuses a table left out.
INSERT INTO table_access (table_name, access) VALUES
    ('escalas_trabalho', 'read_write'),
    ('departamentos',    'read_write'),
    ('segmentos',        'read_write'),
    ('funcionarios',     'read_write'),
    -- the transactional outbox: the relay marks events sent
    ('outbox_sequencias', 'read_write'),
    ('outbox_eventos', 'read_write')
ON CONFLICT (table_name) DO UPDATE SET access = EXCLUDED.access;

-- +goose Down
DELETE FROM table_access WHERE table_name IN ('outbox_sequencias', 'outbox_eventos', 'escalas_trabalho', 'departamentos', 'segmentos', 'funcionarios');
