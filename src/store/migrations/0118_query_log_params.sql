-- Issue 37: a dashboard's filter values are bound to placeholders, so the logged statement alone no
-- longer runs again. The values bound with it are kept beside it, as a JSON list of typed values
-- ([{type: 'text' | 'date' | 'number', value}]); NULL when nothing was bound. They are a user's filter
-- values and live exactly as the SQL text does: same row, same readers, same deletion.
ALTER TABLE query_log ADD COLUMN params TEXT;
