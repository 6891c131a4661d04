-- One counter that every change able to take proxy access away (or change its groups) moves
-- forward, in the same transaction as the change. Replicas compare it with the value they last
-- saw: equal means every credential check they cached still holds, so an idle watch or a repeated
-- request costs one read of one row instead of the four reads of a full check. Triggers, so no
-- code path (API, CLI, forge sync, cluster deletion) can forget to move it.
CREATE TABLE access_changes (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    generation BIGINT NOT NULL
);
INSERT INTO access_changes (id, generation) VALUES (1, 0);

CREATE TRIGGER access_changes_credential_update AFTER UPDATE OF revoked_at, expires_at, subject_id, cluster_id
    ON credentials
BEGIN
    UPDATE access_changes SET generation = generation + 1 WHERE id = 1;
END;
CREATE TRIGGER access_changes_credential_delete AFTER DELETE ON credentials
BEGIN
    UPDATE access_changes SET generation = generation + 1 WHERE id = 1;
END;
CREATE TRIGGER access_changes_subject_update AFTER UPDATE OF disabled_at ON subjects
    WHEN OLD.disabled_at IS NOT NEW.disabled_at
BEGIN
    UPDATE access_changes SET generation = generation + 1 WHERE id = 1;
END;
CREATE TRIGGER access_changes_subject_delete AFTER DELETE ON subjects
BEGIN
    UPDATE access_changes SET generation = generation + 1 WHERE id = 1;
END;
CREATE TRIGGER access_changes_grant_insert AFTER INSERT ON grants
BEGIN
    UPDATE access_changes SET generation = generation + 1 WHERE id = 1;
END;
CREATE TRIGGER access_changes_grant_update AFTER UPDATE ON grants
BEGIN
    UPDATE access_changes SET generation = generation + 1 WHERE id = 1;
END;
CREATE TRIGGER access_changes_grant_delete AFTER DELETE ON grants
BEGIN
    UPDATE access_changes SET generation = generation + 1 WHERE id = 1;
END;
CREATE TRIGGER access_changes_cluster_update AFTER UPDATE OF secrets ON clusters
BEGIN
    UPDATE access_changes SET generation = generation + 1 WHERE id = 1;
END;
CREATE TRIGGER access_changes_cluster_delete AFTER DELETE ON clusters
BEGIN
    UPDATE access_changes SET generation = generation + 1 WHERE id = 1;
END;
