-- A placeholder for migration 0011, which another branch adds: delete this file when merging.
SELECT 1;
