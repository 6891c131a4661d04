-- The audit listing's default hides requests the credential check refused after their row was
-- written (issue 32): it asks this small index, which holds only those, whether a row is one,
-- instead of reading every row's completion — the bounded total of a filter counts up to 10,001
-- rows, and each was a probe of the whole completions table.
CREATE INDEX audit_completion_refused ON audit_completion (id) WHERE refused = 1;
