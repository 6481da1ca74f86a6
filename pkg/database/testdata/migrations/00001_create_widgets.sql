-- +goose Up
CREATE TABLE widgets (
    id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL
);
INSERT INTO table_access (table_name, access) VALUES ('widgets', 'read_write');

-- +goose Down
DELETE FROM table_access WHERE table_name = 'widgets';
DROP TABLE widgets;
