-- Spec 3 §4 "Write approval flow": a bot's writes-need-approval setting, set by an administrator.
-- Only a bot's row may hold TRUE (Subject checks it); every existing subject starts without it.
-- A column with a constant default is added without rewriting the table.
ALTER TABLE subjects ADD COLUMN writes_need_approval BOOLEAN NOT NULL DEFAULT FALSE;
