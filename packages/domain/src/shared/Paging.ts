/**
 * One page of a list: what a client asks for and what it gets.
 */

export interface PageRequest {
  /** 1-based */
  readonly page: number
  readonly pageSize: number
}

export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly page: number
  readonly pageSize: number
  /** rows across all pages */
  readonly total: number
}
