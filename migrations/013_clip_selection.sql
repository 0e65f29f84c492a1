-- Clip selection per streamer (issue 12): which clips a run picks, and what auto_publish does with them.
alter table streamers add column clip_period text not null default 'all';
alter table streamers add constraint streamers_clip_period_check check (clip_period in ('day', 'week', 'month', 'all'));
alter table streamers add column min_views integer not null default 0;
alter table streamers add constraint streamers_min_views_range check (min_views between 0 and 1000000000);
alter table streamers add column rank_by text not null default 'views';
alter table streamers add constraint streamers_rank_by_check check (rank_by in ('views', 'velocity'));
-- Lower-cased Twitch logins; empty = anyone's clips.
alter table streamers add column clip_creators jsonb not null default '[]';
alter table streamers add constraint streamers_clip_creators_array check (jsonb_typeof(clip_creators) = 'array' and jsonb_array_length(clip_creators) <= 100);
alter table streamers add column publish_mode text not null default 'auto';
alter table streamers add constraint streamers_publish_mode_check check (publish_mode in ('auto', 'review'));

-- How many listed clips each rule turned away, e.g. {"min_views": 4, "creator": 2}; null before the listing.
alter table download_runs add column skipped jsonb;
