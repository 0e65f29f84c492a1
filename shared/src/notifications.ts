import { z } from 'zod';
import { rowId } from './input.ts';

/** What a webhook can be told about (rest-api.md "Notifications"); the names are the contract's. */
export const WEBHOOK_EVENTS = ['run.completed', 'run.failed', 'clip.review', 'post.published', 'post.failed', 'account.reconnect'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'run.completed': 'Download run completed',
  'run.failed': 'Download run failed',
  'clip.review': 'Clip waiting for review',
  'post.published': 'Post published',
  'post.failed': 'Post failed',
  'account.reconnect': 'Account needs reconnecting',
};

export const WEBHOOK_KINDS = ['discord', 'slack', 'json'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];
export const WEBHOOK_KIND_LABELS: Record<WebhookKind, string> = { discord: 'Discord', slack: 'Slack', json: 'JSON (signed)' };

export const WEBHOOKS_PER_USER_MAX = 20;
export const WEBHOOK_URL_MAX_LENGTH = 2000;
export const WEBHOOK_SECRET_MIN_LENGTH = 16;
export const WEBHOOK_SECRET_MAX_LENGTH = 200;

const URL_RULE = `url must be an http:// or https:// address of at most ${WEBHOOK_URL_MAX_LENGTH} characters`;
const EVENTS_RULE = `events must list at least one of ${WEBHOOK_EVENTS.join(', ')}`;
const SECRET_RULE = `secret must be ${WEBHOOK_SECRET_MIN_LENGTH} to ${WEBHOOK_SECRET_MAX_LENGTH} characters`;

/** Whether text parses as an absolute http(s) URL with a host (credentials in it are refused: they would be shown in lists). */
export function isWebhookUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' && url.password === '';
}

export const createWebhookInput = z.object({
  url: z
    .string({ error: URL_RULE })
    .trim()
    .min(1, URL_RULE)
    .max(WEBHOOK_URL_MAX_LENGTH, URL_RULE)
    .refine(isWebhookUrl, URL_RULE),
  kind: z.enum(WEBHOOK_KINDS, { error: `kind must be one of ${WEBHOOK_KINDS.join(', ')}` }),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: EVENTS_RULE }), { error: EVENTS_RULE })
    .min(1, EVENTS_RULE)
    .max(WEBHOOK_EVENTS.length, EVENTS_RULE),
  /** json only: the HMAC key. Left out, the server generates one and shows it once, in the answer to this call. */
  secret: z.string({ error: SECRET_RULE }).min(WEBHOOK_SECRET_MIN_LENGTH, SECRET_RULE).max(WEBHOOK_SECRET_MAX_LENGTH, SECRET_RULE).optional(),
});
export type CreateWebhookInput = z.input<typeof createWebhookInput>;

export const webhookIdInput = z.object({ id: rowId('id is required') });

export const webhook = z.object({
  id: z.string(),
  url: z.string(),
  kind: z.enum(WEBHOOK_KINDS),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  created_at: z.string(),
  /** The receiver's HTTP status of the latest delivery; null before any, or when it could not be reached. */
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
});
export type Webhook = z.infer<typeof webhook>;

/** The creation answer: the webhook and, for json, the signing secret (shown this once, never again). */
export const createdWebhook = webhook.extend({ secret: z.string().nullable() });
export type CreatedWebhook = z.infer<typeof createdWebhook>;

export const webhookTestResult = z.object({ status: z.number().int() });

/** The Settings words for a test delivery's answer. */
export const receiverAnswered = (status: number) => `Receiver answered ${status}`;
