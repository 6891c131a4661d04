-- Spec 3 §2 "Agent session": a delegated agent's login, opened by a person for one OAuth client
-- with the permissions chosen on the consent page (JSON list of {cluster, role, scope}).
-- consent_via names the sign-in used to consent: unlinking it ends the session.
CREATE TABLE agent_sessions (
    id                   TEXT    PRIMARY KEY,
    person_id            TEXT    NOT NULL REFERENCES subjects (id),
    client_id            TEXT    NOT NULL,
    permissions          TEXT    NOT NULL,
    writes_need_approval INTEGER NOT NULL,
    consent_via          TEXT    NOT NULL,
    created_at           INTEGER NOT NULL,
    expires_at           INTEGER NOT NULL,
    ended_at             INTEGER,
    end_reason           TEXT,
    last_used_at         INTEGER
);
CREATE INDEX agent_sessions_by_person ON agent_sessions (person_id, created_at);

-- Spec 3 §2: codes, access tokens and refresh tokens, by the SHA-256 of the secret only. A table
-- of its own, not credentials: the proxy's lookup cannot find an agent's token by construction.
CREATE TABLE agent_tokens (
    hash           TEXT    PRIMARY KEY,
    kind           TEXT    NOT NULL CHECK (kind IN ('code', 'access', 'refresh')),
    session_id     TEXT    NOT NULL REFERENCES agent_sessions (id) ON DELETE CASCADE,
    created_at     INTEGER NOT NULL,
    expires_at     INTEGER NOT NULL,
    used_at        INTEGER,
    redirect_uri   TEXT,
    code_challenge TEXT
);
CREATE INDEX agent_tokens_by_expiry ON agent_tokens (expires_at);
