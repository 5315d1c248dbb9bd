// The per-organization warehouse folders on a real file system: every way an organization could
// name another organization's file, at save time and again at open time.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { confineWarehousePath, resolveWarehouseFile, WarehousePathRefused } from '../../../src/data/connections/index.ts';
import { ValidationFailed } from '../../../src/errors.ts';
import { tempDir } from '../warehouses.ts';

/** Two roots; organization `a` keeps `wh.duckdb` and `sub/x.duckdb`, organization `b` has an empty folder. */
function layout() {
  const base = tempDir();
  const roots = [join(base, 'r1'), join(base, 'r2')];
  for (const dir of [join(roots[0]!, 'a', 'sub'), join(roots[0]!, 'b'), join(roots[1]!, 'b')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(roots[0]!, 'a', 'wh.duckdb'), 'A');
  writeFileSync(join(roots[0]!, 'a', 'sub', 'x.duckdb'), 'A2');
  writeFileSync(join(roots[0]!, 'shared.duckdb'), 'shared');
  return { base, roots, aFile: join(roots[0]!, 'a', 'wh.duckdb'), bFolder: join(roots[0]!, 'b') };
}

const saveReason = (roots: string[], org: string, path: string | undefined) => {
  try {
    confineWarehousePath(roots, org, path);
    return 'accepted';
  } catch (err) {
    if (!(err instanceof ValidationFailed)) throw err;
    return `${err.issues[0]!.loc.join('.')}: ${err.issues[0]!.msg}`;
  }
};
const openReason = (roots: string[], org: string, path: string) => {
  try {
    return resolveWarehouseFile(roots, org, path);
  } catch (err) {
    if (err instanceof WarehousePathRefused) return err.reason;
    return (err as { code?: string }).code;
  }
};

test('relative paths are stored normalized and resolve in the organization folder of the first root that holds them', (t) => {
  const { roots } = layout();
  t.is(confineWarehousePath(roots, 'a', './sub//x.duckdb'), 'sub/x.duckdb');
  t.is(resolveWarehouseFile(roots, 'a', 'sub/x.duckdb'), join(roots[0]!, 'a', 'sub', 'x.duckdb'));
  writeFileSync(join(roots[1]!, 'b', 'only-in-r2.duckdb'), 'B');
  t.is(resolveWarehouseFile(roots, 'b', 'only-in-r2.duckdb'), join(roots[1]!, 'b', 'only-in-r2.duckdb'));
  // A file that is not there yet may be saved; opening it says it is missing.
  t.is(confineWarehousePath(roots, 'b', 'later.duckdb'), 'later.duckdb');
  t.is(openReason(roots, 'b', 'later.duckdb'), 'WAREHOUSE_UNAVAILABLE');
});

test("every spelling that names another organization's or a shared file is refused at save with 422 on settings.path", (t) => {
  const { roots, aFile } = layout();
  const hostile: [string, RegExp][] = [
    [aFile, /absolute/],
    [join(roots[0]!, 'shared.duckdb'), /absolute/],
    ['../a/wh.duckdb', /\.\. segments/],
    ['../shared.duckdb', /\.\. segments/],
    ['sub/../../a/wh.duckdb', /\.\. segments/],
    ['..', /\.\. segments/],
    ['..\\a\\wh.duckdb', /backslashes/],
    ['wh.duckdb\u0000.csv', /printable/],
    ['line\nbreak.duckdb', /printable/],
    ['.', /required/],
    ['', /required/],
  ];
  for (const [path, msg] of hostile) t.regex(saveReason(roots, 'b', path), new RegExp(`^body\\.settings\\.path: .*${msg.source}`), JSON.stringify(path));
  t.regex(saveReason(roots, 'b', undefined), /required/);
});

test('organization ids that are not plain folder names have no warehouse folder', (t) => {
  const { roots } = layout();
  for (const org of ['..', '.', 'a/b', '../a', '', 'x'.repeat(200)]) {
    t.regex(saveReason(roots, org, 'wh.duckdb'), /cannot have warehouse files/, JSON.stringify(org));
    t.is(openReason(roots, org, 'wh.duckdb'), 'organization');
  }
  t.regex(saveReason([], 'a', 'wh.duckdb'), /cannot have warehouse files/);
});

test('a link in the folder that leads to another organization or out of the roots is refused; one that stays inside is followed', (t) => {
  const { roots, aFile, bFolder } = layout();
  symlinkSync(aFile, join(bFolder, 'stolen.duckdb'));
  symlinkSync(join(roots[0]!, 'a'), join(bFolder, 'a-dir'));
  symlinkSync('/etc/passwd', join(bFolder, 'passwd.duckdb'));
  symlinkSync(join(bFolder, 'missing.duckdb'), join(bFolder, 'dangling.duckdb'));
  symlinkSync(join(bFolder, 'loop1'), join(bFolder, 'loop2'));
  symlinkSync(join(bFolder, 'loop2'), join(bFolder, 'loop1'));
  writeFileSync(join(bFolder, 'v2.duckdb'), 'B');
  symlinkSync('v2.duckdb', join(bFolder, 'current.duckdb'));
  for (const [path, reason] of [
    ['stolen.duckdb', 'outside'],
    ['a-dir/wh.duckdb', 'outside'],
    ['passwd.duckdb', 'outside'],
    ['dangling.duckdb', 'dangling_link'],
    ['loop1', 'dangling_link'],
  ] as const) {
    t.regex(saveReason(roots, 'b', path), /^body\.settings\.path/, path);
    t.is(openReason(roots, 'b', path), reason, path);
  }
  t.is(confineWarehousePath(roots, 'b', 'current.duckdb'), 'current.duckdb');
  t.is(resolveWarehouseFile(roots, 'b', 'current.duckdb'), join(bFolder, 'v2.duckdb'));
});

test('a hard link to a file, a folder or a named pipe is refused', (t) => {
  const { roots, aFile, bFolder } = layout();
  linkSync(aFile, join(bFolder, 'hard.duckdb'));
  mkdirSync(join(bFolder, 'folder.duckdb'));
  execFileSync('mkfifo', [join(bFolder, 'pipe.duckdb')]);
  for (const [path, reason] of [['hard.duckdb', 'hard_link'], ['folder.duckdb', 'not_a_file'], ['pipe.duckdb', 'not_a_file']] as const) {
    t.regex(saveReason(roots, 'b', path), /^body\.settings\.path/, path);
    t.is(openReason(roots, 'b', path), reason, path);
  }
  // The original is refused too while the second name exists: either name could be the other organization's.
  t.is(openReason(roots, 'a', 'wh.duckdb'), 'hard_link');
});

test('a file swapped for a link after it was saved is refused when opened', (t) => {
  const { roots, aFile, bFolder } = layout();
  writeFileSync(join(bFolder, 'mine.duckdb'), 'B');
  t.is(confineWarehousePath(roots, 'b', 'mine.duckdb'), 'mine.duckdb');
  rmSync(join(bFolder, 'mine.duckdb'));
  symlinkSync(aFile, join(bFolder, 'mine.duckdb'));
  t.is(openReason(roots, 'b', 'mine.duckdb'), 'outside');
  // The same for a folder on the way swapped for a link.
  mkdirSync(join(bFolder, 'data'));
  writeFileSync(join(bFolder, 'data', 'wh.duckdb'), 'B');
  t.is(confineWarehousePath(roots, 'b', 'data/wh.duckdb'), 'data/wh.duckdb');
  renameSync(join(bFolder, 'data'), join(bFolder, 'data-old'));
  symlinkSync(join(roots[0]!, 'a'), join(bFolder, 'data'));
  t.is(openReason(roots, 'b', 'data/wh.duckdb'), 'outside');
});

test('paths stored before confinement open only when they lie in the organization’s own folder', (t) => {
  const { roots, aFile } = layout();
  t.is(resolveWarehouseFile(roots, 'a', aFile), aFile);
  t.is(openReason(roots, 'b', aFile), 'outside');
  t.is(openReason(roots, 'b', join(roots[0]!, 'shared.duckdb')), 'outside');
  t.is(openReason(roots, 'b', join(roots[0]!, 'b', '..', 'a', 'wh.duckdb')), 'outside');
  // A stored relative path is checked like a new one (a row changed behind the service's back).
  t.is(openReason(roots, 'b', '../a/wh.duckdb'), 'parent');
});
