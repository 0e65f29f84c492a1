import { z } from 'zod';
import { ACCOUNT_PLATFORMS } from './accounts.ts';
import { CLIP_LIMIT_DEFAULT, CLIP_LIMIT_MAX, CLIP_LIMIT_MIN } from './constants.ts';
import { STREAMER_MOMENT_DEFAULTS, streamerMomentFields, streamerMoments } from './moments.ts';
import { STREAMER_SELECTION_DEFAULTS, streamerSelection, streamerSelectionFields } from './selection.ts';
import { STREAMER_STUDIO_DEFAULTS, streamerStudio, streamerStudioDefaultedFields, streamerStudioFields } from './studio.ts';

const STREAMER_NAME_REQUIRED = 'Streamer name is required';
const STREAMER_NAME_RULE = 'Streamer name must be a Twitch login: letters, digits and _ (at most 25 characters)';
export const CLIP_LIMIT_RULE = `Clip limit must be a whole number from ${CLIP_LIMIT_MIN} to ${CLIP_LIMIT_MAX}`;
const SCHEDULE_INTERVAL_RULE = 'Schedule interval must be a whole number of at least 1';
export const NAME_CANNOT_CHANGE = 'Streamer name cannot be changed';

/** Spec section 5: auto-detect (empty) or one of these codes. */
export const LANGUAGE_OPTIONS = [
  { code: '', label: 'Auto-detect' },
  { code: 'en', label: 'English' },
  { code: 'de', label: 'German' },
  { code: 'fr', label: 'French' },
  { code: 'es', label: 'Spanish' },
  { code: 'it', label: 'Italian' },
  { code: 'pt', label: 'Portuguese' },
  { code: 'nl', label: 'Dutch' },
  { code: 'ru', label: 'Russian' },
  { code: 'ja', label: 'Japanese' },
  { code: 'ko', label: 'Korean' },
  { code: 'zh', label: 'Chinese' },
  { code: 'tr', label: 'Turkish' },
  { code: 'pl', label: 'Polish' },
  { code: 'ar', label: 'Arabic' },
  { code: 'hi', label: 'Hindi' },
] as const;
const LANGUAGE_CODES = LANGUAGE_OPTIONS.map((option) => option.code) as [string, ...string[]];

export function languageLabel(code: string): string {
  return LANGUAGE_OPTIONS.find((option) => option.code === code)?.label ?? code;
}

export const SCHEDULE_UNITS = ['minutes', 'hours', 'days'] as const;
export type ScheduleUnit = (typeof SCHEDULE_UNITS)[number];
export const DEFAULT_SCHEDULE = { interval: 4, unit: 'hours' } as const satisfies { interval: number; unit: ScheduleUnit };

const scheduleSchema = z.object({
  interval: z
    .number({ error: SCHEDULE_INTERVAL_RULE })
    .int(SCHEDULE_INTERVAL_RULE)
    .min(1, SCHEDULE_INTERVAL_RULE)
    .max(100_000, 'Schedule interval is too large'),
  unit: z.enum(SCHEDULE_UNITS, { error: 'Schedule unit must be minutes, hours or days' }),
});
export type Schedule = z.infer<typeof scheduleSchema>;

const UNIT_MS: Record<ScheduleUnit, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

export function scheduleIntervalMs(schedule: Schedule): number {
  return schedule.interval * UNIT_MS[schedule.unit];
}

/** "Every N unit" (spec section 2), singular for 1. */
export function formatSchedule(schedule: Schedule | null): string {
  if (!schedule) return 'No schedule';
  const unit = schedule.interval === 1 ? schedule.unit.replace(/s$/, '') : schedule.unit;
  return `Every ${schedule.interval} ${unit}`;
}

export const streamerName = z
  .string({ error: STREAMER_NAME_REQUIRED })
  .trim()
  .min(1, STREAMER_NAME_REQUIRED)
  .regex(/^[A-Za-z0-9_]{1,25}$/, STREAMER_NAME_RULE);

const clipLimit = z
  .number({ error: CLIP_LIMIT_RULE })
  .int(CLIP_LIMIT_RULE)
  .min(CLIP_LIMIT_MIN, CLIP_LIMIT_RULE)
  .max(CLIP_LIMIT_MAX, CLIP_LIMIT_RULE);

