ALTER TABLE `plugin_installs` ADD `last_kind` text;--> statement-breakpoint
ALTER TABLE `plugin_installs` ADD `last_enforcing` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `plugin_installs` ADD `settled` integer DEFAULT true NOT NULL;