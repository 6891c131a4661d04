-- The control events listing at scale (issue 32): newest first by time (the insertion sequence
-- among events of one millisecond), so that a time range is a range of every index below and not
-- a walk past every newer event; each filter (a type, a person as actor or as target) walks its
-- index in that order from the first page or after a cursor. Replaces V24's, which ordered by
-- the sequence alone.
DROP INDEX control_events_by_type;
DROP INDEX control_events_by_actor;
DROP INDEX control_events_by_target;
CREATE INDEX control_events_by_time ON control_events (at, seq);
CREATE INDEX control_events_by_type ON control_events (type, at, seq);
CREATE INDEX control_events_by_actor ON control_events (actor_id, at, seq);
CREATE INDEX control_events_by_target ON control_events (target_id, at, seq);
