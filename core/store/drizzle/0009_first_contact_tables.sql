-- First contact writes a principal, their identity, their role and their conversation in one
-- commit; every B-tree it touches is a page in the WAL. Rebuilt here so that each of these tables
-- is keyed by what it is looked up by and stored WITHOUT ROWID (which drizzle's schema cannot
-- express: keep it when regenerating). openStore runs migrations with foreign keys off (dropping
-- principals must not cascade); the last statements check every reference before the commit.
CREATE TABLE `__new_principals` (
	`id` text PRIMARY KEY NOT NULL,
	`display_name` text,
	`locale` text,
	`reviewed` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_principals`("id", "display_name", "locale", "reviewed", "created_at") SELECT "id", "display_name", "locale", "reviewed", "created_at" FROM `principals`;--> statement-breakpoint
DROP TABLE `principals`;--> statement-breakpoint
ALTER TABLE `__new_principals` RENAME TO `principals`;--> statement-breakpoint
CREATE TABLE `__new_channel_identities` (
	`channel` text NOT NULL,
	`external_id` text NOT NULL,
	`principal_id` text NOT NULL,
	`display_name` text,
	`added_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`channel`, `external_id`),
	FOREIGN KEY (`principal_id`) REFERENCES `principals`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
-- The old ids become the order the identities were added in: small numbers, before any new time.
INSERT INTO `__new_channel_identities`("channel", "external_id", "principal_id", "display_name", "added_at") SELECT "channel", "external_id", "principal_id", "display_name", "id" FROM `channel_identities`;--> statement-breakpoint
DROP TABLE `channel_identities`;--> statement-breakpoint
ALTER TABLE `__new_channel_identities` RENAME TO `channel_identities`;--> statement-breakpoint
CREATE INDEX `channel_identities_principal_id` ON `channel_identities` (`principal_id`,`added_at`);--> statement-breakpoint
CREATE TABLE `__new_principal_roles` (
	`principal_id` text NOT NULL,
	`role_id` integer NOT NULL,
	PRIMARY KEY(`principal_id`, `role_id`),
	FOREIGN KEY (`principal_id`) REFERENCES `principals`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_principal_roles`("principal_id", "role_id") SELECT "principal_id", "role_id" FROM `principal_roles`;--> statement-breakpoint
DROP TABLE `principal_roles`;--> statement-breakpoint
ALTER TABLE `__new_principal_roles` RENAME TO `principal_roles`;--> statement-breakpoint
CREATE INDEX `principal_roles_role_id` ON `principal_roles` (`role_id`);--> statement-breakpoint
CREATE TABLE `__new_conversations` (
	`channel` text NOT NULL,
	`conversation_id` text NOT NULL,
	`kind` text NOT NULL,
	`label` text,
	`locale` text,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	PRIMARY KEY(`channel`, `conversation_id`),
	CONSTRAINT "conversations_kind" CHECK("kind" in ('dm', 'group'))
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_conversations`("channel", "conversation_id", "kind", "label", "locale", "first_seen", "last_seen") SELECT "channel", "conversation_id", "kind", "label", "locale", "first_seen", "last_seen" FROM `conversations`;--> statement-breakpoint
DROP TABLE `conversations`;--> statement-breakpoint
ALTER TABLE `__new_conversations` RENAME TO `conversations`;
--> statement-breakpoint
CREATE TEMP TABLE `__references_checked` (`broken` integer NOT NULL CHECK (`broken` = 0));--> statement-breakpoint
-- Foreign keys were off while the tables were rebuilt: a row pointing nowhere fails here, and the
-- whole migration is rolled back.
INSERT INTO `__references_checked` SELECT count(*) FROM pragma_foreign_key_check;--> statement-breakpoint
DROP TABLE `__references_checked`;
