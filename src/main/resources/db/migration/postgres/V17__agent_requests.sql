-- Spec 3 §2-3 "Write request": a write an agent's tool holds for a person's approval, the call it
-- will run once approved and its preview. credential_id or session_id says how the agent acted (a
-- bot's credential, a delegated session); decider_id is the person who decides, empty for a bot's
-- request (administrators decide). A pending row past expires_at reads as expired; it is never
-- rewritten, so expiry needs no sweeper.
CREATE TABLE write_requests (
    id                TEXT    PRIMARY KEY,
    subject_id        TEXT    NOT NULL REFERENCES subjects (id),
    credential_id     TEXT,
    session_id        TEXT,
    decider_id        TEXT    REFERENCES subjects (id),
    cluster_id        TEXT    NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    namespace         TEXT    NOT NULL,
    tool              TEXT    NOT NULL,
    verb              TEXT    NOT NULL,
    resource          TEXT    NOT NULL,
    name              TEXT    NOT NULL,
    arguments_hash    TEXT    NOT NULL,
    call_method       TEXT    NOT NULL,
    call_target       TEXT    NOT NULL,
    call_body         TEXT,
    call_content_type TEXT,
    preview           TEXT    NOT NULL,
    status            TEXT    NOT NULL
        CHECK (status IN ('pending', 'approved', 'denied', 'expired', 'executed')),
    created_at        BIGINT  NOT NULL,
    expires_at        BIGINT  NOT NULL,
    decided_at        BIGINT,
    decided_by        TEXT,
    executed_at       BIGINT
);
-- Counting an account's pending requests (spec 3 §8: 20) and finding the same call repeated.
CREATE INDEX write_requests_pending_by_subject ON write_requests (subject_id, arguments_hash, expires_at)
    WHERE status = 'pending';
-- A decider's list; administrators' is decider_id IS NULL.
CREATE INDEX write_requests_by_decider ON write_requests (decider_id, created_at);

-- Spec 3 "request_access": an agent's request for a role on a scope for some minutes. Once
-- approved, grant_id names the grant it became and grant_expires_at when that grant ends.
CREATE TABLE access_requests (
    id               TEXT    PRIMARY KEY,
    subject_id       TEXT    NOT NULL REFERENCES subjects (id),
    credential_id    TEXT,
    session_id       TEXT,
    decider_id       TEXT    REFERENCES subjects (id),
    cluster_id       TEXT    NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    scope            TEXT    NOT NULL,
    role             TEXT    NOT NULL,
    minutes          INTEGER NOT NULL CHECK (minutes BETWEEN 1 AND 480),
    reason           TEXT    NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'expired')),
    created_at       BIGINT  NOT NULL,
    expires_at       BIGINT  NOT NULL,
    decided_at       BIGINT,
    decided_by       TEXT,
    grant_id         TEXT,
    grant_expires_at BIGINT
);
CREATE INDEX access_requests_pending_by_subject ON access_requests (subject_id, expires_at)
    WHERE status = 'pending';
CREATE INDEX access_requests_by_decider ON access_requests (decider_id, created_at);
-- What is in force for an agent (whoami, and writes not held; spec 3 §4).
CREATE INDEX access_requests_in_force ON access_requests (subject_id, grant_expires_at)
    WHERE status = 'approved';
