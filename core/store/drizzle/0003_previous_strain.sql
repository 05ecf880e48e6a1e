ALTER TABLE `plugin_installs` ADD `previous_source_id` text REFERENCES sources(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `plugin_installs` ADD `previous_strain` text;