import { HttpApiBuilder } from "@effect/platform"
import { StaffAccess } from "@app/domain"
import { Effect } from "effect"
import { Api } from "../Api.js"
import { mapDomainErrors } from "../DomainErrors.js"
import { clientAddress } from "../shared/ClientAddress.js"
import { CurrentStaff } from "../shared/Security.js"
import { sessionView, staffEntryView, staffView } from "./Views.js"

const admin = mapDomainErrors("Admin")

export { clientAddressOf } from "../shared/ClientAddress.js"

export const AdminAuthHandlers = HttpApiBuilder.group(Api, "adminAuth", (handlers) =>
  handlers
    .handle("signIn", ({ payload }) =>
      Effect.flatMap(clientAddress, (client) => StaffAccess.signIn({ ...payload, client })).pipe(Effect.map(sessionView), admin))
    .handle("openLink", ({ path }) =>
      StaffAccess.openLink(path.token).pipe(Effect.map((l) => ({ ...l, expiresAt: l.expiresAt.toISOString() })), admin))
    .handle("useLink", ({ path, payload }) => StaffAccess.useLink(path.token, payload.password).pipe(Effect.map(sessionView), admin)))

export const AdminStaffHandlers = HttpApiBuilder.group(Api, "adminStaff", (handlers) =>
  handlers
    .handle("me", () => Effect.map(CurrentStaff, (m) => { const me = StaffAccess.me(m); return { ...me, createdAt: me.createdAt.toISOString() } }))
    .handle("invite", ({ payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.invite(actor, payload)).pipe(Effect.map(staffView), admin))
    .handle("sendLink", ({ path, payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.sendLinkTo(actor, path.id, payload ?? {})).pipe(
        Effect.map(({ purpose, staff }) => ({ purpose, admin: staffView(staff) })),
        admin
      ))
    .handle("signOut", () => Effect.flatMap(CurrentStaff, (m) => StaffAccess.signOut(m)).pipe(Effect.as({}), admin))
    .handle("changeEmail", ({ path, payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.changeEmail(actor, path.id, payload.email)).pipe(Effect.map(staffView), admin))
    .handle("listStaff", () =>
      Effect.flatMap(CurrentStaff, StaffAccess.listStaff).pipe(Effect.map((all) => ({ items: all.map(staffEntryView) })), admin))
    .handle("changeRole", ({ path, payload }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.changeRole(actor, path.id, payload.role)).pipe(Effect.map(staffView), admin))
    .handle("deactivateStaff", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.deactivate(actor, path.id)).pipe(Effect.map(staffView), admin))
    .handle("reactivateStaff", ({ path }) =>
      Effect.flatMap(CurrentStaff, (actor) => StaffAccess.reactivate(actor, path.id)).pipe(Effect.map(staffView), admin)))
