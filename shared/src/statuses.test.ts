import { describe, expect, it } from 'vitest';
import {
  isDeliveredUpload,
  isRenderActive,
  RENDER_STATUSES,
  renderProgressLabel,
  uploadProgressLabel,
  isUploadInProgress,
  RUN_STATUSES,
  runStatusLabel,
  runStatusTone,
  UPLOAD_STATUSES,
  uploadStatusLabel,
  uploadStatusTone,
} from './index.ts';

describe('statuses as every screen shows them', () => {
  it('names and colours each run status; an unknown one as sent, neutral', () => {
    expect(RUN_STATUSES.map(runStatusLabel)).toEqual(['Downloading', 'Stopping', 'Completed', 'Stopped', 'Error']);
    expect(RUN_STATUSES.map(runStatusTone)).toEqual(['info', 'warning', 'success', 'neutral', 'danger']);
    expect(runStatusLabel('paused')).toBe('Paused');
    expect(runStatusLabel('')).toBe('Unknown');
    expect(runStatusTone('paused')).toBe('neutral');
  });

  it('names and colours each upload status', () => {
    expect(UPLOAD_STATUSES.map(uploadStatusLabel)).toEqual(['Queued', 'Uploading', 'Processing', 'Sent to inbox', 'Published', 'Failed', 'Scheduled', 'Canceled']);
    expect(UPLOAD_STATUSES.map(uploadStatusTone)).toEqual(['neutral', 'neutral', 'neutral', 'info', 'success', 'danger', 'info', 'neutral']);
    expect(uploadStatusLabel('archived')).toBe('archived');
  });

  it('tells delivered uploads from those still on their way', () => {
    expect(UPLOAD_STATUSES.filter(isDeliveredUpload)).toEqual(['sent_to_inbox', 'published']);
    expect(UPLOAD_STATUSES.filter(isUploadInProgress)).toEqual(['queued', 'uploading', 'processing']);
  });

  it('says how far an upload and a subtitle job are', () => {
    expect(uploadProgressLabel({ status: 'uploading', percent: 42 })).toBe('Uploading 42%');
    expect(uploadProgressLabel({ status: 'uploading', percent: null })).toBe('Uploading');
    expect(uploadProgressLabel({ status: 'published', percent: 100 })).toBe('Published');
    expect(RENDER_STATUSES.filter((status) => isRenderActive({ status }))).toEqual(['queued', 'rendering']);
    expect(renderProgressLabel({ status: 'queued', stage: null, percent: 0 })).toBe('Queued');
    expect(renderProgressLabel({ status: 'rendering', stage: 'transcribing', percent: 12 })).toBe('Transcribing 12%');
    expect(renderProgressLabel({ status: 'rendering', stage: 'describing', percent: 96 })).toBe('Writing descriptions 96%');
  });
});
