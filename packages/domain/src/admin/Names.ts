/**
 * People's names for the back office's lists: a page of tickets or audit rows names customers and
 * staff by id, and the console shows names. One lookup per page for every id on it (customers and
 * staff together), never one per row.
 */
import { Context, Effect } from "effect"

export class DisplayNames extends Context.Tag("domain/DisplayNames")<DisplayNames, {
  /**
   * The display name of each id that is a customer (by customer or account id) or a staff member:
   * "First Last", or their email while they have no name (a customer before KYC, the bootstrapped
   * superadmin). Ids that are neither are absent; ids that are not UUIDs are ignored.
   */
  readonly of: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string>>
}>() {}

/** The names of the ids on one page (each id asked once). */
export const namesOf = (ids: ReadonlyArray<string | null | undefined>) =>
  Effect.flatMap(DisplayNames, (d) => d.of([...new Set(ids.filter((id): id is string => typeof id === "string"))]))
