CREATE TABLE `agent_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`label` text NOT NULL,
	`hash` text NOT NULL,
	`principal_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`last_used_at` integer,
	`confirm_channel` text,
	`confirm_conversation` text,
	`revoked_at` integer,
	FOREIGN KEY (`principal_id`) REFERENCES `principals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `agent_keys_principal_id` ON `agent_keys` (`principal_id`);