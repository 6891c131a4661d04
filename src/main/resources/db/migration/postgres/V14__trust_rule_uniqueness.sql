-- Two trust rules with the same bot, repository ids, ref and environment change nothing: a job
-- that matches one matches both, for the same bot. Klave refuses the second (409); this index
-- keeps two replicas racing from storing both. Rules stored before it that repeat an older one
-- are kept, marked with the id of the oldest they repeat (oldest first, as the exchange reads
-- them), and left out of the index, so upgrading an installation that has some deletes nothing.
ALTER TABLE ci_trust_rules ADD COLUMN duplicate_of TEXT;
UPDATE ci_trust_rules SET duplicate_of = (
    SELECT older.id FROM ci_trust_rules older
    WHERE older.bot_subject_id = ci_trust_rules.bot_subject_id
      AND older.repository_owner_id = ci_trust_rules.repository_owner_id
      AND older.repository_id = ci_trust_rules.repository_id
      AND older.ref = ci_trust_rules.ref
      AND older.environment = ci_trust_rules.environment
      AND (older.created_at < ci_trust_rules.created_at
           OR (older.created_at = ci_trust_rules.created_at AND older.id < ci_trust_rules.id))
    ORDER BY older.created_at, older.id
    LIMIT 1);
CREATE UNIQUE INDEX ci_trust_rules_one_per_scope
    ON ci_trust_rules (bot_subject_id, repository_owner_id, repository_id, ref, environment)
    WHERE duplicate_of IS NULL;
