-- 0014_reserved.sql: a placeholder for another branch's 0014 (migrations
-- must be dense, and the scale branch's 0017 is numbered after it).  It
-- changes nothing.  Whoever merges the branch whose 0014_*.sql this
-- stands for: delete this file in the same merge (only test databases
-- ever ran it).
SELECT 1;
