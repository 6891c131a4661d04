-- Spec 2 §5 "Discovery": how the last fetch of the provider's discovery document went, one row
-- per issuer, whichever replica fetched.
CREATE TABLE oidc_discovery (
    issuer     TEXT PRIMARY KEY,
    fetched_at BIGINT,
    failed_at  BIGINT,
    error      TEXT
);

-- Spec 2 §5 rule 7: accounts are found by e-mail after trimming spaces and folding only the
-- letters A to Z. The key is computed by Klave (never by SQL's lower(), whose folding differs
-- between databases) and kept beside the address; V12 fills it for existing accounts.
ALTER TABLE subjects ADD COLUMN email_key TEXT;
CREATE INDEX subjects_by_email_key ON subjects (email_key);
