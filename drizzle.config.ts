import { defineConfig } from 'drizzle-kit'

// Migrations are generated from the schema and committed; the core applies them at start-up.
export default defineConfig({
  dialect: 'sqlite',
  schema: './core/store/schema/index.ts',
  out: './core/store/drizzle',
})
