/**
 * The baseline of `npm run bench:api` (bench/api.ts): a hand-written `node:http` + `pg` handler for
 * the two endpoints the benchmark measures, doing per request what the service does, without
 * Effect, HttpApi, schemas, middleware or logging. Started by bench/api.ts as its own process
 * (`node --import tsx bench/rawApi.ts`); not meant to be run by hand.
 *
 *   GET /api/v1/customers/me    GET /api/v1/transactions[?page=&pageSize=]    GET /__raw/stats
 *
 * Per request, in the service's order, one statement at a time on a `pg` Pool of 10 connections
 * (the service's `maxConnections`), with the same statement texts and parameters as the service's
 * repositories (packages/adapters/src/account/AccountRepoSql.ts `selectJoined`,
 * plans/PlanRepoSql.ts `findForCustomer`, transactions/TransactionRepoSql.ts `listForCustomer`,
 * admin/CustomerDirectorySql.ts `BalanceMemoSql`):
 *
 * - the bearer token verified by the service's own check (adapters' crypto/Hs256Jwt.ts, a
 *   function of node:crypto: HS256, the same ACCESS_TOKEN_SECRET, issuer `kobo-plans`, audience
 *   `customer`, no clock tolerance; until round 11 both sides used jose's `jwtVerify`), then the
 *   account read (Auth.authenticate: 401 unknown or deleted, 403 suspended);
 * - /customers/me: the plan read (Plans.findPlan), the balance through the cache below (the
 *   service renders the account its authentication read: `CurrentAccount`);
 * - /transactions: 400 without a bank account, the page, the count.
 *
 * The balance cache is the service's (domain/banking/Caches.ts `BalanceCacheLive`): entries kept
 * BALANCE_CACHE_TTL_MS (the bench passes the domain's `BalanceCacheTtl`) from when their lookup
 * completed, concurrent readers of a missing entry share one lookup, a failed lookup is not kept;
 * a lookup is `GET /accounts/{n}` at the bank (bearer CORE_BANKING_TOKEN, the envelope's
 * `data.ledgerBalance`) followed by the BalanceMemo UPDATE. The bank is the sandbox bank run in
 * this process on a loopback port, exactly as the service runs its in-process sandbox
 * (`@app/sandbox` `sandboxServerLayer`, no webhook, no latency), over its own copy of the setup's
 * journal (SANDBOX_JOURNAL): so both sides pay for their own cache misses in their own process.
 *
 * The JSON is the service's envelope `{apiObject, code, status, message, result}` with the same
 * result fields (profile: packages/http/src/account/Views.ts + Handlers.ts; page:
 * transactions/Views.ts + shared/Paging.ts), and the service's response headers (security headers,
 * x-request-id). A customer with a disbursement plan is answered 500: the bench's customers have
 * none, and the plan view is not reproduced here.
 *
 * Environment: DATABASE_URL, RAW_PORT, ACCESS_TOKEN_SECRET, CORE_BANKING_TOKEN,
 * BALANCE_CACHE_TTL_MS, SANDBOX_JOURNAL. Prints `raw api listening on http://127.0.0.1:<port>` when ready; SIGTERM
 * closes the server, the bank and the pool.
 */
import { sandboxBankLayer, SandboxServer, sandboxServerLayer } from "@app/sandbox"
import { Layer, Logger, LogLevel, ManagedRuntime, Option } from "effect"
import { hs256Verifier } from "@app/adapters/crypto/Hs256Jwt"
import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { createRequire } from "node:module"

const env = (name: string): string => {
  const v = process.env[name]
  if (v === undefined || v === "") {
    console.error(`rawApi: ${name} is required`)
    process.exit(2)
  }
  return v
}

const DATABASE_URL = env("DATABASE_URL")
const PORT = Number(env("RAW_PORT"))
const ACCESS_TOKEN_SECRET = env("ACCESS_TOKEN_SECRET")
const CORE_BANKING_TOKEN = env("CORE_BANKING_TOKEN")
const BALANCE_CACHE_TTL_MS = Number(env("BALANCE_CACHE_TTL_MS"))
const SANDBOX_JOURNAL = env("SANDBOX_JOURNAL")

// ---------------------------------------------------------------------------------------------
// pg (untyped: @types/pg is not installed), with the service's type parsers (Database.ts)
// ---------------------------------------------------------------------------------------------

