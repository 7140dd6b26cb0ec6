/**
 * The provider of every runnable: CORE_BANKING_URL's provider, or else the sandbox bank in-process
 * (see `coreBankingLayer`). This package is the composition root: the only production code that
 * names the sandbox.
 */
import { coreBankingLayer } from "@app/adapters/corebanking/Provider"
import { EmbeddedSandbox } from "@app/sandbox"

export const CoreBankingLive = coreBankingLayer(EmbeddedSandbox)
