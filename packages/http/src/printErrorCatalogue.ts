/**
 * `npm run docs:errors`: prints docs/errors.md, the error-code catalogue as a page (the npm script
 * writes it to that file; packages/http/test/Docs.test.ts fails when the file is out of date).
 */
import { errorCatalogueDocument } from "./ErrorCatalogueDoc.js"

process.stdout.write(errorCatalogueDocument)