interface QueryResult<R> {
  readonly rows: Array<R>
}
interface PgPool {
  query<R>(text: string, values?: ReadonlyArray<unknown>): Promise<QueryResult<R>>
  end(): Promise<void>
  on(event: "error", listener: (error: Error) => void): void
}
type TypeParser = (value: string) => unknown
interface PgModule {
  readonly Pool: new(config: Record<string, unknown>) => PgPool
  readonly types: { getTypeParser(oid: number, format?: "text" | "binary"): TypeParser }
}
const pg = createRequire(import.meta.url)("pg") as PgModule

const DATE_OID = 1082
const DATE_ARRAY_OID = 1182
const TEXT_ARRAY_OID = 1009

const pool = new pg.Pool({
  connectionString: DATABASE_URL,
  max: 10,
  application_name: "bench-raw-api",
  types: {
    getTypeParser: (oid: number, format: "text" | "binary" = "text") => {
      if (format === "text") {
        if (oid === DATE_OID) return (value: string) => value
        if (oid === DATE_ARRAY_OID) return pg.types.getTypeParser(TEXT_ARRAY_OID, "text")
      }
      return pg.types.getTypeParser(oid, format)
    }
  }
})
pool.on("error", () => {})

// ---------------------------------------------------------------------------------------------
// The statements (texts as the service's repositories send them)
// ---------------------------------------------------------------------------------------------

/** AccountRepoSql `findById` (selectJoined with `a.id = $1`) */
const SELECT_ACCOUNT = `
        SELECT a.*, c.id AS customer_id, c.customer_status, c.kyc_status, c.referral_code, c.referred_by,
               c.pin_hash, c.sms_enabled, c.email_enabled,
               c.bvn_hash, c.core_account_number, c.core_account_reference, c.first_deposit_at,
               c.created_at AS customer_created_at, c.updated_at AS customer_updated_at
        FROM accounts a JOIN customers c ON c.account_id = a.id
        WHERE a.id = $1`

/** PlanRepoSql `findForCustomer` */
const SELECT_PLAN = `
          SELECT * FROM disbursement_plans WHERE customer_id = $1
          ORDER BY (state <> 'completed') DESC, created_at DESC, id DESC
          LIMIT 1`

/** TransactionRepoSql `listForCustomer`: the page … */
const SELECT_PAGE = `
            SELECT * FROM transactions WHERE customer_id = $1
            ORDER BY created_at DESC, id DESC
            LIMIT $2 OFFSET $3`
/** … and the count */
const SELECT_COUNT = `SELECT count(*) AS total FROM transactions WHERE customer_id = $1`

/** BalanceMemoSql `remember` */
const UPDATE_MEMO = `
          UPDATE customers SET last_known_balance_kobo = $1, balance_seen_at = $2
          WHERE core_account_number = $3 AND (balance_seen_at IS NULL OR balance_seen_at <= $4)`

interface AccountRow {
  readonly id: string
  readonly email: string
  readonly phone: string | null
  readonly first_name: string | null
  readonly last_name: string | null
  readonly other_names: string | null
  readonly date_of_birth: string | null
  readonly gender: string | null
  readonly address: string | null
  readonly email_verified: boolean
  readonly phone_verified: boolean
  readonly created_at: Date
  readonly customer_id: string
  readonly customer_status: string
  readonly kyc_status: string
  readonly referral_code: string
  readonly pin_hash: string | null
  readonly sms_enabled: boolean
  readonly email_enabled: boolean
  readonly core_account_number: string | null
  readonly first_deposit_at: Date | null
}

interface TransactionRow {
  readonly id: string
  readonly customer_id: string
  readonly plan_id: string | null
  readonly type: string
  readonly purpose: string
  readonly amount_kobo: string
  readonly fee_kobo: string
  readonly status: string
  readonly retrieval_reference: string | null
  readonly transfer_reference: string | null
  readonly failure_reason: string | null
  readonly retry_count: number
  readonly created_at: Date
  readonly updated_at: Date
}

const findAccount = async (accountId: string): Promise<AccountRow | undefined> =>
  (await pool.query<AccountRow>(SELECT_ACCOUNT, [accountId])).rows[0]

// ---------------------------------------------------------------------------------------------
// The bank: the sandbox in this process, and the balance cache in front of it
// ---------------------------------------------------------------------------------------------

