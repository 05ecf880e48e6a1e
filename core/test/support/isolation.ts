// Loaded before every test file (bunfig.toml): see there.
process.env.MYCELO_ISOLATION ??= 'inline'
