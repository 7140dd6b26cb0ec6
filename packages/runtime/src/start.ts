/**
 * `npm start`: the embedded default in one process: the HTTP API, the scheduler and (unless
 * CORE_BANKING_URL is set) the sandbox bank, over one database (PGlite under DATA_DIR unless
 * DATABASE_URL is set). The layers are `runStart` in Services.ts.
 */
import { startEarlyCopy } from "./TemplateCopy.js"

// a new embedded database's files copy while the service's modules load (TemplateCopy.ts)
startEarlyCopy()
const { runStart } = await import("./Services.js")
runStart()
