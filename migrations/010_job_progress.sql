-- Long work the browser shows as it goes (issue 10): how far a subtitle job is (its stage and
-- percent) and how much of a video TikTok has received. Written at most once a second by the jobs.
alter table subtitle_requests add column stage text;
alter table subtitle_requests add column percent integer;
alter table subtitle_requests add constraint subtitle_requests_percent_check check (percent between 0 and 100);
alter table uploads add column percent integer;
alter table uploads add constraint uploads_percent_check check (percent between 0 and 100);

-- The clip list reads each clip's latest request.
create index subtitle_requests_clip_latest_idx on subtitle_requests (clip_row_id, created_at desc);
