-- +goose Up
ALTER TABLE widgets ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

-- +goose StatementBegin
CREATE FUNCTION widgets_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.updated_at := now();
    RETURN NEW;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER widgets_touch BEFORE UPDATE ON widgets
    FOR EACH ROW EXECUTE FUNCTION widgets_touch();

-- +goose Down
DROP TRIGGER widgets_touch ON widgets;
DROP FUNCTION widgets_touch();
ALTER TABLE widgets DROP COLUMN updated_at;
