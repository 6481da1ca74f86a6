-- +goose Up
-- The rights of timekeeping's service role (pkg/database.Grant, applied
-- after every migration). The REP-P records, the adjustment history and
-- the time treatments are append-only: SELECT and INSERT (Portaria 671,
-- art. 82 and Anexo IX item 7); so is the ledger of events applied, lest
-- an event be applied twice. The rest is working state. A migration that
-- creates a table adds its row to table_access; migrate refuses a table
-- left out.
INSERT INTO table_access (table_name, access) VALUES
    ('registros_ponto',     'append_only'),
    ('empregados_rep',      'append_only'),
    ('empresas_rep',        'append_only'),
    ('eventos_rep',         'append_only'),
    ('ajustes_historico',   'append_only'),
    ('faltas',              'append_only'),
    ('marcacoes_incluidas', 'append_only'),
    ('desconsideracoes',    'append_only'),
    ('faltas_desfeitas',    'append_only'),
    ('abonos',              'append_only'),
    ('abonos_cancelados',   'append_only'),
    ('fechamentos',         'append_only'),
    ('reaberturas',         'append_only'),
    ('ciencias_espelho',    'append_only'),
    ('eventos_recebidos',   'append_only'),
    ('solicitacoes_marcacao', 'append_only'),
    ('solicitacoes_decisoes', 'append_only'),
    ('feriados_facultativos', 'read_write'),
    ('cadeias',             'read_write'),
    ('ajustes',             'read_write'),
    ('feriados',            'read_write'),
    ('locais_trabalho',     'read_write'),
    ('auditorias_cadeia',   'read_write')
ON CONFLICT (table_name) DO UPDATE SET access = EXCLUDED.access;

-- +goose Down
DELETE FROM table_access WHERE table_name IN ('registros_ponto', 'empregados_rep', 'empresas_rep',
    'eventos_rep', 'ajustes_historico', 'faltas', 'marcacoes_incluidas', 'desconsideracoes',
    'faltas_desfeitas', 'abonos', 'abonos_cancelados', 'fechamentos', 'reaberturas', 'ciencias_espelho',
    'eventos_recebidos', 'solicitacoes_marcacao', 'solicitacoes_decisoes', 'feriados_facultativos', 'cadeias', 'ajustes', 'feriados', 'locais_trabalho', 'auditorias_cadeia');
