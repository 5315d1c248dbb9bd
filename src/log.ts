import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.ts';

export type { Logger };

/**
 * Structured JSON logs. Request logs carry the path without its query string (which may hold
 * tokens), and these keys are censored wherever they appear.
 */
export function createLogger(level: LogLevel, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'password',
          'token',
          'access_token',
          'refresh_token',
          'api_token',
          'code',
          'secret',
          '*.password',
          '*.token',
          '*.access_token',
          '*.refresh_token',
          '*.api_token',
          '*.secret',
          'headers.authorization',
          'headers.cookie',
          'headers["api-key"]',
          'headers["x-api-key"]',
        ],
        censor: '[redacted]',
      },
    },
    destination as pino.DestinationStream | undefined,
  );
}
