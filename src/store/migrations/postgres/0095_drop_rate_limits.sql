-- PostgreSQL twin of ../0095_drop_rate_limits.sql.
DROP TABLE IF EXISTS rate_limits;
