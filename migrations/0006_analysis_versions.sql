-- The version of the analysis that made a stored result (`analysis::VERSION`). Results stored
-- before versions were recorded have none: version 1. A finished analysis of an older version
-- may be asked for again, and the newer analysis replaces it.
ALTER TABLE analyses ADD COLUMN version INTEGER;
