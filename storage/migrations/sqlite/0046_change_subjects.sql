-- What a change of the feed is about, where its event names it (backend/core/changes.py): the thread of a reply, a
-- note, a thread read or assigned, so that a console of another process reloads that thread alone. NULL: about
-- nothing in particular (a property edited), which reloads what the kind shows.
ALTER TABLE changes ADD COLUMN subject TEXT;