const bankRuntime = ManagedRuntime.make(
  sandboxServerLayer({
    port: 0,
    token: CORE_BANKING_TOKEN,
    latencyMs: 0,
    slowTransferDelayMs: 11_000,
    webhook: Option.none()
  }).pipe(
    Layer.provide(sandboxBankLayer({ journal: SANDBOX_JOURNAL })),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
)

const stats = { requests: 0, bankCalls: 0, bankFailures: 0 }

interface CacheEntry {
  /** the lookup in flight, or done */
  readonly balance: Promise<bigint>
  /** when the entry stops being served; Infinity while its lookup runs */
  expiresAt: number
}
const balances = new Map<string, CacheEntry>()

const lookupBalance = async (bankUrl: string, accountNumber: string): Promise<bigint> => {
  stats.bankCalls++
  const response = await fetch(`${bankUrl}/accounts/${encodeURIComponent(accountNumber)}`, {
    headers: { authorization: `Bearer ${CORE_BANKING_TOKEN}`, accept: "application/json" }
  })
  const envelope = JSON.parse(await response.text()) as { responseCode?: string; data?: { ledgerBalance?: number | string } }
  if (response.status !== 200 || envelope.responseCode !== "00" || envelope.data?.ledgerBalance === undefined) {
    throw new Error(`bank: HTTP ${response.status}, responseCode ${envelope.responseCode}`)
  }
  const ledgerBalance = BigInt(envelope.data.ledgerBalance)
  const at = new Date()
  await pool.query(UPDATE_MEMO, [ledgerBalance.toString(), at, accountNumber, at])
  return ledgerBalance
}

const cachedBalance = (bankUrl: string, accountNumber: string): Promise<bigint> => {
  const now = Date.now()
  const entry = balances.get(accountNumber)
  if (entry !== undefined && entry.expiresAt > now) return entry.balance
  const fresh: CacheEntry = {
    balance: lookupBalance(bankUrl, accountNumber).then(
      (value) => {
        fresh.expiresAt = Date.now() + BALANCE_CACHE_TTL_MS
        return value
      },
      (error: unknown) => {
        stats.bankFailures++
        if (balances.get(accountNumber) === fresh) balances.delete(accountNumber)
        throw error
      }
    ),
    expiresAt: Infinity
  }
  balances.set(accountNumber, fresh)
  return fresh.balance
}

// ---------------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------------

const subjectOf = hs256Verifier(new TextEncoder().encode(ACCESS_TOKEN_SECRET), { issuer: "kobo-plans", audience: "customer" })

class Failure {
  constructor(readonly status: number, readonly code: string, readonly message: string) {}
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "x-request-id": randomUUID(),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'"
  })
  res.end(text)
}

const success = (res: ServerResponse, apiObject: string, result: unknown) =>
  send(res, 200, { apiObject, code: 200, status: "success", message: "Success.", result })

const failure = (res: ServerResponse, apiObject: string, f: Failure) =>
  send(res, f.status, {
    apiObject,
    code: f.status,
    status: "failure",
    message: f.message,
    result: {},
    error: { code: f.code },
    data: { code: f.code }
  })

/** Auth.authenticate: the token, then the account (unknown or deleted 401, suspended 403). */
const authenticate = async (req: IncomingMessage): Promise<AccountRow> => {
  const header = req.headers.authorization
  if (header === undefined || !header.startsWith("Bearer ")) throw new Failure(401, "UNAUTHENTICATED", "Unauthenticated")
  const accountId = subjectOf(header.slice(7), Date.now())
  if (accountId === undefined) throw new Failure(401, "UNAUTHENTICATED", "Unauthenticated")
  const found = await findAccount(accountId)
  if (found === undefined || found.customer_status === "deleted") throw new Failure(401, "UNAUTHENTICATED", "Unauthenticated")
  if (found.customer_status === "suspended") throw new Failure(403, "ACCOUNT_SUSPENDED", "Account suspended")
  return found
}


