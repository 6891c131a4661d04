-- Spec 3 §4 "Write approval flow": a bot's writes-need-approval setting, set by an administrator.
-- Only a bot's row may hold 1 (Subject checks it); every existing subject starts without it.
ALTER TABLE subjects ADD COLUMN writes_need_approval INTEGER NOT NULL DEFAULT 0;
