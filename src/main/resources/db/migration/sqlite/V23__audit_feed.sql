-- The feed for SIEM pollers (issue 32): requests once they have ended (a completion, or a row
-- written complete) and control events, numbered from one counter inside the transaction that
-- writes them. SQLite has one writer at a time, so that number is the commit order and a reader
-- never sees a number before a smaller one has committed. Existing rows stay unnumbered: the
-- feed starts here.
CREATE TABLE feed_counter (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    value INTEGER NOT NULL
);
INSERT INTO feed_counter (id, value) VALUES (1, 0);
ALTER TABLE audit_completion ADD COLUMN feed_seq INTEGER;
ALTER TABLE audit ADD COLUMN feed_seq INTEGER;
ALTER TABLE control_events ADD COLUMN feed_seq INTEGER;
-- A completion written without its number (not the audit writer, which numbers a batch at once
-- from the same counter inside its transaction) takes the next one here.
CREATE TRIGGER feed_completion AFTER INSERT ON audit_completion WHEN NEW.feed_seq IS NULL
BEGIN
    UPDATE feed_counter SET value = value + 1 WHERE id = 1;
    UPDATE audit_completion SET feed_seq = (SELECT value FROM feed_counter WHERE id = 1) WHERE id = NEW.id;
END;
CREATE TRIGGER feed_audit_complete AFTER INSERT ON audit WHEN NEW.status IS NOT NULL
BEGIN
    UPDATE feed_counter SET value = value + 1 WHERE id = 1;
    UPDATE audit SET feed_seq = (SELECT value FROM feed_counter WHERE id = 1) WHERE id = NEW.id;
END;
CREATE TRIGGER feed_control_event AFTER INSERT ON control_events
BEGIN
    UPDATE feed_counter SET value = value + 1 WHERE id = 1;
    UPDATE control_events SET feed_seq = (SELECT value FROM feed_counter WHERE id = 1) WHERE seq = NEW.seq;
END;
CREATE INDEX audit_completion_feed ON audit_completion (feed_seq) WHERE feed_seq IS NOT NULL;
CREATE INDEX audit_feed ON audit (feed_seq) WHERE feed_seq IS NOT NULL;
CREATE INDEX control_events_feed ON control_events (feed_seq) WHERE feed_seq IS NOT NULL;
