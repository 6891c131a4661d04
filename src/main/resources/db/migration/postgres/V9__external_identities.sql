-- Spec 1 §2 "forge link", spec 2 §2 "Provider identity": an account's identities at external
-- providers, one per provider per account, each linked to at most one account. The key is the
-- provider's permanent identifier (forge: numeric account id; OIDC: issuer, claim, value);
-- display and e-mail are for people and change.
CREATE TABLE external_identities (
    subject_id TEXT   NOT NULL REFERENCES subjects (id),
    provider   TEXT   NOT NULL,
    issuer     TEXT   NOT NULL,
    claim      TEXT   NOT NULL,
    value      TEXT   NOT NULL,
    display    TEXT,
    email      TEXT,
    linked_at  BIGINT NOT NULL,
    PRIMARY KEY (subject_id, provider),
    UNIQUE (provider, issuer, claim, value)
);

INSERT INTO external_identities (subject_id, provider, issuer, claim, value, display, email, linked_at)
    SELECT id, 'forge', '', 'id', CAST(forge_id AS TEXT), forge_login, NULL, created_at
    FROM subjects WHERE forge_id IS NOT NULL;

ALTER TABLE subjects DROP COLUMN forge_id, DROP COLUMN forge_login;
