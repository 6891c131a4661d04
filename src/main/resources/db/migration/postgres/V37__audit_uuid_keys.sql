-- Issue 44: the Audit-ID (always a UUID, AuditIds) as PostgreSQL's uuid, 16 bytes, instead of its
-- 36-character text, which took 37 bytes in the table and in every index of the audit: the key,
-- the seven listing indexes of V21 that end in (at, id), the completions' key and its two indexes.
-- A uuid orders as its canonical text does, so every listing keeps its order and its cursor.
-- Rewrites both tables and their indexes once (bench/RESULTS.md gives the time per million rows).
ALTER TABLE audit ALTER COLUMN id TYPE uuid USING id::uuid;
ALTER TABLE audit_completion ALTER COLUMN id TYPE uuid USING id::uuid;
