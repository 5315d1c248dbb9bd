// The test clock of the subscription scheduler (SEXTANT_TEST_SUBSCRIPTION_CLOCK_FILE): read from its
// file at every call, an unreadable time is an error (never the system's), and the setting is warned
// about at start so a production server is never left on it.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';

test('the file clock reads the time the file holds at each call, and refuses a file without one', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-clock-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'now');
  const clock = fileClock(file);
  writeFileSync(file, '1768478400000\n');
  t.is(clock.now(), 1768478400000);
  writeFileSync(file, '1768479300000');
  t.is(clock.now(), 1768479300000);
  writeFileSync(file, 'soon');
  t.throws(() => clock.now());
});

test('the setting is off by default and warned about when set', (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-clock-config-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const base = { SEXTANT_DATA_DIR: dataDir, SEXTANT_JWT_SECRET: 'test-jwt-secret-test-jwt-secret-0123456789', SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'), SEXTANT_COOKIE_KEYS: 'k' };
  const plain = loadConfig(base);
  t.is(plain.subscriptionClockFile, undefined);
  t.false(plain.warnings.some((w) => w.includes('SEXTANT_TEST_SUBSCRIPTION_CLOCK_FILE')));
  const testing = loadConfig({ ...base, SEXTANT_TEST_SUBSCRIPTION_CLOCK_FILE: '/tmp/clock' });
  t.is(testing.subscriptionClockFile, '/tmp/clock');
  t.true(testing.warnings.some((w) => w.includes('SEXTANT_TEST_SUBSCRIPTION_CLOCK_FILE')));
});
