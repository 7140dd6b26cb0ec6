export * from "./Jobs.js"
