// The SQLite handle's type, on its own so the store's modules can name it without importing each other.
import type Database from 'better-sqlite3';

export type Db = Database.Database;
