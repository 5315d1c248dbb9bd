-- PostgreSQL twin of ../0013_account_mail_requests.sql.
CREATE TABLE account_mail_requests (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('magic_link', 'reset_password', 'verify_email')),
  email TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX account_mail_requests_created ON account_mail_requests(created_at);
