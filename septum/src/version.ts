import pkg from '../package.json' with { type: 'json' }

/** This package's own version: the contract a plugin was loaded against. */
export const SEPTUM_VERSION: string = pkg.version
