-- Issue 41 §2: notifications out of Klave. A destination is a webhook (Slack-compatible, or JSON
-- signed with HMAC-SHA256); its address and secret are sealed (AES-256-GCM) — a Slack webhook's
-- address is itself a secret — and only a shortened form is shown. Every notification is written
-- to the outbox in the transaction of what it tells (a request stored, a decision, …), one row per
-- destination or e-mail recipient: the unique (channel, target, event_key) makes it once per event
-- and destination, and a replica restarting loses nothing. The deliverer claims due rows for a
-- while (claimed_until), sends, and records the outcome on the row and on its destination.
CREATE TABLE notify_destinations (
    id                TEXT    PRIMARY KEY,
    name              TEXT    NOT NULL,
    format            TEXT    NOT NULL CHECK (format IN ('slack', 'json')),
    url_sealed        TEXT    NOT NULL,
    url_shown         TEXT    NOT NULL,
    secret_sealed     TEXT,
    kinds             TEXT    NOT NULL,
    created_at        INTEGER  NOT NULL,
    created_by        TEXT,
    last_attempt_at   INTEGER,
    last_status       INTEGER,
    last_error        TEXT,
    last_delivered_at INTEGER,
    failing_since     INTEGER
);

CREATE TABLE notify_outbox (
    id              TEXT    PRIMARY KEY,
    channel         TEXT    NOT NULL CHECK (channel IN ('webhook', 'email')),
    destination_id  TEXT    REFERENCES notify_destinations (id) ON DELETE CASCADE,
    target          TEXT    NOT NULL,
    kind            TEXT    NOT NULL,
    event_key       TEXT    NOT NULL,
    payload         TEXT    NOT NULL,
    created_at      INTEGER  NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER  NOT NULL,
    claimed_until   INTEGER,
    delivered_at    INTEGER,
    gave_up_at      INTEGER,
    last_status     INTEGER,
    last_error      TEXT
);
CREATE UNIQUE INDEX notify_outbox_once ON notify_outbox (channel, target, event_key);
CREATE INDEX notify_outbox_due ON notify_outbox (next_attempt_at) WHERE delivered_at IS NULL AND gave_up_at IS NULL;
CREATE INDEX notify_outbox_by_destination ON notify_outbox (destination_id, created_at);
