-- Nothing to change on SQLite: the credential cache watches its own connection with temporary
-- triggers (sqlite-watch.ts). The PostgreSQL twin makes every write to the tables a principal is made
-- of NOTIFY the other replicas.
SELECT 1;
