CREATE INDEX `channel_identities_principal_id` ON `channel_identities` (`principal_id`);--> statement-breakpoint
CREATE INDEX `principal_roles_role_id` ON `principal_roles` (`role_id`);