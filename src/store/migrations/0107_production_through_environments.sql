-- Organization setting "changes to production only through environments" (issue 35), like a protected
-- branch: knowledge writes to production are refused and changes arrive by merging an environment.
-- Organizations that exist keep editing production directly (0); sign-up turns it on for new ones.
ALTER TABLE org_settings ADD COLUMN production_through_environments INTEGER NOT NULL DEFAULT 0;
