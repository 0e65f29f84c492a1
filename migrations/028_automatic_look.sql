-- The automatic look (rest-api.md, "The automatic look"): the `auto` layout (the streamer's camera
-- found in each clip), the default for new streamers; a hook title card and a brand (logo, end
-- card) per streamer, overridable per clip in its edit; the streamer's logo image; what detection
-- found when a clip was rendered.
alter table streamers drop constraint streamers_layout_check;
alter table streamers add constraint streamers_layout_check check (layout in ('auto', 'blur', 'crop', 'split'));
alter table streamers alter column layout set default 'auto';
alter table streamers add column hook jsonb;
alter table streamers add column brand jsonb;
-- The logo's stored object key and its content type; null = no logo uploaded.
alter table streamers add column logo_key text;
alter table streamers add column logo_type text check (logo_type in ('image/png', 'image/jpeg'));
alter table streamers add column logo_bytes integer;

alter table clips add column detected jsonb;
