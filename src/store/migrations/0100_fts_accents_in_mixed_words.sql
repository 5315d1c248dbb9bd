-- Nothing to change on SQLite: FTS5's unicode61 tokenizer (remove_diacritics 2) already folds the
-- accents of words that mix letters and digits. The PostgreSQL twin maps them to unaccent.
SELECT 1;
