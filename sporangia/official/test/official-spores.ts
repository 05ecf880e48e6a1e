/** The spores published in the official index, by folder name under sporangia/official. */
export const OFFICIAL_SPORES = [
  'group-gate',
  'flood-gate',
  'radarr',
  'movies',
  'reminders',
  'webhooks',
  'telegram',
  'matrix',
] as const
