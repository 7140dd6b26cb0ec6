export * from "./Api.js"
export * from "./Envelope.js"
export * from "./Server.js"
