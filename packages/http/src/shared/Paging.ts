/**
 * The one paginated list shape of the API, shared by every list endpoint: query `page` (1-based,
 * default 1) and `pageSize` (1 to 100, default 20; larger is a 400), answered as
 * `{items, page, pageSize, total, totalPages}`. A page past the end has no items.
 */
import type { Page } from "@app/domain"
import { Option, Schema, SchemaAST } from "effect"
import { Body, msg } from "./Schemas.js"

export const PAGE_DEFAULT = 1
export const PAGE_MAX = 1_000_000_000
export const PAGE_SIZE_DEFAULT = 20
/** the largest page a client may ask for */
export const PAGE_SIZE_MAX = 100

/** A whole number in a query string, between min and max (plain decimal digits only). */
export const IntParam = (field: string, min: number, max: number) =>
  Schema.compose(
    Schema.String.annotations(msg(`${field} must be a whole number`)).pipe(
      Schema.pattern(/^[0-9]{1,12}$/, msg(`${field} must be a whole number`))
    ),
    Schema.NumberFromString
  ).pipe(
    Schema.int(msg(`${field} must be a whole number`)),
    Schema.greaterThanOrEqualTo(min, msg(`${field} must be at least ${min}`)),
    Schema.lessThanOrEqualTo(max, msg(`${field} must be at most ${max}`))
  )

/** The paging fields of a query string, to spread into a list endpoint's url params. */
export const pageFields = {
  page: Schema.optionalWith(
    IntParam("page", 1, PAGE_MAX).annotations({ description: `1-based page number (default ${PAGE_DEFAULT})`, examples: [1] }),
    { exact: true, default: () => PAGE_DEFAULT }
  ),
  pageSize: Schema.optionalWith(
    IntParam("pageSize", 1, PAGE_SIZE_MAX).annotations({
      description: `rows per page, 1 to ${PAGE_SIZE_MAX} (default ${PAGE_SIZE_DEFAULT}; ${PAGE_SIZE_MAX} is the maximum, larger is a 400)`,
      examples: [20]
    }),
    { exact: true, default: () => PAGE_SIZE_DEFAULT }
  )
}

/** page and pageSize alone. */
export const PageParams = Body(pageFields)

/** What a list endpoint answers: one page of `item`; its example (on /docs) is a first page of the item's. */
export const PageView = <A, I>(item: Schema.Schema<A, I>) => {
  const page = Schema.Struct({
    items: Schema.Array(item),
    page: Schema.Number,
    pageSize: Schema.Number,
    total: Schema.Number,
    totalPages: Schema.Number
  })
  return Option.match(SchemaAST.getExamplesAnnotation(item.ast), {
    onNone: () => page,
    onSome: ([first]) =>
      page.annotations({ examples: [{ items: [first as A], page: 1, pageSize: PAGE_SIZE_DEFAULT, total: 1, totalPages: 1 }] })
  })
}

/** A domain page as the wire shape, each item through `view`. */
export const pageView = <A, B>(page: Page<A>, view: (a: A) => B) => ({
  items: page.items.map(view),
  page: page.page,
  pageSize: page.pageSize,
  total: page.total,
  totalPages: Math.ceil(page.total / page.pageSize)
})
