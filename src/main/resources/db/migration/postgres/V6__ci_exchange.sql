-- Spec 1 §2 "CI trust rule": which forge repository (by numeric ids, never names), ref and
-- environment may exchange an Actions ID token for a credential of which bot. Empty ref or
-- environment match any.
CREATE TABLE ci_trust_rules (
    id                  TEXT    PRIMARY KEY,
    name                TEXT    NOT NULL,
    bot_subject_id      TEXT    NOT NULL REFERENCES subjects (id),
    repository_owner_id BIGINT  NOT NULL,
    repository_id       BIGINT  NOT NULL,
    ref                 TEXT    NOT NULL,
    environment         TEXT    NOT NULL,
    created_at          BIGINT  NOT NULL,
    created_by          TEXT
);
CREATE INDEX ci_trust_rules_by_repository ON ci_trust_rules (repository_owner_id, repository_id);

-- Spec 1 §4 "CI exchange rules" 1: an ID token is exchanged once. Its jti is kept until the token
-- could no longer pass the expiry check; the primary key makes two replicas racing on one token
-- produce one credential.
CREATE TABLE ci_exchanged_tokens (
    jti          TEXT    PRIMARY KEY,
    exchanged_at BIGINT  NOT NULL,
    forget_after BIGINT  NOT NULL
);
CREATE INDEX ci_exchanged_tokens_by_expiry ON ci_exchanged_tokens (forget_after);
