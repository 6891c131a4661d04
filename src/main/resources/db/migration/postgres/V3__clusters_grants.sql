-- Spec 1 §2 "Cluster". The bootstrap JSON (server, CA, both tokens) is kept only encrypted
-- (AES-256-GCM, key derived from SERVICE_ENCRYPTION_KEY, the cluster id as associated data).
CREATE TABLE clusters (
    id                 TEXT    PRIMARY KEY,
    name               TEXT    NOT NULL,
    created_at         BIGINT  NOT NULL,
    secrets            TEXT,
    tokens_set_at      BIGINT,
    last_reconciled_at BIGINT,
    last_error         TEXT
);

-- Spec 1 §2 "Grant". Revoked grants stay, for the record; expired ones simply stop counting.
CREATE TABLE grants (
    id          TEXT    PRIMARY KEY,
    subject_id  TEXT    NOT NULL REFERENCES subjects (id),
    cluster_id  TEXT    NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    tier        TEXT    NOT NULL,
    scope       TEXT    NOT NULL,
    expires_at  BIGINT,
    note        TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    created_by  TEXT,
    revoked_at  BIGINT,
    revoked_by  TEXT
);
CREATE INDEX grants_by_cluster ON grants (cluster_id);
CREATE INDEX grants_by_subject ON grants (subject_id);
