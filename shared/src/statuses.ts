import { z } from 'zod';
import { DOWNLOAD_STATUSES, statusTone, type ClipStage, type StatusTone } from './downloads.ts';
import { UPLOAD_STATUSES } from './posting.ts';

/*
 * Statuses the server reports, as enums with the words and colours every screen shows for them,
 * so that no client keeps tables of its own. Unknown values (a newer server) are shown as sent.
 */

/** A download run's status (spec section 4). */
export const RUN_STATUSES = DOWNLOAD_STATUSES;
const runStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof runStatus>;

const RUN_STATUS_LABELS: Record<RunStatus, string> = {
  downloading: 'Downloading',
  stopping: 'Stopping',
  completed: 'Completed',
  stopped: 'Stopped',
  error: 'Error',
};

/** "downloading" → "Downloading"; an unknown status as the server sent it, capitalised. */
export function runStatusLabel(status: string): string {
  const known = runStatus.safeParse(status);
  if (known.success) return RUN_STATUS_LABELS[known.data];
  return status ? status.charAt(0).toUpperCase() + status.slice(1) : 'Unknown';
}

/** Badge colours by run status: downloading blue, stopping amber, completed green, error red, others neutral. */
export const runStatusTone: (status: string | null | undefined) => StatusTone = statusTone;

/** Where one upload of a clip to one TikTok account stands. */
export const uploadStatus = z.enum(UPLOAD_STATUSES);
export type UploadStatus = z.infer<typeof uploadStatus>;

const UPLOAD_STATUS_LABELS: Record<UploadStatus, string> = {
  queued: 'Queued',
  uploading: 'Uploading',
  processing: 'Processing',
  sent_to_inbox: 'Sent to inbox',
  published: 'Published',
  failed: 'Failed',
  scheduled: 'Scheduled',
  canceled: 'Canceled',
};

const UPLOAD_STATUS_TONES: Record<UploadStatus, StatusTone> = {
  queued: 'neutral',
  uploading: 'neutral',
  processing: 'neutral',
  sent_to_inbox: 'info',
  published: 'success',
  failed: 'danger',
  scheduled: 'info',
  canceled: 'neutral',
};

/** Upload statuses after which the clip is on TikTok (published, or waiting in the creator's inbox). */
const DELIVERED_UPLOAD_STATUSES: readonly UploadStatus[] = ['published', 'sent_to_inbox'];

export function uploadStatusLabel(status: string): string {
  const known = uploadStatus.safeParse(status);
  return known.success ? UPLOAD_STATUS_LABELS[known.data] : status;
}

/** An unknown upload status is taken as still on its way. */
export function uploadStatusTone(status: string): StatusTone {
  const known = uploadStatus.safeParse(status);
  return known.success ? UPLOAD_STATUS_TONES[known.data] : 'neutral';
}

/** "Uploading 42%" while the bytes go (when the server says how far), else the status's words. */
export function uploadProgressLabel(entry: { status: string; percent: number | null }): string {
  const label = uploadStatusLabel(entry.status);
  return entry.status === 'uploading' && entry.percent !== null ? `${label} ${entry.percent}%` : label;
}

export function isDeliveredUpload(status: string): boolean {
  return (DELIVERED_UPLOAD_STATUSES as readonly string[]).includes(status);
}

/** Upload statuses in which nothing is happening now and nothing will without the user or a slot. */
const IDLE_UPLOAD_STATUSES: readonly string[] = ['failed', 'canceled', 'scheduled'];

/** Still on its way now: queued, uploading, or processing at TikTok (a post waiting for its slot is not). */
export function isUploadInProgress(status: string): boolean {
  return !isDeliveredUpload(status) && !IDLE_UPLOAD_STATUSES.includes(status);
}

/** The words for each stage of one clip of a run (download, inspect, transcribe, render…). */
export const CLIP_STAGE_LABELS: Record<ClipStage, string> = {
  queued: 'Queued',
  downloading: 'Downloading',
  probing: 'Inspecting',
  transcribing: 'Transcribing',
  // Every render slot of the process is taken (FFMPEG_MAX_PARALLEL): the clip is next in line.
  waiting_to_render: 'Waiting to render',
  rendering: 'Rendering',
  thumbnail: 'Making thumbnail for',
  saving: 'Saving',
};

/** Only these stages measure their progress; the others report 0 until they finish. */
export const MEASURED_CLIP_STAGES: readonly ClipStage[] = ['downloading', 'rendering'];

/** A subtitle request's status (the subtitles.generate call answers when it is done, no_speech or failed). */
export type SubtitleRequestStatus = 'queued' | 'running' | 'done' | 'no_speech' | 'failed' | 'stopped';
