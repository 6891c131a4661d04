-- The feed for SIEM pollers (issue 32): requests once they have ended (a completion, or a row
-- written complete) and control events, in one order that no late commit can break. Each entry
-- carries the id of the transaction that wrote it and a number from one sequence; the feed hands
-- out only entries of transactions older than every transaction still running (the snapshot's
-- xmin), ordered by (transaction, number), so an entry that commits late was never passed over:
-- until its transaction ends, nothing written after it is handed out either.
-- Added without defaults first, so existing rows are not rewritten; the feed starts here.
CREATE SEQUENCE feed_seq;
ALTER TABLE audit_completion ADD COLUMN feed_tx xid8, ADD COLUMN feed_seq BIGINT;
ALTER TABLE audit_completion ALTER COLUMN feed_tx SET DEFAULT pg_current_xact_id(),
    ALTER COLUMN feed_seq SET DEFAULT nextval('feed_seq');
ALTER TABLE audit ADD COLUMN feed_tx xid8, ADD COLUMN feed_seq BIGINT;
ALTER TABLE audit ALTER COLUMN feed_tx SET DEFAULT pg_current_xact_id(),
    ALTER COLUMN feed_seq SET DEFAULT nextval('feed_seq');
ALTER TABLE control_events ADD COLUMN feed_tx xid8, ADD COLUMN feed_seq BIGINT;
ALTER TABLE control_events ALTER COLUMN feed_tx SET DEFAULT pg_current_xact_id(),
    ALTER COLUMN feed_seq SET DEFAULT nextval('feed_seq');
CREATE INDEX audit_completion_feed ON audit_completion (feed_tx, feed_seq) WHERE feed_tx IS NOT NULL;
-- A row written complete (refused before it was forwarded) ends with its insert.
CREATE INDEX audit_feed ON audit (feed_tx, feed_seq) WHERE feed_tx IS NOT NULL AND status IS NOT NULL;
CREATE INDEX control_events_feed ON control_events (feed_tx, feed_seq) WHERE feed_tx IS NOT NULL;
