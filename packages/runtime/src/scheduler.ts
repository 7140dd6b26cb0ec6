/**
 * `npm run start:scheduler`: the scheduled jobs alone, against the configured database. The
 * layers are `runScheduler` in Services.ts.
 */
import { startEarlyCopy } from "./TemplateCopy.js"

// a new embedded database's files copy while the service's modules load (TemplateCopy.ts)
startEarlyCopy()
const { runScheduler } = await import("./Services.js")
runScheduler()
