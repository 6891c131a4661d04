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

CREATE FUNCTION access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE access_changes SET generation = generation + 1 WHERE id = 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER access_changes_credentials AFTER UPDATE OF revoked_at, expires_at, subject_id, cluster_id OR DELETE
    ON credentials FOR EACH STATEMENT EXECUTE FUNCTION access_changed();
CREATE TRIGGER access_changes_subject_update AFTER UPDATE OF disabled_at ON subjects
    FOR EACH ROW WHEN (OLD.disabled_at IS DISTINCT FROM NEW.disabled_at) EXECUTE FUNCTION access_changed();
CREATE TRIGGER access_changes_subject_delete AFTER DELETE ON subjects
    FOR EACH STATEMENT EXECUTE FUNCTION access_changed();
CREATE TRIGGER access_changes_grants AFTER INSERT OR UPDATE OR DELETE ON grants
    FOR EACH STATEMENT EXECUTE FUNCTION access_changed();
CREATE TRIGGER access_changes_clusters AFTER UPDATE OF secrets OR DELETE ON clusters
    FOR EACH STATEMENT EXECUTE FUNCTION access_changed();
