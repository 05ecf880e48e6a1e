CREATE TABLE `spore_data` (
	`spore` text NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`spore`, `key`)
);
--> statement-breakpoint
CREATE TABLE `spore_migrations` (
	`spore` text NOT NULL,
	`version` integer NOT NULL,
	`applied_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`spore`, `version`)
);
--> statement-breakpoint
CREATE TABLE `spore_schedules` (
	`spore` text NOT NULL,
	`id` text NOT NULL,
	`cron` text,
	`at` integer,
	`time_zone` text NOT NULL,
	`missed_policy` text NOT NULL,
	`data` text DEFAULT 'null' NOT NULL,
	`next_at` integer,
	`last_run_at` integer,
	`last_error` text,
	PRIMARY KEY(`spore`, `id`)
);
--> statement-breakpoint
CREATE INDEX `spore_schedules_next_at` ON `spore_schedules` (`next_at`);