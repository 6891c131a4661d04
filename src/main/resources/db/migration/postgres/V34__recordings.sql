-- Issue 42: recorded exec and attach sessions. One row per session, named by the audit id of the
-- request that opened it; its asciicast v2 events in chunks, in order (the header is made when
-- read, with the last terminal size seen). Deleted with their cluster.
CREATE TABLE recordings (
    id             TEXT    PRIMARY KEY,
    subject_id     TEXT    NOT NULL REFERENCES subjects (id),
    subject_login  TEXT    NOT NULL,
    cluster_id     TEXT    NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    namespace      TEXT    NOT NULL,
    pod            TEXT    NOT NULL,
    container      TEXT,
    command        TEXT    NOT NULL,
    tty            BOOLEAN NOT NULL,
    stdin_recorded BOOLEAN NOT NULL,
    started_at     BIGINT  NOT NULL,
    ended_at       BIGINT,
    state          TEXT    NOT NULL CHECK (state IN ('recording', 'complete', 'incomplete', 'truncated')),
    reason         TEXT,
    bytes          BIGINT  NOT NULL DEFAULT 0,
    width          INTEGER NOT NULL,
    height         INTEGER NOT NULL,
    exit_code      INTEGER
);
CREATE INDEX recordings_by_time ON recordings (started_at, id);
CREATE INDEX recordings_by_subject ON recordings (subject_id, started_at);

CREATE TABLE recording_chunks (
    recording_id TEXT    NOT NULL REFERENCES recordings (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    body         TEXT    NOT NULL,
    PRIMARY KEY (recording_id, seq)
);
