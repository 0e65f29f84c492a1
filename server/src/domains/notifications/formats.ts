import { createHmac } from 'node:crypto';
import type { WebhookEvent, WebhookKind } from '@clipshift/shared';
import type { WebhookPayload } from '../../platform/db/schema.ts';

/** What each event tells the receiver (`data` of json bodies); fields missing from a raiser are null. */
export interface WebhookEventData {
  'run.completed': { run_id: string; streamer: string; clips_downloaded: number; clips_failed: number; error: null };
  'run.failed': { run_id: string; streamer: string; clips_downloaded: number; clips_failed: number; error: string };
  'clip.review': { clip_id: string; clip_title: string; streamer: string };
  'post.published': { upload_id: string; clip_id: string; clip_title: string; account: string; platform: string; share_url: string | null };
  'post.failed': { upload_id: string; clip_id: string; clip_title: string; account: string; platform: string; error: string };
  'account.reconnect': { account_id: string; account: string; platform: string };
}

export const SIGNATURE_HEADER = 'X-Clipshift-Signature';
export const DELIVERY_HEADER = 'X-Clipshift-Delivery';
export const EVENT_HEADER = 'X-Clipshift-Event';

const text = (value: unknown) => (typeof value === 'string' ? value : String(value ?? ''));
const count = (value: unknown, word: string) => `${Number(value ?? 0)} ${word}${Number(value) === 1 ? '' : 's'}`;

/** One line a person reads in Discord or Slack. */
export function eventSummary(payload: WebhookPayload): string {
  const data = payload.data;
  switch (payload.event) {
    case 'run.completed': {
      const failed = Number(data.clips_failed ?? 0) > 0 ? ` (${count(data.clips_failed, 'clip')} failed)` : '';
      return `✅ Downloaded ${count(data.clips_downloaded, 'clip')} for ${text(data.streamer)}${failed}`;
    }
    case 'run.failed':
      return `❌ Download for ${text(data.streamer)} failed: ${text(data.error)}`;
    case 'clip.review':
      return `👀 "${text(data.clip_title)}" (${text(data.streamer)}) is waiting for review`;
    case 'post.published':
      return `📤 Posted "${text(data.clip_title)}" to ${text(data.account)}${data.share_url ? `: ${text(data.share_url)}` : ''}`;
    case 'post.failed':
      return `⚠️ Posting "${text(data.clip_title)}" to ${text(data.account)} failed: ${text(data.error)}`;
    case 'account.reconnect':
      return `🔌 ${text(data.account)} needs reconnecting in Clipshift Settings`;
    case 'test':
      return '🔔 Test notification from Clipshift: this webhook works';
  }
}

const COLOURS: Record<WebhookEvent | 'test', number> = {
  'run.completed': 0x22c55e,
  'run.failed': 0xef4444,
  'clip.review': 0x3b82f6,
  'post.published': 0x22c55e,
  'post.failed': 0xef4444,
  'account.reconnect': 0xf59e0b,
  test: 0x8b5cf6,
};

/** Discord's and Slack's limits on a message's text (2000 and 3000 characters). */
const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

/**
 * The raw body a webhook of this kind receives: Discord's and Slack's incoming-webhook messages, or
 * the contract's {event, created_at, data}. Built from the stored payload, so every try sends the
 * same bytes (and the same signature).
 */
export function formatBody(kind: WebhookKind, payload: WebhookPayload): string {
  const summary = eventSummary(payload);
  if (kind === 'json') return JSON.stringify({ event: payload.event, created_at: payload.created_at, data: payload.data });
  if (kind === 'discord') {
    return JSON.stringify({
      content: clip(summary, 2000),
      embeds: [{ title: payload.event, color: COLOURS[payload.event], timestamp: payload.created_at, footer: { text: 'Clipshift' } }],
      allowed_mentions: { parse: [] },
    });
  }
  return JSON.stringify({
    text: clip(summary, 3000),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: clip(summary, 3000) } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `Clipshift · ${payload.event} · ${payload.created_at}` }] },
    ],
  });
}

/** `sha256=<hex HMAC-SHA256 of the raw body>`: the receiver recomputes it with the secret it was shown. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
