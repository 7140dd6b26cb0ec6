/**
 * `npm run start:http`: the HTTP API alone (production runs the scheduler as its own process).
 * The layers are `runHttp` in Services.ts.
 */
import { startEarlyCopy } from "./TemplateCopy.js"

// a new embedded database's files copy while the service's modules load (TemplateCopy.ts)
startEarlyCopy()
const { runHttp } = await import("./Services.js")
runHttp()
