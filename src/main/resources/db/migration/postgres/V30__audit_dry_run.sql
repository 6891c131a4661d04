-- A request sent as a dry run (its query carries dryRun=All: kubectl --dry-run=server, a held
-- write's preview) changes nothing, and the audit says so: 1 for a dry run, 0 otherwise (an integer
-- as in SQLite, so one SQL text serves both). Adding a column with a constant default rewrites no
-- row (PostgreSQL 11+). The partial index holds only dry runs, so the writer's other rows never
-- touch it, and "dry runs only" is one index walk at any size.
ALTER TABLE audit ADD COLUMN dry_run SMALLINT NOT NULL DEFAULT 0;
CREATE INDEX audit_dry_runs ON audit (at, id) WHERE dry_run = 1;
