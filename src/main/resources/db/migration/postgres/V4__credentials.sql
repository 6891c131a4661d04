-- Spec 1 §2 "Credential": only the SHA-256 of the klt_ token is kept. cluster_id is empty for a
-- credential valid on every cluster where its subject has grants.
CREATE TABLE credentials (
    id            TEXT PRIMARY KEY,
    token_hash    TEXT NOT NULL UNIQUE,
    subject_id    TEXT NOT NULL REFERENCES subjects (id),
    cluster_id    TEXT,
    name          TEXT NOT NULL,
    note          TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    expires_at    BIGINT NOT NULL,
    created_by    TEXT,
    revoked_at    BIGINT,
    revoked_by    TEXT,
    revoke_reason TEXT
);
CREATE INDEX credentials_by_subject ON credentials (subject_id);
CREATE INDEX credentials_by_cluster ON credentials (cluster_id);
