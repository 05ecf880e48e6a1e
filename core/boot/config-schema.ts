import { z } from 'zod'
import { DEFAULT_QUOTA_BYTES } from '../storage/quota.ts'
import { DEFAULT_DEADLINES, type Deadlines } from '../supervision/deadline.ts'

// What mycelo.yaml may say, and the defaults of what it leaves out (see config.ts for reading it).

const text = z.string().trim().min(1)

const localeSchema = text.refine(
  (value) => {
    try {
      return Intl.getCanonicalLocales(value).length === 1
    } catch {
      return false
    }
  },
  { message: 'expected a language tag such as "en" or "fr-CA"' },
)

/** A deadline in milliseconds: long enough to be one, short enough that a stuck spore is noticed. */
const deadline = (ms: number) => z.int().min(1).max(600_000).default(ms)

/** How long each call into a spore may take; on expiry the step fails as the trust rules say. */
const timeoutsSchema = z
  .strictObject(
    Object.fromEntries(Object.entries(DEFAULT_DEADLINES).map(([step, ms]) => [step, deadline(ms)])) as {
      [K in keyof Deadlines]: ReturnType<typeof deadline>
    },
  )
  .prefault({})

export type Timeouts = z.output<typeof timeoutsSchema>

const MIB = 1024 * 1024

/** Where spores are installed from, and the bounds an install stays within. */
const sporangiaSchema = z
  .strictObject({
    /**
     * Plain http: is refused for a source unless this is on, and then only to a loopback address:
     * for tests and a mirror on the same machine, reached deliberately.
     */
    allowLoopbackHttp: z.boolean().default(false),
    /** GitHub's REST API, for sources at https://github.com/<owner>/<repo>. */
    githubApi: z.url().default('https://api.github.com'),
    /** Where installed spores go; it should be one of `spores:`, or they are never discovered. */
    installs: text.default('data/spores'),
    /** Where an archive is unpacked and checked before it is moved into `installs`. */
    staging: text.default('data/staging'),
    limits: z
      .strictObject({
        /** The most bytes one download may be. */
        downloadBytes: z
          .int()
          .min(1)
          .default(50 * MIB),
        /** The most bytes an archive may expand to. */
        expandedBytes: z
          .int()
          .min(1)
          .default(200 * MIB),
        /** The most entries an archive may hold. */
        entries: z.int().min(1).default(10_000),
        /** How long one download (or index request) may take, in milliseconds. */
        downloadMs: z.int().min(1).default(120_000),
      })
      .prefault({}),
  })
  .prefault({})

/** Where the running bot's log lines go: the terminal unless `file` is set. */
const logSchema = z
  .strictObject({
    /** A file instead of the terminal, relative to this file's folder; the terminal keeps the chat. */
    file: text.optional(),
    /** Past this size the file is renamed `<file>.1` and a fresh one started. */
    maxBytes: z
      .int()
      .min(4096)
      .default(10 * MIB),
    /** How many rotated files are kept (`<file>.1` the newest); 0 keeps none. */
    keep: z.int().min(0).max(100).default(5),
  })
  .prefault({})

/** septum 1.1 storage: how many bytes of keys and JSON values each spore may keep. */
const storageSchema = z
  .strictObject({
    quotaBytes: z.int().min(1).default(DEFAULT_QUOTA_BYTES),
    /** Per-spore quotas that replace the default, by spore name. */
    spores: z.record(text, z.int().min(1)).default({}),
  })
  .prefault({})

const timeZoneSchema = text.refine(
  (value) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: value })
      return true
    } catch {
      return false
    }
  },
  { message: 'expected an IANA time zone such as "UTC" or "Europe/Paris"' },
)

const isolationMode = z.enum(['worker', 'inline'])
const sporeName = text.regex(/^[a-z0-9][a-z0-9-]*$/, 'expected a spore name')

/** Which spores run in a host of their own (see core/hosts): unset, every one not shipped in spores/. */
const isolationSchema = z
  .strictObject({
    default: isolationMode.optional(),
    spores: z.record(sporeName, isolationMode).default({}),
    /** Guarded imports an isolated spore may use anyway, by spore. */
    allow: z
      .record(
        sporeName,
        z.array(z.enum(['bun:ffi', 'bun:sqlite', 'node:child_process', 'Bun.spawn', 'core'])),
      )
      .default({}),
    /** How long a host has to answer the core's ping before it is ended and restarted (ms). */
    answerMs: z.int().min(100).max(600_000).default(5_000),
  })
  .prefault({})

