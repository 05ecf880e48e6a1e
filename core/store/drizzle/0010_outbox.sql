-- What the core accepted for sending and the platform has not yet confirmed, oldest first. A row is
-- written before the caller hears "accepted" and deleted once the channel took the message; what is
-- left after a stop, a crash or kill -9 is sent at the next start. AUTOINCREMENT: ids never come
-- back, so the order of acceptance survives any number of deletes.
CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel` text NOT NULL,
	`conversation_id` text NOT NULL,
	`delivery_id` text NOT NULL,
	`content` text NOT NULL,
	`accepted_at` integer NOT NULL
);
