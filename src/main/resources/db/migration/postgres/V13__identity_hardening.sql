-- Spec 1 §5 "Password login" 2: the lockout counts failures per login as typed, whether or not an
-- account has it, so that five failures answer alike for a login that exists and one that does not.
-- No reference to subjects: an unknown login is counted without creating anything. A text that
-- cannot be a login is kept as its SHA-256 (sha256:<hex>).
CREATE TABLE login_lockouts (
    login        TEXT    PRIMARY KEY,
    failures     INTEGER NOT NULL,
    locked_until BIGINT
);
INSERT INTO login_lockouts (login, failures, locked_until)
    SELECT subjects.login, login_failures.failures, login_failures.locked_until
    FROM login_failures JOIN subjects ON subjects.id = login_failures.subject_id;
DROP TABLE login_failures;