const me = async (bankUrl: string, req: IncomingMessage) => {
  // as the service: the account the authentication read serves the whole request
  const found = await authenticate(req)
  const plan = (await pool.query(SELECT_PLAN, [found.customer_id])).rows[0]
  if (plan !== undefined) throw new Failure(500, "RAW_NOT_IMPLEMENTED", "the raw handler does not render plans")
  // as the service's `bankingFields`: when the bank does not answer, the profile without the balance
  const banking = found.core_account_number === null
    ? {}
    : await cachedBalance(bankUrl, found.core_account_number).then(
      (balance) => ({
        coreAccountNumber: found.core_account_number,
        pndActive: found.first_deposit_at === null,
        balance: Number(balance),
        balanceKobo: Number(balance)
      }),
      () => ({ coreAccountNumber: found.core_account_number, pndActive: found.first_deposit_at === null })
    )
  return {
    id: found.id,
    customerId: found.customer_id,
    firstName: found.first_name,
    lastName: found.last_name,
    otherNames: found.other_names,
    phone: found.phone,
    email: found.email,
    emailVerified: found.email_verified,
    phoneVerified: found.phone_verified,
    dateOfBirth: found.date_of_birth,
    gender: found.gender,
    address: found.address,
    customerStatus: found.customer_status,
    kycStatus: found.kyc_status,
    referralCode: found.referral_code,
    hasPin: found.pin_hash !== null,
    notificationSettings: { smsEnabled: found.sms_enabled, emailEnabled: found.email_enabled },
    createdAt: found.created_at.toISOString(),
    ...banking,
    disbursementPlan: null
  }
}

const PAGE_PARAM = /^[0-9]{1,12}$/
const pageParam = (url: URL, name: string, fallback: number, max: number): number => {
  const raw = url.searchParams.get(name)
  if (raw === null) return fallback
  const n = Number(raw)
  if (!PAGE_PARAM.test(raw) || n < 1 || n > max) throw new Failure(400, "VALIDATION_ERROR", "Validation error")
  return n
}

const transactions = async (req: IncomingMessage, url: URL) => {
  const page = pageParam(url, "page", 1, 1_000_000_000)
  const pageSize = pageParam(url, "pageSize", 20, 100)
  const found = await authenticate(req)
  if (found.core_account_number === null) throw new Failure(400, "NO_BANK_ACCOUNT", "No bank account found")
  const items = (await pool.query<TransactionRow>(SELECT_PAGE, [found.customer_id, pageSize, (page - 1) * pageSize])).rows
  const counted = (await pool.query<{ total: string | number }>(SELECT_COUNT, [found.customer_id])).rows
  const total = Number(counted[0]?.total ?? 0)
  return {
    items: items.map((t) => ({
      id: t.id,
      customerId: t.customer_id,
      planId: t.plan_id,
      type: t.type,
      purpose: t.purpose,
      amountKobo: String(t.amount_kobo),
      feeKobo: String(t.fee_kobo),
      status: t.status,
      retrievalReference: t.retrieval_reference,
      transferReference: t.transfer_reference,
      failureReason: t.failure_reason,
      retryCount: t.retry_count,
      createdAt: t.created_at.toISOString(),
      updatedAt: t.updated_at.toISOString()
    })),
    page,
    pageSize,
    total,
    totalPages: Math.ceil(total / pageSize)
  }
}

const route = (bankUrl: string) => (req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? "/", "http://raw")
  const answer = (apiObject: string, work: () => Promise<unknown>) => {
    stats.requests++
    work().then(
      (result) => success(res, apiObject, result),
      (error: unknown) => {
        if (error instanceof Failure) return failure(res, apiObject, error)
        console.error("rawApi:", error)
        failure(res, apiObject, new Failure(500, "INTERNAL", "Internal error"))
      }
    )
  }
  if (req.method === "GET" && url.pathname === "/api/v1/customers/me") return answer("Customer", () => me(bankUrl, req))
  if (req.method === "GET" && (url.pathname === "/api/v1/transactions" || url.pathname === "/api/v1/transactions/")) {
    return answer("Transaction", () => transactions(req, url))
  }
  if (req.method === "GET" && url.pathname === "/__raw/stats") return send(res, 200, stats)
  send(res, 404, { apiObject: "Route", code: 404, status: "failure", message: "Route not found", result: {} })
}

const main = async () => {
  await pool.query("SELECT 1")
  const { baseUrl: bankUrl } = await bankRuntime.runPromise(SandboxServer)
  const server = createServer(route(bankUrl))
  await new Promise<void>((resolve) => server.listen(PORT, "127.0.0.1", resolve))
  console.log(`raw api listening on http://127.0.0.1:${PORT} (bank ${bankUrl})`)
  const stop = () => {
    server.close()
    server.closeAllConnections()
    void bankRuntime.dispose()
      .then(() => pool.end())
      .finally(() => process.exit(0))
  }
  process.once("SIGTERM", stop)
  process.once("SIGINT", stop)
}

main().catch((error: unknown) => {
  console.error("rawApi: start-up failed", error)
  process.exit(1)
})
