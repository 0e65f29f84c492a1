-- The studio (issue 11): per-streamer layout, caption and audio defaults, per-clip overrides, the
-- transcript's timed words (edits survive re-renders), and re-render jobs next to subtitle jobs.
alter table streamers drop constraint streamers_layout_check;
alter table streamers add constraint streamers_layout_check check (layout in ('blur', 'crop', 'split'));
alter table streamers add column crop_focus real not null default 0.5;
alter table streamers add constraint streamers_crop_focus_range check (crop_focus between 0 and 1);
-- Rectangles as {x, y, w, h} fractions of the source frame; the API validates their shape.
alter table streamers add column facecam jsonb;
alter table streamers add column gameplay jsonb not null default '{"x":0,"y":0,"w":1,"h":1}';
alter table streamers add column split_ratio real not null default 0.35;
alter table streamers add constraint streamers_split_ratio_range check (split_ratio between 0.2 and 0.6);
alter table streamers add column caption_style jsonb;
alter table streamers add column glossary jsonb not null default '[]';
alter table streamers add column normalize_audio boolean not null default true;

-- A clip's own settings; a missing key (or null) means the streamer's.
alter table clips add column edit jsonb not null default '{}';
-- Timed words (seconds from the source's start) the captions are burned from.
alter table clips add column transcript_words jsonb;
alter table clips add column transcript_language text;
alter table clips add column transcript_edited boolean not null default false;
-- `duration` is the source's; the rendered video's may be shorter once trimmed.
alter table clips add column output_duration real;
update clips set output_duration = duration;
alter table clips alter column output_duration set not null;

-- A clip's jobs share one queue and one state: subtitle generation or a re-render of its settings.
alter table subtitle_requests add column kind text not null default 'subtitles';
alter table subtitle_requests add constraint subtitle_requests_kind_check check (kind in ('subtitles', 'render'));
-- Ask again with fresh speech recognition ("transcribe again"), replacing an edited transcript.
alter table subtitle_requests add column retranscribe boolean not null default false;
-- A re-render the user stopped: the clip keeps its previous video.
alter table subtitle_requests drop constraint subtitle_requests_status_check;
alter table subtitle_requests add constraint subtitle_requests_status_check check (status in ('queued', 'running', 'done', 'no_speech', 'failed', 'stopped'));
