-- A placeholder for migration 0010, which another branch adds: delete this file when merging.
SELECT 1;
