// What each dialect's lexer reads as a comment, a string or a name, where parsers and servers differ:
// MySQL's executable comments and `--`, sql_mode-dependent escapes, PostgreSQL's hints and string
// forms, SQLite's own tokens and their PostgreSQL spelling for the check.
import test from 'ava';
import { QueryRefused } from '../../../src/data/errors.ts';
import { canonicalMysqlText, isCanonicalMysqlText } from '../../../src/data/guard/mysql/mysql-text.ts';
import { pgParser } from '../../../src/data/guard/pg/pg-parser.ts';
import { canonicalPgText } from '../../../src/data/guard/pg/pg-text.ts';
import { sqliteCheckText } from '../../../src/data/guard/sqlite/sqlite-check-text.ts';
import { tokenizeSqlite } from '../../../src/data/guard/sqlite/sqlite-tokens.ts';

const blank = (s: string) => ' '.repeat(s.length);
const reason = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof QueryRefused ? err.reason : `not refused: ${String(err)}`;
  }
  return 'accepted';
};

test('MySQL executable comments and a bare `--` are refused before any parser sees them', (t) => {
  for (const sql of ['SELECT 1 /*! , 2 */', 'SELECT 1 /*!50000 UNION SELECT 2 */', 'SELECT 1 /*M! , 2 */', 'SELECT/*!*/1']) t.is(reason(() => canonicalMysqlText(sql)), 'executable_comment', sql);
  t.is(reason(() => canonicalMysqlText('SELECT 1--1')), 'ambiguous_syntax');
  t.is(reason(() => canonicalMysqlText('SELECT 1 \0')), 'ambiguous_syntax');
  t.is(reason(() => canonicalMysqlText("SELECT 'a\\0b'")), 'ambiguous_syntax');
  t.is(reason(() => canonicalMysqlText('SELECT 1 /* open')), 'parse_error');
});

test('MySQL comments and optimizer hints are blanked, markers inside strings and names are not comments', (t) => {
  t.is(canonicalMysqlText('SELECT /*+ SET_VAR(sql_mode = "") */ 1 -- x\n# y\n'), 'SELECT                               1     \n   \n');
  t.is(canonicalMysqlText("SELECT '/*!', `a/*!b`, '-- x'"), "SELECT '/*!', `a/*!b`, '-- x'");
  t.is(canonicalMysqlText('SELECT 1 --\tcomment'), `SELECT 1 ${blank('--\tcomment')}`);
});

test('MySQL strings are spelled with only doubled quotes and doubled backslashes, the same in every sql_mode', (t) => {
  t.is(canonicalMysqlText("SELECT 'a\\'b', \"c\\\"d\", 'it''s', 'x\\\\y', 'n\\n'"), "SELECT 'a''b', 'c\"d', 'it''s', 'x\\\\y', 'n\n'");
  t.is(canonicalMysqlText("SELECT 'a\\_%'"), "SELECT 'a\\\\_%'");
  t.true(isCanonicalMysqlText("SELECT 'a''b' FROM `t`"));
  t.false(isCanonicalMysqlText("SELECT 'a\\'b'"));
  t.false(isCanonicalMysqlText('SELECT "x"'));
  t.false(isCanonicalMysqlText('SELECT 1 -- x'));
});

test('SQLite tokens split where SQLite splits them', (t) => {
  const kinds = (sql: string) => tokenizeSqlite(sql).filter((x) => x.kind !== 'space').map((x) => `${x.kind}:${x.text}`);
  t.deepEqual(kinds("SELECT 'a\\' --x"), ['id:SELECT', "string:'a\\'", 'comment:--x']);
  t.deepEqual(kinds('SELECT [a;b], `c``d`, "e""f" FROM t'), ['id:SELECT', 'id:[a;b]', 'op:,', 'id:`c``d`', 'op:,', 'id:"e""f"', 'id:FROM', 'id:t']);
  t.deepEqual(kinds("x'41' 1_000 .5 0x1F a->>'$' /* open"), ["blob:x'41'", 'number:1_000', 'number:.5', 'number:0x1F', 'id:a', 'op:->>', "string:'$'", 'comment:/* open']);
  t.deepEqual(kinds('?1 :v @v $v'), ['variable:?1', 'variable::v', 'variable:@v', 'variable:$v']);
  t.is(reason(() => tokenizeSqlite('SELECT 1abc')), 'parse_error');
  t.is(reason(() => tokenizeSqlite('SELECT 1 \0; DROP TABLE t')), 'ambiguous_syntax');
  t.is(reason(() => tokenizeSqlite("SELECT 'open")), 'parse_error');
});

test('SQLite is spelled for PostgreSQL\'s grammar where the two differ, and the offsets map back', (t) => {
  const c = sqliteCheckText('SELECT [My Col] FROM `t` /* x */ WHERE a == 1 AND b IS c AND d IS NOT e AND f NOT NULL AND g GLOB \'x*\' LIMIT 2, 3');
  t.is(c.text, 'SELECT "My Col" FROM "t" WHERE a = 1 AND b IS NOT DISTINCT FROM c AND d IS DISTINCT FROM e AND f IS NOT NULL AND g LIKE \'x*\' LIMIT 2 OFFSET 3');
  t.is(c.source(c.text.indexOf('"t"')), 'SELECT [My Col] FROM '.length);
  t.is(sqliteCheckText('SELECT a IS NULL, b IS NOT TRUE').text, 'SELECT a IS NULL , b IS NOT TRUE');
  t.is(reason(() => sqliteCheckText('SELECT :x')), 'parameter');
});

test('PostgreSQL comments are blanked (nested ones and hints too) and strings spelled the same whatever standard_conforming_strings says', async (t) => {
  const p = await pgParser();
  const hint = '/*+ Set(statement_timeout 0) */';
  const nested = '/* a /* b */ c */';
  t.is(canonicalPgText(p, `SELECT ${hint} 1 ${nested} -- d\n`), `SELECT ${blank(hint)} 1 ${blank(nested)} ${blank('-- d')}\n`);
  t.is(canonicalPgText(p, "SELECT 'a\\b', E'x\\'y', $$it's$$, $q$z$q$, 'p'\n'q', U&'d\\0061t'"), "SELECT E'a\\\\b', 'x''y', 'it''s', 'z', 'pq', 'dat'");
  t.is(canonicalPgText(p, "SELECT 'plain', date '2024-01-01', interval '1 day'"), "SELECT 'plain', date '2024-01-01', interval '1 day'");
  t.is(reason(() => canonicalPgText(p, "SELECT U&'!0061' UESCAPE '!'")), 'ambiguous_syntax');
  t.is(reason(() => canonicalPgText(p, 'SELECT 1 \0')), 'ambiguous_syntax');
});
