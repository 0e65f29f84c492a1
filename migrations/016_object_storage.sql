-- Object storage and retention (issue 13).
-- Bytes of the clip's files other than its video (the kept source and the thumbnail), recorded
-- when they are stored: with files in a bucket, the storage a user's clips take is summed from the
-- rows rather than measured on a disk. null for clips saved before this migration (their video's
-- size_bytes is still counted).
alter table clips add column aux_bytes bigint;
-- When retention (MEDIA_RETENTION_DAYS) deleted the clip's source and video; the row and the
-- thumbnail stay.
alter table clips add column media_expired_at timestamptz;
