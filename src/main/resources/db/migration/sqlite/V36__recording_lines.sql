-- Issue 42: the lines each recorded session printed (escape sequences dropped, at most 500
-- characters), with when each began in seconds from the session's start: search finds the
-- sessions whose output contains a text, and the player jumps there. Built by the writer thread.
CREATE TABLE recording_lines (
    recording_id TEXT NOT NULL REFERENCES recordings (id) ON DELETE CASCADE,
    at           REAL NOT NULL,
    line         TEXT NOT NULL
);
CREATE INDEX recording_lines_by_recording ON recording_lines (recording_id, at);
