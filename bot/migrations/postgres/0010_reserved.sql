-- Reserved: another branch (issue 31) adds migration 0010; this stand-in keeps the numbers in
-- sequence on branch i33 until the merge replaces it. It changes nothing.
SELECT 1;
