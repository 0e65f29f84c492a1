-- Every running app process (web and/or worker) registers itself here and reports every few
-- seconds, so recovery can tell work whose process died from work that is still going: a process
-- is dead when its pid is gone on its own host, or when it has been silent for too long.
create table app_instances (
  -- The process's random instance id (also the name of its folder under media/.work).
  id text primary key,
  host text not null,
  pid integer not null,
  -- graphile-worker pool ids this process has run (the value its jobs are locked with).
  worker_pool_ids text[] not null default '{}',
  started_at timestamptz not null default now(),
  heartbeat_at timestamptz not null default now()
);
