CREATE TABLE `broadcast_targets` (
	`channel` text NOT NULL,
	`conversation_id` text NOT NULL,
	PRIMARY KEY(`channel`, `conversation_id`)
);
--> statement-breakpoint
CREATE TABLE `conversations` (
	`channel` text NOT NULL,
	`conversation_id` text NOT NULL,
	`kind` text NOT NULL,
	`label` text,
	`locale` text,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	PRIMARY KEY(`channel`, `conversation_id`),
	CONSTRAINT "conversations_kind" CHECK("conversations"."kind" in ('dm', 'group'))
);
--> statement-breakpoint
CREATE TABLE `operator_accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operator_accounts_username_unique` ON `operator_accounts` (`username`);--> statement-breakpoint
CREATE TABLE `operator_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `operator_accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `operator_sessions_account` ON `operator_sessions` (`account_id`);--> statement-breakpoint
CREATE TABLE `plugin_installs` (
	`name` text PRIMARY KEY NOT NULL,
	`enabled` integer NOT NULL,
	`reason` text,
	`source_id` text,
	`strain` text,
	`installed_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `plugin_settings` (
	`plugin` text NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	`is_secret` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`plugin`, `key`)
);
--> statement-breakpoint
CREATE TABLE `channel_identities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`principal_id` text NOT NULL,
	`channel` text NOT NULL,
	`external_id` text NOT NULL,
	`display_name` text,
	FOREIGN KEY (`principal_id`) REFERENCES `principals`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channel_identities_channel_external_id` ON `channel_identities` (`channel`,`external_id`);--> statement-breakpoint
CREATE TABLE `principals` (
	`id` text PRIMARY KEY NOT NULL,
	`display_name` text,
	`locale` text,
	`reviewed` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `command_context_rules` (
	`command` text PRIMARY KEY NOT NULL,
	`allowed_kinds` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `inhibitor_channels` (
	`inhibitor` text NOT NULL,
	`channel` text NOT NULL,
	PRIMARY KEY(`inhibitor`, `channel`)
);
--> statement-breakpoint
CREATE TABLE `principal_roles` (
	`principal_id` text NOT NULL,
	`role_id` integer NOT NULL,
	PRIMARY KEY(`principal_id`, `role_id`),
	FOREIGN KEY (`principal_id`) REFERENCES `principals`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `role_commands` (
	`role_id` integer NOT NULL,
	`pattern` text NOT NULL,
	PRIMARY KEY(`role_id`, `pattern`),
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `roles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`builtin` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `roles_name_unique` ON `roles` (`name`);--> statement-breakpoint
CREATE TABLE `sources` (
	`id` text PRIMARY KEY NOT NULL,
	`label` text NOT NULL,
	`url` text NOT NULL,
	`token` text,
	`trust` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "sources_trust" CHECK("sources"."trust" in ('official', 'third-party'))
);
