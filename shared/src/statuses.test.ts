import { describe, expect, it } from 'vitest';
import {
  isDeliveredUpload,
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
    expect(UPLOAD_STATUSES.map(uploadStatusLabel)).toEqual(['Queued', 'Uploading', 'Processing', 'Sent to inbox', 'Published', 'Failed']);
    expect(UPLOAD_STATUSES.map(uploadStatusTone)).toEqual(['neutral', 'neutral', 'neutral', 'info', 'success', 'danger']);
    expect(uploadStatusLabel('archived')).toBe('archived');
  });

  it('tells delivered uploads from those still on their way', () => {
    expect(UPLOAD_STATUSES.filter(isDeliveredUpload)).toEqual(['sent_to_inbox', 'published']);
    expect(UPLOAD_STATUSES.filter(isUploadInProgress)).toEqual(['queued', 'uploading', 'processing']);
  });
});
