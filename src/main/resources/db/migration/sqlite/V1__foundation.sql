-- Klave schema, SQLite dialect. Times are milliseconds since the epoch (UTC) in both dialects,
-- so that the two schemas stay column-for-column alike.

-- Spec 1 §2 "Subject". Rows are never deleted: a login is never reused (UNIQUE keeps it taken).
CREATE TABLE subjects (
    id            TEXT    PRIMARY KEY,
    login         TEXT    NOT NULL UNIQUE,
    kind          TEXT    NOT NULL,
    display_name  TEXT    NOT NULL,
    email         TEXT,
    is_admin      INTEGER NOT NULL DEFAULT 0,
    break_glass   INTEGER NOT NULL DEFAULT 0,
    disabled_at   INTEGER,
    password_hash TEXT,
    forge_id      INTEGER UNIQUE,
    forge_login   TEXT,
    created_at    INTEGER NOT NULL
);

-- Spec 1 §2 "Link token": only the SHA-256 of the kli_ token is kept.
CREATE TABLE link_tokens (
    id          TEXT    PRIMARY KEY,
    token_hash  TEXT    NOT NULL UNIQUE,
    subject_id  TEXT    NOT NULL REFERENCES subjects (id),
    purpose     TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    consumed_at INTEGER,
    revoked_at  INTEGER
);
CREATE INDEX link_tokens_by_subject ON link_tokens (subject_id);

-- Leases: named locks with an expiry, held by one replica at a time (reconciliation of a
-- cluster, the forge sync). A row, not process memory, so replicas sharing a database agree.
CREATE TABLE leases (
    name       TEXT    PRIMARY KEY,
    holder     TEXT    NOT NULL,
    expires_at INTEGER NOT NULL
);
