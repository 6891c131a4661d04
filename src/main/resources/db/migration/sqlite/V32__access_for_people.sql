-- Issue 41: access when it is needed. People ask for access as agents do, in the same queue; an
-- eligible grant is one a person activates for a while; per cluster, who decides besides the
-- administrators, whether broad access needs two approvals and the longest access one may ask.
--
-- access_requests is rebuilt (SQLite cannot change a CHECK): a request may now be cancelled by its
-- requester, last up to a day (a cluster's maximum; agents keep spec 3's 480 minutes, checked in
-- the code), come from a person or an eligible grant, need two approvals, carry the deciders'
-- comments, and record when the access it gave ended (early, or at its end: once, for the event).
CREATE TABLE eligible_grants (
    id             TEXT    PRIMARY KEY,
    subject_id     TEXT    NOT NULL REFERENCES subjects (id),
    cluster_id     TEXT    NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    tier           TEXT    NOT NULL CHECK (tier IN ('view', 'edit', 'admin')),
    scope          TEXT    NOT NULL,
    max_minutes    INTEGER NOT NULL CHECK (max_minutes BETWEEN 15 AND 1440),
    needs_approval INTEGER NOT NULL CHECK (needs_approval IN (0, 1)),
    note           TEXT    NOT NULL,
    created_at     INTEGER NOT NULL,
    created_by     TEXT,
    revoked_at     INTEGER,
    revoked_by     TEXT
);
CREATE INDEX eligible_grants_by_subject ON eligible_grants (subject_id);
CREATE INDEX eligible_grants_by_cluster ON eligible_grants (cluster_id);

CREATE TABLE access_policies (
    cluster_id    TEXT    PRIMARY KEY REFERENCES clusters (id) ON DELETE CASCADE,
    max_minutes   INTEGER NOT NULL CHECK (max_minutes BETWEEN 15 AND 1440),
    two_approvals INTEGER NOT NULL CHECK (two_approvals IN (0, 1)),
    updated_at    INTEGER NOT NULL,
    updated_by    TEXT    NOT NULL
);
CREATE TABLE access_deciders (
    cluster_id TEXT NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    subject_id TEXT NOT NULL REFERENCES subjects (id),
    PRIMARY KEY (cluster_id, subject_id)
);
CREATE INDEX access_deciders_by_subject ON access_deciders (subject_id);

CREATE TABLE access_requests_new (
    id               TEXT    PRIMARY KEY,
    subject_id       TEXT    NOT NULL REFERENCES subjects (id),
    credential_id    TEXT,
    session_id       TEXT,
    decider_id       TEXT    REFERENCES subjects (id),
    cluster_id       TEXT    NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    scope            TEXT    NOT NULL,
    role             TEXT    NOT NULL,
    minutes          INTEGER NOT NULL CHECK (minutes BETWEEN 1 AND 1440),
    reason           TEXT    NOT NULL,
    status           TEXT    NOT NULL
        CHECK (status IN ('pending', 'approved', 'denied', 'expired', 'cancelled')),
    created_at       INTEGER NOT NULL,
    expires_at       INTEGER NOT NULL,
    decided_at       INTEGER,
    decided_by       TEXT,
    grant_id         TEXT,
    grant_expires_at INTEGER,
    origin           TEXT    NOT NULL DEFAULT 'agent' CHECK (origin IN ('agent', 'person', 'eligible')),
    eligible_id      TEXT    REFERENCES eligible_grants (id),
    approvals_needed INTEGER NOT NULL DEFAULT 1 CHECK (approvals_needed IN (1, 2)),
    first_by         TEXT,
    first_at         INTEGER,
    first_comment    TEXT,
    comment          TEXT,
    ended_at         INTEGER,
    ended_by         TEXT,
    ending_told_at   INTEGER
);
INSERT INTO access_requests_new (id, subject_id, credential_id, session_id, decider_id, cluster_id, scope, role,
        minutes, reason, status, created_at, expires_at, decided_at, decided_by, grant_id, grant_expires_at)
    SELECT id, subject_id, credential_id, session_id, decider_id, cluster_id, scope, role, minutes, reason, status,
        created_at, expires_at, decided_at, decided_by, grant_id, grant_expires_at FROM access_requests;
DROP TABLE access_requests;
ALTER TABLE access_requests_new RENAME TO access_requests;

CREATE INDEX access_requests_pending_by_subject ON access_requests (subject_id, expires_at)
    WHERE status = 'pending';
CREATE INDEX access_requests_by_decider ON access_requests (decider_id, created_at);
CREATE INDEX access_requests_in_force ON access_requests (subject_id, grant_expires_at)
    WHERE status = 'approved';
-- A requester's own list, and a cluster's for the deciders named on it.
CREATE INDEX access_requests_by_subject ON access_requests (subject_id, created_at);
CREATE INDEX access_requests_by_cluster ON access_requests (cluster_id, created_at);
-- The sweeper's two walks: pending requests that ran out, and access that reached its end.
CREATE INDEX access_requests_running_out ON access_requests (expires_at) WHERE status = 'pending';
CREATE INDEX access_requests_ending ON access_requests (grant_expires_at)
    WHERE status = 'approved' AND ended_at IS NULL;
-- As V28: a decision moves the access counter, so every replica drops its kept checks.
CREATE TRIGGER access_changes_access_request_decided AFTER UPDATE OF status ON access_requests
    WHEN OLD.status IS NOT NEW.status
BEGIN
    UPDATE access_changes SET generation = generation + 1 WHERE id = 1;
END;
