/** The dollars of every view: the one formatter, in the domain so the web pages print the same text. */
export { formatUsd } from '../../domain/money.js';
