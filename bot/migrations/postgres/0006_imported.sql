-- PostgreSQL twin of ../0006_imported.sql.

ALTER TABLE games ADD COLUMN imported_ms BIGINT;
