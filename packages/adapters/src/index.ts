export * from "./AppConfig.js"
export * from "./Live.js"
export { runMigrations } from "./Migrations.js"
