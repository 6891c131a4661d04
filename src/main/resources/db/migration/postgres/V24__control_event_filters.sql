-- The control events listing at scale (issue 32): its type filter (a prefix or a whole type) and
-- its person filter (as actor or as target) each walk an index newest first, from the first page
-- or after a cursor, instead of every event above it.
CREATE INDEX control_events_by_type ON control_events (type, seq);
CREATE INDEX control_events_by_actor ON control_events (actor_id, seq);
CREATE INDEX control_events_by_target ON control_events (target_id, seq);
