// The reports format checks as every other output does: one formatter, in src/checks.
export { checkValue, expectationText, formatValue, numericValue } from '../checks/format.js';
