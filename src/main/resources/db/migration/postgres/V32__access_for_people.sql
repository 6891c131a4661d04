-- Issue 41: access when it is needed. People ask for access as agents do, in the same queue; an
-- eligible grant is one a person activates for a while; per cluster, who decides besides the
-- administrators, whether broad access needs two approvals and the longest access one may ask.
-- A request may now be cancelled, last up to a day (a cluster's maximum; agents keep spec 3's 480
-- minutes, checked in the code), come from a person or an eligible grant, need two approvals,
-- carry the deciders' comments, and record when the access it gave ended (once, for the event).
CREATE TABLE eligible_grants (
    id             TEXT    PRIMARY KEY,
    subject_id     TEXT    NOT NULL REFERENCES subjects (id),
    cluster_id     TEXT    NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    tier           TEXT    NOT NULL CHECK (tier IN ('view', 'edit', 'admin')),
    scope          TEXT    NOT NULL,
    max_minutes    INTEGER NOT NULL CHECK (max_minutes BETWEEN 15 AND 1440),
    needs_approval BOOLEAN NOT NULL,
    note           TEXT    NOT NULL,
    created_at     BIGINT  NOT NULL,
    created_by     TEXT,
    revoked_at     BIGINT,
    revoked_by     TEXT
);
CREATE INDEX eligible_grants_by_subject ON eligible_grants (subject_id);
CREATE INDEX eligible_grants_by_cluster ON eligible_grants (cluster_id);

CREATE TABLE access_policies (
    cluster_id    TEXT    PRIMARY KEY REFERENCES clusters (id) ON DELETE CASCADE,
    max_minutes   INTEGER NOT NULL CHECK (max_minutes BETWEEN 15 AND 1440),
    two_approvals BOOLEAN NOT NULL,
    updated_at    BIGINT  NOT NULL,
    updated_by    TEXT    NOT NULL
);
CREATE TABLE access_deciders (
    cluster_id TEXT NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    subject_id TEXT NOT NULL REFERENCES subjects (id),
    PRIMARY KEY (cluster_id, subject_id)
);
CREATE INDEX access_deciders_by_subject ON access_deciders (subject_id);

ALTER TABLE access_requests DROP CONSTRAINT access_requests_minutes_check;
ALTER TABLE access_requests ADD CONSTRAINT access_requests_minutes_check CHECK (minutes BETWEEN 1 AND 1440);
ALTER TABLE access_requests DROP CONSTRAINT access_requests_status_check;
ALTER TABLE access_requests ADD CONSTRAINT access_requests_status_check
    CHECK (status IN ('pending', 'approved', 'denied', 'expired', 'cancelled'));
ALTER TABLE access_requests
    ADD COLUMN origin           TEXT    NOT NULL DEFAULT 'agent' CHECK (origin IN ('agent', 'person', 'eligible')),
    ADD COLUMN eligible_id      TEXT    REFERENCES eligible_grants (id),
    ADD COLUMN approvals_needed INTEGER NOT NULL DEFAULT 1 CHECK (approvals_needed IN (1, 2)),
    ADD COLUMN first_by         TEXT,
    ADD COLUMN first_at         BIGINT,
    ADD COLUMN first_comment    TEXT,
    ADD COLUMN comment          TEXT,
    ADD COLUMN ended_at         BIGINT,
    ADD COLUMN ended_by         TEXT,
    ADD COLUMN ending_told_at   BIGINT;

-- A requester's own list, and a cluster's for the deciders named on it.
CREATE INDEX access_requests_by_subject ON access_requests (subject_id, created_at);
CREATE INDEX access_requests_by_cluster ON access_requests (cluster_id, created_at);
-- The sweeper's two walks: pending requests that ran out, and access that reached its end.
CREATE INDEX access_requests_running_out ON access_requests (expires_at) WHERE status = 'pending';
CREATE INDEX access_requests_ending ON access_requests (grant_expires_at)
    WHERE status = 'approved' AND ended_at IS NULL;
