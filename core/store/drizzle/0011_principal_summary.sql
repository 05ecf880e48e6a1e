-- What a message from someone not in memory needs of them, on their own row: the ids of the roles
-- they hold, how many identities they have, and the name their identity carries when it is their
-- only one. The read every such message makes is then one key search for the identity and one for
-- the principal, in one statement: no join, no sort, no transaction. The triggers below keep the
-- three columns true after any write to principal_roles or channel_identities, whoever makes it
-- (the core, the CLI beside it, a cascade from a deleted role or person, plain SQL); code never
-- writes them. A migration that rebuilds one of these tables must create its triggers again.
ALTER TABLE `principals` ADD `role_ids` text;--> statement-breakpoint
ALTER TABLE `principals` ADD `identity_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `principals` ADD `sole_identity_name` text;--> statement-breakpoint
UPDATE `principals` SET
	`role_ids` = (SELECT group_concat(`role_id`) FROM `principal_roles` WHERE `principal_id` = `principals`.`id`),
	(`identity_count`, `sole_identity_name`) = (
		SELECT count(*), CASE WHEN count(*) = 1 THEN max(`display_name`) END
		FROM `channel_identities` WHERE `principal_id` = `principals`.`id`
	);--> statement-breakpoint
CREATE TRIGGER `principal_roles_granted` AFTER INSERT ON `principal_roles` BEGIN
	UPDATE `principals` SET `role_ids` = (SELECT group_concat(`role_id`) FROM `principal_roles` WHERE `principal_id` = NEW.`principal_id`)
	WHERE `id` = NEW.`principal_id`;
END;--> statement-breakpoint
CREATE TRIGGER `principal_roles_revoked` AFTER DELETE ON `principal_roles` BEGIN
	UPDATE `principals` SET `role_ids` = (SELECT group_concat(`role_id`) FROM `principal_roles` WHERE `principal_id` = OLD.`principal_id`)
	WHERE `id` = OLD.`principal_id`;
END;--> statement-breakpoint
CREATE TRIGGER `principal_roles_changed` AFTER UPDATE ON `principal_roles` BEGIN
	UPDATE `principals` SET `role_ids` = (SELECT group_concat(`role_id`) FROM `principal_roles` WHERE `principal_id` = `principals`.`id`)
	WHERE `id` IN (OLD.`principal_id`, NEW.`principal_id`);
END;--> statement-breakpoint
CREATE TRIGGER `channel_identities_added` AFTER INSERT ON `channel_identities` BEGIN
	UPDATE `principals` SET (`identity_count`, `sole_identity_name`) = (
		SELECT count(*), CASE WHEN count(*) = 1 THEN max(`display_name`) END
		FROM `channel_identities` WHERE `principal_id` = NEW.`principal_id`
	) WHERE `id` = NEW.`principal_id`;
END;--> statement-breakpoint
CREATE TRIGGER `channel_identities_removed` AFTER DELETE ON `channel_identities` BEGIN
	UPDATE `principals` SET (`identity_count`, `sole_identity_name`) = (
		SELECT count(*), CASE WHEN count(*) = 1 THEN max(`display_name`) END
		FROM `channel_identities` WHERE `principal_id` = OLD.`principal_id`
	) WHERE `id` = OLD.`principal_id`;
END;--> statement-breakpoint
CREATE TRIGGER `channel_identities_changed` AFTER UPDATE ON `channel_identities` BEGIN
	UPDATE `principals` SET (`identity_count`, `sole_identity_name`) = (
		SELECT count(*), CASE WHEN count(*) = 1 THEN max(`display_name`) END
		FROM `channel_identities` WHERE `principal_id` = `principals`.`id`
	) WHERE `id` IN (OLD.`principal_id`, NEW.`principal_id`);
END;
