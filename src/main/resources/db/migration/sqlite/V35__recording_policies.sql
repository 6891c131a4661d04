-- Issue 42: each cluster's recording policy — off, on (fail open: a session whose recording fails
-- goes on, and its recording says so) or required (fail closed: no recording, no session). A
-- cluster without a row records (on).
CREATE TABLE recording_policies (
    cluster_id TEXT    PRIMARY KEY REFERENCES clusters (id) ON DELETE CASCADE,
    policy     TEXT    NOT NULL CHECK (policy IN ('off', 'on', 'required')),
    updated_at INTEGER  NOT NULL,
    updated_by TEXT    NOT NULL
);
