-- A placeholder on branch i34 (tournaments, migration 0014) so its migration runs in sequence
-- before 0010-0013 are merged: the merge replaces this file with the real migration 0010.
SELECT 1;
