/** `npm run docs:errors`: prints the error-code catalogue as the Markdown table the README shows. */
import { errorCatalogueMarkdown } from "./DomainErrors.js"

console.log(errorCatalogueMarkdown)
