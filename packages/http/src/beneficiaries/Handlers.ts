import { HttpApiBuilder } from "@effect/platform"
import { Beneficiaries } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { signedIn } from "../shared/Security.js"
import { beneficiaryView } from "./Views.js"

const beneficiaries = mapDomainErrors("Beneficiary")

export const BeneficiaryHandlers = HttpApiBuilder.group(Api, "beneficiaries", (handlers) =>
  handlers
    .handle("lookup", ({ urlParams }) =>
      Effect.flatMap(signedIn, (accountId) => Beneficiaries.lookupFor(accountId, urlParams.accountNumber, urlParams.bankCode)).pipe(
        beneficiaries
      ))
    .handle("add", ({ payload }) =>
      Effect.flatMap(signedIn, (accountId) => Beneficiaries.add(accountId, payload)).pipe(
        Effect.map(beneficiaryView),
        beneficiaries
      ))
    .handle("list", () =>
      Effect.flatMap(signedIn, Beneficiaries.list).pipe(Effect.map((all) => all.map(beneficiaryView)), beneficiaries))
    .handle("setDefault", ({ path }) =>
      Effect.flatMap(signedIn, (accountId) => Beneficiaries.setDefault(accountId, path.id)).pipe(
        Effect.map(beneficiaryView),
        beneficiaries
      ))
    .handle("remove", ({ path, payload }) =>
      Effect.flatMap(signedIn, (accountId) => Beneficiaries.remove(accountId, path.id, payload.otpPinId, payload.otpCode)).pipe(
        Effect.as({}),
        beneficiaries
      )))
