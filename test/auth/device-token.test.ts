// The remembered-device cookie (issue 33 §5): bound to a user, signed with the service secret, expiring.
import test from 'ava';
import { DEVICE_TTL_MS, rememberDevice, rememberedDevice } from '../../src/auth/credentials/device-token.ts';
import { FakeClock } from '../../src/clock.ts';

const deps = () => ({ jwtKey: 'k'.repeat(48), clock: new FakeClock() });

test('a device cookie names the same device for its user on every renewal, and no device for anyone else', (t) => {
  const d = deps();
  const first = rememberDevice(d, 'user-1', undefined).value;
  const device = rememberedDevice(d, 'user-1', first);
  t.truthy(device);
  t.is(rememberedDevice(d, 'user-1', rememberDevice(d, 'user-1', first).value), device);
  t.is(rememberedDevice(d, 'user-2', first), undefined);
  t.not(rememberedDevice(d, 'user-1', rememberDevice(d, 'user-1', undefined).value), device);
});

test('a device cookie signed with another secret, or expired, remembers nothing', (t) => {
  const d = deps();
  const cookie = rememberDevice(d, 'user-1', undefined).value;
  t.is(rememberedDevice({ ...d, jwtKey: 'j'.repeat(48) }, 'user-1', cookie), undefined);
  d.clock.advance(DEVICE_TTL_MS - 1);
  t.truthy(rememberedDevice(d, 'user-1', cookie));
  d.clock.advance(1);
  t.is(rememberedDevice(d, 'user-1', cookie), undefined);
});

test('a shared browser remembers its five most recent users', (t) => {
  const d = deps();
  let cookie: string | undefined;
  for (let i = 1; i <= 6; i++) cookie = rememberDevice(d, `user-${i}`, cookie).value;
  t.is(rememberedDevice(d, 'user-1', cookie), undefined);
  for (let i = 2; i <= 6; i++) t.truthy(rememberedDevice(d, `user-${i}`, cookie));
});
