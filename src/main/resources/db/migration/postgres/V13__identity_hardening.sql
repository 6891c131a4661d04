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

-- Spec 2 §5 rule 1: an external sign-in's state serves one callback, on whichever replica it comes
-- back to. The SHA-256 of each state taken is kept until its cookie expires (10 minutes); the
-- primary key makes two replicas given the same callback at once let one of them through.
CREATE TABLE used_sign_in_states (
    state_hash   TEXT    PRIMARY KEY,
    used_at      BIGINT  NOT NULL,
    forget_after BIGINT  NOT NULL
);
CREATE INDEX used_sign_in_states_by_expiry ON used_sign_in_states (forget_after);
