-- Issue 51 (from issue 42): whether a cluster's sessions record what is typed (stdin) too. Off by
-- default: a terminal's echo is output and recorded anyway, but what a person types without echo
-- (a password at a prompt) is kept only where an administrator asks for it.
ALTER TABLE recording_policies ADD COLUMN stdin INTEGER NOT NULL DEFAULT 0;
