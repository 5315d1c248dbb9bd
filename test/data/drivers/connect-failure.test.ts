import test from 'ava';
import { connectFailure } from '../../../src/data/drivers/connect-failure.ts';

const failing = (code: string | undefined, message = 'failed') => Object.assign(new Error(message), code ? { code } : {});

test('connect errors are classified by the client library\'s code', (t) => {
  t.is(connectFailure(failing('28P01')), 'wrong_credentials');
  t.is(connectFailure(failing('ER_ACCESS_DENIED_ERROR')), 'wrong_credentials');
  t.is(connectFailure(failing('3D000')), 'unknown_database');
  t.is(connectFailure(failing('ER_BAD_DB_ERROR')), 'unknown_database');
  t.is(connectFailure(failing('ECONNREFUSED')), 'unreachable');
  t.is(connectFailure(failing('ETIMEDOUT')), 'timed_out');
  t.is(connectFailure(failing('DEPTH_ZERO_SELF_SIGNED_CERT')), 'tls');
});

test('without a known code the words of a timeout or a TLS failure still count, and anything else is other', (t) => {
  t.is(connectFailure(failing(undefined, 'Connection terminated due to connection timeout')), 'timed_out');
  t.is(connectFailure(failing(undefined, 'The server does not support SSL connections')), 'tls');
  t.is(connectFailure(failing('XX000', 'internal error')), 'other');
  t.is(connectFailure('not an error'), 'other');
});
