import {
  createStreamerInput,
  DEFAULT_SCHEDULE,
  NEW_STREAMER_DEFAULTS,
  type CreateStreamerInput,
  type Layout,
  type ScheduleUnit,
  type Streamer,
} from '@clipshift/shared';
import { errorCode, isNetworkError, NETWORK_ERROR, serverIssues, serverMessage, type ServerIssue } from '@/api/errors';
import { streamerMessages, type StreamerFormMode } from '@/api/streamers';

export type { StreamerFormMode };

/** What the form edits; numbers stay text while typed so "" and "2.5" can be told apart. */
export interface StreamerFormValues {
  name: string;
  clipLimit: string;
  vertical: boolean;
  layout: Layout;
  language: string;
  scheduleEnabled: boolean;
  scheduleInterval: string;
  scheduleUnit: ScheduleUnit;
  autoSubtitle: boolean;
  autoPublish: boolean;
}

type StreamerFormField = 'name' | 'clipLimit' | 'scheduleInterval';
export type StreamerFormErrors = Partial<Record<StreamerFormField | 'form', string>>;

/** The spec's new-streamer defaults (limit 10, vertical, no schedule, no auto options). */
export function newStreamerValues(): StreamerFormValues {
  return {
    name: NEW_STREAMER_DEFAULTS.name,
    clipLimit: String(NEW_STREAMER_DEFAULTS.clip_limit),
    vertical: NEW_STREAMER_DEFAULTS.vertical,
    layout: NEW_STREAMER_DEFAULTS.layout,
    language: NEW_STREAMER_DEFAULTS.language,
    scheduleEnabled: NEW_STREAMER_DEFAULTS.schedule !== null,
    scheduleInterval: String(DEFAULT_SCHEDULE.interval),
    scheduleUnit: DEFAULT_SCHEDULE.unit,
    autoSubtitle: NEW_STREAMER_DEFAULTS.auto_subtitle,
    autoPublish: NEW_STREAMER_DEFAULTS.auto_publish,
  };
}

/** A saved streamer as form values; a streamer without a schedule offers the 4-hour default. */
export function streamerValues(streamer: Streamer): StreamerFormValues {
  const schedule = streamer.schedule ?? DEFAULT_SCHEDULE;
  return {
    name: streamer.name,
    clipLimit: String(streamer.clip_limit),
    vertical: streamer.vertical,
    layout: streamer.layout,
    language: streamer.language,
    scheduleEnabled: streamer.schedule !== null,
    scheduleInterval: String(schedule.interval),
    scheduleUnit: schedule.unit,
    autoSubtitle: streamer.auto_subtitle,
    autoPublish: streamer.auto_publish,
  };
}

/** Which form field a refusal is about, by the payload path the shared schema reports. */
function fieldOf(path: readonly (string | number)[]): StreamerFormField | 'form' {
  if (path[0] === 'name') return 'name';
  if (path[0] === 'clip_limit' || path[0] === 'limit') return 'clipLimit';
  if (path[0] === 'schedule') return 'scheduleInterval';
  return 'form';
}

/** The first message per field, as the form shows them under each input. */
function errorsFromIssues(issues: readonly ServerIssue[]): StreamerFormErrors {
  const errors: StreamerFormErrors = {};
  for (const issue of issues) {
    const field = fieldOf(issue.path);
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * Where the form shows a refused save. Validation refusals name their field; on creation a 409
 * (already exists) or a plain 400 (no such Twitch user) is about the name; anything else is the
 * form's.
 */
export function saveErrors(error: unknown, mode: StreamerFormMode): StreamerFormErrors {
  if (isNetworkError(error)) return { form: NETWORK_ERROR };
  const issues = serverIssues(error);
  if (issues.length > 0) return errorsFromIssues(issues);
  const message = serverMessage(error) ?? streamerMessages.saveFailed;
  const code = errorCode(error);
  if (mode === 'add' && (code === 'CONFLICT' || code === 'BAD_REQUEST')) return { name: message };
  return { form: message };
}

type StreamerFormResult = { ok: true; payload: CreateStreamerInput } | { ok: false; errors: StreamerFormErrors };

/** An existing streamer keeps its name (it cannot change), so editing checks only the settings. */
const settingsInput = createStreamerInput.omit({ name: true });

/**
 * A typed number as JSON sends it (the server takes JSON numbers only): decimal text becomes its
 * number, so "2.5" still meets the whole-number rule; anything else becomes NaN, which the schema
 * refuses with the field's message.
 */
function numberFromField(text: string): number {
  return /^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : Number.NaN;
}

/** Checks the form with the server's own rules (shared schema, spec section 5 messages) and builds the payload. */
export function validateStreamerForm(values: StreamerFormValues, mode: StreamerFormMode): StreamerFormResult {
  const settings = {
    clip_limit: numberFromField(values.clipLimit),
    vertical: values.vertical,
    layout: values.layout,
    language: values.language,
    schedule: values.scheduleEnabled ? { interval: numberFromField(values.scheduleInterval), unit: values.scheduleUnit } : null,
    auto_subtitle: values.autoSubtitle,
    auto_publish: values.autoPublish,
  };
  if (mode === 'edit') {
    const parsed = settingsInput.safeParse(settings);
    if (parsed.success) return { ok: true, payload: { name: values.name, ...parsed.data } };
    return { ok: false, errors: errorsFromIssues(issuesOf(parsed.error.issues)) };
  }
  const parsed = createStreamerInput.safeParse({ name: values.name, ...settings });
  if (parsed.success) return { ok: true, payload: parsed.data };
  return { ok: false, errors: errorsFromIssues(issuesOf(parsed.error.issues)) };
}

function issuesOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): ServerIssue[] {
  return issues.map((issue) => ({
    path: issue.path.filter((part): part is string | number => typeof part !== 'symbol'),
    message: issue.message,
  }));
}
