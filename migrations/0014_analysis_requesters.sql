-- Who asked for a queued analysis (the client's address): one client may hold only a share of
-- the queue's places (`web::jobs::Jobs::share`), so that one request for a whole collection
-- cannot keep every other client waiting. NULL for analyses asked before.
ALTER TABLE analyses ADD COLUMN requester TEXT;