/** What one host may hold: its heap (JS and external), in MiB, before it is ended and restarted. */
const limitsSchema = z
  .strictObject({
    memoryMiB: z.int().min(16).max(65_536).default(256),
    spores: z.record(sporeName, z.int().min(16).max(65_536)).default({}),
  })
  .prefault({})

const ownerSchema = z.strictObject({ channel: text, userId: text })

export const fileSchema = z.strictObject({
  prefix: z.string().min(1).regex(/^\S*$/, 'must not contain spaces').default('/'),
  spores: z.array(text).min(1).default(['spores', 'data/spores']),
  database: text.default('data/mycelo.db'),
  // The embedded console channel's user is the owner out of the box, so a fresh install can be
  // driven from the terminal before any chat channel is configured.
  owner: ownerSchema.default({ channel: 'console', userId: 'owner' }),
  defaultRole: text
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'expected lowercase letters, digits and dashes')
    .refine((name) => name !== 'owner', 'must not be "owner": every newcomer would hold every command')
    .default('member'),
  defaultLocale: localeSchema.default('en'),
  /** The time zone a spore's schedule uses when it names none. */
  timeZone: timeZoneSchema.default('UTC'),
  http: z
    .strictObject({
      /** Off for a second bot on the same machine, or a test that needs no page. */
      enabled: z.boolean().default(true),
      bind: text.default('127.0.0.1'),
      /** 0 lets the system pick a free port (for tests); the bot logs the one it got. */
      port: z.int().min(0).max(65535).default(8780),
      /** The bearer token /metrics asks for; without one, /metrics answers 404. */
      metricsToken: text.optional(),
      /** Marks the session cookie Secure: on when the page is reached over HTTPS (a proxy in front). */
      secureCookies: z.boolean().default(false),
      /** The address people open the page at through a proxy, e.g. https://bot.example.org. */
      publicUrl: z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// address' }).optional(),
      /**
       * The Host names (optionally with :port) a request may carry; another is answered 421, so a
       * rebound DNS name cannot reach the page. Default: the bound address, localhost and publicUrl's.
       */
      allowedHosts: z
        .array(text.regex(/^[^\s/@]+$/, 'expected a host name, optionally with :port'))
        .optional(),
      /** How long a session lives without use, and at most, in minutes. */
      sessionIdleMinutes: z.int().min(1).default(120),
      sessionMaxMinutes: z
        .int()
        .min(1)
        .default(7 * 24 * 60),
    })
    .prefault({}),
  maxMessageLength: z.int().min(1).default(4000),
  timeouts: timeoutsSchema,
  /** How channels and connected systems are watched, and how soon a lost one is tried again (ms). */
  supervision: z
    .strictObject({
      healthEvery: z.int().min(100).max(3_600_000).default(5_000),
      retryFirst: z.int().min(10).max(600_000).default(1_000),
      retryMax: z.int().min(10).max(3_600_000).default(60_000),
    })
    .refine((value) => value.retryFirst <= value.retryMax, {
      message: 'retryFirst must not be longer than retryMax',
      path: ['retryFirst'],
    })
    .prefault({}),
  /**
   * Messages accepted for sending wait in the database until their channel takes them. Older than
   * `maxAgeMinutes` they are dropped (logged and counted) rather than sent late; past `limit`
   * waiting on one channel a send is refused. One try may take up to `sendWithinSeconds` (a rate
   * limit included) before it counts as failed for now and is tried again.
   */
  outbox: z
    .strictObject({
      maxAgeMinutes: z
        .int()
        .min(1)
        .max(7 * 24 * 60)
        .default(60),
      limit: z.int().min(1).max(1_000_000).default(10_000),
      sendWithinSeconds: z.int().min(1).max(3_600).default(300),
    })
    .prefault({}),
  sporangia: sporangiaSchema,
  log: logSchema,
  storage: storageSchema,
  isolation: isolationSchema,
  limits: limitsSchema,
})

export type FileConfig = z.output<typeof fileSchema>
