/** Names beside ids in the back office's views: one lookup per answer (StaffAccess.Names). */
import { StaffAccess } from "@app/domain"
import { Effect } from "effect"

export type Names = ReadonlyMap<string, string>

/** The name of `id`, null when it has none (or is null). */
export const nameOf = (names: Names, id: string | null): string | null => (id === null ? null : names.get(id) ?? null)

/** Looks up the names of the ids `idsOf` gives for `value`, then views it with them. */
export const named = <A, B>(idsOf: (value: A) => ReadonlyArray<string | null>, view: (value: A, names: Names) => B) =>
(value: A) => Effect.map(StaffAccess.Names.namesOf(idsOf(value)), (names) => view(value, names))
