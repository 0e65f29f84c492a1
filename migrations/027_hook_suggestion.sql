-- The hook the description generator proposes for each clip (issue 22): a short title-card line for
-- the video's first seconds, about the same subject as its descriptions. Written with the
-- descriptions by every describe (download runs, subtitle renders); null for clips described before.
alter table clips add column hook_suggestion text;
