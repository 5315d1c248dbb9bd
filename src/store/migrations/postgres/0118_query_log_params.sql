-- PostgreSQL twin of ../0118_query_log_params.sql.
ALTER TABLE query_log ADD COLUMN params TEXT;
