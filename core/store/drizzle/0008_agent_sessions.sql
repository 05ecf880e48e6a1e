CREATE TABLE `agent_sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`key_id` text NOT NULL,
	`opened_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`key_id`) REFERENCES `agent_keys`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `agent_sessions_opened_at` ON `agent_sessions` (`opened_at`);