/**
 * GET /docs (Swagger UI, @effect/platform's HttpApiSwagger) and GET /api/v1/openapi.json (its
 * `HttpApiBuilder.middlewareOpenApi`), made at the first request to either, not at start-up. Both
 * derive the OpenAPI document from the API (`OpenApi.fromApi`: every endpoint's schemas walked,
 * ~0.1 s of CPU) when their layer is built, which held up every start's first answer. Here their
 * layers are built, once, into a router of their own at the first request, and the two paths
 * forward to it: the same answers, from the same library code.
 */
import { HttpApi, HttpApiBuilder, HttpApiSwagger } from "@effect/platform"
import { Context, Effect, Fiber, Layer, type Scope } from "effect"
import { HOME_LINKS } from "./Home.js"

/**
 * `effect` run once, at the first call, in a fiber of `scope`; every call waits for that one run. A
 * first caller that goes away (a client disconnect, the request time limit) stops only its own
 * wait: `Effect.cached` would keep that interruption as the answer for every later call.
 */
export const onceInScope = <A, E>(effect: Effect.Effect<A, E>, scope: Scope.Scope) =>
  // Fiber.await, not Fiber.join: joining would also copy the building fiber's context (the first
  // request's) into each caller's, and the router would then answer that first request again
  Effect.map(Effect.cached(Effect.forkIn(effect, scope)), (fork) => Effect.flatMap(fork, (fiber) => Effect.flatten(Fiber.await(fiber))))

export const DocsRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const api = yield* HttpApi.Api
    const scope = yield* Effect.scope
    // one build: its Router.Live is the one both layers add their routes to (layers are shared within a build)
    const docs = yield* onceInScope(
      Layer.buildWithScope(
        Layer.merge(
          HttpApiBuilder.Router.Live,
          Layer.merge(HttpApiSwagger.layer({ path: HOME_LINKS.docs }), HttpApiBuilder.middlewareOpenApi({ path: HOME_LINKS.openapi }))
        ).pipe(Layer.provide(Layer.succeed(HttpApi.Api, api))),
        scope
      ).pipe(Effect.flatMap((context) => Context.get(context, HttpApiBuilder.Router).router)),
      scope
    )
    const serve = Effect.flatten(docs)
    yield* router.get(HOME_LINKS.docs, serve)
    yield* router.get(HOME_LINKS.openapi, serve)
  })
)
