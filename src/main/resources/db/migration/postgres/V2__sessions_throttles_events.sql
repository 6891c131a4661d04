-- Spec 1 §3 "Web session": server-side rows, so that closing every session of a person is one
-- statement. The cookie carries the session id; only its SHA-256 is kept here.
CREATE TABLE sessions (
    id_hash    TEXT   PRIMARY KEY,
    subject_id TEXT   NOT NULL REFERENCES subjects (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    closed_at  BIGINT
);
CREATE INDEX sessions_by_subject ON sessions (subject_id);

-- Spec 1 §5 "Password login": failed attempts per account (5 lock it for 15 minutes).
CREATE TABLE login_failures (
    subject_id   TEXT    PRIMARY KEY REFERENCES subjects (id),
    failures     INTEGER NOT NULL,
    locked_until BIGINT
);

-- Fixed one-minute windows of attempts per key (per-IP login limit, CI exchange limit).
CREATE TABLE rate_windows (
    bucket       TEXT    NOT NULL,
    window_start BIGINT  NOT NULL,
    hits         INTEGER NOT NULL,
    PRIMARY KEY (bucket, window_start)
);

-- Spec 1 §6: control-plane events and login attempts, listed newest first.
CREATE TABLE control_events (
    seq          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id           TEXT   NOT NULL UNIQUE,
    at           BIGINT NOT NULL,
    type         TEXT   NOT NULL,
    actor_id     TEXT,
    actor_login  TEXT,
    target_id    TEXT,
    target_login TEXT,
    via          TEXT,
    reason       TEXT,
    client_ip    TEXT,
    details      TEXT
);
