-- A placeholder for migration 0012, which another branch adds: delete this file when merging.
SELECT 1;
