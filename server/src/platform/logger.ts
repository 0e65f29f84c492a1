import pino from 'pino';

/** Keys whose values never reach a log line, wherever they sit in the logged object. */
const SECRET_KEYS = [
  'password',
  'password_hash',
  'token',
  'access_token',
  'refresh_token',
  'client_secret',
  'secret',
  'authorization',
  'cookie',
  'set-cookie',
  'passkey',
  'invite_code',
  'sig',
];

export type Logger = pino.Logger;

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { app: 'clipshift' },
      redact: {
        paths: [
          ...SECRET_KEYS,
          ...SECRET_KEYS.map((key) => `*.${key}`),
          ...SECRET_KEYS.map((key) => `*.*.${key}`),
          'req.headers.authorization',
          'req.headers.cookie',
          'res.headers["set-cookie"]',
        ],
        censor: '[redacted]',
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

/** Replaces the values of secret-looking query parameters (sig, token, code…) in a URL or text. */
export function redactUrl(text: string): string {
  return text.replace(
    /([?&](?:sig|token|code|access_token|refresh_token|client_secret|upload_token|state|invite_code|passkey)=)[^&\s"]*/gi,
    '$1[redacted]',
  );
}
