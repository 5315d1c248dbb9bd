-- Requests for mail that must not reveal whether an account exists (sign-in link, password reset,
-- verification). The request only stores the address and answers, the same work for every address;
-- the queue is turned into tokens and mail after the answer, and survives a crash in between.
CREATE TABLE account_mail_requests (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('magic_link', 'reset_password', 'verify_email')),
  email TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX account_mail_requests_created ON account_mail_requests(created_at);
