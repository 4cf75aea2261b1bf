import trendSchema from '../schemas/trend.schema.json' with { type: 'json' };

/**
 * The JSON Schema of the trend history, for editors and for tools that read the trend history. Importing it here
 * also puts `trend.schema.json` into the build, where `needlework/schemas/trend.schema.json` points.
 */
export const TREND_SCHEMA = trendSchema;
