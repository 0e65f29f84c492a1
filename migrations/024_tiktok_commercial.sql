-- TikTok's commercial content disclosure (issue 21), kept with each upload so that a post waiting
-- for its slot, a retry and a restarted job send TikTok what the user chose: brand_organic is
-- "Your brand" (brand_organic_toggle), brand_content is "Branded content" (brand_content_toggle).
-- Always false for other platforms.
alter table uploads
  add column brand_organic boolean not null default false,
  add column brand_content boolean not null default false;
