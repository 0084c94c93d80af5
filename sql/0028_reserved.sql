-- 0028_reserved.sql: a placeholder for the migration another branch adds
-- under this number (migrations must be dense).  It changes nothing; when
-- the real 0028 lands, this file is deleted.
SELECT 1;