const settingFields = {
  clip_limit: clipLimit,
  vertical: z.boolean({ error: 'vertical must be true or false' }),
  language: z.enum(LANGUAGE_CODES, {
    error: `Language must be empty (auto-detect) or one of ${LANGUAGE_CODES.filter(Boolean).join(', ')}`,
  }),
  schedule: scheduleSchema.nullable(),
  auto_subtitle: z.boolean({ error: 'auto_subtitle must be true or false' }),
  auto_publish: z.boolean({ error: 'auto_publish must be true or false' }),
  ...streamerStudioFields,
  ...streamerSelectionFields,
  ...streamerMomentFields,
};

/** A new streamer: every setting optional, with the spec's defaults (section 5). */
export const createStreamerInput = z.object({
  name: streamerName,
  clip_limit: settingFields.clip_limit.default(CLIP_LIMIT_DEFAULT),
  vertical: settingFields.vertical.default(true),
  language: settingFields.language.default(''),
  schedule: settingFields.schedule.default(null),
  auto_subtitle: settingFields.auto_subtitle.default(false),
  auto_publish: settingFields.auto_publish.default(false),
  ...streamerStudioDefaultedFields,
  clip_period: settingFields.clip_period.default(STREAMER_SELECTION_DEFAULTS.clip_period),
  min_views: settingFields.min_views.default(STREAMER_SELECTION_DEFAULTS.min_views),
  rank_by: settingFields.rank_by.default(STREAMER_SELECTION_DEFAULTS.rank_by),
  clip_creators: settingFields.clip_creators.default([]),
  publish_mode: settingFields.publish_mode.default(STREAMER_SELECTION_DEFAULTS.publish_mode),
  featured_only: settingFields.featured_only.default(STREAMER_SELECTION_DEFAULTS.featured_only),
  watch_live: settingFields.watch_live.default(STREAMER_MOMENT_DEFAULTS.watch_live),
  moment_threshold: settingFields.moment_threshold.default(STREAMER_MOMENT_DEFAULTS.moment_threshold),
});
export type CreateStreamerInput = z.infer<typeof createStreamerInput>;

/**
 * PUT: the name says which streamer (REST takes it from the path; a name repeated in the body must
 * be the same one); settings left out keep their current values, so a script can change one field
 * without resending the others.
 */
export const updateStreamerInput = z.object({
  name: z.string().trim().min(1, STREAMER_NAME_REQUIRED),
  ...z.object(settingFields).partial().shape,
});
export type UpdateStreamerInput = z.infer<typeof updateStreamerInput>;

export const streamerNameInput = z.object({ name: z.string().trim().min(1, STREAMER_NAME_REQUIRED) });

const linkedAccount = z.object({
  id: z.string(),
  /** Where the account posts, so a streamer's card can show each account's platform. */
  platform: z.enum(ACCOUNT_PLATFORMS),
  display_name: z.string(),
  username: z.string().nullable(),
  avatar_url: z.string().nullable(),
});

export const streamer = z.object({
  name: z.string(),
  display_name: z.string().nullable(),
  clip_limit: z.number(),
  vertical: z.boolean(),
  language: z.string(),
  ...streamerStudio.shape,
  ...streamerSelection.shape,
  ...streamerMoments.shape,
  schedule: scheduleSchema.nullable(),
  auto_subtitle: z.boolean(),
  auto_publish: z.boolean(),
  tiktok_accounts: z.array(linkedAccount),
  created_at: z.string(),
  updated_at: z.string(),
  next_run_at: z.string().nullable(),
});
export type Streamer = z.infer<typeof streamer>;

/** Form defaults of a new streamer (spec section 5). */
export const NEW_STREAMER_DEFAULTS = {
  name: '',
  clip_limit: CLIP_LIMIT_DEFAULT,
  vertical: true,
  language: '',
  schedule: null,
  auto_subtitle: false,
  auto_publish: false,
  ...STREAMER_STUDIO_DEFAULTS,
  ...STREAMER_SELECTION_DEFAULTS,
  ...STREAMER_MOMENT_DEFAULTS,
} as const;
