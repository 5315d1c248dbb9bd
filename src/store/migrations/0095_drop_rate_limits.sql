-- Rate-limit counters moved to rate-limiter-flexible (this process's memory, or Redis shared by replicas).
DROP TABLE IF EXISTS rate_limits;
