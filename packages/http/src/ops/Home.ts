/**
 * GET /: where to go from the service's root, instead of a 404. A browser (Accept: text/html) gets
 * a page of links; any other client the envelope with the same links. The API's security headers
 * and CSP apply (the page has no script and no style).
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

export const HOME_LINKS = {
  docs: "/docs",
  openapi: "/api/v1/openapi.json",
  admin: "/admin",
  health: "/health",
  ready: "/ready"
} as const

const TITLE = "kobo-plans: custodial savings and scheduled disbursements"

const DESCRIPTIONS: Record<keyof typeof HOME_LINKS, string> = {
  docs: "the API, browsable",
  openapi: "the OpenAPI document",
  admin: "the staff console",
  health: "liveness",
  ready: "readiness: database, migrations, core banking provider"
}

const page = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>kobo-plans</title></head>
<body>
<h1>${TITLE}</h1>
<ul>
${Object.entries(HOME_LINKS).map(([key, href]) => `<li><a href="${href}">${href}</a>: ${DESCRIPTIONS[key as keyof typeof HOME_LINKS]}</li>`).join("\n")}
</ul>
</body>
</html>
`

const envelope = {
  apiObject: "Service",
  code: 200,
  status: "success",
  message: TITLE,
  result: { name: "kobo-plans", links: HOME_LINKS }
}

export const homeHandler = Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
  (request.headers["accept"] ?? "").includes("text/html")
    ? HttpServerResponse.text(page, { contentType: "text/html; charset=utf-8" })
    : HttpServerResponse.unsafeJson(envelope))

/** Mounts GET / on the API's router. */
export const HomeRoute = HttpApiBuilder.Router.use((router) => router.get("/", homeHandler))
