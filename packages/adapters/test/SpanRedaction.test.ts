/** The redaction every exported span goes through (ops/SpanRedaction.ts). */
import { describe, expect, it } from "@effect/vitest"
import { redactAttributes, REDACTED, scrub } from "../src/ops/SpanRedaction.js"

describe("span redaction", () => {
  it("drops raw URLs, client details, headers and personal keys; url.path becomes the route", () => {
    const out = redactAttributes({
      "http.request.method": "GET",
      "http.route": "/api/v1/admin/auth/links/:token",
      "url.path": "/api/v1/admin/auth/links/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
      "url.full": "http://localhost/api/v1/admin/auth/links/abc?x=1",
      "url.query": "accountNumber=0123456789",
      "client.address": "10.0.0.7",
      "user_agent.original": "curl/8",
      "http.request.header.cookie": "app_token=secret",
      // the request log's annotation, on the log's span event
      "http.url": "/api/v1/beneficiaries/lookup?accountNumber=0123456789&bankCode=000013",
      "http.response.status_code": 200,
      email: "ada@example.com",
      "customer.phone": "08031234567",
      accountNumber: "0123456789",
      // camelCase names of secrets and personal data: short codes escape the value scrub
      userEmail: "x",
      phoneNumber: "x",
      refreshToken: "x",
      newPassword: "x",
      otpCode: "123456",
      pinHash: "x",
      planId: "7b0c1c3e-2c1d-4f57-9a3e-3f9d1f0b6a11"
    })
    expect(out).toEqual({
      "http.request.method": "GET",
      "http.route": "/api/v1/admin/auth/links/:token",
      "url.path": "/api/v1/admin/auth/links/:token",
      "http.response.status_code": 200,
      planId: "7b0c1c3e-2c1d-4f57-9a3e-3f9d1f0b6a11"
    })
  })

  it("without a route, url.path is dropped", () => {
    expect(redactAttributes({ "url.path": "/api/v1/customers/0123456789" })).toEqual({})
  })

  it("scrubs emails, account numbers, BVNs, phones and opaque tokens from any string; keeps UUIDs", () => {
    expect(scrub("lookup of 0123456789 for ada.obi@example.com")).toBe(`lookup of ${REDACTED} for ${REDACTED}`)
    expect(scrub("bvn 22212345678, phone +2348031234567")).toBe(`bvn ${REDACTED}, phone ${REDACTED}`)
    expect(scrub("link abcdefghijklmnopqrstuvwxyz0123456789_-ABCDE used")).toBe(`link ${REDACTED} used`)
    expect(scrub("transfer 7b0c1c3e-2c1d-4f57-9a3e-3f9d1f0b6a11 code 57")).toBe("transfer 7b0c1c3e-2c1d-4f57-9a3e-3f9d1f0b6a11 code 57")
  })
})
