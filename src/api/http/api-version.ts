/** The API's version, as the OpenAPI document, the MCP server and the A2A agent cards announce it. */
export const API_VERSION = '0.1.0';
