-- Words that mix letters and digits ("café2") are the parser's numword (numhword, hword_numpart when
-- hyphenated), which 0050 left out of the unaccent mapping: "cafe2" did not find "café2" here while
-- FTS5 (remove_diacritics 2) finds it. Map them like plain words, then recompute the stored tsvectors
-- (a generated column is recomputed when its row is updated).
ALTER TEXT SEARCH CONFIGURATION sextant_fts ALTER MAPPING FOR numword, numhword, hword_numpart WITH unaccent, simple;
UPDATE chat_messages_fts SET body = body;
